"""The hook catalogue: all 34 points of SPEC §2, in order, then Claude Code's 31 events
(SPEC §13), with usable samples."""

import pytest

from harness.hooks.catalogue import HOOK_POINTS, HookPoint, UnknownHookError, hook_point
from harness.hooks.combine import COMBINE_RULES

SPEC_ORDER = [
    "on_start", "on_end", "on_context_switch", "pre_message", "post_message",
    "pre_system_prompt", "post_system_prompt", "pre_tool", "post_tool", "pre_tool_output",
    "post_tool_output", "pre_api_tools", "pre_api_request", "pre_agentic_loop",
    "post_tool_batch", "pre_file_read", "pre_file_write", "pre_shell_exec", "pre_fetch_url",
    "pre_spawn_agent", "post_spawn_agent", "pre_cache_output", "post_cache_output",
    "pre_send_message", "post_send_message", "post_index_file", "pre_vfs_write",
    "post_vfs_write", "pre_clear", "post_clear", "pre_compact", "post_compact",
    "pre_rolling_compact", "post_rolling_compact",
]


CLAUDE_ORDER = [
    "SessionStart", "Setup", "InstructionsLoaded", "UserPromptSubmit", "UserPromptExpansion",
    "MessageDisplay", "PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse",
    "PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart", "SubagentStop",
    "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle", "ConfigChange",
    "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove",
    "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "SessionEnd",
]


def test_all_34_points_in_spec_order_then_claude_codes_31_events_then_other_hosts():
    from harness.hooks.host_events import HOST_EVENTS
    hosts = [f"{host}.{event}" for host, events in HOST_EVENTS.items() for event in events]
    assert list(HOOK_POINTS) == SPEC_ORDER + CLAUDE_ORDER + hosts
    assert len(HOOK_POINTS) == 34 + 31 + len(hosts)
    assert "codex.PreToolUse" in hosts and "cursor.beforeShellExecution" in hosts


@pytest.mark.parametrize("point", HOOK_POINTS.values(), ids=lambda p: p.name)
def test_every_point_is_complete(point: HookPoint):
    assert point.combine in COMBINE_RULES
    assert point.doc and "\n" not in point.doc
    assert set(point.sample) == set(point.fields), "the sample carries exactly the fields"
    if point.combine == "host":  # a host's own event: its answers are the host's output
        assert point.answer_keys == () and point.name.count(".") >= 1
        return
    assert point.can_modify == (point.combine not in ("observe", "advisory"))
    assert bool(point.answer_keys) == point.can_modify


def test_rules_of_some_points():
    assert hook_point("pre_tool").combine == "tool_call"
    assert hook_point("pre_tool").answer_keys == ("block", "message", "arguments")
    assert {p.name for p in HOOK_POINTS.values() if p.combine == "permission"} == {
        "pre_file_read", "pre_file_write", "pre_shell_exec", "pre_fetch_url"}
    assert hook_point("pre_vfs_write").combine == "advisory"
    assert not hook_point("pre_vfs_write").can_modify
    assert "chibi_home" in hook_point("on_start").fields  # kept for existing plugins


def test_sample_payload_is_a_private_copy():
    point = hook_point("pre_api_tools")
    sample = point.sample_payload()
    sample["tools"].clear()
    assert point.sample_payload()["tools"], "mutating a copy leaves the catalogue alone"


def test_hook_point_is_hashable_and_frozen():
    point = hook_point("pre_message")
    assert {point: 1}[point] == 1
    with pytest.raises(AttributeError):
        point.name = "x"


@pytest.mark.parametrize(("wrong", "suggested"), [
    ("pre_tools", "pre_tool"), ("pre-message", "pre_message"), ("onstart", "on_start"),
    ("PRE_SHELL_EXEC", "pre_shell_exec"), ("post_tool_batches", "post_tool_batch"),
    ("PreToolUs", "PreToolUse"), ("pre_tool_use", "PreToolUse"), ("Precompact", "PreCompact"),
    ("precompact", "pre_compact"), ("userpromptsubmit", "UserPromptSubmit"),
])
def test_unknown_name_suggests_the_closest(wrong, suggested):
    with pytest.raises(UnknownHookError) as info:
        hook_point(wrong)
    assert str(info.value) == f"unknown hook point '{wrong}'; did you mean '{suggested}'?"
    assert isinstance(info.value, ValueError)


def test_unknown_name_without_a_close_one():
    with pytest.raises(UnknownHookError, match=r"^unknown hook point 'zzz'$"):
        hook_point("zzz")
    with pytest.raises(UnknownHookError):
        hook_point(None)
