"""harness.integrations.claude_agent_sdk through the SDK's own control protocol: a custom
Transport plays the CLI, registering the hooks of ``initialize`` and calling them with
``hook_callback`` requests as the CLI does."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("claude_agent_sdk", reason="needs the claude-agent-sdk extra: "
                    "pip install 'harness[claude-agent-sdk]'")

from claude_agent_sdk import ClaudeAgentOptions, query
from claude_agent_sdk._internal.transport import Transport

from harness.hosts.claude_code import answer_event
from harness.integrations.claude_agent_sdk import SDK_EVENTS, harness_hooks, sdk_answer


class ScriptedCLI(Transport):
    """The CLI's side of the control channel: once the SDK has initialized and sent the
    prompt, it fires ``events`` (``(event name, input)``) at the registered callbacks and
    keeps their answers in ``answers``; ``hooks`` is what ``initialize`` registered."""

    def __init__(self, events: list[tuple[str, dict]]) -> None:
        self.events = events
        self.hooks: dict = {}
        self.answers: dict[str, dict] = {}
        self.inbox: asyncio.Queue = asyncio.Queue()

    async def connect(self) -> None:
        pass

    async def write(self, data: str) -> None:
        for line in filter(None, data.splitlines()):
            await self._receive(json.loads(line))

    async def _receive(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "control_request" and message["request"]["subtype"] == "initialize":
            self.hooks = message["request"]["hooks"]
            await self.inbox.put({"type": "control_response", "response": {
                "subtype": "success", "request_id": message["request_id"],
                # as a CLI recent enough to honour onFailure says (the SDK checks it)
                "response": {"hook_on_failure_supported": True}}})
        elif kind == "user":
            for n, (event, data) in enumerate(self.events):
                [matcher] = self.hooks[event]
                await self.inbox.put({"type": "control_request", "request_id": f"cli-{n}",
                                      "request": {"subtype": "hook_callback",
                                                  "callback_id": matcher["hookCallbackIds"][0],
                                                  "input": data, "tool_use_id": "toolu_1"}})
        elif kind == "control_response":
            response = message["response"]
            self.answers[response["request_id"]] = response
            if len(self.answers) == len(self.events):
                await self.inbox.put({"type": "result", "subtype": "success",
                                      "duration_ms": 1, "duration_api_ms": 1,
                                      "is_error": False, "num_turns": 1,
                                      "session_id": "s-1", "result": "done"})
                await self.inbox.put(None)

    async def read_messages(self):
        while (message := await self.inbox.get()) is not None:
            yield message

    async def close(self) -> None:
        pass

    def is_ready(self) -> bool:
        return True

    async def end_input(self) -> None:
        pass


def pre_tool_use(tool_name: str, tool_input: dict) -> dict:
    return {"hook_event_name": "PreToolUse", "session_id": "s-1", "cwd": "/tmp",
            "transcript_path": "/tmp/t.jsonl", "tool_name": tool_name,
            "tool_input": tool_input, "tool_use_id": "toolu_1"}


def run_cli(runtime, *events: dict) -> list[dict]:
    """Run a query whose CLI fires ``events``; the callbacks' answers, in order."""
    cli = ScriptedCLI([(e["hook_event_name"], e) for e in events])

    async def go() -> None:
        options = ClaudeAgentOptions(hooks=harness_hooks(runtime))
        async for _ in query(prompt="go", options=options, transport=cli):
            pass

    asyncio.run(go())
    assert set(cli.hooks) == set(SDK_EVENTS)
    assert cli.hooks["PreToolUse"][0]["onFailure"] == "block"
    assert cli.hooks["PostToolUse"][0]["onFailure"] == "continue"
    answers = [cli.answers[f"cli-{n}"] for n in range(len(events))]
    assert all(a["subtype"] == "success" for a in answers), answers
    return [a["response"] for a in answers]


def test_a_denied_bash_command_is_denied_with_the_guards_reason(guarded):
    [answer] = run_cli(guarded, pre_tool_use("Bash", {"command": "rm -rf /"}))
    assert answer["hookSpecificOutput"] == {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": guarded.deny_reason}


def test_a_harmless_call_gets_no_objection(guarded):
    [answer] = run_cli(guarded, pre_tool_use("Bash", {"command": "ls"}))
    assert answer.get("hookSpecificOutput", {}).get("permissionDecision") != "deny"


def test_a_rewrite_is_updated_input(guarded):
    [answer] = run_cli(guarded, pre_tool_use("greet", {"name": "mallory"}))
    assert answer["hookSpecificOutput"]["updatedInput"] == {"name": "harness"}


def test_a_crashing_guard_fails_closed(guarded):
    [answer] = run_cli(guarded, pre_tool_use("Write", {"file_path": "/tmp/a",
                                                        "content": "b"}))
    specific = answer["hookSpecificOutput"]
    assert specific["permissionDecision"] == "deny"
    assert "hook failed" in specific["permissionDecisionReason"]


def test_a_permission_point_nobody_guards_is_no_decision(guarded):
    [answer] = run_cli(guarded, pre_tool_use("Read", {"file_path": "/tmp/a"}))
    assert "hookSpecificOutput" not in answer


def test_post_tool_use_fires_post_tool(guarded):
    event = dict(pre_tool_use("Bash", {"command": "ls"}), hook_event_name="PostToolUse",
                 tool_response="a b")
    run_cli(guarded, event)
    assert guarded.seen_post_tool == [("Bash", {"command": "ls"}, "a b")]


def test_answers_are_claude_hooks_answers(guarded):
    """Where claude-hook answers in JSON, the callback answers the same JSON."""
    event = pre_tool_use("greet", {"name": "mallory"})
    reply = answer_event(guarded, json.dumps(event))
    assert reply.exit_code == 0
    assert sdk_answer(guarded, event) == json.loads(reply.stdout)


def test_a_blocking_prompt_hook_blocks_in_json(guarded):
    guarded.register_hook("UserPromptSubmit", lambda p: {"decision": "block",
                                                         "reason": "not today"})
    [answer] = run_cli(guarded, {"hook_event_name": "UserPromptSubmit", "session_id": "s-1",
                                 "cwd": "/tmp", "transcript_path": "/tmp/t.jsonl",
                                 "prompt": "hi"})
    assert answer["decision"] == "block" and answer["reason"] == "not today"
