"""``harness serve --http``: every host's events over HTTP, behind a bearer token; bad
requests are refused before any hook runs and the daemon goes on answering."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

import pytest
from guard_home import add_recorder, make_guard_home

from harness.cli.serve_http import parse_address, read_token

HARNESS = [sys.executable, "-m", "harness.cli"]
RM = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
      "tool_input": {"command": "rm -rf /"}, "session_id": "s"}
LS = {**RM, "tool_input": {"command": "ls"}}


class Daemon:
    def __init__(self, home):
        self.home = home
        self.process = subprocess.Popen([*HARNESS, "serve", "--home", str(home), "--http",
                                         "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert match, line + self.process.stderr.read()
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = (home / "serve.token").read_text().strip()

    def request(self, method, path, body=None, token=True, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        if token is True:
            all_headers["Authorization"] = f"Bearer {self.token}"
        elif token:
            all_headers["Authorization"] = f"Bearer {token}"
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        connection.request(method, path, data, all_headers)
        response = connection.getresponse()
        result = response.status, json.loads(response.read() or b"null")
        connection.close()
        return result

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    home = make_guard_home(tmp_path_factory.mktemp("http"), rewrite=True)
    calls = add_recorder(home)
    running = Daemon(home)
    running.calls = calls
    yield running
    running.stop()


def test_a_deny_is_a_200_with_the_hosts_deny_decision(daemon):
    status, answer = daemon.request("POST", "/claude-code", RM)
    assert status == 200
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert daemon.request("POST", "/claude-code", LS) == (200, {})
    status, answer = daemon.request("POST", "/gemini", {
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf ~"}})
    assert (status, answer) == (200, {"decision": "deny", "reason": "rm -rf is not allowed"})


def test_the_command_form_and_events_named_in_the_path(daemon):
    status, reply = daemon.request("POST", "/windsurf?reply=command", {
        "agent_action_name": "pre_run_command", "tool_info": {"command_line": "rm -rf /"}})
    assert (status, reply) == (200, {"exit_code": 2, "stdout": "",
                                     "stderr": "rm -rf is not allowed\n"})
    status, answer = daemon.request("POST", "/copilot/permissionRequest", {
        "toolName": "bash", "toolArgs": {"command": "rm -rf /"}})
    assert answer == {"behavior": "deny", "message": "rm -rf is not allowed"}


def test_health_needs_no_token(daemon):
    status, health = daemon.request("GET", "/health", token=False)
    assert status == 200 and health["status"] == "ok" and "codex" in health["hosts"]


@pytest.mark.parametrize(("path", "body", "token", "status", "message"), [
    ("/codex", LS, False, 401, "Authorization: Bearer"),
    ("/codex", LS, "wrong", 401, "Authorization: Bearer"),
    ("/codx", LS, True, 404, "did you mean 'codex'"),
    ("/codex/a/b", LS, True, 404, "no such path"),
    ("/codex", b"{not json", True, 400, "not JSON"),
    ("/codex", b"[1]", True, 400, "must be a JSON object"),
    ("/codex", {"hook_event_name": "PreTooluse"}, True, 400, "did you mean 'PreToolUse'"),
])
def test_bad_requests_are_refused_and_run_nothing(daemon, path, body, token, status,
                                                  message):
    before = daemon.calls.read_text() if daemon.calls.exists() else ""
    got, answer = daemon.request("POST", path, body, token=token)
    assert got == status and message in answer["error"]
    assert (daemon.calls.read_text() if daemon.calls.exists() else "") == before
    assert daemon.request("POST", "/codex", LS)[0] == 200  # still answering


def test_an_oversized_body_is_413_before_it_is_read(daemon):
    with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as connection:
        connection.sendall(f"POST /codex HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                           f"{daemon.token}\r\nContent-Length: {10**9}\r\n\r\n".encode())
        response = connection.recv(65536)
    assert response.startswith(b"HTTP/1.1 413")


def test_a_client_that_leaves_mid_request_does_not_hurt_the_daemon(daemon):
    with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as connection:
        connection.sendall(f"POST /codex HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                           f"{daemon.token}\r\nContent-Length: 500\r\n\r\n{{\"hook_".encode())
    assert daemon.request("POST", "/codex", RM)[1]["hookSpecificOutput"][
        "permissionDecision"] == "deny"


def test_a_slow_hook_holds_only_its_own_client(daemon):
    slow = {**LS, "tool_input": {"command": "sleep"}}
    finished = []
    thread = threading.Thread(target=lambda: finished.append(
        daemon.request("POST", "/codex", slow)))
    thread.start()
    while "sleep" not in (daemon.calls.read_text() if daemon.calls.exists() else ""):
        time.sleep(0.02)
    assert daemon.request("POST", "/codex", RM)[0] == 200
    assert finished == []  # the slow one is still running: the fast one did not wait for it
    thread.join(30)
    assert finished == [(200, {})]


def test_keep_alive_serves_many_events_on_one_connection(daemon):
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=30)
    headers = {"Authorization": f"Bearer {daemon.token}",
               "Content-Type": "application/json"}
    for event in (RM, LS, RM):
        connection.request("POST", "/claude-code", json.dumps(event), headers)
        response = connection.getresponse()
        assert response.status == 200
        response.read()
    connection.close()


def test_the_command_client_over_http(daemon):
    done = subprocess.run([*HARNESS, "hook", "codex", "--http", daemon.url, "--home",
                           str(daemon.home)], input=json.dumps(RM), capture_output=True,
                          text=True, check=False, timeout=60)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == \
        "rm -rf is not allowed"
    env = {**os.environ, "HARNESS_TOKEN": "wrong"}
    done = subprocess.run([*HARNESS, "hook", "codex", "--http", daemon.url],
                          input=json.dumps(LS), capture_output=True, text=True, check=False,
                          timeout=60, env=env)
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "HTTP 401" in reason


def test_edits_are_hot_reloaded(tmp_path):
    home = make_guard_home(tmp_path)
    daemon = Daemon(home)
    try:
        assert daemon.request("POST", "/codex", LS) == (200, {})
        guards = home / "tools" / "guards.scm"
        guards.write_text(guards.read_text().replace('"rm -rf"', '"ls"'))
        deadline = time.monotonic() + 30
        while daemon.request("POST", "/codex", LS)[1] == {} and time.monotonic() < deadline:
            time.sleep(0.1)
        assert daemon.request("POST", "/codex", LS)[1]["hookSpecificOutput"][
            "permissionDecision"] == "deny"
    finally:
        daemon.stop()


def test_the_token_is_made_private_and_a_readable_one_refused(tmp_path):
    token = read_token(tmp_path)
    assert stat.S_IMODE((tmp_path / "serve.token").stat().st_mode) == 0o600
    assert read_token(tmp_path) == token and len(token) >= 32
    (tmp_path / "serve.token").chmod(0o644)
    with pytest.raises(PermissionError, match="chmod 600"):
        read_token(tmp_path)


def test_addresses_are_loopback_unless_given():
    assert parse_address("8765") == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:80") == ("0.0.0.0", 80)
    assert parse_address("[::1]:9") == ("::1", 9)
    with pytest.raises(ValueError, match="is not"):
        parse_address("localhost:http")


def test_the_lightest_client_runs_without_site_and_never_opens(daemon, tmp_path):
    from harness.cli.hook_client import client_argv
    argv = client_argv(sys.executable, "codex", http=daemon.url, home=str(daemon.home))
    assert argv[1:3] == ["-S", "-I"]
    done = subprocess.run(argv, input=json.dumps(RM), capture_output=True, text=True,
                          check=False, timeout=60)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == \
        "rm -rf is not allowed"
    done = subprocess.run(argv, input=json.dumps(LS), capture_output=True, text=True,
                          check=False, timeout=60)
    assert (done.returncode, done.stdout) == (0, "")
    wrong = subprocess.run(argv, input=json.dumps(LS), capture_output=True, text=True,
                           check=False, timeout=60, env={**os.environ, "HARNESS_TOKEN": "x"})
    assert "answered HTTP 401" in json.loads(wrong.stdout)["hookSpecificOutput"][
        "permissionDecisionReason"]
    # nothing listens: harness is loaded and answers the event itself
    nobody = client_argv(sys.executable, "codex", http="http://127.0.0.1:1",
                         home=str(daemon.home))
    done = subprocess.run(nobody, input=json.dumps(RM), capture_output=True, text=True,
                          check=False, timeout=60)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == \
        "rm -rf is not allowed"


def test_the_raw_reply_form(daemon):
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=30)
    connection.request("POST", "/kiro?reply=raw", json.dumps(
        {"hook_event_name": "preToolUse", "tool_name": "execute_bash",
         "tool_input": {"command": "rm -rf /"}}), {"Authorization": f"Bearer {daemon.token}"})
    response = connection.getresponse()
    assert response.getheader("X-Harness-Exit") == "2"
    assert response.getheader("X-Harness-Stdout-Length") == "0"
    assert response.read() == b"rm -rf is not allowed\n"
    connection.close()


def test_the_bash_client_answers_like_harness_hook_and_hands_over_on_trouble(daemon):
    from harness.cli.hook_client import shell_client_argv
    env = {**os.environ, "HARNESS_PYTHON": sys.executable}
    argv = shell_client_argv("claude-code", daemon.url, str(daemon.home))

    def run(argv, event, **extra):
        return subprocess.run(argv, input=json.dumps(event), capture_output=True, text=True,
                              check=False, timeout=60, env={**env, **extra})
    done = run(argv, RM)
    assert (done.returncode, done.stderr) == (2, "rm -rf is not allowed\n")
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert (run(argv, LS).returncode, run(argv, LS).stdout) == (0, "")
    windsurf = run(shell_client_argv("windsurf", daemon.url, str(daemon.home)), {
        "agent_action_name": "pre_run_command", "tool_info": {"command_line": "rm -rf x"}})
    assert (windsurf.returncode, windsurf.stdout, windsurf.stderr) == (
        2, "", "rm -rf is not allowed\n")
    refused = run(argv, LS, HARNESS_TOKEN="wrong")
    assert "answered HTTP 401" in json.loads(refused.stdout)["hookSpecificOutput"][
        "permissionDecisionReason"]
    nobody = run(shell_client_argv("claude-code", "http://127.0.0.1:1", str(daemon.home)), RM)
    assert nobody.returncode == 2 and nobody.stderr.endswith("rm -rf is not allowed\n")


def test_a_deadline_denies_a_guard_event_a_hook_holds_too_long(tmp_path):
    home = make_guard_home(tmp_path)
    add_recorder(home)
    process = subprocess.Popen([*HARNESS, "serve", "--home", str(home), "--http",
                                "127.0.0.1:0", "--timeout", "1"], stderr=subprocess.PIPE,
                               text=True)
    try:
        port = re.search(r":(\d+) ", process.stderr.readline()).group(1)
        token = (home / "serve.token").read_text().strip()
        connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=30)
        slow = {**LS, "tool_input": {"command": "sleep"}}  # the recorder sleeps 3 s
        connection.request("POST", "/claude-code", json.dumps(slow),
                           {"Authorization": f"Bearer {token}"})
        answer = json.loads(connection.getresponse().read())
        assert "no answer within --timeout 1 s" in answer["hookSpecificOutput"][
            "permissionDecisionReason"]
        connection.request("POST", "/claude-code", json.dumps(RM),
                           {"Authorization": f"Bearer {token}"})
        answer = json.loads(connection.getresponse().read())
        assert answer["hookSpecificOutput"]["permissionDecisionReason"] == \
            "rm -rf is not allowed"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(10)


def read_response(connection) -> bytes:
    """One whole HTTP response (headers and a Content-Length body) from a raw socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(body) < length:
        body += connection.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_chunked_body_is_read_and_capped(daemon):
    def send(chunks: list[bytes], body: bytes | None = None) -> bytes:
        with socket.create_connection(("127.0.0.1", daemon.port), timeout=10) as connection:
            if body is None:
                body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + \
                    b"0\r\n\r\n"
            connection.sendall(f"POST /codex HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                               f"{daemon.token}\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                               + body)
            return read_response(connection)
    event = json.dumps(RM).encode()
    answer = send([event[:10], event[10:]])
    assert answer.startswith(b"HTTP/1.1 200") and b"rm -rf is not allowed" in answer
    # a chunk announced over the cap is refused before its bytes are read
    assert send([], body=b"%x\r\n" % (9 * 1024 * 1024)).startswith(b"HTTP/1.1 413")
