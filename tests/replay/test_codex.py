"""Codex rollouts. The sample is built here to the rollout format as publicly documented
(session_meta, turn_context, response_item, event_msg lines); it is not a file a Codex run
wrote."""

from __future__ import annotations

import json

from harness.replay import codex, replay
from harness.runtime import Runtime


def _line(kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-11-28T10:00:00.000Z", "type": kind,
                       "payload": payload})


def _rollout(tmp_path):
    path = tmp_path / "sessions" / "2026" / "11" / "28" / "rollout-2026-11-28T10-00-00-s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join([
        _line("session_meta", {"id": "s1", "cwd": "/work/app", "cli_version": "0.171.0",
                               "originator": "codex_exec", "source": "exec"}),
        _line("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>...</environment_context>"}]}),
        _line("event_msg", {"type": "user_message", "message": "clean up", "kind": "plain"}),
        _line("turn_context", {"cwd": "/work/app", "model": "gpt-5-codex",
                               "approval_policy": "never"}),
        _line("response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                                "arguments": json.dumps({"command": ["bash", "-lc", "ls"]})}),
        _line("response_item", {"type": "function_call_output", "call_id": "c1",
                                "output": json.dumps({"output": "a.txt\n",
                                                      "metadata": {"exit_code": 0}})}),
        _line("response_item", {"type": "function_call", "name": "shell", "call_id": "c2",
                                "arguments": json.dumps({"command": ["bash", "-lc",
                                                                     "rm -rf build"]})}),
        _line("response_item", {"type": "custom_tool_call", "name": "apply_patch",
                                "call_id": "c3", "input": "*** Begin Patch\n*** End Patch"}),
        _line("event_msg", {"type": "token_count", "info": None}),
        _line("response_item", {"type": "reasoning", "summary": []}),
    ]) + "\n")
    return path


def test_a_rollout_gives_codex_hook_events(tmp_path):
    transcript = codex.read(str(_rollout(tmp_path)))
    assert transcript.problems == []
    assert [(e.event, e.tool_name, e.input) for e in transcript.events] == [
        ("SessionStart", None, None),
        ("UserPromptSubmit", None, None),
        ("PreToolUse", "Bash", {"command": "ls"}),
        ("PostToolUse", "Bash", {"command": "ls"}),
        ("PreToolUse", "Bash", {"command": "rm -rf build"}),
        ("PreToolUse", "apply_patch", {"command": "*** Begin Patch\n*** End Patch"})]
    assert all(e.host == "codex" and e.session == "s1" for e in transcript.events)
    post = transcript.events[3].payload
    assert post["tool_response"] == "a.txt\n"
    assert post["model"] == "gpt-5-codex" and post["cwd"] == "/work/app"


def test_a_folder_of_rollouts_is_found_and_replayed_as_codex(tmp_path, guard_home):
    _rollout(tmp_path)
    with Runtime(guard_home) as home:
        report = replay([str(tmp_path / "sessions")], home)
    assert report["problems"] == []
    decisions = {e["input"]["command"]: e["decision"] for e in report["events"]
                 if e["event"] == "PreToolUse" and e["tool_name"] == "Bash"}
    assert decisions == {"ls": "rewrite", "rm -rf build": "deny"}
    assert {e["host"] for e in report["events"]} == {"codex"}


def test_unknown_rollout_items_are_reported_once(tmp_path, guard_home):
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join([
        _line("session_meta", {"id": "s2", "cwd": "/w"}),
        _line("response_item", {"type": "teleport", "x": 1}),
        _line("response_item", {"type": "teleport", "x": 2}),
        _line("response_item", {"type": "function_call_output", "call_id": "zz",
                                "output": "x"}),
    ]) + "\n")
    transcript = codex.read(str(path))
    assert [str(p) for p in transcript.problems] == [
        f"{path}:2: unknown response item 'teleport' (reported once per file): skipped",
        f"{path}:4: an output for an unknown call_id: skipped"]
