"""The tool list, live over MCP: an edit, a new file, a deletion in the home, or a tool file
an agent writes through ``write_file``, change what ``tools/list`` answers while the client
is connected, and the client is told (both protocol eras); a broken edit keeps the last
good tool and says so."""

from __future__ import annotations

import anyio

from tests.mcp_server.mcp_helpers import run, stdio_client, tool_source, wait_for

#: a change is applied within ~0.1 s; the bound is generous for a loaded machine (the
#: latency itself is measured by bench/mcp.py)
SETTLE = 10.0


def names(listing) -> set[str]:
    return {t.name for t in listing.tools}


def test_a_new_file_is_listed_and_a_2025_client_is_notified(home):
    heard = []

    async def on_message(message) -> None:
        heard.append(getattr(message, "method", type(message).__name__))

    async def scenario():
        async with stdio_client(home, message_handler=on_message) as client:
            assert "hello" not in names(await client.list_tools())
            (home / "tools" / "hello.scm").write_text(tool_source("hello", "hi there"))

            async def listed():
                return "hello" in names(await client.list_tools())
            assert await wait_for(listed, SETTLE)
            assert await wait_for(_async(lambda: heard), SETTLE)
            return await client.call_tool("hello", {})
    result = run(scenario)
    assert result.content[0].text == "hi there"
    assert "notifications/tools/list_changed" in heard


def test_edits_and_deletions_reach_a_2026_client_on_its_listen_stream(home):
    async def scenario():
        async with stdio_client(home, mode="2026-07-28") as client, \
                client.listen(tools_list_changed=True) as stream:
            events = []

            async def collect():
                async for event in stream:
                    events.append(event)
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(collect)
                (home / "tools" / "hello.scm").write_text(tool_source("hello", "one"))
                assert await wait_for(_async(lambda: len(events) >= 1), SETTLE)
                assert "hello" in names(await client.list_tools())
                (home / "tools" / "hello.scm").write_text(tool_source("hello", "two"))

                async def says_two():
                    return (await client.call_tool("hello", {})).content[0].text == "two"
                assert await wait_for(says_two, SETTLE)
                (home / "tools" / "hello.scm").unlink()

                async def gone():
                    return "hello" not in names(await client.list_tools())
                assert await wait_for(gone, SETTLE)
                tasks.cancel_scope.cancel()
            return events
    events = run(scenario)
    assert {type(e).__name__ for e in events} == {"ToolsListChanged"}
    assert len(events) >= 2  # the new file, and its deletion (the edit changed no schema)


def test_a_tool_an_agent_writes_through_write_file_is_callable_at_once(home):
    heard = []

    async def on_message(message) -> None:
        heard.append(getattr(message, "method", None))

    async def scenario():
        async with stdio_client(home, "--builtins", message_handler=on_message) as client:
            wrote = await client.call_tool("write_file", {
                "path": "vfs:///tools/home/default/shout.scm",
                "content": tool_source("shout", "HEY")})
            assert not wrote.is_error, wrote.content
            return (await client.call_tool("shout", {}), names(await client.list_tools()))
    called, listed = run(scenario)
    assert not called.is_error and called.content[0].text == "HEY"
    assert "shout" in listed
    assert "notifications/tools/list_changed" in heard  # told before the write's result


def test_a_broken_edit_keeps_the_last_good_tool_and_says_so(home, tmp_path):
    errlog = (tmp_path / "server.log").open("w+")

    async def scenario():
        async with stdio_client(home, errlog=errlog) as client:
            (home / "tools" / "greet.scm").write_text("(define-tool greet\n  (description")

            async def flagged():
                tools = {t.name: t for t in (await client.list_tools()).tools}
                return "older version" in (tools["greet"].description or "")
            assert await wait_for(flagged, SETTLE)
            tools = {t.name: t for t in (await client.list_tools()).tools}
            return tools["greet"], await client.call_tool("greet", {"name": "Ada"})
    greet, called = run(scenario)
    assert greet.description.startswith("Greet someone by name\n\n[harness: this tool runs "
                                        "an older version")
    assert f"{home}/tools/greet.scm:1:" in greet.description
    assert greet.input_schema["required"] == ["name"]
    assert (called.content[0].text, called.is_error) == ("Hello, Ada!", False)
    errlog.seek(0)
    assert f"{home}/tools/greet.scm:1:" in errlog.read()  # the server log says it too


def _async(check):
    async def predicate():
        return bool(check())
    return predicate
