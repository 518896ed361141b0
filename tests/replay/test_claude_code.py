"""Claude Code transcripts: the events a real session produced, and what the live hook did."""

from __future__ import annotations

from harness.replay import claude_code, replay
from harness.runtime import Runtime


def test_a_real_session_gives_its_prompt_each_tool_call_and_its_results(session_file):
    transcript = claude_code.read(str(session_file))
    assert transcript.problems == []
    assert [(e.event, e.tool_name) for e in transcript.events] == [
        ("SessionStart", None), ("UserPromptSubmit", None),
        ("PreToolUse", "Bash"), ("PostToolUse", "Bash"),   # ls, rewritten live
        ("PreToolUse", "Bash"),                             # rm -rf build: denied, never ran
        ("PreToolUse", "Bash"), ("PostToolUse", "Bash"),   # echo hello > out.txt
        ("Stop", None)]
    prompt, first = transcript.events[1], transcript.events[2]
    assert prompt.payload["prompt"] == "tidy the project"
    assert first.payload["tool_input"]["command"] == "ls"
    assert first.payload["hook_event_name"] == "PreToolUse"
    assert first.payload["session_id"] == first.session
    # the tool ran with the input the live hook rewrote it to
    assert transcript.events[3].payload["tool_input"] == {"command": "ls -la"}
    assert "out.txt" not in str(transcript.events[3].payload["tool_response"])


def test_what_the_live_hook_decided_is_read_back(session_file):
    calls = [e for e in claude_code.read(str(session_file)).events if e.event == "PreToolUse"]
    assert [(e.input["command"], e.live) for e in calls] == [
        ("ls", "rewrite"), ("rm -rf build", "deny"), ("echo hello > out.txt", "allow")]


def test_replay_reproduces_the_live_decisions(session_file, guard_home):
    with Runtime(guard_home) as home:
        report = replay([str(session_file)], home)
    calls = [e for e in report["events"] if e["event"] == "PreToolUse"]
    assert [e["decision"] for e in calls] == [e["live"] for e in calls] == \
        ["rewrite", "deny", "allow"]
    assert calls[0]["rewritten"] == {"command": "ls -la"}
    assert calls[1]["reason"] == "rm -rf is not allowed here"
    assert report["summary"]["live_differs"] == 0
    [source] = report["summary"]["sources"]
    assert source.startswith("scm:") and source.endswith("guard.scm:9")
    assert report["summary"]["sources"][source] == {"rewrite": 1, "block": 1, "allow": 1}
    assert report["summary"]["decisions"] == {"allow": 6, "rewrite": 1, "deny": 1}


def test_a_home_without_the_guard_would_have_allowed_everything(session_file, tmp_path):
    (tmp_path / "empty").mkdir()
    with Runtime(tmp_path / "empty") as home:
        report = replay([str(session_file)], home)
    assert {e["decision"] for e in report["events"]} == {"allow"}
    assert report["summary"]["live_differs"] == 2
