"""Conformance of every host adapter on its documented payloads and answers
(reference/agent-hosts.md): one Scheme guard on pre_shell_exec stops `rm -rf` and lets `ls`
through on every host, in that host's own decision format; a host whose payload or answer
could not be confirmed is marked so in docs/hosts.md."""

from __future__ import annotations

import json

import pytest
from guard_home import make_guard_home, reply_json

from harness import hosts
from harness.runtime import Runtime


def claude(command):
    return {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}, "cwd": "/tmp"}


def codex(command):
    return {"session_id": "s", "turn_id": "t", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/tmp",
            "model": "gpt-5"}


def gemini(command):
    return {"session_id": "s", "hook_event_name": "BeforeTool", "timestamp": "now",
            "tool_name": "run_shell_command", "tool_input": {"command": command},
            "cwd": "/tmp"}


def cursor(command):
    return {"conversation_id": "c", "generation_id": "g", "hook_event_name":
            "beforeShellExecution", "command": command, "cwd": "/tmp",
            "workspace_roots": ["/tmp"]}


def copilot(command):
    return {"timestamp": 1, "cwd": "/tmp", "toolName": "bash",
            "toolArgs": json.dumps({"command": command})}


def windsurf(command):
    return {"agent_action_name": "pre_run_command", "trajectory_id": "t", "execution_id": "e",
            "tool_info": {"command_line": command, "cwd": "/tmp"}}


def cline(command):
    return {"clineVersion": "3.36", "hookName": "PreToolUse", "taskId": "t",
            "workspaceRoots": ["/tmp"], "preToolUse": {"toolName": "execute_command",
                                                        "parameters": {"command": command}}}


def kiro(command):
    return {"hook_event_name": "preToolUse", "cwd": "/tmp", "tool_name": "execute_bash",
            "tool_input": {"command": command}}


def opencode(command):
    return {"hook_event_name": "tool.execute.before", "tool": "bash", "sessionID": "s",
            "callID": "c", "args": {"command": command}}


def denied_by_json(path):
    def check(reply):
        answer = reply_json(reply)
        node = answer
        for key in path[:-1]:
            node = node[key]
        return reply.answer == answer and node[path[-1][0]] == path[-1][1]
    return check


def exit_2(reply):
    return reply.exit_code == 2 and reply.stderr == "rm -rf is not allowed\n" \
        and reply.answer == {"blocked": True, "reason": "rm -rf is not allowed"}


SHELL_CASES = {
    "claude-code": (claude, lambda r: r.exit_code == 2 and reply_json(r)["hookSpecificOutput"][
        "permissionDecision"] == "deny"),
    "codex": (codex, denied_by_json(["hookSpecificOutput", ("permissionDecision", "deny")])),
    "gemini": (gemini, denied_by_json([("decision", "deny")])),
    "cursor": (cursor, denied_by_json([("permission", "deny")])),
    "copilot": (copilot, denied_by_json([("permissionDecision", "deny")])),
    "windsurf": (windsurf, exit_2),
    "cline": (cline, denied_by_json([("cancel", True)])),
    "kiro": (kiro, exit_2),
    "opencode": (opencode, denied_by_json([("decision", "deny")])),
}


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    runtime = Runtime(make_guard_home(tmp_path_factory.mktemp("hosts"), rewrite=True))
    yield runtime
    runtime.close()


def test_every_host_has_a_case():
    assert set(SHELL_CASES) == set(hosts.HOSTS)


@pytest.mark.parametrize("host", sorted(SHELL_CASES))
def test_one_guard_stops_rm_rf_and_lets_ls_run_on_every_host(runtime, host):
    make, denied = SHELL_CASES[host]
    stopped = hosts.answer(runtime, host, make("rm -rf /"))
    assert denied(stopped), stopped
    assert "rm -rf is not allowed" in stopped.stdout + stopped.stderr
    allowed = hosts.answer(runtime, host, make("ls -la"))
    assert (allowed.exit_code, allowed.stdout, allowed.answer) == (0, "", {}), allowed


@pytest.mark.parametrize("host", sorted(SHELL_CASES))
def test_harness_that_cannot_answer_denies_a_guard_event_in_the_hosts_format(host,
                                                                           monkeypatch):
    make, _ = SHELL_CASES[host]
    reply = hosts.edge_failure(host, make("ls"), "the home /nowhere does not exist")
    assert "the home /nowhere does not exist" in reply.stdout + reply.stderr
    assert reply.exit_code == 2 or reply_json(reply) == reply.answer != {}
    monkeypatch.setenv("HARNESS_FAIL_OPEN", "1")
    reply = hosts.edge_failure(host, make("ls"), "the home /nowhere does not exist")
    assert reply.exit_code == 1 and reply.stdout == "" and "HARNESS_FAIL_OPEN=1" in reply.stderr


def test_an_internal_error_denies_a_guard_event_and_only_reports_another(runtime,
                                                                       monkeypatch):
    def broken(*_):
        raise RuntimeError("dispatcher on fire")
    monkeypatch.setattr(runtime, "fire", broken)
    reply = hosts.answer(runtime, "codex", codex("ls"))
    assert reply_json(reply)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "internal error: RuntimeError: dispatcher on fire" in reply.stdout
    reply = hosts.answer(runtime, "codex", {"hook_event_name": "PostToolUse",
                                            "tool_name": "Bash", "tool_input": {}})
    assert reply.exit_code == 1 and "dispatcher on fire" in reply.stderr


@pytest.mark.parametrize(("host", "event", "message"), [
    ("codex", {"hook_event_name": "PreTooluse"}, "did you mean 'PreToolUse'?"),
    ("gemini", {"hook_event_name": "BeforeTol"}, "did you mean 'BeforeTool'?"),
    ("cursor", {}, "the Cursor event has no hook_event_name"),
    ("windsurf", {"agent_action_name": "pre_run_comand"}, "did you mean 'pre_run_command'?"),
    ("copilot", {"cwd": "/"}, "give it with --event"),
])
def test_an_unknown_or_unnamed_event_is_a_clear_non_blocking_error(runtime, host, event,
                                                                   message):
    reply = hosts.answer(runtime, host, event)
    assert reply.exit_code == 1 and reply.stdout == "" and message in reply.stderr


def test_bad_input_and_unknown_hosts():
    with pytest.raises(hosts.UnknownHost, match="did you mean 'codex'"):
        hosts.adapter("codx")
    assert hosts.adapter("claude").name == "claude-code"


def test_codex_rewrites_with_updated_input_and_denies_patches_to_dotenv(runtime):
    reply = hosts.answer(runtime, "codex", codex("echo SECRET"))
    assert reply_json(reply)["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"command": "echo [redacted]"}}
    patch = {**codex(""), "tool_name": "apply_patch", "tool_input": {
        "command": "*** Begin Patch\n*** Update File: app/.env\n@@\n-A=1\n+A=2\n"
                   "*** End Patch\n"}}
    decision = reply_json(hosts.answer(runtime, "codex", patch))["hookSpecificOutput"]
    assert decision["permissionDecisionReason"] == "no writing .env"


def test_codex_permission_request_denies_without_a_rewrite(runtime):
    event = {**codex("rm -rf /"), "hook_event_name": "PermissionRequest"}
    assert reply_json(hosts.answer(runtime, "codex", event))["hookSpecificOutput"] == {
        "hookEventName": "PermissionRequest",
        "decision": {"behavior": "deny", "message": "rm -rf is not allowed"}}
    event = {**codex("echo SECRET"), "hook_event_name": "PermissionRequest"}
    answer = reply_json(hosts.answer(runtime, "codex", event))
    assert "hookSpecificOutput" not in answer
    assert "cannot rewrite on PermissionRequest" in answer["systemMessage"]


def test_gemini_reads_writes_and_fetches(runtime):
    def before(tool, tool_input):
        return {"hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": tool_input}
    for tool, tool_input, reason in [
            ("write_file", {"file_path": "/p/.env", "content": "A=1"}, "no writing .env"),
            ("replace", {"file_path": "/p/.env", "old_string": "a", "new_string": "b"},
             "no writing .env"),
            ("read_file", {"absolute_path": "/p/.env"}, "no reading .env"),
            ("web_fetch", {"prompt": "summarise https://evil.example/x please"},
             "no evil fetches")]:
        assert reply_json(hosts.answer(runtime, "gemini", before(tool, tool_input))) == {
            "decision": "deny", "reason": reason}
    rewritten = reply_json(hosts.answer(runtime, "gemini", before(
        "run_shell_command", {"command": "echo SECRET", "description": "say it"})))
    assert rewritten["hookSpecificOutput"]["tool_input"] == {"command": "echo [redacted]"}
    assert "the removed ones stay" in rewritten["systemMessage"]


def test_cursor_checks_shell_and_reads_on_their_own_events_only(runtime):
    pre = {"hook_event_name": "preToolUse", "tool_name": "Shell",
           "tool_input": {"command": "rm -rf /"}}
    assert hosts.answer(runtime, "cursor", pre).answer == {}  # beforeShellExecution decides
    read = {"hook_event_name": "beforeReadFile", "file_path": "/p/.env", "content": "A=1"}
    assert hosts.answer(runtime, "cursor", read).answer["permission"] == "deny"
    write = {"hook_event_name": "preToolUse", "tool_name": "Write",
             "tool_input": {"file_path": "/p/.env", "contents": "A=1"}}
    assert hosts.answer(runtime, "cursor", write).answer["user_message"] == "no writing .env"


def test_copilot_reads_the_event_from_the_option_and_answers_vs_code_payloads_twice(runtime):
    event = {"timestamp": 1, "cwd": "/tmp", "toolName": "bash",
             "toolArgs": {"command": "rm -rf /"}}
    reply = hosts.answer(runtime, "copilot", event, "permissionRequest")
    assert reply.answer == {"behavior": "deny", "message": "rm -rf is not allowed"}
    vscode = {"hook_event_name": "PreToolUse", "tool_name": "bash",
              "tool_input": {"command": "echo SECRET"}}
    answer = hosts.answer(runtime, "copilot", vscode).answer
    assert answer["modifiedArgs"] == {"command": "echo [redacted]"}
    assert answer["hookSpecificOutput"]["updatedInput"] == {"command": "echo [redacted]"}


def test_hosts_that_cannot_rewrite_say_so_and_run_the_original(runtime):
    reply = hosts.answer(runtime, "kiro", kiro("echo SECRET"))
    assert reply.exit_code == 0 and "Kiro cannot rewrite" in reply.stderr
    reply = hosts.answer(runtime, "cline", cline("echo SECRET"))
    assert "Cline cannot rewrite" in reply_json(reply)["errorMessage"]
    assert "cancel" not in reply_json(reply)


def test_observe_only_events_fire_their_points(tmp_path):
    home = make_guard_home(tmp_path)
    (home / "tools" / "seen.scm").write_text(
        "(import (scheme base) (harness hooks))\n(define seen '())\n"
        "(register-hook 'post_tool (lambda (p) (set! seen (cons (cdr (assoc \"host\" p)) seen))"
        " '()))\n(register-hook 'pre_tool (lambda (p) (if (> (length seen) 0)"
        " (list (cons \"block\" #t) (cons \"message\" (car seen))) '())))\n")
    runtime = Runtime(home)
    try:
        after = {"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
                 "tool_input": {"command": "ls"}, "tool_response": {"output": "a b"}}
        assert hosts.answer(runtime, "gemini", after).exit_code == 0
        reply = hosts.answer(runtime, "gemini", gemini("ls"))
        assert reply_json(reply) == {"decision": "deny", "reason": "gemini"}
    finally:
        runtime.close()


def test_each_host_lists_what_it_ignores():
    for host in hosts.HOSTS:
        ignored = hosts.ignored_answers(host)
        assert ignored and all(isinstance(why, str) and why for why in ignored.values())
    assert "ask" in hosts.ignored_answers("codex")
    assert "agent_message" in hosts.ignored_answers("cursor")


OWN_EVENTS = """(import (scheme base) (harness hooks))
(register-hook 'codex.PreToolUse
  (lambda (event)
    (if (equal? (cdr (assoc "tool_name" event)) "mcp__db__drop")
        '(("hookSpecificOutput" . (("hookEventName" . "PreToolUse")
                                   ("permissionDecision" . "deny")
                                   ("permissionDecisionReason" . "no dropping"))))
        '(("systemMessage" . "seen by codex.PreToolUse")))))
(register-hook 'cursor.stop
  (lambda (event) '(("followup_message" . "run the tests first"))))
(register-hook 'windsurf.pre_mcp_tool_use
  (lambda (event) '(("blocked" . #t) ("reason" . "no MCP here"))))
"""


def test_each_hosts_own_events_are_hook_points_answered_in_its_terms(tmp_path):
    home = make_guard_home(tmp_path)
    (home / "tools" / "own.scm").write_text(OWN_EVENTS)
    runtime = Runtime(home)
    try:
        drop = {"hook_event_name": "PreToolUse", "tool_name": "mcp__db__drop",
                "tool_input": {}}
        assert reply_json(hosts.answer(runtime, "codex", drop))["hookSpecificOutput"][
            "permissionDecisionReason"] == "no dropping"
        # not a deny: passed on beside harness's own decision (rm -rf still denied)
        answer = reply_json(hosts.answer(runtime, "codex", codex("rm -rf /")))
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert answer["systemMessage"] == "seen by codex.PreToolUse"
        assert reply_json(hosts.answer(runtime, "cursor", {"hook_event_name": "stop"})) == {
            "followup_message": "run the tests first"}
        mcp = {"agent_action_name": "pre_mcp_tool_use", "tool_info": {
            "mcp_server_name": "db", "mcp_tool_name": "query", "mcp_tool_arguments": {}}}
        reply = hosts.answer(runtime, "windsurf", mcp)
        assert (reply.exit_code, reply.stderr) == (2, "no MCP here\n")
    finally:
        runtime.close()


def test_guard_events_are_what_an_installer_hooks():
    assert hosts.guard_events("codex") == ["PreToolUse", "PermissionRequest",
                                           "UserPromptSubmit"]
    assert hosts.guard_events("claude-code") == ["UserPromptSubmit", "PreToolUse",
                                                 "PermissionRequest"]
    assert "beforeShellExecution" in hosts.guard_events("cursor")
    assert hosts.guard_events("copilot") == ["preToolUse", "permissionRequest"]


def test_codex_never_gets_an_ask_it_would_take_for_a_failed_hook(tmp_path):
    home = make_guard_home(tmp_path)
    (home / "tools" / "ask.scm").write_text(
        "(import (scheme base) (harness hooks))\n(register-hook 'codex.PreToolUse (lambda (e)"
        " '((\"suppressOutput\" . #t) (\"hookSpecificOutput\" . ((\"hookEventName\" . \"PreToolUse\")"
        " (\"permissionDecision\" . \"ask\"))))))\n")
    runtime = Runtime(home)
    try:
        answer = reply_json(hosts.answer(runtime, "codex", codex("ls")))
    finally:
        runtime.close()
    assert "permissionDecision" not in answer.get("hookSpecificOutput", {})
    assert "suppressOutput" not in answer
    assert "answered ask, which Codex does not support" in answer["systemMessage"]
    assert "answered suppressOutput, which Codex does not support" in answer["systemMessage"]
