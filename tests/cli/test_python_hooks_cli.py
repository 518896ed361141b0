"""A .hy guard and tool and a .py hook through the real command line: fire, call, check,
and serve with hot reload of the .hy file (a broken edit keeps the last good version)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from cli_helpers import run_harness, start_serve

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python_hooks"
FORCE_PUSH = json.dumps({"tool_name": "shell_exec",
                         "arguments": {"command": "git push --force origin main"}})


@pytest.fixture
def py_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "tools" / "py").mkdir(parents=True)
    for name in ("no_force.hy", "audit.py"):
        (home / "tools" / "py" / name).write_text((FIXTURES / name).read_text())
    (home / "tools" / "sandboxed.py").write_text("from harness.api import hook\n")
    (home / "harness.toml").write_text('[tools.tiers]\n"py/" = "unsandboxed"\n')
    return home


def test_fire_runs_the_py_hook_then_the_hy_guard(py_home):
    done = run_harness("fire", "pre_tool", FORCE_PUSH, "--home", str(py_home), "--compact")
    result = json.loads(done.stdout)
    assert [a["source"] for a in result["answers"]] == [
        "py:tools/py/audit.py:5", "hy:tools/py/no_force.hy:4"]
    assert result["outcome"]["blocked"] is True
    # the file in a sandboxed path is reported, naming what to do
    assert f"{py_home}/tools/sandboxed.py:1:1: a .py file runs as Python" in done.stderr
    assert 'give its path the "unsandboxed" tier in harness.toml' in done.stderr


def test_call_runs_hy_and_python_tools_through_the_hooks(py_home):
    words = run_harness("call", "word-count", '{"text": "a b c"}', "--home", str(py_home))
    assert (words.returncode, words.stdout) == (0, "3\n")
    shout = run_harness("call", "shout", '{"text": "hi"}', "--home", str(py_home))
    assert (shout.returncode, shout.stdout) == (0, "HI\n")


def test_check_reports_python_files_and_their_tier(py_home):
    files = [str(py_home / "tools" / "py" / "no_force.hy"), str(py_home / "tools" / "sandboxed.py")]
    done = run_harness("check", *files, "--home", str(py_home))
    assert done.returncode == 1
    assert f"{files[0]}: ok (unsandboxed)\n  tool word-count: count the words of a text\n" \
           "  hook pre_tool (line 4)\n" in done.stdout
    assert f"{files[1]}: error (sandboxed)" in done.stdout


def test_serve_hot_reloads_a_hy_guard_and_keeps_the_last_good_one(py_home):
    guard = py_home / "tools" / "py" / "no_force.hy"
    proc, lines = start_serve(py_home)
    ids = iter(range(1, 100))

    def ask(method: str, params) -> dict:
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params,
                                     "id": next(ids)}).encode() + b"\n")
        proc.stdin.flush()
        while "method" in (message := lines.get(timeout=20)):
            pass  # a notification
        return message["result"]

    def blocked_message() -> str | None:
        outcome = ask("fire", {"hook": "pre_tool", "payload": json.loads(FORCE_PUSH)})
        return outcome["outcome"]["message"]

    def wait_for(event: str) -> dict:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            message = lines.get(timeout=20)
            if message.get("method") == "reload" and message["params"]["event"] == event:
                return message["params"]
        raise AssertionError(f"no {event} notification")

    try:
        assert ask("call", {"tool": "word-count", "args": {"text": "a b"}})["output"] == "2"
        assert blocked_message() == "force push refused: use --force-with-lease"
        guard.write_text(guard.read_text().replace("force push refused", "no force"))
        assert wait_for("reloaded")["path"] == str(guard)
        assert blocked_message() == "no force: use --force-with-lease"
        guard.write_text("(defn [(hook \"pre_tool\")] broken [payload]\n")
        failed = wait_for("failed")
        assert failed["error"] is None  # said once: in the load_errors notification after it
        errors = lines.get(timeout=20)["params"]["errors"]
        [error] = [e for e in errors if e["source"] == "hy:tools/py/no_force.hy"]
        assert error["message"].startswith(f"{guard}:") and error["last_good_runs"]
        assert failed["hooks"] == ["pre_tool"]  # what stays live
        assert blocked_message() == "no force: use --force-with-lease"
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
