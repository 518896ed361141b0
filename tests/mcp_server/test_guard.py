"""The guard tool ``harness_hook`` over MCP: a host's hook event answered with the home's
guards, in the JSON the host reads from an ``mcp_tool`` hook (a deny is a decision, never a
tool error; arguments that are no event are a tool error)."""

from __future__ import annotations

import json

from tests.mcp_server.mcp_helpers import run, stdio_client

#: a cross-host guard: pre_tool says what kind of tool a host's tool is (Claude Code's
#: Bash, Codex's shell: "shell")
NO_SHELL = """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (payload)
    (let ((kind (assoc "tool" payload)))
      (if (and kind (equal? (cdr kind) "shell"))
          (list (cons "block" #t) (cons "message" "no shell here"))
          '()))))
"""
BASH = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}, "cwd": "/tmp"}


def _calls(home, *calls):
    (home / "tools" / "no_shell.scm").write_text(NO_SHELL)

    async def scenario():
        async with stdio_client(home) as client:
            return [await client.call_tool("harness_hook", args) for args in calls]
    return run(scenario)


def test_a_denied_event_is_answered_with_the_hosts_deny(home):
    whole, as_text, as_fields, allowed = _calls(
        home, {"event": BASH}, {"event": json.dumps(BASH)},
        {**BASH, "tool_input": json.dumps(BASH["tool_input"])},  # ${tool_input} as text
        {**BASH, "tool_name": "Read", "tool_input": {"file_path": "/tmp/x"}})
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                   "permissionDecision": "deny",
                                   "permissionDecisionReason": "no shell here"}}
    for result in (whole, as_text, as_fields):
        assert not result.is_error
        assert json.loads(result.content[0].text) == deny
    assert not allowed.is_error and json.loads(allowed.content[0].text) == {}


def test_codex_events_are_answered_as_codex_expects(home):
    shell = {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "shell",
             "tool_input": {"command": ["rm", "-rf", "build"]}, "cwd": "/tmp",
             "turn_id": "t1", "model": "gpt"}
    [denied] = _calls(home, {"host": "codex", "event": shell})
    assert not denied.is_error
    assert json.loads(denied.content[0].text)["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "no shell here"}


def test_arguments_that_are_no_event_are_a_tool_error(home):
    empty, not_json, unknown, no_host = _calls(
        home, {}, {"event": "{not json"}, {"hook_event_name": "PreToolUs"},
        {"host": "claud-code", "event": BASH})
    assert empty.is_error and "no hook event given" in empty.content[0].text
    assert not_json.is_error and "event is not JSON" in not_json.content[0].text
    assert unknown.is_error and "did you mean 'PreToolUse'" in unknown.content[0].text
    assert no_host.is_error and "unknown host 'claud-code'" in no_host.content[0].text
