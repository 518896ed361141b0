"""The command an install writes, run as the host runs it (a shell, the event on stdin),
answers through a ready guard: install -> host -> harness hook -> guard. Needs the host
adapters (``harness hook HOST``); skipped where this tree has none yet."""

from __future__ import annotations

import json
import subprocess

import pytest

from harness.cli import build_parser
from harness.install import HOSTS, install
from harness.install.command import harness_program
from harness.install.shapes import handler_command

#: one shell event per host, in the host's own payload, with the command to run
EVENTS = {
    "claude-code": ("PreToolUse", lambda command: {
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp",
        "tool_name": "Bash", "tool_input": {"command": command}}),
    "codex": ("PreToolUse", lambda command: {
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp",
        "tool_name": "Bash", "tool_input": {"command": command}}),
    "gemini": ("BeforeTool", lambda command: {
        "hook_event_name": "BeforeTool", "session_id": "s", "cwd": "/tmp",
        "tool_name": "run_shell_command", "tool_input": {"command": command}}),
    "cursor": ("beforeShellExecution", lambda command: {
        "hook_event_name": "beforeShellExecution", "conversation_id": "c",
        "command": command, "cwd": "/tmp"}),
}


def has_host_adapters() -> bool:
    [action] = [a for a in build_parser()._actions if a.dest == "command"]
    return "hook" in action.choices


@pytest.mark.skipif(not has_host_adapters(), reason="harness hook HOST is not in this tree")
@pytest.mark.parametrize("host", list(EVENTS))
def test_the_installed_command_denies_through_a_ready_guard(host, home, project):
    (home / "harness.toml").write_text('[guards]\nenable = ["destructive-deletes"]\n')
    install(host, home, project=project, program=harness_program())
    event, payload = EVENTS[host]
    data = json.loads(HOSTS[host].path(project).read_text())
    command = next(handler_command(h) for e, h in HOSTS[host].shape.found(data, "")
                   if e == event)

    def run(shell_command: str) -> subprocess.CompletedProcess:
        return subprocess.run(command, shell=True, check=False,
                              input=json.dumps(payload(shell_command)),
                              capture_output=True, text=True, timeout=120)

    stopped = run("rm -rf build")
    assert "harness guard destructive-deletes" in stopped.stdout + stopped.stderr
    passed = run("ls -la")
    assert passed.returncode == 0, passed.stderr
    assert "harness guard" not in passed.stdout + passed.stderr
