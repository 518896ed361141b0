"""harness in front of a LangChain v1 agent: ``create_agent(model, tools,
middleware=[HarnessMiddleware(rt)])``.

| LangChain | harness | effect |
|---|---|---|
| ``wrap_tool_call`` / ``awrap_tool_call`` | ``pre_tool``, then the call's permission point (tool_kinds); ``pre_tool_output`` and ``post_tool`` after | a block answers the call with a ``ToolMessage`` (status ``error``) carrying the reason and the tool never runs; rewritten ``arguments`` replace the call's ``args``; a new ``output`` replaces the ToolMessage's content |
| ``before_model`` / ``abefore_model`` | ``pre_message`` (when the newest message is the user's) | a changed ``prompt`` replaces that message's text |
| ``wrap_model_call`` / ``awrap_model_call`` | ``pre_api_tools``, ``pre_api_request`` | tools the hooks leave out are not bound this call; ``request_body`` is ``{"model", **model_settings}`` and keys the hooks change become model settings |

Needs ``pip install 'harness[langchain]'``.
"""

from __future__ import annotations

from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import HumanMessage, ToolMessage

from harness.integrations.tool_guard import ToolGuard
from harness.integrations.tool_kinds import ToolKinds

__all__ = ["HarnessMiddleware"]

HOST = "langchain"


class HarnessMiddleware(AgentMiddleware):
    """Fires ``runtime``'s hook points around the agent's tool and model calls.
    ``tool_kinds``: which tools fire which permission point (default: DEFAULT_TOOL_KINDS).
    ``context_name``: the ``context_name`` of the model-side payloads."""

    def __init__(self, runtime, *, tool_kinds: ToolKinds | None = None,
                 context_name: str = "default") -> None:
        super().__init__()
        self.runtime = runtime
        self.context_name = context_name
        self._guard = ToolGuard(runtime, HOST, tool_kinds)

    # -- tool calls ----------------------------------------------------------------------
    def wrap_tool_call(self, request, handler):
        call = request.tool_call
        verdict = self._guard.check(call["name"], call["args"])
        if verdict.blocked:
            return _refusal(call, verdict.reason)
        if verdict.rewritten:
            request = request.override(tool_call={**call, "args": verdict.arguments})
        return self._after(call, verdict.arguments, handler(request))

    async def awrap_tool_call(self, request, handler):
        call = request.tool_call
        verdict = self._guard.check(call["name"], call["args"])
        if verdict.blocked:
            return _refusal(call, verdict.reason)
        if verdict.rewritten:
            request = request.override(tool_call={**call, "args": verdict.arguments})
        return self._after(call, verdict.arguments, await handler(request))

    def _after(self, call: dict, arguments: dict, result):
        """pre_tool_output and post_tool on a ToolMessage (a Command, which updates the
        graph instead of answering, is only observed)."""
        if not isinstance(result, ToolMessage):
            self._guard.after(call["name"], arguments, repr(result))
            return result
        output = self._guard.after(call["name"], arguments, result.content)
        if output is result.content:
            return result
        return result.model_copy(update={"content": output})

    # -- model calls ---------------------------------------------------------------------
    def before_model(self, state, runtime) -> dict[str, Any] | None:
        messages = state["messages"]
        if not messages or not isinstance(messages[-1], HumanMessage):
            return None  # a step after tool results: no new prompt
        message = messages[-1]
        prompt = message.content if isinstance(message.content, str) else message.text
        changed = self.runtime.fire("pre_message", {
            "prompt": prompt, "context_name": self.context_name,
            "summary": ""})["outcome"]["prompt"]
        if changed == prompt:
            return None
        # same id: the messages reducer replaces the user's message instead of adding one
        return {"messages": [HumanMessage(content=changed, id=message.id)]}

    async def abefore_model(self, state, runtime) -> dict[str, Any] | None:
        return self.before_model(state, runtime)

    def wrap_model_call(self, request, handler):
        return handler(self._shaped(request))

    async def awrap_model_call(self, request, handler):
        return await handler(self._shaped(request))

    def _shaped(self, request):
        """``request`` as pre_api_tools and pre_api_request leave it."""
        fire = self.runtime.fire
        overrides: dict[str, Any] = {}
        if request.tools:
            names = [_tool_name(t) for t in request.tools]
            kept = fire("pre_api_tools", {
                "context_name": self.context_name,
                "tools": [{"name": n, "type": "function"} for n in names],
                "fuel_remaining": None, "fuel_total": None})["outcome"]["tools"]
            if len(kept) != len(names):
                keep = set(kept)
                overrides["tools"] = [t for t, n in zip(request.tools, names, strict=True)
                                      if n in keep]
        settings = request.model_settings
        body = {"model": _model_name(request.model), **settings}
        merged = fire("pre_api_request", {
            "context_name": self.context_name, "request_body": body,
            "fuel_remaining": None, "fuel_total": None})["outcome"]["request_body"]
        changed = {k: v for k, v in merged.items()
                   if k != "model" and (k not in body or body[k] != v)}
        if changed:
            overrides["model_settings"] = {**settings, **changed}
        return request.override(**overrides) if overrides else request


def _refusal(call: dict, reason: str) -> ToolMessage:
    return ToolMessage(content=reason, tool_call_id=call["id"], name=call["name"],
                       status="error")


def _tool_name(tool: object) -> str:
    if isinstance(tool, dict):  # a provider-format tool: {"name"} or {"function": {"name"}}
        return str(tool.get("name") or (tool.get("function") or {}).get("name"))
    return getattr(tool, "name", str(tool))


def _model_name(model: object) -> str:
    for attribute in ("model_name", "model"):
        name = getattr(model, attribute, None)
        if isinstance(name, str):
            return name
    return type(model).__name__
