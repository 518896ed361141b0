"""A framework's tool call in front of a Runtime: one place for what every integration does.

Before a tool runs, ``ToolGuard.check`` fires ``pre_tool {tool_name, arguments, host}``;
unless that blocks, it fires the permission point the call's kind names (harness.
integrations.tool_kinds) with the arguments as ``pre_tool`` left them. The answer is a
``ToolVerdict``: blocked with the reason the model should hear, or allowed with the
arguments the tool must get. After the tool, ``ToolGuard.after`` fires
``pre_tool_output`` (a block or a new string replaces what the model gets) and
``post_tool``.

A permission point that no hook answered is *no decision* (SPEC §14): the tool runs, as the
framework would run it without harness. The dispatcher marks that answer
``decided_by: "fail-safe"`` when the runtime has no permission handler; a runtime made
with one lets the handler decide instead. A hook that fails on a permission point denies
(the dispatcher's fail-closed rule), and so does a guard file that failed to load under
``[failure] "closed"``.

Hooks run synchronously on the caller's thread (in an async framework: on its event
loop): a dispatch with only in-process hooks costs microseconds, which is less than a hop
to a worker thread would.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.bridge import dumps
from harness.integrations.tool_kinds import DEFAULT_TOOL_KINDS, ToolKinds

__all__ = ["ToolGuard", "ToolVerdict", "result_text"]


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    """What the hooks decided about one tool call: ``blocked`` with ``reason``, else run it
    with ``arguments`` (``rewritten``: they differ from the call's own)."""

    blocked: bool
    reason: str | None
    arguments: dict
    rewritten: bool = False


class ToolGuard:
    """Fires a Runtime's tool-call hook points for the framework named ``host``."""

    __slots__ = ("_fire", "host", "runtime", "tool_kinds")

    def __init__(self, runtime, host: str, tool_kinds: ToolKinds | None = None) -> None:
        self.runtime = runtime
        self.host = host
        self.tool_kinds = DEFAULT_TOOL_KINDS if tool_kinds is None else tool_kinds
        self._fire = runtime.fire

    def check(self, tool_name: str, arguments: dict) -> ToolVerdict:
        """Fire ``pre_tool`` and the call's permission point; never raises for what a hook
        does (a failing guard is a deny on a permission point)."""
        result = self._fire("pre_tool", {"tool_name": tool_name, "arguments": arguments,
                                         "host": self.host})
        outcome = result["outcome"]
        if outcome["blocked"]:
            return ToolVerdict(True, outcome["message"] or "Tool call blocked by hook",
                               arguments)
        given = outcome["arguments"]
        if not isinstance(given, dict):
            given = arguments  # a hook's non-object arguments: the combine rule reported it
        request = self.tool_kinds.permission_request(tool_name, given)
        if request is not None:
            decision = self._fire(request[0], request[1])["outcome"]
            if decision["denied"] and decision["decided_by"] != "fail-safe":
                return ToolVerdict(True, decision["reason"] or "permission denied", given)
        return ToolVerdict(False, None, given, given is not arguments and given != arguments)

    def after(self, tool_name: str, arguments: dict, result: object) -> object:
        """Fire ``pre_tool_output`` on the tool's result as text, then ``post_tool``
        (observe-only) with the output the model will get; return that output: ``result``
        itself, or the text a hook put in its place (a block's message, a new string)."""
        text = result_text(result)
        outcome = self._fire("pre_tool_output", {"tool_name": tool_name,
                                                 "arguments": arguments,
                                                 "output": text})["outcome"]
        output = outcome["output"]  # a block's message, the last new string, or the text
        if isinstance(output, str) and output != text:
            result = text = output
        self._fire("post_tool", {"tool_name": tool_name, "arguments": arguments,
                                 "result": text, "cached": False, "host": self.host})
        return result


def result_text(result: object) -> str:
    """A tool result as the text hooks get: strings as they are, anything else as JSON
    (objects JSON cannot say as their ``str``)."""
    if isinstance(result, str):
        return result
    try:
        return dumps(result).decode()
    except (TypeError, ValueError):
        return str(result)
