"""Broken input is reported as FILE:LINE and skipped; it never stops a replay."""

from __future__ import annotations

import json

from harness.replay import replay
from harness.runtime import Runtime


def _replay(paths, home):
    with Runtime(home) as runtime:
        return replay([str(p) for p in paths], runtime)


def test_malformed_unknown_and_truncated_lines_are_reported_and_skipped(session_file,
                                                                        guard_home, tmp_path):
    lines = session_file.read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    tail = json.dumps({"type": "user", "message": {"role": "user", "content": "more"}})
    broken.write_text("\n".join([
        *lines[:5],
        "{not json",                                   # line 6
        "[1, 2]",                                      # line 7
        json.dumps({"type": "hologram", "sessionId": "x"}),   # line 8: unknown entry type
        json.dumps({"type": "assistant", "sessionId": "x", "message": "oops"}),  # line 9
        *lines[5:],
        tail[:25]]))                                   # truncated: no newline, cut short
    report = _replay([broken], guard_home)
    last = len(lines) + 5
    assert report["problems"] == [
        (f"{broken}:6: not JSON (unexpected character, expected a string key: line 1 column 2 "
        "(char 1)): skipped"),
        f"{broken}:7: a JSON list, not an object: skipped",
        (f"{broken}:8: unknown entry type 'hologram' (no hook event read from it; reported "
        "once per file)"),
        f"{broken}:9: malformed 'assistant' entry (no message object): skipped",
        f"{broken}:{last}: truncated line (the file ends inside a JSON value): skipped",
    ]
    calls = [e for e in report["events"] if e["event"] == "PreToolUse"]
    assert [e["decision"] for e in calls] == ["rewrite", "deny", "allow"]


def test_each_problem_names_its_file_and_line(session_file, guard_home, tmp_path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text(session_file.read_text() + "{\"type\": \"user\", \"mess")
    report = _replay([broken], guard_home)
    lines = session_file.read_text().count("\n")
    assert report["problems"] == [(f"{broken}:{lines + 1}: truncated line (the file ends "
                                  "inside a JSON value): skipped")]


def test_a_transcript_of_an_unknown_host_is_reported_and_skipped(session_file, guard_home,
                                                                 tmp_path):
    (tmp_path / "logs").mkdir()
    other = tmp_path / "logs" / "other.jsonl"
    other.write_text(json.dumps({"kind": "turn", "text": "hello"}) + "\n")
    empty = tmp_path / "logs" / "empty.jsonl"
    empty.write_text("\n")
    report = _replay([tmp_path / "logs", session_file, tmp_path / "missing"], guard_home)
    assert report["problems"] == [
        f"{empty}:1: an empty file: skipped (give --host to force a reader)",
        (f"{other}:1: not a transcript of a known host (Claude Code, Codex) nor a harness "
        "recording: skipped (give --host to force a reader)"),
        f"{tmp_path / 'missing'}:0: no such file or folder"]
    assert report["summary"]["events"] == 8


def test_a_tool_result_without_its_call_is_reported(guard_home, tmp_path):
    orphan = tmp_path / "orphan.jsonl"
    orphan.write_text(json.dumps({"type": "user", "sessionId": "s", "message": {
        "role": "user", "content": [{"type": "tool_result", "tool_use_id": "nope",
                                     "content": "x"}]}}) + "\n")
    report = _replay([orphan], guard_home)
    assert report["problems"] == [(f"{orphan}:1: a tool_result for an unknown tool_use_id: "
                                  "skipped")]
