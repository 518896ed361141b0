"""Never open (SPEC §14), through every front-end, each a fresh process as a host runs it:
``fire``, ``call``, ``claude-hook``, ``check``, ``serve`` and ``serve --socket``. A guard
saved broken keeps guarding with its last good version and every answer says so; a closed
or permission guard with no good version blocks and denies, naming the file."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from claude_helpers import bash
from cli_helpers import HARNESS_COMMAND, run_harness, start_serve

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (assoc "command" (cdr (assoc "arguments" payload)))))
      (if (and command (string-contains (cdr command) "rm -rf"))
          (list (cons "block" #t) (cons "message" "rm -rf is not allowed here"))
          '()))))
"""
BROKEN = GUARD[:-2] + "\n"
SHELL_GUARD_BROKEN = """\
(register-hook 'pre_shell_exec
  (lambda (payload) (list (cons "denied" #t) (cons "reason" "no shell")))
"""
RM = json.dumps({"tool_name": "Bash", "arguments": {"command": "rm -rf build"}})


@pytest.fixture
def home(tmp_path) -> Path:
    home = tmp_path / "home"
    (home / "tools" / "guards").mkdir(parents=True)
    return home


def guard_saved_broken(home: Path) -> Path:
    """The guard, loaded once by a fresh process, then saved a parenthesis short."""
    guard = home / "tools" / "guards" / "guard.scm"
    guard.write_text(GUARD)
    assert run_harness("fire", "pre_tool", RM, "--home", str(home)).returncode == 2
    guard.write_text(BROKEN)
    return guard


def claude_hook(home: Path, payload: dict, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*HARNESS_COMMAND, "claude-hook", "--home", str(home), *extra],
                          input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, check=False)


def test_fire_in_a_fresh_process_runs_the_last_good_version(home):
    guard = guard_saved_broken(home)
    done = run_harness("fire", "pre_tool", RM, "--home", str(home))
    assert done.returncode == 2
    result = json.loads(done.stdout)
    assert result["outcome"]["message"] == "rm -rf is not allowed here"
    [error] = result["errors"]
    assert error["message"].startswith(f"running last good version of {guard} (saved ")
    assert f"{guard}:1:1: unexpected end of input" in error["message"]
    assert f"harness: load error: running last good version of {guard}" in done.stderr


def test_fire_a_closed_guard_that_never_loaded_blocks(home):
    (home / "harness.toml").write_text('[failure]\n"scm:guards/" = "closed"\n')
    guard = home / "tools" / "guards" / "guard.scm"
    guard.write_text(BROKEN)
    done = run_harness("fire", "pre_tool", json.dumps({"tool_name": "Read", "arguments": {}}),
                       "--home", str(home))
    assert done.returncode == 2
    outcome = json.loads(done.stdout)["outcome"]
    assert outcome["blocked"] is True
    assert outcome["message"].startswith(f"{guard} does not load")
    assert f"{guard}:1:1: unexpected end of input" in outcome["message"]


def test_call_does_not_run_a_command_a_broken_shell_guard_would_judge(home, tmp_path):
    shell = home / "tools" / "shell.scm"
    shell.write_text(SHELL_GUARD_BROKEN)
    marker = tmp_path / "ran"
    done = run_harness("call", "shell_exec", json.dumps({"command": f"echo RAN > {marker}"}),
                       "--allow", "--home", str(home))
    assert done.returncode == 1
    assert not marker.exists()
    assert f"{shell} does not load and no good version of it runs, so pre_shell_exec " \
           "denies" in done.stderr


def test_claude_hook_in_a_fresh_process_blocks_and_says_it_runs_the_last_good_version(home):
    guard = guard_saved_broken(home)
    done = claude_hook(home, bash("rm -rf build"))
    assert done.returncode == 2
    assert done.stderr == "rm -rf is not allowed here\n"
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert f"running last good version of {guard}" in answer["systemMessage"]
    done = claude_hook(home, bash("ls"))
    assert done.returncode == 0
    assert f"running last good version of {guard}" in json.loads(done.stdout)["systemMessage"]


def test_claude_hook_denies_for_a_closed_guard_that_never_loaded(home):
    (home / "harness.toml").write_text('[failure]\ndefault = "closed"\n')
    guard = home / "tools" / "guards" / "guard.scm"
    guard.write_text(BROKEN)
    done = claude_hook(home, bash("ls"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"{guard} does not load")
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_check_says_the_last_good_version_runs(home):
    guard = guard_saved_broken(home)
    done = run_harness("check", "--home", str(home))
    assert done.returncode == 1
    assert f"running last good version of {guard} (saved " in done.stdout


def _wait_for(predicate, what: str, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _rpc(lines, proc, method: str, params, id_: int) -> dict:
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method,
                                 "params": params}).encode() + b"\n")
    proc.stdin.flush()
    while True:
        message = lines.get(timeout=20)
        if message.get("id") == id_:
            return message["result"]


def test_serve_tells_the_client_a_broken_save_runs_the_last_good_version(home):
    guard = home / "tools" / "guards" / "guard.scm"
    guard.write_text(GUARD)
    proc, lines = start_serve(home)
    try:
        payload = json.loads(RM)
        assert _rpc(lines, proc, "fire", ["pre_tool", payload], 1)["errors"] == []
        guard.write_text(BROKEN)
        ids = iter(range(2, 10_000))
        result = _wait_for(
            lambda: (r := _rpc(lines, proc, "fire", ["pre_tool", payload], next(ids)))
            ["errors"] and r, "the reload of the broken guard")
        assert result["outcome"]["blocked"] is True
        assert result["errors"][0]["message"].startswith(
            f"running last good version of {guard} (saved ")
    finally:
        proc.kill()
        proc.wait(10)


def test_a_serve_started_on_a_broken_guard_runs_its_last_good_version(home):
    guard = guard_saved_broken(home)
    proc, lines = start_serve(home)
    try:
        result = _rpc(lines, proc, "fire", ["pre_tool", json.loads(RM)], 1)
        assert result["outcome"]["blocked"] is True
        assert f"running last good version of {guard}" in result["errors"][0]["message"]
    finally:
        proc.kill()
        proc.wait(10)


def test_serve_socket_tells_the_claude_hook_client_too(home, tmp_path):
    guard = home / "tools" / "guards" / "guard.scm"
    guard.write_text(GUARD)
    path = tmp_path / "harness.sock"
    server = subprocess.Popen([*HARNESS_COMMAND, "serve", "--home", str(home), "--socket",
                               str(path)], stderr=subprocess.DEVNULL)
    try:
        _wait_for(path.exists, "the socket")
        guard.write_text(BROKEN)

        def noted():
            done = claude_hook(home, bash("rm -rf build"), "--socket", str(path))
            return done if "running last good" in done.stdout else None
        done = _wait_for(noted, "the server to report the last good version")
        assert done.returncode == 2
        assert done.stderr == "rm -rf is not allowed here\n"
        assert f"running last good version of {guard}" in json.loads(done.stdout)[
            "systemMessage"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(10)
