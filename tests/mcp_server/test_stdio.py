"""``harness mcp`` over stdio, driven by the official SDK client: listing, calling, blocks and
failures as tool errors, permission gates, and bad input that leaves the server serving."""

from __future__ import annotations

import json
import subprocess
import threading

import mcp_types as types
import pytest

from tests.mcp_server.mcp_helpers import harness_argv, run, stdio_client

ERAS = ("legacy", "2026-07-28")


def text(result) -> str:
    return "".join(block.text for block in result.content)


def test_list_gives_each_tool_its_parameters_and_description_in_both_eras(home):
    for mode in ERAS:
        async def scenario(mode=mode):
            async with stdio_client(home, mode=mode) as client:
                return (await client.list_tools()).tools
        tools = {t.name: t for t in run(scenario)}
        assert set(tools) == {"greet", "crash", "harness_hook"}, mode
        assert tools["greet"].description == "Greet someone by name"
        assert tools["greet"].input_schema == {
            "type": "object", "required": ["name"],
            "properties": {"name": {"type": "string", "description": "Name to greet"}}}


def test_builtins_are_listed_when_asked(home):
    async def scenario():
        async with stdio_client(home, "--builtins") as client:
            return {t.name for t in (await client.list_tools()).tools}
    names = run(scenario)
    assert {"greet", "file_head", "write_file", "shell_exec"} <= names


def test_calls_answer_results_and_every_failure_as_a_tool_error(home):
    async def scenario():
        async with stdio_client(home, mode="2026-07-28") as client:
            return [await client.call_tool(name, args) for name, args in (
                ("greet", {"name": "Ada"}),
                ("greet", {"name": "Mallory"}),      # blocked by the pre_tool guard
                ("greet", {"name": 3}),              # wrong argument type
                ("greet", {}),                       # missing argument
                ("crash", {}),                       # fails in its body
                ("nope", {}),                        # unknown
                ("greet", {"name": "Bob"}))]         # and the server still serves
    ok, blocked, wrong, missing, crash, unknown, after = run(scenario)
    assert (text(ok), ok.is_error) == ("Hello, Ada!", False)
    assert blocked.is_error and "no greeting Mallory" in text(blocked)
    assert wrong.is_error and "'name' must be a string" in text(wrong)
    assert missing.is_error and "name" in text(missing)
    assert crash.is_error and f"{home}/tools/crash.scm:4:" in text(crash)
    assert unknown.is_error and "unknown tool 'nope'" in text(unknown)
    assert (text(after), after.is_error) == ("Hello, Bob!", False)


@pytest.mark.parametrize("mode", ERAS)
def test_a_gate_without_a_hook_is_denied_with_a_clear_message_when_nobody_can_be_asked(
        home, mode):
    async def scenario():
        async with stdio_client(home, "--builtins", mode=mode) as client:
            return await client.call_tool("shell_exec", {"command": "echo hi"})
    result = run(scenario)
    assert result.is_error
    assert "no hook answered pre_shell_exec" in text(result)
    assert "does not support elicitation" in text(result) and "--allow" in text(result)


@pytest.mark.parametrize("mode", ERAS)
def test_a_gate_without_a_hook_asks_the_client_by_elicitation(home, mode):
    """2025: a request to the client in the middle of the call; 2026-07-28: the call
    answers input_required and the client calls again with the answer."""
    asked = []

    async def approve(context, params: types.ElicitRequestFormParams):
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"approve": "yes" in params.message})

    async def scenario():
        async with stdio_client(home, "--builtins", mode=mode,
                                elicitation_callback=approve) as client:
            return (await client.call_tool("shell_exec", {"command": "echo yes"}),
                    await client.call_tool("shell_exec", {"command": "echo no"}))
    approved, declined = run(scenario)
    assert asked == ["harness: allow shell_exec to run the shell command 'echo yes'?",
                     "harness: allow shell_exec to run the shell command 'echo no'?"]
    assert not approved.is_error and "yes" in text(approved)
    assert declined.is_error and "did not approve" in text(declined)


def test_allow_approves_gates(home):
    async def scenario():
        async with stdio_client(home, "--builtins", "--allow") as client:
            return await client.call_tool("shell_exec", {"command": "echo allowed"})
    result = run(scenario)
    assert not result.is_error and "allowed" in text(result)


def test_calls_run_as_the_given_context(home):
    async def scenario():
        async with stdio_client(home, "--builtins", "--context", "alice") as client:
            await client.call_tool("write_file", {"path": "vfs:///home/alice/note.txt",
                                                  "content": "mine"})
            return await client.call_tool("write_file", {"path": "vfs:///home/bob/x.txt",
                                                         "content": "theirs"})
    refused = run(scenario)
    assert (home / "vfs" / "home" / "alice" / "note.txt").read_text() == "mine"
    assert refused.is_error and "context 'alice' cannot write" in text(refused)


def _raw_exchange(home, lines: list[str], last_id: int) -> list[dict]:
    """Send raw lines to a fresh ``harness mcp``; its answers up to the one of ``last_id``
    (then stdin is closed, and the server must end with status 0)."""
    process = subprocess.Popen(harness_argv("--home", str(home)), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, process.kill)
    watchdog.start()
    try:
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()
        answers = []
        while not answers or answers[-1].get("id") != last_id:
            line = process.stdout.readline()
            assert line, process.stderr.read()
            answers.append(json.loads(line))
        process.stdin.close()
        assert process.wait() == 0
        return answers, process.stderr.read()
    finally:
        watchdog.cancel()


def test_malformed_json_rpc_gets_an_error_and_the_server_goes_on(home):
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}
    answers, log = _raw_exchange(home, [
        json.dumps(initialize),
        '{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        "{this is not json",
        "[1, 2]",
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/nonsense"}',
        '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 7}}',
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                    "params": {"name": "greet", "arguments": {"name": "Eve"}}})], last_id=4)
    by_id = {a.get("id"): a for a in answers}
    assert by_id[1]["result"]["capabilities"]["tools"] == {"listChanged": True}
    unreadable = [a["error"]["code"] for a in answers if a.get("id") is None]
    assert unreadable == [-32700, -32600]
    assert "bad input from the client" in log
    assert by_id[2]["error"]["code"] == -32601
    assert by_id[3]["error"]["code"] == -32602
    assert by_id[4]["result"]["content"][0]["text"] == "Hello, Eve!"
