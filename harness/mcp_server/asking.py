"""A permission gate no hook answered (``pre_shell_exec``, ``pre_file_write``, ...), asked of
the MCP client's user by elicitation.

The runtime has one permission handler (`PermissionAsker`); each ``tools/call`` runs on a
worker thread that first names, with `asking`, how to ask the client that made it. Without
a way to ask (a client without elicitation, or a call from outside MCP) the gate is denied
with a message that says how to approve instead: a hook answering the gate, or ``--allow``.

The two protocol eras ask two ways. On the 2025 protocol the server sends the client an
``elicitation/create`` request in the middle of the call and waits (`elicitation_asker`).
On 2026-07-28 there is no such request: the call answers ``input_required`` with the
question, and the client calls again with the user's answer (`RetriedAsking`). The call
then runs again from the start, its earlier answers carried in ``requestState``; so a hook
that runs before the gate sees such a call twice, the first time denied while the user
is asked.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio.from_thread
import mcp_types as types

Verdict = bool | tuple[bool, str] | None
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


def abstain(hook: str, payload: dict) -> None:
    """The `Ask` of a host's hook event (the guard tool): the host asks its own user, so
    harness does not decide (the gate's outcome is the fail-safe one, which a host adapter
    reads as no decision)."""


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


class RetriedAsking:
    """The `Ask` of one ``tools/call`` from a 2026-07-28 client (see the module doc): gates
    are numbered in the order the call meets them; an answered one is answered from the
    call's ``inputResponses`` or ``requestState``; the first unanswered one is denied for
    now and becomes the question of `input_required`."""

    def __init__(self, params: types.CallToolRequestParams, can_elicit: bool) -> None:
        self.can_elicit = can_elicit
        self.answers: dict[str, bool] = _state(params.request_state)
        for key, reply in (params.input_responses or {}).items():
            if isinstance(reply, types.ElicitResult):
                self.answers[key] = reply.action == "accept" and \
                    (reply.content or {}).get("approve") is True
        self._count = 0
        self.question: tuple[str, str, dict] | None = None

    def __call__(self, hook: str, payload: dict) -> Verdict:
        key = f"gate-{self._count}"
        self._count += 1
        if key in self.answers:
            if self.answers[key]:
                return True, "approved by the user (MCP elicitation)"
            return False, "the user did not approve"
        if not self.can_elicit:
            return False, cannot_ask(hook, "the MCP client does not support elicitation")
        if self.question is None:
            self.question = (key, hook, payload)
        return False, "waiting for the user's answer"

    def input_required(self) -> types.InputRequiredResult | None:
        """The ``input_required`` answer asking the user, or None when nothing is asked."""
        if self.question is None:
            return None
        key, hook, payload = self.question
        request = types.ElicitRequest(params=types.ElicitRequestFormParams(
            message=what_is_asked(hook, payload), requested_schema=_APPROVE_SCHEMA))
        return types.InputRequiredResult(input_requests={key: request},
                                         request_state=json.dumps(self.answers))


def _state(text: str | None) -> dict[str, bool]:
    """The answers a ``requestState`` carries (what is not ours reads as none)."""
    try:
        state = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(state, dict):
        return {}
    return {k: v for k, v in state.items() if isinstance(k, str) and isinstance(v, bool)}
