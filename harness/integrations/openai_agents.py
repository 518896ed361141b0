"""harness in front of an OpenAI Agents SDK agent: ``Agent(tools=guard_tools(rt, tools))``
and ``Runner.run(agent, prompt, hooks=HarnessRunHooks(rt))``.

| OpenAI Agents | harness | effect |
|---|---|---|
| a tool input guardrail on each function tool | ``pre_tool``, then the call's permission point (tool_kinds) | a block is ``reject_content(reason)``: the tool does not run and the model gets the reason as its result; rewritten ``arguments`` reach the tool (the guardrail puts them in ``ToolContext.tool_arguments``, which the guarded tool reads) |
| a tool output guardrail on each function tool | ``pre_tool_output``, then ``post_tool`` | a block, or a string ``output``, becomes ``reject_content(...)``: the model gets that text instead of the tool's result |
| ``RunHooks.on_tool_end`` (tools ``guard_tools`` did not guard) | ``post_tool`` | observe |
| ``RunHooks.on_agent_end`` | ``post_message`` | observe |
| ``RunHooks.on_handoff`` | ``on_context_switch`` | observe |

What the SDK cannot guard: its tool guardrails run for function tools only, so hosted
tools (web search, file search, code interpreter, image generation, hosted MCP), the
local Shell / ApplyPatch / Computer tools, handoffs and agents used as tools run with no
``pre_tool`` and no permission point; ``RunHooks`` sees them only after the fact
(``post_tool``). ``RunHooks`` cannot change anything, so ``pre_message``,
``pre_api_request`` and ``pre_api_tools`` do not fire. Guard such tools in the host that
runs them, or give the agent function tools instead.

Needs ``pip install 'harness[openai-agents]'``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from agents import FunctionTool, RunHooks
from agents.tool_guardrails import (
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolOutputGuardrail,
)

from harness.bridge import dumps, loads
from harness.integrations.tool_guard import ToolGuard, result_text
from harness.integrations.tool_kinds import ToolKinds

__all__ = ["GUARDRAIL_NAME", "HarnessRunHooks", "guard_tools"]

HOST = "openai-agents"
GUARDRAIL_NAME = "harness"


def guard_tools(runtime, tools: Iterable[Any], *,
                tool_kinds: ToolKinds | None = None) -> list[Any]:
    """``tools`` with each function tool replaced by a guarded copy (harness's input
    guardrail first, its output guardrail last, the tool's own in between); other tools
    are returned as they are (the SDK cannot guard them)."""
    guard = ToolGuard(runtime, HOST, tool_kinds)
    return [_guarded(guard, t) if isinstance(t, FunctionTool) else t for t in tools]


def _guarded(guard: ToolGuard, tool: FunctionTool) -> FunctionTool:
    invoke = tool.on_invoke_tool
    name = tool.name

    async def check_input(data) -> ToolGuardrailFunctionOutput:
        context = data.context
        verdict = guard.check(name, _arguments(context.tool_arguments))
        if verdict.blocked:
            return ToolGuardrailFunctionOutput.reject_content(verdict.reason)
        if verdict.rewritten:
            context.tool_arguments = dumps(verdict.arguments).decode()
        return ToolGuardrailFunctionOutput.allow()

    async def check_output(data) -> ToolGuardrailFunctionOutput:
        output = guard.after(name, _arguments(data.context.tool_arguments), data.output)
        if output is not data.output:  # a hook's text in place of the result
            return ToolGuardrailFunctionOutput.reject_content(output)
        return ToolGuardrailFunctionOutput.allow()

    async def invoke_as_checked(context, arguments: str) -> Any:
        # the input guardrail rewrote the call: the tool gets what the hooks left
        given = getattr(context, "tool_arguments", arguments)
        return await invoke(context, given if isinstance(given, str) else arguments)

    return dataclasses.replace(
        tool, on_invoke_tool=invoke_as_checked,
        tool_input_guardrails=[ToolInputGuardrail(check_input, name=GUARDRAIL_NAME),
                               *(tool.tool_input_guardrails or ())],
        tool_output_guardrails=[*(tool.tool_output_guardrails or ()),
                                ToolOutputGuardrail(check_output, name=GUARDRAIL_NAME)])


def _arguments(text: str) -> dict:
    try:
        value = loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class HarnessRunHooks(RunHooks):
    """Run hooks that fire ``runtime``'s observe-only points (see the module's table)."""

    def __init__(self, runtime, *, context_name: str = "default") -> None:
        self.runtime = runtime
        self.context_name = context_name

    async def on_tool_end(self, context, agent, tool, result) -> None:
        if _is_guarded(tool):
            return  # its output guardrail fired post_tool
        arguments = _arguments(getattr(context, "tool_arguments", "") or "")
        self.runtime.fire("post_tool", {"tool_name": getattr(tool, "name", str(tool)),
                                        "arguments": arguments, "result": result_text(result),
                                        "cached": False, "host": HOST})

    async def on_agent_end(self, context, agent, output) -> None:
        self.runtime.fire("post_message", {"prompt": "", "response": result_text(output),
                                           "context_name": self.context_name})

    async def on_handoff(self, context, from_agent, to_agent) -> None:
        self.runtime.fire("on_context_switch", {"from_context": from_agent.name,
                                                "to_context": to_agent.name,
                                                "is_ephemeral": False})


def _is_guarded(tool: object) -> bool:
    return any(getattr(g, "name", None) == GUARDRAIL_NAME
               for g in getattr(tool, "tool_input_guardrails", None) or ())
