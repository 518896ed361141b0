"""``mcp_tool`` handlers: call a tool of a configured MCP server, with the MCP Python SDK.

Servers are named under ``[mcp_servers.NAME]`` in hooks.toml or ``mcpServers`` in a source
file (a project's ``.mcp.json`` can be listed as one): ``{"command", "args", "env", "cwd"}``
starts a server over stdio, ``{"url"}`` reaches one over streamable HTTP. A server is
started on first use and kept connected, so a runtime that lives (``harness serve``) pays
its start-up once; `McpServers.close` stops them all.

The tool gets ``input`` with ``${path}`` replaced from the event (``"${tool_input.file_path}"``;
a string that is only a placeholder takes the value's own JSON type), or the whole event
when the handler has no ``input``. Its text content is read like a command's stdout; a
result with ``isError``, a server that cannot be started or reached, and a timeout are
non-blocking errors. What a stdio server writes to stderr is kept (the last lines show in
its errors), never mixed into ours.
"""

from __future__ import annotations

import asyncio
import logging
import re
import tempfile
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

import orjson

__all__ = ["McpServers", "substitute"]

log = logging.getLogger("harness.handlers")

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z0-9_.\-]+)\}")
_CLOSE_TIMEOUT = 5.0


def _lookup(event: Mapping, path: str) -> object:
    value: object = event
    for part in path.split("."):
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def substitute(template: object, event: Mapping) -> object:
    """`template` (a handler's ``input``) with every ``${path}`` replaced from `event`."""
    if isinstance(template, dict):
        return {key: substitute(value, event) for key, value in template.items()}
    if isinstance(template, list):
        return [substitute(value, event) for value in template]
    if not isinstance(template, str):
        return template
    whole = _PLACEHOLDER.fullmatch(template)
    if whole:
        return _lookup(event, whole.group(1))

    def text(match: re.Match) -> str:
        value = _lookup(event, match.group(1))
        if value is None:
            return ""
        return value if isinstance(value, str) else orjson.dumps(value).decode()
    return _PLACEHOLDER.sub(text, template)


class _Connection:
    """One connected server: a task on the loop that owns the SDK client and answers the
    calls put in its queue, one at a time, until it is told to stop or the server fails."""

    def __init__(self, name: str, spec: dict) -> None:
        self.name = name
        self.spec = spec
        self.queue: asyncio.Queue = asyncio.Queue()
        self.failure: str | None = None
        # the server's stderr (the SDK needs a real file); closed with this object
        self.errlog = tempfile.TemporaryFile(  # noqa: SIM115
            "w+", encoding="utf-8", errors="replace")
        self.task = asyncio.get_running_loop().create_task(self._serve())

    @property
    def alive(self) -> bool:
        return not self.task.done()

    async def _serve(self) -> None:
        from mcp import Client, StdioServerParameters, stdio_client
        if "url" in self.spec:
            target: object = self.spec["url"]
        else:  # a transport of our own: the server's stderr goes to errlog, not ours
            target = stdio_client(StdioServerParameters(
                command=self.spec["command"], args=list(self.spec.get("args", ())),
                env=self.spec.get("env"), cwd=self.spec.get("cwd")), errlog=self.errlog)
        pending: Future | None = None
        try:
            async with Client(target) as client:
                while True:
                    call = await self.queue.get()
                    if call is None:
                        return
                    tool, arguments, timeout, pending = call
                    try:
                        result = await asyncio.wait_for(client.call_tool(tool, arguments),
                                                        timeout)
                    except TimeoutError:
                        pending.set_exception(TimeoutError(f"timed out after {timeout:g} s"))
                    except Exception as exc:  # noqa: BLE001 - the server's failure, reported
                        pending.set_exception(exc)
                    else:
                        pending.set_result(result)
                    pending = None
        except BaseException as exc:
            self.failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            self.failure += self._stderr_tail()
            if pending is not None and not pending.done():
                pending.set_exception(ConnectionError(self.failure))
            while not self.queue.empty():
                call = self.queue.get_nowait()
                if call is not None and not call[3].done():
                    call[3].set_exception(ConnectionError(self.failure))
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise

    def _stderr_tail(self) -> str:
        try:
            self.errlog.flush()
            self.errlog.seek(0)
            lines = [line for line in self.errlog.read().splitlines() if line.strip()]
        except (OSError, ValueError):
            return ""
        return f" (its stderr ends: {' | '.join(lines[-3:])})" if lines else ""


class McpServers:
    """The MCP servers of a runtime, each connected on first use, on one event loop thread
    of their own (started on first use too)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._connections: dict[tuple[str, bytes], _Connection] = {}

    def call(self, name: str, spec: dict, tool: str, arguments: dict,
             timeout: float) -> tuple[str | None, str | None]:
        """Call `tool` of the server `name`; (its text, None) or (None, why it failed)."""
        try:
            import mcp  # noqa: F401 - only to say clearly when the SDK is missing
        except ImportError:
            return None, "the MCP Python SDK is not installed (pip install 'mcp>=2.3,<3')"
        loop = self._start()
        key = (name, orjson.dumps(spec, option=orjson.OPT_SORT_KEYS))
        future: Future = Future()

        def submit() -> None:
            connection = self._connections.get(key)
            if connection is None or not connection.alive:
                connection = self._connections[key] = _Connection(name, spec)
            connection.queue.put_nowait((tool, arguments, timeout, future))
        loop.call_soon_threadsafe(submit)
        try:
            result = future.result(timeout + 1.0)  # the call's own timeout fires first
        except FutureTimeout:
            return None, f"MCP server {name}: no answer after {timeout:g} s"
        except Exception as exc:  # noqa: BLE001 - what the server or the SDK raised
            text = str(exc) or type(exc).__name__
            return None, f"MCP server {name}: {text}"
        text = "\n".join(block.text for block in result.content
                         if getattr(block, "type", None) == "text")
        if result.is_error:
            return None, f"MCP tool {name}/{tool} failed: {text or 'isError without text'}"
        return text, None

    def close(self) -> None:
        """Stop every server (closing their stdin, then killing what is left) and the loop."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None:
            return

        async def stop_all() -> None:
            for connection in self._connections.values():
                if connection.alive:
                    connection.queue.put_nowait(None)
            tasks = [c.task for c in self._connections.values()]
            if tasks:
                await asyncio.wait(tasks, timeout=_CLOSE_TIMEOUT)
            self._connections.clear()
        try:
            asyncio.run_coroutine_threadsafe(stop_all(), loop).result(_CLOSE_TIMEOUT + 1)
        except Exception as exc:  # noqa: BLE001 - closing must not raise into the host
            log.warning("stopping the MCP servers: %s", exc)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(_CLOSE_TIMEOUT)

    def _start(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def run() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()
                    loop.close()
                self._thread = threading.Thread(target=run, name="harness-mcp", daemon=True)
                self._thread.start()
                ready.wait()
                self._loop = loop
            return self._loop
