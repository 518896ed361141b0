"""A pre_tool rewrite in real hosts: `echo SECRET` becomes `echo [redacted]` (the REWRITE
guard of tests/fixtures/hosts) where the host can rewrite a tool's input — Claude Code
(``updatedInput``), Codex (``updatedInput``), Gemini CLI (``hookSpecificOutput.tool_input``)
and Copilot CLI (``modifiedArgs``) — through each one's command hook."""

from __future__ import annotations

import json

from daemon import harness_command
from guard_home import make_guard_home

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
from tests.e2e.claude_code import command_hook


def rewriting_home(tmp_path):
    return make_guard_home(tmp_path, rewrite=True)


def test_claude_code(claude_code, tmp_path):
    home = rewriting_home(tmp_path)
    settings = {"hooks": command_hook(harness_command("hook", "claude-code", "--home",
                                                      str(home)))}
    with ScriptedAnthropicServer([bash("echo SECRET"), say("done")]) as server:
        run = claude_code.run("say it", server, settings=settings)
    [result] = run.tool_results()
    assert "[redacted]" in json.dumps(result["content"])
    assert "SECRET" not in json.dumps(result["content"])


def test_codex(tmp_path):
    from codex import codex_binary, run_codex
    from responses_server import message, shell_call
    folder = tmp_path / "project"
    folder.mkdir()
    run = run_codex(codex_binary(), tmp_path, folder,
                    [[shell_call("echo SECRET", "call_1")], [message("done")]],
                    {"PreToolUse": [{"hooks": [{"type": "command", "command": harness_command(
                        "hook", "codex", "--home", str(rewriting_home(tmp_path)))}]}]})
    assert run.returncode == 0, run.stderr[-2000:]
    [output] = run.tool_outputs()
    assert "[redacted]" in output and "SECRET" not in output


def test_gemini(tmp_path):
    from gemini import gemini_binary, run_gemini
    from gemini_server import shell_call, text
    folder = tmp_path / "project"
    folder.mkdir()
    run = run_gemini(gemini_binary(), tmp_path, folder, [[shell_call("echo SECRET")],
                                                         [text("done")]],
                     {"BeforeTool": [{"matcher": ".*", "hooks": [{
                         "type": "command", "name": "harness", "command": harness_command(
                             "hook", "gemini", "--home", str(rewriting_home(tmp_path)))}]}]})
    assert run.returncode == 0, run.stderr[-2000:]
    [output] = run.tool_outputs()
    assert "[redacted]" in output and "SECRET" not in output


def test_copilot(tmp_path):
    from copilot import copilot_binary, run_copilot
    from responses_server import message, shell_call
    folder = tmp_path / "project"
    folder.mkdir()
    run = run_copilot(copilot_binary(), tmp_path, folder,
                      [[shell_call("echo SECRET", "call_1")], [message("done")]],
                      {"preToolUse": [{"type": "command", "bash": harness_command(
                          "hook", "copilot", "--event", "preToolUse", "--home",
                          str(rewriting_home(tmp_path)))}]})
    assert run.returncode == 0, run.stderr[-2000:]
    [output] = run.tool_outputs()
    assert "[redacted]" in output and "SECRET" not in output
