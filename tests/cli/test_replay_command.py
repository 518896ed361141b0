"""``harness replay``: a recorded Claude Code session through a home, another home, as
fixtures, with and without declared handlers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
SESSION = str(TRANSCRIPTS / "claude-code" / "session.jsonl")
STRICT = """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (p)
    (if (string-contains (cdr (assoc "command" (cdr (assoc "arguments" p)))) "echo")
        (list (cons "block" #t) (cons "message" "no echo"))
        '())))
"""


@pytest.fixture
def guard(tmp_path) -> Path:
    home = tmp_path / "guard"
    shutil.copytree(TRANSCRIPTS / "home" / "tools", home / "tools")
    return home


@pytest.fixture
def strict(tmp_path) -> Path:
    """The guard, plus a second file that also stops every echo."""
    home = tmp_path / "strict"
    shutil.copytree(TRANSCRIPTS / "home" / "tools", home / "tools")
    (home / "tools" / "strict.scm").write_text(STRICT)
    return home


def test_the_json_report(harness, guard):
    code, out, err = harness("replay", SESSION, "--home", str(guard), "--json")
    assert code == 0, err
    report = json.loads(out)
    [deny] = [e for e in report["events"] if e["decision"] == "deny"]
    assert {key: deny[key] for key in ("session", "index", "line", "event", "tool_name",
                                       "input", "decision", "reason", "live")} == {
        "session": "823d841a-c131-4c9b-b281-48b3e8be04f0", "index": 5, "line": 26,
        "event": "PreToolUse", "tool_name": "Bash",
        "input": {"command": "rm -rf build", "description": "run a command"},
        "decision": "deny", "reason": "rm -rf is not allowed here", "live": "deny"}
    assert [s["decision"] for s in deny["sources"]] == ["block"]
    assert report["summary"]["events"] == 8 and report["problems"] == []


def test_the_text_report_lists_what_was_stopped_or_changed(harness, guard):
    code, out, _ = harness("replay", SESSION, "--home", str(guard))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("session.jsonl:19: #3 PreToolUse Bash 'ls' -> rewrite "
                             "[scm:tools/guard.scm:9]")
    assert lines[1].endswith(":26: #5 PreToolUse Bash 'rm -rf build' -> deny: rm -rf is not "
                             "allowed here [scm:tools/guard.scm:9]")
    assert lines[2] == "8 events replayed: 6 allow, 1 deny, 1 rewrite"
    assert lines[-1] == "  scm:tools/guard.scm:9: 1 allow, 1 block, 1 rewrite"


def test_against_reports_only_the_events_the_homes_decide_differently(harness, guard, strict):
    code, out, _ = harness("replay", SESSION, "--home", str(strict), "--against", str(guard),
                           "--json")
    assert code == 0
    report = json.loads(out)
    [changed] = report["events"]
    assert changed["input"]["command"] == "echo hello > out.txt"
    assert (changed["decision"], changed["against"]["decision"]) == ("deny", "allow")
    assert changed["reason"] == "no echo"
    assert report["summary"]["differences"] == 1
    code, out, _ = harness("replay", SESSION, "--home", str(strict), "--against", str(guard))
    assert "-> deny (other home: allow): no echo" in out
    assert "1 decided differently by the other home" in out


def test_fixtures_pass_on_their_home_and_fail_on_a_home_that_decides_otherwise(
        harness, guard, strict, tmp_path):
    folder = tmp_path / "cases"
    code, _, err = harness("replay", SESSION, "--home", str(guard), "--fixtures", str(folder))
    assert code == 0, err
    [written] = folder.iterdir()
    cases = json.loads(written.read_text())["cases"]
    assert {c["hook"] for c in cases} >= {"PreToolUse", "pre_tool", "UserPromptSubmit"}
    code, out, err = harness("test", str(folder), "--home", str(guard))
    assert code == 0, out + err
    code, out, _ = harness("test", str(folder), "--home", str(strict))
    assert code == 1
    [failed] = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert "echo" in failed or "#6" in failed


def test_against_with_fixtures_writes_only_the_differences(harness, guard, strict, tmp_path):
    folder = tmp_path / "diff"
    harness("replay", SESSION, "--home", str(strict), "--against", str(guard),
            "--fixtures", str(folder))
    [written] = folder.iterdir()
    cases = json.loads(written.read_text())["cases"]
    assert [c["hook"] for c in cases] == ["PreToolUse", "pre_tool"]
    assert cases[1]["expect"]["blocked"] is True


def test_declared_handlers_run_only_with_handlers(harness, guard, tmp_path):
    marker = tmp_path / "ran"
    (guard / "hooks.toml").write_text(
        '[[PreToolUse]]\nmatcher = "Bash"\n[[PreToolUse.hooks]]\ntype = "command"\n'
        f'command = "echo x >> {marker}"\n')
    code, out, _ = harness("replay", SESSION, "--home", str(guard), "--json")
    assert code == 0 and not marker.exists()
    sources = json.loads(out)["summary"]["sources"]
    assert sources[f"handler:{guard}/hooks.toml:PreToolUse[0].hooks[0]"] == {"skipped": 3}
    code, _, _ = harness("replay", SESSION, "--home", str(guard), "--handlers")
    assert code == 0 and marker.read_text().count("x") == 3


def test_an_unknown_host_or_home_is_bad_input(harness, guard, tmp_path):
    code, _, err = harness("replay", SESSION, "--home", str(guard), "--host", "claud-code")
    assert code == 1 and "did you mean 'claude-code'?" in err
    code, _, err = harness("replay", SESSION, "--home", str(tmp_path / "nope"))
    assert code == 1 and "does not exist" in err


def test_host_forces_the_reader(harness, guard, tmp_path):
    code, out, _ = harness("replay", SESSION, "--home", str(guard), "--host", "codex",
                           "--json")
    assert code == 0
    report = json.loads(out)
    assert report["summary"]["events"] == 0 and report["problems"]
