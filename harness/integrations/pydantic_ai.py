"""harness in front of a pydantic-ai agent: ``Agent(model, capabilities=[HarnessCapability(rt)])``.

| pydantic-ai | harness | effect |
|---|---|---|
| ``before_tool_execute`` | ``pre_tool``, then the call's permission point (tool_kinds) | a block raises ``SkipToolExecution(reason)``: the tool does not run and the model gets the reason as its result; rewritten ``arguments`` are the validated arguments the tool gets |
| ``after_tool_execute`` | ``pre_tool_output``, ``post_tool`` | a block's message or a new string ``output`` is the tool's result |
| ``prepare_tools`` | ``pre_api_tools`` | the tools the hooks leave out are not offered (nor callable) this step |
| ``before_model_request`` | ``pre_api_request`` | ``request_body`` is ``{"model", **model_settings}``; keys the hooks change become model settings |

Needs ``pip install 'harness[pydantic-ai]'``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import SkipToolExecution

from harness.integrations.tool_guard import ToolGuard
from harness.integrations.tool_kinds import ToolKinds

__all__ = ["HarnessCapability"]

HOST = "pydantic-ai"


@dataclass
class HarnessCapability(AbstractCapability[Any]):
    """Fires ``runtime``'s hook points around the agent's tool calls and model requests.
    ``tool_kinds``: which tools fire which permission point (default: DEFAULT_TOOL_KINDS).
    ``context_name``: the ``context_name`` of the model-side payloads."""

    runtime: Any
    tool_kinds: ToolKinds | None = None
    context_name: str = "default"
    _guard: ToolGuard = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._guard = ToolGuard(self.runtime, HOST, self.tool_kinds)

    async def before_tool_execute(self, ctx, *, call, tool_def, args):
        verdict = self._guard.check(call.tool_name, args)
        if verdict.blocked:
            raise SkipToolExecution(verdict.reason)
        return verdict.arguments

    async def after_tool_execute(self, ctx, *, call, tool_def, args, result):
        return self._guard.after(call.tool_name, args, result)

    async def prepare_tools(self, ctx, tool_defs):
        offered = [{"name": t.name, "type": "function"} for t in tool_defs]
        kept = self.runtime.fire("pre_api_tools", {
            "context_name": self.context_name, "tools": offered,
            "fuel_remaining": None, "fuel_total": None})["outcome"]["tools"]
        if len(kept) == len(tool_defs):
            return tool_defs
        keep = set(kept)
        return [t for t in tool_defs if t.name in keep]

    async def before_model_request(self, ctx, request_context):
        settings = dict(request_context.model_settings or {})
        body = {"model": request_context.model.model_name, **settings}
        merged = self.runtime.fire("pre_api_request", {
            "context_name": self.context_name, "request_body": body,
            "fuel_remaining": None, "fuel_total": None})["outcome"]["request_body"]
        changed = {k: v for k, v in merged.items()
                   if k != "model" and (k not in body or body[k] != v)}
        if not changed:
            return request_context
        return replace(request_context, model_settings={**settings, **changed})
