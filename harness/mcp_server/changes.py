"""The tool list, live: when what ``tools/list`` would answer changes, every connected client
is told at once.

Two eras of the protocol are told two ways: a client of the 2025 protocol (the
``initialize`` handshake) gets ``notifications/tools/list_changed`` on its connection; a
2026-07-28 client gets a ``ToolsListChanged`` event on each ``subscriptions/listen`` stream
it opened (the SDK's `ListenHandler` over an in-memory bus).

The list can change two ways: the hot-reload watcher applied an edit of the home (it calls
`ToolListChanges.reloaded` on its thread), or a tool call changed it itself (``write_file``
into ``vfs:///tools/`` loads the file at once; the server calls `after_call`). Either way
the list is rebuilt and compared with the one last announced, so a reload that changes
nothing a client sees (a hook edited) tells nobody.
"""

from __future__ import annotations

import asyncio
import logging
import threading

from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged

from harness.mcp_server.listing import mcp_tools

log = logging.getLogger("harness.mcp")


class ToolListChanges:
    """Watches one runtime's tool list for the server (see the module doc)."""

    def __init__(self, runtime, builtins: bool) -> None:
        self.runtime = runtime
        self.builtins = builtins
        self.bus = InMemorySubscriptionBus()
        #: serves ``subscriptions/listen`` (2026-07-28 clients)
        self.listen = ListenHandler(self.bus)
        self._legacy_sessions: list = []  # 2025 clients' sessions, told one by one
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._registry_seen = self._registry_state()
        self._announced = self._listing()

    def _registry_state(self) -> tuple:
        # cheap: the registry swaps these tuples on every change, and failures is small
        registry = self.runtime.registry
        return registry.files, registry.host_tools, dict(registry.failures)

    def _listing(self) -> list[dict]:
        return [t.model_dump(by_alias=True, exclude_none=True)
                for t in mcp_tools(self.runtime, self.builtins)]

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Announce on ``loop`` (the server's event loop) from now on."""
        self._loop = loop

    def remember(self, session) -> None:
        """A 2025-protocol client finished its handshake: tell it of changes."""
        self._legacy_sessions.append(session)

    def changed(self, force: bool = False) -> bool:
        """Whether the tool list differs from the one last announced (and note it as
        announced); unless ``force``, a registry that did not move is not even listed."""
        with self._lock:
            state = self._registry_state()
            if not force and state[0] is self._registry_seen[0] and \
                    state[1] is self._registry_seen[1] and state[2] == self._registry_seen[2]:
                return False
            self._registry_seen = state
            listing = self._listing()
            if listing == self._announced:
                return False
            self._announced = listing
            return True

    async def after_call(self) -> None:
        """After a tool call: announce what the call itself changed."""
        if self.changed():
            await self.announce()

    def reloaded(self, event: dict) -> None:
        """A hot-reload watcher listener (on the watcher's thread)."""
        if event.get("error"):
            log.warning("%s: %s", event.get("path"), event["error"])
        if self.changed(force=True) and self._loop is not None:
            asyncio.run_coroutine_threadsafe(self.announce(), self._loop)

    async def announce(self) -> None:
        """Tell every client the tool list changed; forget the connections that are gone."""
        log.info("the tool list changed: telling %d+ clients",
                 len(self._legacy_sessions))
        await self.bus.publish(ToolsListChanged())
        alive = []
        for session in list(self._legacy_sessions):
            try:
                await session.send_tool_list_changed()
            except Exception as exc:  # noqa: BLE001 - a client that left; the others hear
                log.info("a client is gone (%s)", type(exc).__name__)
            else:
                alive.append(session)
        self._legacy_sessions = alive
