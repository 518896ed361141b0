"""Never open, end to end: a real Claude Code runs ``harness claude-hook`` as its PreToolUse
hook; a Scheme guard in the home stops ``rm -rf``; the guard is then saved broken, and the
next Claude Code (a fresh ``harness claude-hook`` per event) still does not run the command."""

from __future__ import annotations

import json

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
from tests.e2e.claude_code import command_hook

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (assoc "command" (cdr (assoc "arguments" payload)))))
      (if (and command (string-contains (cdr command) "rm -rf"))
          (list (cons "block" #t) (cons "message" "rm -rf is not allowed here"))
          '()))))
"""
BROKEN_GUARD = GUARD[:-2] + "\n"  # a `)` short


def test_a_guard_saved_broken_still_stops_the_command(claude_code, harness_executable,
                                                      tmp_path):
    home = tmp_path / "harness-home"
    (home / "tools").mkdir(parents=True)
    guard = home / "tools" / "guard.scm"
    guard.write_text(GUARD)
    victim = claude_code.project / "precious"
    victim.mkdir()
    settings = {"hooks": command_hook(f"{harness_executable} claude-hook --home {home}")}

    with ScriptedAnthropicServer([bash(f"rm -rf {victim}"), say("tried")]) as server:
        run = claude_code.run("clean up", server, settings=settings)
    assert victim.is_dir()
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert "rm -rf is not allowed here" in json.dumps(result["content"])

    guard.write_text(BROKEN_GUARD)
    with ScriptedAnthropicServer([bash(f"rm -rf {victim}"), say("tried again")]) as server:
        run = claude_code.run("clean up", server, settings=settings)
    assert victim.is_dir(), "the guarded command ran after the guard was saved broken"
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert "rm -rf is not allowed here" in json.dumps(result["content"])

    with ScriptedAnthropicServer([bash("echo still-works"), say("fine")]) as server:
        run = claude_code.run("echo", server, settings=settings)
    [result] = run.tool_results()
    assert "still-works" in json.dumps(result["content"]) and not result.get("is_error")


def test_a_closed_guard_that_never_loaded_stops_every_call(claude_code, harness_executable,
                                                          tmp_path):
    home = tmp_path / "harness-home"
    (home / "tools").mkdir(parents=True)
    (home / "harness.toml").write_text('[failure]\ndefault = "closed"\n')
    guard = home / "tools" / "guard.scm"
    guard.write_text(BROKEN_GUARD)
    settings = {"hooks": command_hook(f"{harness_executable} claude-hook --home {home}")}
    with ScriptedAnthropicServer([bash("touch made.txt"), say("tried")]) as server:
        run = claude_code.run("touch", server, settings=settings)
    assert not (claude_code.project / "made.txt").exists()
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert f"{guard} does not load" in json.dumps(result["content"])
