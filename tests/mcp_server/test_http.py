"""``harness mcp --http``: streamable HTTP on loopback behind the bearer token of
HOME/serve.token, driven by the official SDK client; live changes reach clients of both
protocol eras; a client that vanishes mid-call leaves the server serving."""

from __future__ import annotations

import json
import stat
import subprocess
import urllib.error
import urllib.request

import anyio
import pytest

from tests.mcp_server.mcp_helpers import (
    harness_argv,
    http_client,
    http_server,
    run,
    tool_source,
    wait_for,
)

SETTLE = 10.0
SLOW = """import time
from harness.api import tool

@tool(description="sleeps a while", parameters={"seconds": {"type": "number"}})
def nap(args):
    time.sleep(args["seconds"])
    return "rested"
"""


def _post(url: str, token: str | None) -> int:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    headers = {"Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=30):
            return 200
    except urllib.error.HTTPError as exc:
        return exc.code


def test_the_token_is_made_private_and_required(home):
    with http_server(home) as (url, token, _):
        assert stat.S_IMODE((home / "serve.token").stat().st_mode) == 0o600
        assert _post(url, None) == 401
        assert _post(url, "not-the-token") == 401

        async def scenario():
            async with http_client(url, token) as client:
                return await client.call_tool("greet", {"name": "Ada"})
        assert run(scenario).content[0].text == "Hello, Ada!"


def test_a_token_file_others_can_read_is_refused(home):
    (home / "serve.token").write_text("secret\n")
    (home / "serve.token").chmod(0o644)
    done = subprocess.run(harness_argv("--home", str(home), "--http", "127.0.0.1:0"),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "serve.token can be read by others" in done.stderr


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_list_call_and_errors_over_http(home, mode):
    with http_server(home) as (url, token, _):
        async def scenario():
            async with http_client(url, token, mode=mode) as client:
                listed = {t.name for t in (await client.list_tools()).tools}
                return listed, await client.call_tool("greet", {"name": "Mallory"}), \
                    await client.call_tool("crash", {})
        listed, blocked, crashed = run(scenario)
    assert listed == {"greet", "crash", "harness_hook"}
    assert blocked.is_error and "no greeting Mallory" in blocked.content[0].text
    assert crashed.is_error and f"{home}/tools/crash.scm:4:" in crashed.content[0].text


def test_both_eras_are_told_of_a_new_file_over_http(home):
    with http_server(home) as (url, token, _):
        async def scenario():
            heard, events = [], []

            async def on_message(message) -> None:
                heard.append(getattr(message, "method", None))
            async with http_client(url, token, message_handler=on_message) as legacy, \
                    http_client(url, token, mode="2026-07-28") as modern, \
                    modern.listen(tools_list_changed=True) as stream:
                async def collect():
                    async for event in stream:
                        events.append(event)
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(collect)
                    await legacy.list_tools()
                    (home / "tools" / "hello.scm").write_text(tool_source("hello", "hi"))

                    async def both_told():
                        return "notifications/tools/list_changed" in heard and events
                    assert await wait_for(both_told, SETTLE)
                    listed = {t.name for t in (await modern.list_tools()).tools}
                    tasks.cancel_scope.cancel()
            return listed
        assert "hello" in run(scenario)


def test_a_client_that_vanishes_mid_call_leaves_the_server_serving(home):
    (home / "harness.toml").write_text('[tools.tiers]\n"py/" = "unsandboxed"\n')
    (home / "tools" / "py").mkdir()
    (home / "tools" / "py" / "nap.py").write_text(SLOW)
    with http_server(home) as (url, token, process):
        async def vanish():
            async with http_client(url, token) as client:
                with anyio.move_on_after(0.5):
                    await client.call_tool("nap", {"seconds": 2})

        async def still_serving():
            async with http_client(url, token) as client:
                return await client.call_tool("greet", {"name": "Bob"})
        run(vanish)
        assert run(still_serving).content[0].text == "Hello, Bob!"
        assert process.poll() is None
