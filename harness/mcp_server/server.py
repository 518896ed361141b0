"""`HarnessMcp`: one runtime served as an MCP server (the SDK's low-level ``Server``).

``tools/list`` is answered from the runtime at the moment of asking (``listing``);
``tools/call`` runs the call on a worker thread (a tool may take long, and a gate may wait
for the user) while the event loop goes on serving other requests and clients. The
low-level server checks no arguments itself: the pipeline does, and says what is wrong.
"""

from __future__ import annotations

import asyncio

import anyio.to_thread
import mcp_types as types
from mcp.server import NotificationOptions, Server, ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from harness.mcp_server.asking import (
    PermissionAsker,
    RetriedAsking,
    abstain,
    elicitation_asker,
)
from harness.mcp_server.calls import run_call, text_result
from harness.mcp_server.changes import ToolListChanges
from harness.mcp_server.guard import GUARD_TOOL, GuardInputError, answer_hook
from harness.mcp_server.listing import mcp_tools

SERVER_NAME = "harness"
_INSTRUCTIONS = ("The tools of a harness home (Scheme, Hy and Python tool files and "
                 "plugins), each call run through the home's hooks and permission gates.")


class HarnessMcp:
    """An MCP server over ``runtime`` (made with ``asker`` as its permission handler):
    its tools (and the builtins with ``builtins``), called as ``context``."""

    def __init__(self, runtime, asker: PermissionAsker, *, context: str = "default",
                 builtins: bool = False) -> None:
        self.runtime = runtime
        self.asker = asker
        self.context = context
        self.builtins = builtins
        self.changes = ToolListChanges(runtime, builtins)
        self.server = _ListChangingServer(
            SERVER_NAME, version=_version(), instructions=_INSTRUCTIONS,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
            on_subscriptions_listen=self.changes.listen)
        self.server.add_notification_handler("notifications/initialized",
                                             types.NotificationParams, self._initialized)

    def bind(self) -> None:
        """Call on the serving event loop before serving: live changes are sent there."""
        self.changes.bind(asyncio.get_running_loop())

    async def _initialized(self, ctx: ServerRequestContext, params) -> None:
        self.changes.remember(ctx.session)

    async def _list_tools(self, ctx: ServerRequestContext, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=mcp_tools(self.runtime, self.builtins))

    async def _call_tool(self, ctx: ServerRequestContext, params: types.CallToolRequestParams
                         ) -> types.CallToolResult | types.InputRequiredResult:
        retried = None
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            caps = ctx.session.client_capabilities
            ask = retried = RetriedAsking(params, caps is not None and
                                          caps.elicitation is not None)
        else:
            ask = elicitation_asker(ctx.session, ctx.request_id)

        def run() -> types.CallToolResult:
            if params.name == GUARD_TOOL:
                with self.asker.asking(abstain):
                    return self._guard(params.arguments or {})
            with self.asker.asking(ask):
                return run_call(self.runtime, params.name, params.arguments, self.context)

        try:
            result = await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
        finally:
            await self.changes.after_call()
        question = retried.input_required() if retried is not None else None
        return question or result

    def _guard(self, arguments: dict) -> types.CallToolResult:
        try:
            return text_result(answer_hook(self.runtime, arguments))
        except GuardInputError as exc:
            return text_result(f"Error: {GUARD_TOOL}: {exc}", error=True)


class _ListChangingServer(Server):
    """A ``Server`` whose 2025 handshake says the tool list changes (``listChanged``) on
    every transport: the streamable-HTTP manager asks for the options without any."""

    def create_initialization_options(self, notification_options=None, *args, **kwargs):
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), *args, **kwargs)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("harness")
    except PackageNotFoundError:  # run from a source tree
        return ""
