"""``harness hook HOST``: one event on stdin answered as HOST's command hook, here or by a
daemon over a Unix socket; never open when no answer can be had (issue 30 item 4), and the
socket client's security (issue 23 item 10)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading

import pytest
from guard_home import make_guard_home

from harness.cli import hook_client

HARNESS = [sys.executable, "-m", "harness.cli"]
RM = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
      "tool_input": {"command": "rm -rf /"}, "session_id": "s"}
LS = {**RM, "tool_input": {"command": "ls"}}


def hook(*argv, payload, env=None, timeout=60):
    return subprocess.run([*HARNESS, "hook", *argv], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, timeout=timeout,
                          check=False)


def decision(done) -> dict:
    return json.loads(done.stdout)["hookSpecificOutput"]


def test_codex_in_process_denies_rm_rf_and_lets_ls_run(tmp_path):
    home = make_guard_home(tmp_path)
    done = hook("codex", "--home", str(home), payload=RM)
    assert done.returncode == 0 and decision(done)["permissionDecision"] == "deny"
    done = hook("codex", "--home", str(home), payload=LS)
    assert (done.returncode, done.stdout) == (0, "")


def test_claude_hook_is_hook_claude_code(tmp_path):
    home = make_guard_home(tmp_path)
    for argv in (["hook", "claude-code"], ["hook", "claude"], ["claude-hook"]):
        done = subprocess.run([*HARNESS, *argv, "--home", str(home)], input=json.dumps(RM),
                              capture_output=True, text=True, check=False, timeout=60)
        assert (done.returncode, done.stderr) == (2, "rm -rf is not allowed\n"), argv


def test_the_event_option_names_an_event_the_payload_does_not(tmp_path):
    home = make_guard_home(tmp_path)
    event = {"timestamp": 1, "cwd": "/tmp", "toolName": "bash",
             "toolArgs": json.dumps({"command": "rm -rf /"})}
    done = hook("copilot", "--event", "permissionRequest", "--home", str(home),
                payload=event)
    assert json.loads(done.stdout) == {"behavior": "deny", "message": "rm -rf is not allowed"}


@pytest.mark.parametrize("how", ["missing home", "broken harness.toml"])
def test_a_home_that_cannot_answer_denies_guard_events_only(tmp_path, how):
    home = tmp_path / "nowhere"
    if how == "broken harness.toml":
        home = make_guard_home(tmp_path, harness_toml="[limits\n")
    done = hook("gemini", "--home", str(home), payload={
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"}})
    answer = json.loads(done.stdout)
    assert done.returncode == 0 and answer["decision"] == "deny"
    assert answer["reason"].startswith("harness cannot answer, so it denies: ")
    done = hook("gemini", "--home", str(home), payload={"hook_event_name": "AfterAgent"})
    assert (done.returncode, done.stdout) == (1, "") and "harness hook gemini:" in done.stderr
    env = {**os.environ, "HARNESS_FAIL_OPEN": "1"}
    done = hook("gemini", "--home", str(home), env=env, payload={
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"}})
    assert (done.returncode, done.stdout) == (1, "") and "WARNING: HARNESS_FAIL_OPEN=1" in \
        done.stderr


def test_unknown_hosts_and_usage_errors_are_exit_1(tmp_path):
    done = hook("codx", "--home", str(tmp_path), payload=RM)
    assert done.returncode == 1 and "did you mean 'codex'" in done.stderr
    done = hook("codex", "--bogus", payload=RM)
    assert done.returncode == 1 and "unknown arguments: --bogus" in done.stderr


def test_our_own_timeout_denies_before_the_host_gives_up(tmp_path):
    home = make_guard_home(tmp_path)
    plugin = home / "plugins" / "slow"
    plugin.parent.mkdir()
    plugin.write_text("#!/bin/sh\n[ \"$1\" = --schema ] && echo '{\"name\": \"slow\", "
                      "\"description\": \"slow\", \"parameters\": {}, \"hooks\": "
                      "[\"pre_tool\"]}' && exit 0\nsleep 20\n")
    plugin.chmod(0o755)
    done = hook("codex", "--home", str(home), "--timeout", "2", payload=LS)
    assert done.returncode == 0
    assert "no answer within --timeout 2 s" in decision(done)["permissionDecisionReason"]


# -- the socket client ---------------------------------------------------------------------

class FakeServer:
    """A Unix socket server that records what it receives and answers `reply` (None:
    never answers)."""

    def __init__(self, path, reply: bytes | None):
        self.received = b""
        self.reply = reply
        self.done = threading.Event()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        connection, _ = self.listener.accept()
        with connection:
            connection.settimeout(5)
            try:
                while chunk := connection.recv(65536):
                    self.received += chunk
                    if self.reply is not None and chunk.endswith(b"\n"):
                        break
            except OSError:
                pass
            if self.reply is None:
                self.done.wait(10)  # silent: hold the connection open, answer nothing
            else:
                with contextlib.suppress(OSError):  # a refused client hangs up first
                    connection.sendall(self.reply)

    def close(self):
        self.done.set()
        self.listener.close()


def test_the_socket_client_refuses_a_server_of_another_user(tmp_path, monkeypatch):
    server = FakeServer(tmp_path / "s.sock", b'{"result": {"exit_code": 0}}\n')
    monkeypatch.setattr(os, "getuid", lambda: 4242)
    with pytest.raises(hook_client.ClientFailure, match="runs as user 0, not as us"):
        hook_client.over_socket(str(tmp_path / "s.sock"), "codex", b"{}", None, 5)
    server.thread.join(5)
    assert server.received == b""  # not one byte of the event
    server.close()


def test_the_socket_client_sends_no_secrets_and_times_out(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("CLAUDE_CODE_OAUTH_TOKEN", "oauth-secret")
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/project")
    server = FakeServer(tmp_path / "s.sock", None)
    with pytest.raises(hook_client.ClientFailure, match="did not answer within 0.5 s"):
        hook_client.over_socket(str(tmp_path / "s.sock"), "codex", b"{}", None, 0.5)
    server.done.set()
    server.thread.join(10)
    sent = json.loads(server.received)["params"]
    assert sent["env"]["CLAUDE_PROJECT_DIR"] == "/project"
    assert "OPENAI_API_KEY" not in sent["env"] and "CLAUDE_CODE_OAUTH_TOKEN" not in sent["env"]
    assert b"secret" not in server.received
    server.close()


@pytest.mark.parametrize("answer", [None, b"not json\n", b'{"error": {"message": "no"}}\n'])
def test_a_daemon_that_fails_us_means_a_deny_on_a_guard_event(tmp_path, answer):
    server = FakeServer(tmp_path / "s.sock", answer)
    done = hook("codex", "--socket", str(tmp_path / "s.sock"), "--timeout", "1",
                "--home", str(make_guard_home(tmp_path)), payload=LS)
    assert done.returncode == 0 and decision(done)["permissionDecision"] == "deny"
    server.close()


def test_no_daemon_at_the_socket_means_the_event_is_answered_here(tmp_path):
    done = hook("codex", "--socket", str(tmp_path / "none.sock"), "--home",
                str(make_guard_home(tmp_path)), payload=RM)
    assert decision(done)["permissionDecisionReason"] == "rm -rf is not allowed"
