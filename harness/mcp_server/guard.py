"""The guard tool, ``harness_hook``: a host's hook event in, that host's answer out, so that
a host's ``mcp_tool`` hook (Claude Code, Codex) asks harness over the MCP server it is
already connected to, with no process per event.

Such a host reads the tool's text like a command hook's stdout (the JSON decision), and
counts a tool error as a non-blocking error; so the answer is the host's JSON decision as
text, what ``harness serve --http`` answers the same event (``harness.hosts``:
``HostReply.answer``; a deny is a decision, e.g. Claude Code's
``hookSpecificOutput.permissionDecision: "deny"``, never a tool error), and only arguments
that are not an event at all make a tool error.

The arguments: ``host`` (default ``claude-code``; any host of ``harness.hosts``),
``event_name`` (for a host whose events do not name themselves), and ``event`` (the whole
event, an object or its JSON text), or else the event's own fields as the arguments (what
a hook's ``input`` with ``${...}`` substitutions gives: ``{"hook_event_name":
"${hook_event_name}", "tool_name": "${tool_name}", ...}``); ``tool_input`` /
``tool_response`` given as JSON text are read as JSON.
"""

from __future__ import annotations

import os

import mcp_types as types

from harness.bridge import dumps, loads
from harness.hosts import HOSTS
from harness.hosts.adapter import FAILED

GUARD_TOOL = "harness_hook"
_DEFAULT_HOST = "claude-code"
#: event fields that hold objects, which a ``${...}`` substitution may hand over as text
_OBJECT_FIELDS = ("tool_input", "tool_response")

_DESCRIPTION = (
    "For hooks, not for the model: answers one hook event of a coding-agent host with this "
    "harness home's guards, as the host expects (the JSON decision a command hook prints). "
    "Point a host's mcp_tool hook at it with the event as `event`, or with the event's "
    "fields as the arguments; `host` names the host (default claude-code).")


class GuardInputError(ValueError):
    """Arguments that are not a hook event."""


def guard_tool() -> types.Tool:
    """The guard tool as ``tools/list`` shows it."""
    return types.Tool(name=GUARD_TOOL, description=_DESCRIPTION, input_schema={
        "type": "object",
        "properties": {
            "host": {"type": "string", "default": _DEFAULT_HOST,
                     "description": "the host that sent the event: " + ", ".join(HOSTS)},
            "event_name": {"type": "string",
                           "description": "the event's name, for a host whose events do not "
                                          "name themselves"},
            "event": {"description": "the hook event, as an object or as its JSON text "
                                     "(omit it to give the event's fields as arguments)"},
        },
        "additionalProperties": True,
    })


def event_of(arguments: dict) -> dict:
    """The hook event the guard tool's ``arguments`` carry (without ``host`` and
    ``event_name``); raises GuardInputError."""
    arguments = {k: v for k, v in arguments.items() if k not in ("host", "event_name")}
    if "event" in arguments:
        event = arguments["event"]
        if isinstance(event, str):
            try:
                event = loads(event)
            except ValueError as exc:
                raise GuardInputError(f"event is not JSON: {exc}") from None
        if not isinstance(event, dict):
            raise GuardInputError("event must be a hook event (a JSON object)")
    else:
        event = dict(arguments)
    if not event:
        raise GuardInputError("no hook event given: pass the event as `event`, or its "
                              "fields (hook_event_name, tool_name, tool_input, ...)")
    for key in _OBJECT_FIELDS:
        value = event.get(key)
        if isinstance(value, str) and value.lstrip().startswith("{"):
            try:
                event[key] = loads(value)
            except ValueError:
                pass  # text that only looks like JSON stays text
    return event


def answer_hook(runtime, arguments: dict) -> str:
    """The text a host's ``mcp_tool`` hook reads for the event in ``arguments``: the host's
    JSON decision (an empty object: no decision). Raises GuardInputError for arguments that
    are not an event of the host."""
    from harness.handlers import Invocation, using_invocation
    from harness.hosts import UnknownHost, adapter, answer
    host, event_name = arguments.get("host", _DEFAULT_HOST), arguments.get("event_name")
    if not isinstance(host, str) or not (event_name is None or isinstance(event_name, str)):
        raise GuardInputError("host and event_name must be strings")
    try:
        adapter(host)
    except UnknownHost as exc:
        raise GuardInputError(str(exc)) from None
    event = event_of(arguments)
    cwd = event.get("cwd")
    where = Invocation(None, cwd if isinstance(cwd, str) and os.path.isdir(cwd) else None)
    with using_invocation(where):
        reply = answer(runtime, host, event, event_name)
    if reply.exit_code == FAILED and not reply.answer:  # not an event harness can read
        raise GuardInputError(reply.stderr.strip())
    return dumps(reply.answer).decode() if reply.answer else "{}"
