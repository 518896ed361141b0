"""A permission gate no hook answered (``pre_shell_exec``, ``pre_file_write``, ...), asked of
the MCP client's user by elicitation.

The runtime has one permission handler (`PermissionAsker`); each ``tools/call`` runs on a
worker thread that first names, with `asking`, how to ask the client that made it. Without
a way to ask (a client without elicitation, or a call from outside MCP) the gate is denied
with a message that says how to approve instead: a hook answering the gate, or ``--allow``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio.from_thread
import mcp_types as types

Verdict = bool | tuple[bool, str]
Ask = Callable[[str, dict], Verdict]

_APPROVE_SCHEMA = {
    "type": "object",
    "properties": {"approve": {"type": "boolean", "title": "Allow",
                               "description": "allow this action once"}},
    "required": ["approve"],
}


class PermissionAsker:
    """The runtime's permission handler: True with ``allow``; else what the client of the
    call running on this thread answers (see the module doc)."""

    def __init__(self, allow: bool = False) -> None:
        self.allow = allow
        self._local = threading.local()

    def __call__(self, hook: str, payload: dict) -> Verdict:
        if self.allow:
            return True
        ask = getattr(self._local, "ask", None)
        if ask is None:
            return False, cannot_ask(hook, "it was not made by an MCP client")
        return ask(hook, payload)

    @contextmanager
    def asking(self, ask: Ask) -> Iterator[None]:
        """Within the ``with``, gates on this thread are asked through ``ask``."""
        self._local.ask = ask
        try:
            yield
        finally:
            self._local.ask = None


def cannot_ask(hook: str, why: str) -> str:
    """The denial reason when nobody can be asked about ``hook``."""
    return (f"no hook answered {hook} and the user cannot be asked ({why}): answer {hook} "
            "with a hook, or start harness mcp with --allow")


def what_is_asked(hook: str, payload: dict) -> str:
    """The question put to the user for a gate."""
    tool = payload.get("tool_name", "a tool")
    if hook == "pre_shell_exec":
        return f"harness: allow {tool} to run the shell command {payload.get('command')!r}?"
    if hook == "pre_file_write":
        return f"harness: allow {tool} to write {payload.get('path')}?"
    if hook == "pre_file_read":
        return f"harness: allow {tool} to read {payload.get('path')}?"
    if hook == "pre_fetch_url":
        target = payload.get("url") or payload.get("summary") or "the network"
        return f"harness: allow {tool} to fetch {target}?"
    return f"harness: allow {hook} for {tool}?"


def elicitation_asker(session, request_id) -> Ask:
    """An `Ask` that puts the question to ``session``'s client by elicitation (a form with
    one boolean), from a worker thread started by anyio."""

    async def elicit(hook: str, payload: dict) -> Verdict:
        caps = session.client_capabilities
        if caps is None or caps.elicitation is None:
            return False, cannot_ask(hook, "the MCP client does not support elicitation")
        if not session.can_send_request:
            return False, cannot_ask(hook, "the MCP connection cannot carry a request to "
                                           "the client")
        try:
            reply: types.ElicitResult = await session.elicit_form(
                what_is_asked(hook, payload), _APPROVE_SCHEMA, related_request_id=request_id)
        except Exception as exc:  # noqa: BLE001 - a failed question is a no
            return False, cannot_ask(hook, f"asking the client failed: {exc}")
        if reply.action == "accept" and (reply.content or {}).get("approve") is True:
            return True, "approved by the user (MCP elicitation)"
        return False, f"the user did not approve ({reply.action})"

    def ask(hook: str, payload: dict) -> Verdict:
        return anyio.from_thread.run(elicit, hook, payload)

    return ask
