"""``harness claude-hook``: real Claude Code hook scripts (bash and Python) run as declared
handlers, and the answer comes back exactly as a Claude Code command hook gives it."""

import json
import os
import time
from pathlib import Path

import pytest
from claude_helpers import (
    answer_of,
    bash,
    command,
    event,
    group,
    make_home,
    run_claude_hook,
    script,
    settings_file,
)


def toml_handlers(event_name: str, matcher: str | None, *commands: str, **fields) -> str:
    """hooks.toml text: one matcher group of `event_name` with command handlers."""
    text = f"[[{event_name}]]\n" + (f"matcher = {json.dumps(matcher)}\n" if matcher else "")
    for cmd in commands:
        text += f"[[{event_name}.hooks]]\ntype = \"command\"\ncommand = {json.dumps(cmd)}\n"
        text += "".join(f"{k} = {json.dumps(v)}\n" for k, v in fields.items())
    return text


@pytest.fixture
def claude_hook(capsys, monkeypatch):
    def run(home: Path, payload, *extra):
        return run_claude_hook(home, payload, capsys, monkeypatch, *extra)
    return run


# -- exit codes and JSON decisions ---------------------------------------------------------

def test_exit_2_blocks_with_stderr_as_the_reason(tmp_path, claude_hook):
    home = make_home(tmp_path, toml_handlers("PreToolUse", "Bash", script("no_rm_rf.sh")))
    code, out, err = claude_hook(home, bash("rm -rf build"))
    assert code == 2
    assert err == "rm -rf is not allowed here\n"
    assert answer_of(out)["hookSpecificOutput"]["permissionDecision"] == "deny"
    code, out, err = claude_hook(home, bash("ls -la"))
    assert (code, out, err) == (0, "", "")


@pytest.mark.parametrize(("cmd", "expected"), [
    ("deny: no deploys on Friday", {"permissionDecision": "deny",
                                    "permissionDecisionReason": "denied: no deploys on Friday"}),
    ("ask: rm build", {"permissionDecision": "ask", "permissionDecisionReason": "please confirm"}),
    ("rewrite: npm test --silent", {"permissionDecision": "allow",
                                    "updatedInput": {"command": "npm test --silent"}}),
])
def test_json_deny_ask_allow_with_updated_input(tmp_path, claude_hook, cmd, expected):
    home = make_home(tmp_path, toml_handlers("PreToolUse", "Bash", script("decide.py")))
    code, out, err = claude_hook(home, bash(cmd))
    assert code == (2 if expected["permissionDecision"] == "deny" else 0)
    assert answer_of(out) == {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                     **expected}}
    if code == 2:
        assert err == expected["permissionDecisionReason"] + "\n"


def test_prompt_blocking_and_context(tmp_path, claude_hook):
    home = make_home(tmp_path, toml_handlers("UserPromptSubmit", None,
                                             script("prompt_guard.py")))
    code, out, err = claude_hook(home, event("UserPromptSubmit", prompt="my password is 42"))
    assert code == 2
    assert err == "prompts must not carry passwords\n"
    assert answer_of(out) == {"decision": "block", "reason": "prompts must not carry passwords"}
    code, out, _ = claude_hook(home, event("UserPromptSubmit", prompt="add a test"))
    assert code == 0
    assert answer_of(out) == {"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit",
        "additionalContext": "Project rule: answer in English. (10 characters)"}}


def test_stop_blocks_until_stop_hook_active(tmp_path, claude_hook):
    home = make_home(tmp_path, toml_handlers("Stop", None, script("stop_gate.py")))
    stop = event("Stop", stop_hook_active=False, last_assistant_message="Done.",
                 background_tasks=[], session_crons=[])
    code, out, err = claude_hook(home, stop)
    assert (code, err) == (2, "Run the test suite before you stop.\n")
    assert answer_of(out) == {"decision": "block",
                              "reason": "Run the test suite before you stop."}
    code, out, err = claude_hook(home, {**stop, "stop_hook_active": True})
    assert (code, out, err) == (0, "", "")


def test_valid_json_on_another_exit_code_still_decides(tmp_path, claude_hook):
    home = make_home(tmp_path, toml_handlers("PreToolUse", None,
                                             script("misbehave.py", "json-exit-1")))
    code, _out, err = claude_hook(home, bash("ls"))
    assert code == 2 and err == "valid JSON decides\n"


# -- matchers -------------------------------------------------------------------------------

@pytest.mark.parametrize(("matcher", "tool", "runs"), [
    ("Bash", "Bash", True), ("Bash", "BashOutput", False),
    ("Edit|Write", "Write", True), ("Edit, Write", "Edit", True),
    ("Edit|Write", "NotebookEdit", False), ("Edit.*", "NotebookEdit", True),
    ("^Edit$", "NotebookEdit", False), ("mcp__memory__.*", "mcp__memory__store", True),
    ("mcp__memory", "mcp__memory__store", False), ("*", "Anything", True),
    ("bash", "Bash", False),
])
def test_matcher_selection(tmp_path, claude_hook, matcher, tool, runs):
    home = make_home(tmp_path, toml_handlers("PreToolUse", matcher,
                                             "echo 'matched' >&2; exit 2"))
    code, _, _ = claude_hook(home, event("PreToolUse", tool_name=tool, tool_input={}))
    assert code == (2 if runs else 0)


# -- what a handler is given ---------------------------------------------------------------

def test_a_handler_gets_stdin_cwd_and_claude_project_dir(tmp_path, claude_hook, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    home = make_home(tmp_path, toml_handlers("PreToolUse", None, script("report_env.py")))
    _code, out, _ = claude_hook(home, bash("ls", cwd=str(project)))
    seen = json.loads(answer_of(out)["hookSpecificOutput"]["additionalContext"])
    assert seen == {"cwd": str(project), "project": str(project), "event": "PreToolUse",
                    "tty": False}


# -- timeouts and misbehaving handlers --------------------------------------------------------

def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as f:  # a zombie waiting for init is as good as gone
        return f.read().split(") ")[1].startswith("Z")


def test_a_timeout_kills_the_process_group_and_does_not_block(tmp_path, claude_hook):
    pid_file = tmp_path / "grandchild.pid"
    home = make_home(tmp_path, toml_handlers("PreToolUse", None,
                                             script("misbehave.py", "hang", str(pid_file)),
                                             timeout=0.5))
    code, out, err = claude_hook(home, bash("ls"))
    assert code == 0
    assert "timed out after 0.5 s" in answer_of(out)["systemMessage"]
    assert "timed out after 0.5 s; its process group was killed" in err
    deadline = time.monotonic() + 5
    while not _gone(int(pid_file.read_text())) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _gone(int(pid_file.read_text())), "the handler's own child was killed too"


@pytest.mark.parametrize(("how", "message"), [
    ("crash", "failed with non-blocking status code 1: Traceback"),
    ("garbage", None),
    ("flood", "output exceeded 4194304 bytes; its process group was killed"),
])
def test_misbehaving_handlers_are_non_blocking_and_reported(tmp_path, claude_hook, how,
                                                            message):
    home = make_home(tmp_path, toml_handlers("PreToolUse", None, script("misbehave.py", how),
                                             script("no_rm_rf.sh")))
    code, out, err = claude_hook(home, bash("rm -rf /"))
    assert code == 2, "the other guard still blocks"
    assert err == "rm -rf is not allowed here\n"
    code, out, err = claude_hook(home, bash("ls"))
    assert code == 0
    if message is None:  # garbage on exit 0 is plain text: Claude Code only logs it
        assert out == ""
    else:
        assert message in answer_of(out)["systemMessage"]


# -- sources: precedence, de-duplication, kill switch, managed-only ---------------------------

def test_two_settings_files_merge_and_identical_handlers_run_once(tmp_path, claude_hook):
    log = tmp_path / "runs.log"
    counted = command(script("misbehave.py", "count", str(log)))
    user = settings_file(tmp_path / "user.json", {"PreToolUse": [group(counted)]})
    project = settings_file(tmp_path / "project" / ".claude" / "settings.json", {
        "PreToolUse": [group(counted, matcher="Bash"),
                       group(command(script("no_rm_rf.sh")), matcher="Bash")]})
    home = make_home(tmp_path, harness_toml=f"""
        [hooks]
        claude_settings = ["{user}", ".claude/settings.json"]
        project_dir = "{project.parent.parent}"
    """.replace("\n        ", "\n"))
    code, _, err = claude_hook(home, bash("rm -rf /"))
    assert (code, err) == (2, "rm -rf is not allowed here\n"), "the project file's guard runs"
    assert len(log.read_text().split()) == 1, "the handler in both files ran once"


def test_disable_all_hooks_switches_handlers_off_but_not_scheme_hooks(tmp_path, claude_hook):
    user = settings_file(tmp_path / "user.json", {"PreToolUse": [group(command(
        script("no_rm_rf.sh")))]}, disableAllHooks=True)
    home = make_home(tmp_path, harness_toml=f'[hooks]\nclaude_settings = ["{user}"]\n',
                     tools={"guard.scm": NO_FORCE_PUSH})
    code, _, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 0, "the kill switch is on: the handler does not run"
    code, _, err = claude_hook(home, bash("git push --force"))
    assert (code, err) == (2, "force push refused\n"), "Scheme hooks are not declared handlers"
    # a later file that sets it false wins over an earlier true
    project = settings_file(tmp_path / "project.json", disableAllHooks=False)
    (home / "harness.toml").write_text(f'[hooks]\nclaude_settings = ["{user}", "{project}"]\n')
    code, _, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 2


def test_managed_only_policy(tmp_path, claude_hook):
    user = settings_file(tmp_path / "user.json", {"PreToolUse": [group(command(
        script("no_rm_rf.sh")))]})
    managed = settings_file(tmp_path / "managed.json", {"PreToolUse": [group(command(
        "echo 'managed says no' >&2; exit 2"), matcher="Write")]}, allowManagedHooksOnly=True)
    home = make_home(tmp_path, harness_toml=f'[hooks]\nclaude_settings = ["{user}"]\n'
                                            f'managed_settings = "{managed}"\n')
    assert claude_hook(home, bash("rm -rf /"))[0] == 0, "only the managed file's handlers run"
    code, _, err = claude_hook(home, event("PreToolUse", tool_name="Write", tool_input={}))
    assert (code, err) == (2, "managed says no\n")


# -- Scheme guards answer Claude Code too ---------------------------------------------------

NO_FORCE_PUSH = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let* ((args (cdr (assoc "arguments" payload)))
           (entry (assoc "command" args)))
      (if (and entry (string-contains (cdr entry) "--force"))
          (list (cons "block" #t) (cons "message" "force push refused"))
          '()))))
"""


def test_a_scheme_pre_tool_guard_answers_pre_tool_use(tmp_path, claude_hook):
    home = make_home(tmp_path, tools={"guard.scm": NO_FORCE_PUSH + """
(register-hook 'pre_tool
  (lambda (payload)
    (let ((args (cdr (assoc "arguments" payload))))
      (if (equal? (cdr (assoc "command" args)) "npm test")
          (list (cons "arguments" (list (cons "command" "npm test --silent"))))
          '()))))
"""})
    code, out, err = claude_hook(home, bash("git push --force origin main"))
    assert (code, err) == (2, "force push refused\n")
    assert answer_of(out) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "force push refused"}}
    code, out, _ = claude_hook(home, bash("npm test"))
    assert code == 0
    assert answer_of(out) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "updatedInput": {"command": "npm test --silent"}}}


def test_pre_tool_sees_the_input_a_handler_rewrote(tmp_path, claude_hook):
    home = make_home(tmp_path, toml_handlers("PreToolUse", None, script("decide.py")),
                     tools={"guard.scm": NO_FORCE_PUSH})
    code, _, err = claude_hook(home, bash("rewrite: git push --force"))
    assert (code, err) == (2, "force push refused\n")


# -- bad input ------------------------------------------------------------------------------

@pytest.mark.parametrize(("stdin", "message"), [
    ("not json", "the event is not JSON"),
    ("[1, 2]", "the event must be a JSON object"),
    ("{}", "the event has no hook_event_name"),
    ('{"hook_event_name": "PreTooluse"}', ("unknown Claude Code event 'PreTooluse'; did you "
                                          "mean 'PreToolUse'?")),
    ('{"hook_event_name": "pre_tool"}', "unknown Claude Code event 'pre_tool'"),
])
def test_bad_events_are_a_non_blocking_error(tmp_path, claude_hook, stdin, message):
    code, out, err = claude_hook(make_home(tmp_path), stdin)
    assert code == 1 and out == ""
    assert message in err


def test_a_missing_home_or_bad_harness_toml_denies_a_guard_event(tmp_path, claude_hook,
                                                                 monkeypatch):
    """Never open (issue 30 item 4): what keeps harness from answering is a deny on a
    guard event, in Claude Code's format, and exit 1 (blocks nothing) on any other."""
    code, out, err = claude_hook(tmp_path / "nowhere", bash("ls"))
    decision = answer_of(out)["hookSpecificOutput"]
    assert code == 2 and decision["permissionDecision"] == "deny"
    assert "does not exist" in decision["permissionDecisionReason"] and "does not exist" in err
    home = make_home(tmp_path, harness_toml="[hooks]\nclaude_settings = 3\n")
    code, out, _ = claude_hook(home, event("UserPromptSubmit", prompt="hi"))
    assert code == 2 and answer_of(out)["decision"] == "block"
    assert "claude_settings must be a list of paths" in answer_of(out)["reason"]
    code, out, err = claude_hook(home, event("Stop", stop_hook_active=False))
    assert (code, out) == (1, "") and "claude_settings must be a list of paths" in err
    monkeypatch.setenv("HARNESS_FAIL_OPEN", "1")
    code, out, err = claude_hook(home, bash("ls"))
    assert (code, out) == (1, "") and "HARNESS_FAIL_OPEN=1" in err


def test_broken_sources_are_reported_never_silent(tmp_path, claude_hook):
    user = tmp_path / "user.json"
    user.write_text('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command"')
    project = settings_file(tmp_path / "project.json", {
        "PreTooluse": [group(command("exit 2"))],
        "Stop": [group({"type": "command", "command": "true", "timeout": "5"})]})
    home = make_home(tmp_path, harness_toml=f'[hooks]\nclaude_settings = ["{user}", '
                                            f'"{project}"]\n')
    code, out, err = claude_hook(home, bash("ls"))
    assert code == 0
    message = answer_of(out)["systemMessage"]
    assert f"{user}:1:" in message and "invalid JSON" in message
    assert "hooks.PreTooluse: unknown event 'PreTooluse'; did you mean 'PreToolUse'?" in err
    code, out, err = claude_hook(home, event("Stop", stop_hook_active=False))
    assert "hooks.Stop[0].hooks[0].timeout: must be a positive number of seconds, got '5'" \
        in err


def test_a_handler_that_runs_claude_hook_itself_does_not_recurse(tmp_path, claude_hook):
    import sys
    inner = f"'{sys.executable}' -m harness.cli claude-hook --home '{tmp_path / 'home'}'"
    home = make_home(tmp_path, toml_handlers("PreToolUse", None, inner, script("no_rm_rf.sh")))
    code, _, err = claude_hook(home, bash("rm -rf /"))
    assert (code, err) == (2, "rm -rf is not allowed here\n")


def test_a_tool_file_that_fails_to_load_is_reported_once(tmp_path, claude_hook):
    home = make_home(tmp_path, tools={"broken.scm": "(register-hook 'pre_tool\n"})
    code, out, err = claude_hook(home, bash("ls"))
    assert code == 0
    message = answer_of(out)["systemMessage"]
    assert message.startswith("harness: 1 hook error: ")
    assert "broken.scm:1:1:" in message and err.count("broken.scm:1:1:") == 1


def test_python_files_and_plugins_register_on_claude_code_events_too(tmp_path, claude_hook):
    import sys
    home = make_home(tmp_path, harness_toml='[tools.tiers]\n"" = "unsandboxed"\n',
                     tools={"gate.py": """\
from harness.api import hook

@hook("Stop")
def tests_first(event):
    if not event.get("stop_hook_active"):
        return {"decision": "block", "reason": "run the tests first"}
"""})
    (home / "plugins").mkdir()
    plugin = home / "plugins" / "context"
    plugin.write_text(f"""#!{sys.executable}
import json, sys
if sys.argv[1:] == ["--schema"]:
    print(json.dumps({{"name": "context", "description": "d", "parameters": {{}},
                      "hooks": ["SessionStart"]}}))
else:
    print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "SessionStart",
                                              "additionalContext": "from a plugin"}}}}))
""")
    plugin.chmod(0o755)
    code, out, err = claude_hook(home, event("Stop", stop_hook_active=False))
    assert (code, err) == (2, "run the tests first\n")
    code, out, _ = claude_hook(home, event("SessionStart", source="startup"))
    assert (code, answer_of(out)) == (0, {"hookSpecificOutput": {
        "hookEventName": "SessionStart", "additionalContext": "from a plugin"}})


def test_async_handlers_outlive_a_one_shot_claude_hook(tmp_path, claude_hook):
    done = tmp_path / "audit.log"
    home = make_home(tmp_path, toml_handlers(
        "PreToolUse", None, f"cat > '{done}.part' && mv '{done}.part' '{done}'; exit 2",
        **{"async": True}))
    code, out, err = claude_hook(home, bash("rm -rf /"))
    assert (code, out, err) == (0, "", ""), "an async handler's answer is ignored"
    deadline = time.monotonic() + 30
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert json.loads(done.read_text())["tool_input"] == {"command": "rm -rf /"}, \
        "a background process ran it after claude-hook had answered"
