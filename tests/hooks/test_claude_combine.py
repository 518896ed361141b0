"""Claude Code's events combine by the rule ``claude``: answers are Claude Code hook outputs,
checked whole, then merged as the reference's runner does (deny > defer > ask > allow, any
block blocks, contexts joined), deterministically in dispatch order."""

import pytest

from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.hooks.combine import block_answer, combine

PRE = hook_point("PreToolUse")
BASH = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}}


def pre_tool_use(decision=None, reason=None, **specific):
    out = {"hookEventName": "PreToolUse", **specific}
    if decision:
        out["permissionDecision"] = decision
    if reason:
        out["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": out}


def run(point, *answers, payload=None):
    sources = [(f"plugin:h{i}", a) for i, a in enumerate(answers)]
    return combine(hook_point(point) if isinstance(point, str) else point,
                   payload or {}, sources)


def test_no_answer_is_the_empty_outcome():
    outcome, problems = run(PRE)
    assert outcome == {"blocked": False, "reason": None, "permissionDecision": None,
                       "permissionDecisionReason": None, "updatedInput": None,
                       "additionalContext": None, "continue": True, "stopReason": None,
                       "systemMessage": None}
    assert problems == []


@pytest.mark.parametrize(("decisions", "winner"), [
    (["allow", "ask"], "ask"), (["ask", "deny", "allow"], "deny"),
    (["allow", "defer"], "defer"), (["allow"], "allow"), (["deny", "defer"], "deny"),
])
def test_pre_tool_use_the_strongest_decision_wins(decisions, winner):
    outcome, _ = run(PRE, *[pre_tool_use(d, f"{d} {i}") for i, d in enumerate(decisions)])
    assert outcome["permissionDecision"] == winner
    assert outcome["blocked"] is (winner == "deny")
    assert outcome["permissionDecisionReason"] == f"{winner} {decisions.index(winner)}"


def test_reasons_of_several_denials_are_joined():
    outcome, _ = run(PRE, pre_tool_use("deny", "no rm"), pre_tool_use("allow", "fine"),
                     pre_tool_use("deny", "not on Fridays"))
    assert outcome["reason"] == outcome["permissionDecisionReason"] == "no rm\nnot on Fridays"


def test_updated_input_replaces_the_input_whole_and_the_last_one_wins():
    outcome, _ = run(PRE, pre_tool_use("allow", updatedInput={"command": "ls"}),
                     pre_tool_use("ask", updatedInput={"command": "ls -la"}))
    assert outcome["permissionDecision"] == "ask"
    assert outcome["updatedInput"] == {"command": "ls -la"}


def test_a_denied_call_drops_the_rewrite():
    outcome, _ = run(PRE, pre_tool_use("allow", updatedInput={"command": "ls"}),
                     pre_tool_use("deny", "no"))
    assert outcome["updatedInput"] is None and outcome["blocked"]


def test_legacy_decision_approve_and_block():
    outcome, _ = run(PRE, {"decision": "approve", "reason": "docs"})
    assert outcome["permissionDecision"] == "allow"
    outcome, _ = run(PRE, {"decision": "approve"}, {"decision": "block", "reason": "no"})
    assert (outcome["permissionDecision"], outcome["reason"]) == ("deny", "no")


def test_contexts_and_system_messages_of_every_answer_are_joined():
    outcome, _ = run(PRE, pre_tool_use(additionalContext="one"),
                     {"systemMessage": "careful"},
                     pre_tool_use(additionalContext="two"), {"systemMessage": "really"})
    assert outcome["additionalContext"] == "one\ntwo"
    assert outcome["systemMessage"] == "careful\nreally"


def test_continue_false_stops_claude_with_its_reasons():
    outcome, _ = run("Stop", {"continue": False, "stopReason": "build failed"},
                     {"continue": True}, {"continue": False, "stopReason": "tests too"})
    assert outcome["continue"] is False
    assert outcome["stopReason"] == "build failed\ntests too"


def test_stop_block_needs_a_reason():
    outcome, problems = run("Stop", {"decision": "block"})
    assert not outcome["blocked"]
    assert "needs a 'reason'" in problems[0]["message"]
    outcome, problems = run("Stop", {"decision": "block", "reason": "run the tests first"})
    assert outcome["blocked"] and outcome["reason"] == "run the tests first"
    assert problems == []


def test_an_invalid_answer_is_ignored_whole_and_reported():
    outcome, problems = run(PRE, pre_tool_use("block", "no rm"), pre_tool_use("ask", "hmm"))
    assert outcome["permissionDecision"] == "ask"
    (problem,) = problems
    assert problem["source"] == "plugin:h0"
    assert problem["message"] == ("PreToolUse: answer ignored: "
                                  "'hookSpecificOutput.permissionDecision' must be one of "
                                  "allow, deny, ask, defer, got 'block'")


def test_hook_event_name_must_name_the_event():
    outcome, problems = run(PRE, {"hookSpecificOutput": {"permissionDecision": "deny"}})
    assert not outcome["blocked"]
    assert "hookEventName' must be \"PreToolUse\", got missing" in problems[0]["message"]
    _, problems = run(PRE, {"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                   "permissionDecision": "deny"}})
    assert "got 'PostToolUse'" in problems[0]["message"]


def test_keys_an_event_does_not_read_are_reported_not_fatal():
    outcome, problems = run("Stop", {"decision": "block", "reason": "go on",
                                     "hookSpecificOutput": {"hookEventName": "Stop",
                                                            "updatedInput": {}}})
    assert outcome["blocked"]
    assert problems[0]["message"] == ("Stop: 'hookSpecificOutput.updatedInput' does nothing "
                                      "on Stop (it reads additionalContext); ignored")


def test_a_top_level_additional_context_is_not_the_protocol():
    outcome, problems = run("UserPromptSubmit", {"additionalContext": "x"})
    assert outcome["additionalContext"] is None
    assert "unknown answer key 'additionalContext'" in problems[0]["message"]


def test_permission_request_deny_beats_allow():
    def decision(**d):
        return {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": d}}
    outcome, _ = run("PermissionRequest", decision(behavior="allow"),
                     decision(behavior="deny", message="not here", interrupt=True))
    assert outcome["decision"] == {"behavior": "deny", "message": "not here",
                                   "interrupt": True}
    outcome, _ = run("PermissionRequest", decision(behavior="allow",
                                                   updatedInput={"command": "ls"}))
    assert outcome["decision"] == {"behavior": "allow", "updatedInput": {"command": "ls"}}


def test_session_start_context_and_watch_paths():
    def start(**s):
        return {"hookSpecificOutput": {"hookEventName": "SessionStart", **s}}
    outcome, _ = run("SessionStart", start(additionalContext="git: clean",
                                           watchPaths=["/a", "/b"]),
                     start(watchPaths=["/b", "/c"], sessionTitle="parser"))
    assert outcome["additionalContext"] == "git: clean"
    assert outcome["watchPaths"] == ["/a", "/b", "/c"]
    assert outcome["sessionTitle"] == "parser"


def test_config_change_from_managed_policy_cannot_be_refused():
    outcome, _ = run("ConfigChange", {"decision": "block", "reason": "no"},
                     payload={"source": "policy_settings"})
    assert not outcome["blocked"]
    outcome, _ = run("ConfigChange", {"decision": "block", "reason": "no"},
                     payload={"source": "project_settings"})
    assert outcome["blocked"]


@pytest.mark.parametrize("name", CLAUDE_EVENTS)
def test_block_answer_blocks_every_event_that_can_be_blocked(name):
    point = HOOK_POINTS[name]
    answer = block_answer(point, "hook failed: plugin:x")
    if not CLAUDE_EVENTS[name].blocks:
        assert answer is None
        return
    outcome, problems = combine(point, {}, [("plugin:x", answer)])
    assert problems == []
    assert outcome["blocked"] is True
    assert outcome["reason"] == "hook failed: plugin:x"


def test_block_answer_of_harness_points():
    assert block_answer(hook_point("pre_tool"), "m") == {"block": True, "message": "m"}
    assert block_answer(hook_point("post_tool"), "m") is None
