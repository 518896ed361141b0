"""``harness serve --socket PATH`` and ``harness claude-hook --socket PATH``: the event goes to
a running server with the client's environment and directory, and comes back exactly as the
client would have answered it itself."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from claude_helpers import bash, make_home, script

HARNESS = [sys.executable, "-m", "harness.cli"]
HOOKS = f"""
[[PreToolUse]]
matcher = "Bash"
[[PreToolUse.hooks]]
type = "command"
command = "{script('no_rm_rf.sh')}"
[[PreToolUse.hooks]]
type = "command"
command = "{script('report_env.py')}"
"""


def claude_hook(*argv, payload, cwd=None, env=None):
    return subprocess.run([*HARNESS, "claude-hook", *argv], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=60,
                          check=False)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("socket")
    home = make_home(root, HOOKS)
    path = root / "harness.sock"
    process = subprocess.Popen([*HARNESS, "serve", "--home", str(home), "--socket", str(path)],
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not path.exists():
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read()
        time.sleep(0.05)
    yield home, path, process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        process.wait(10)


def test_the_server_answers_with_the_clients_cwd_and_env(server, tmp_path):
    _, path, _ = server
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}
    # the event names no directory: the handler runs where the client runs
    event = bash("ls")
    del event["cwd"]
    done = claude_hook("--socket", str(path), payload=event, cwd=project, env=env)
    assert done.returncode == 0, done.stderr
    context = json.loads(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])
    assert context["cwd"] == str(project) and context["project"] == str(project)
    done = claude_hook("--socket", str(path), payload=bash("rm -rf /"), env=env)
    assert (done.returncode, done.stderr) == (2, "rm -rf is not allowed here\n")


def test_no_server_means_the_client_answers_itself(server, tmp_path):
    home, _, _ = server
    done = claude_hook("--home", str(home), "--socket", str(tmp_path / "none.sock"),
                       payload=bash("rm -rf /"))
    assert (done.returncode, done.stderr) == (2, "rm -rf is not allowed here\n")


def test_a_second_server_on_the_same_socket_is_refused(server):
    home, path, _ = server
    done = subprocess.run([*HARNESS, "serve", "--home", str(home), "--socket", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert f"cannot serve on {path}: another server answers on {path}" in done.stderr


def test_the_socket_is_private_and_the_server_takes_json_rpc(server):
    _, path, _ = server
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(str(path))
        client.sendall(b'{"jsonrpc": "2.0", "id": 7, "method": "hooks"}\n{"bad json\n')
        client.shutdown(socket.SHUT_WR)
        lines = client.makefile("rb").read().splitlines()
    hooks, error = (json.loads(line) for line in lines)
    assert hooks["id"] == 7 and [h["hook"] for h in hooks["result"]] == ["PreToolUse"] * 2
    assert error["error"]["code"] == -32700


def test_sigterm_stops_the_server_and_removes_its_socket(server):
    _, path, process = server
    process.send_signal(signal.SIGTERM)
    assert process.wait(10) == 0
    assert not path.exists()


def test_a_stale_socket_is_replaced(tmp_path):
    path = tmp_path / "stale.sock"
    with socket.socket(socket.AF_UNIX) as dead:
        dead.bind(str(path))  # bound, never listening: what a killed server leaves
    home = make_home(tmp_path, HOOKS)
    process = subprocess.Popen([*HARNESS, "serve", "--home", str(home), "--socket",
                                str(path)], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            done = claude_hook("--socket", str(path), "--home", str(tmp_path / "nowhere"),
                               payload=bash("rm -rf /"))
            # until the server is up, the client's missing home denies (never open)
            if "not allowed" in done.stderr or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert (done.returncode, done.stderr) == (2, "rm -rf is not allowed here\n"), \
            "the server answered (the client's own home does not exist)"
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(10)
