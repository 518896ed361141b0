"""One form of a tool file's source everywhere a user reads it: relative to the home, as the
user wrote it (``scm:tools/g.scm:2``), in ``fire``, ``call``, ``serve``, ``claude-hook``,
the REPL and the audit log (issue 24, item 13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_harness

from harness.repl.session import ReplSession
from harness.runtime import Runtime

GUARD = """(define (ok x) x)
(register-hook 'pre_tool (lambda (p) (list (cons "block" #t) (cons "message" "no"))))
"""
SOURCE = "scm:tools/g.scm:2"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "g.scm").write_text(GUARD)
    (home / "tools" / "broken.scm").write_text("(define x (car 5))\n")
    (home / "harness.toml").write_text('[record]\npath = "audit.jsonl"\n')
    return home


def test_fire_names_sources_relative_to_the_home(home):
    done = run_harness("fire", "pre_tool", '{"tool_name": "x"}', "--home", str(home))
    result = json.loads(done.stdout)
    assert [a["source"] for a in result["answers"]] == [SOURCE]
    assert [e["source"] for e in result["errors"]] == ["scm:tools/broken.scm"]
    [entry] = [json.loads(line) for line in (home / "audit.jsonl").read_text().splitlines()]
    assert SOURCE in json.dumps(entry) and f"scm:{home}" not in json.dumps(entry)


def test_call_and_claude_hook_say_the_same_source(home):
    (home / "tools" / "a.scm").write_text("(register-hook 'pre_tool (lambda (p) (car 5)))\n")
    done = run_harness("call", "file_head", '{"path": "x"}', "--home", str(home))
    assert "harness call: scm:tools/a.scm:1: pre_tool hook failed" in done.stderr
    assert f"scm:{home}" not in done.stderr
    event = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
             "tool_input": {"command": "ls"}, "cwd": str(home)}
    done = run_harness("claude-hook", "--home", str(home), stdin=json.dumps(event))
    assert f"scm:{home}" not in done.stdout + done.stderr


def test_serve_and_the_repl_say_the_same_source(home):
    request = {"jsonrpc": "2.0", "id": 1, "method": "fire",
               "params": {"hook": "pre_tool", "payload": {"tool_name": "x"}}}
    done = run_harness("serve", "--home", str(home), stdin=json.dumps(request) + "\n")
    [response] = [m for m in map(json.loads, done.stdout.splitlines()) if m.get("id") == 1]
    assert [a["source"] for a in response["result"]["answers"]] == [SOURCE]
    with Runtime(home) as runtime:
        shown = ReplSession(runtime).execute(',fire pre_tool {"tool_name": "x"}')
    assert SOURCE in shown and "scm:tools/broken.scm" in shown


def test_call_says_a_load_failure_once(home):
    done = run_harness("call", "file_head", '{"path": "x"}', "--home", str(home))
    assert done.stderr.count("car: expected a pair") == 1, done.stderr
