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


def rewritten_output(run_host, binary, tmp_path, turns: list, hooks: dict) -> str:
    """What the one tool call of `turns` returned, `run_host` (run_codex and the like)
    having run with `hooks`: it must not hold SECRET (see the asserts)."""
    folder = tmp_path / "project"
    folder.mkdir()
    run = run_host(binary, tmp_path, folder, turns, hooks)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    [output] = run.tool_outputs()
    return output


def hook_command(tmp_path, host: str, *extra: str) -> str:
    return harness_command("hook", host, *extra, "--home", str(rewriting_home(tmp_path)))


def test_codex(tmp_path):
    from codex import codex_binary, run_codex
    from responses_server import message, shell_call
    output = rewritten_output(
        run_codex, codex_binary(), tmp_path,
        [[shell_call("echo SECRET", "call_1")], [message("done")]],
        {"PreToolUse": [{"hooks": [{"type": "command",
                                    "command": hook_command(tmp_path, "codex")}]}]})
    assert "[redacted]" in output and "SECRET" not in output


def test_gemini(tmp_path):
    from gemini import gemini_binary, run_gemini
    from gemini_server import shell_call, text
    output = rewritten_output(
        run_gemini, gemini_binary(), tmp_path, [[shell_call("echo SECRET")], [text("done")]],
        {"BeforeTool": [{"matcher": ".*", "hooks": [{
            "type": "command", "name": "harness",
            "command": hook_command(tmp_path, "gemini")}]}]})
    assert "[redacted]" in output and "SECRET" not in output


def test_copilot(tmp_path):
    from copilot import copilot_binary, run_copilot
    from responses_server import message, shell_call
    output = rewritten_output(
        run_copilot, copilot_binary(), tmp_path,
        [[shell_call("echo SECRET", "call_1")], [message("done")]],
        {"preToolUse": [{"type": "command", "bash": hook_command(
            tmp_path, "copilot", "--event", "preToolUse")}]})
    assert "[redacted]" in output and "SECRET" not in output
