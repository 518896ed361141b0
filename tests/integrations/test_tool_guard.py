"""One tool call in front of a Runtime (harness.integrations.tool_guard), no framework."""

from __future__ import annotations

from harness.integrations.tool_guard import ToolGuard, result_text
from harness.runtime import Runtime


def test_a_permission_point_nobody_answers_is_no_decision(tmp_path):
    with Runtime(tmp_path, load_plugins=False) as rt:
        verdict = ToolGuard(rt, "test").check("bash", {"command": "rm -rf /"})
    assert not verdict.blocked and verdict.arguments == {"command": "rm -rf /"}


def test_the_runtimes_permission_handler_decides_what_no_hook_denied(tmp_path):
    asked = []

    def handler(point, payload):
        asked.append((point, payload["command"]))
        return False, "the host says no"

    with Runtime(tmp_path, load_plugins=False, permission_handler=handler) as rt:
        verdict = ToolGuard(rt, "test").check("bash", {"command": "ls"})
    assert verdict.blocked and verdict.reason == "the host says no"
    assert asked == [("pre_shell_exec", "ls")]


def test_pre_tool_blocks_before_any_permission_point(guarded):
    denied = []
    guarded.register_hook("pre_tool", lambda p: {"block": True, "message": "no tools today"})
    guarded.register_hook("pre_shell_exec", lambda p: denied.append(p))
    verdict = ToolGuard(guarded, "test").check("bash", {"command": "ls"})
    assert (verdict.blocked, verdict.reason, denied) == (True, "no tools today", [])


def test_the_host_is_named_in_pre_tool(guarded):
    seen = []
    guarded.register_hook("pre_tool", lambda p: seen.append(p["host"]))
    ToolGuard(guarded, "some-framework").check("greet", {"name": "x"})
    assert seen == ["some-framework"]


def test_a_rewrite_is_reported_as_one(guarded):
    verdict = ToolGuard(guarded, "test").check("greet", {"name": "mallory"})
    assert verdict.rewritten and verdict.arguments == {"name": "harness"}
    assert not ToolGuard(guarded, "test").check("bash", {"command": "ls"}).rewritten


def test_result_text():
    assert result_text("a") == "a"
    assert result_text({"n": 1}) == '{"n":1}'
    assert result_text(object()).startswith("<object")


def test_after_hands_back_the_result_itself_unless_a_hook_replaced_it(guarded):
    guard = ToolGuard(guarded, "test")
    result = {"rows": 3}
    assert guard.after("query", {}, result) is result
    assert guarded.seen_post_tool == [("query", {}, '{"rows":3}')]
    guarded.register_hook("pre_tool_output", lambda p: {"output": p["output"] + "!"})
    assert guard.after("query", {}, result) == '{"rows":3}!'
