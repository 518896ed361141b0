"""Record a fresh real Claude Code session through a live harness guard, then replay it:
the transcript and the audit log both give back the decisions the live hook made."""

from __future__ import annotations

import json

from harness.replay import replay
from harness.runtime import Runtime
from tests.e2e.record_session import record_session


def test_replay_reproduces_a_fresh_sessions_live_decisions(claude_code, harness_executable,
                                                            tmp_path):
    transcript, audit = record_session(claude_code, harness_executable)
    assert not (claude_code.project / "build").exists()
    assert (claude_code.project / "out.txt").read_text() == "hello\n"
    recorded = [json.loads(line) for line in audit.read_text().splitlines()]
    live = {r["payload"]["tool_input"]["command"]: r["decision"] for r in recorded
            if r["event"] == "PreToolUse"}
    assert live == {"ls": "rewrite", "rm -rf build": "deny", "echo hello > out.txt": "allow"}

    with Runtime(claude_code.root / "harness-home") as home:
        from_transcript = replay([str(transcript)], home)
    with Runtime(claude_code.root / "harness-home") as home:
        from_log = replay([str(audit)], home)
    for report in (from_transcript, from_log):
        assert report["problems"] == []
        calls = {e["input"]["command"]: (e["decision"], e["live"]) for e in report["events"]
                 if e["event"] == "PreToolUse"}
        assert calls == {command: (decision, decision) for command, decision in live.items()}
        assert report["summary"]["live_differs"] == 0
    # replaying wrote nothing to the audit log
    assert len(audit.read_text().splitlines()) == len(recorded)
