"""What harness adds to a tool call in each Python agent framework (SPEC §15; goal: ≤ 50 µs).

    python bench/frameworks.py [--calls K] [--rounds N] [--home DIR] [FRAMEWORK...]

For each framework installed, one run of an agent whose offline test model asks for K
calls of a ``bash`` tool in one response and then answers, with harness's integration and
with an "empty" integration of the same shape (the same framework hooks, doing nothing)
and without any, taking turns in each round (pydantic-ai ``FunctionModel``, LangChain's
fake chat model, OpenAI Agents ``ScriptedModel``). The overhead per tool call is the
difference of the medians divided by K, over the framework alone and over the empty
integration (what harness's work costs, apart from what the framework charges any
middleware); it includes the model-side hook points of the run's two model requests
(pre_api_request, pre_api_tools, pre_message), spread over the K calls. The Claude Agent
SDK's path is the CLI's, so its row times the hook callbacks themselves (PreToolUse and
PostToolUse), as the CLI calls them, against callbacks that answer ``{}`` (own = empty).
The last column times the integration's own callbacks for one tool call (pre and post),
called directly as the framework calls them: steadier than the end-to-end difference on
a busy machine.

The home (default: a temporary one) holds the shell guard of docs/frameworks: one Scheme
``pre_shell_exec`` hook that reads the command, so every call runs pre_tool, the permission
point with a real guard, and post_tool.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.runtime import Runtime

GUARD = """
(register-hook 'pre_shell_exec
  (lambda (payload)
    (if (string-contains (cdr (assoc "command" payload)) "rm -rf")
        '(("denied" . #t) ("reason" . "destructive delete"))
        '())))
"""


#: the framework alone; with an integration of the same shape that does nothing; with harness
OWN, EMPTY, HARNESS = "own", "empty", "harness"
VARIANTS = (OWN, EMPTY, HARNESS)


def bash(command: str) -> str:
    """Run a shell command (here: pretend to)."""
    return "ok"


# -- one agent run per framework, with or without harness ------------------------------------
def pydantic_ai_run(runtime, calls: int):
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    from harness.integrations.pydantic_ai import HarnessCapability

    def respond(messages, info):
        if isinstance(messages[-1].parts[-1], ToolReturnPart):
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("bash", {"command": "ls"}, f"c{i}")
                                    for i in range(calls)])

    class Empty(AbstractCapability):
        """The same hooks as HarnessCapability, doing nothing."""

        async def before_tool_execute(self, ctx, *, call, tool_def, args):
            return args

        async def after_tool_execute(self, ctx, *, call, tool_def, args, result):
            return result

        async def prepare_tools(self, ctx, tool_defs):
            return tool_defs

        async def before_model_request(self, ctx, request_context):
            return request_context

    def agent(capabilities: list):
        built = Agent(FunctionModel(respond), capabilities=capabilities)
        built.tool_plain(bash)
        return built

    agents = {OWN: agent([]), EMPTY: agent([Empty()]), HARNESS: agent([HarnessCapability(runtime)])}
    return lambda variant: agents[variant].run("go")


def langchain_run(runtime, calls: int):
    from langchain.agents import create_agent
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.tools import tool

    from harness.integrations.langchain import HarnessMiddleware

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools, **settings):
            return self

    class Empty(AgentMiddleware):
        """The same hooks as HarnessMiddleware, doing nothing."""

        async def awrap_tool_call(self, request, handler):
            return await handler(request)

        def before_model(self, state, runtime):
            return None

        async def abefore_model(self, state, runtime):
            return None

        async def awrap_model_call(self, request, handler):
            return await handler(request)

    tools = [tool(bash)]
    middleware = {OWN: [], EMPTY: [Empty()], HARNESS: [HarnessMiddleware(runtime)]}

    async def run(variant: str):
        model = Model(messages=iter([
            AIMessage("", tool_calls=[{"name": "bash", "args": {"command": "ls"},
                                       "id": f"c{i}"} for i in range(calls)]),
            AIMessage("done")]))
        agent = create_agent(model, tools=tools, middleware=middleware[variant])
        return await agent.ainvoke({"messages": [HumanMessage("go")]})
    return run


def openai_agents_run(runtime, calls: int):
    import dataclasses

    from agents import Agent, RunConfig, RunHooks, Runner, function_tool
    from agents.testing import ScriptedModel, assistant_message, function_call
    from agents.tool_guardrails import (
        ToolGuardrailFunctionOutput,
        ToolInputGuardrail,
        ToolOutputGuardrail,
    )

    from harness.integrations.openai_agents import HarnessRunHooks, guard_tools

    class Empty(RunHooks):
        """Run hooks doing nothing (with no-op tool guardrails below)."""

    async def allow(data):
        return ToolGuardrailFunctionOutput.allow()

    tools = [function_tool(bash)]
    empty_tools = [dataclasses.replace(t, tool_input_guardrails=[ToolInputGuardrail(allow)],
                                       tool_output_guardrails=[ToolOutputGuardrail(allow)])
                   for t in tools]
    setups = {OWN: (tools, None), EMPTY: (empty_tools, Empty()),
              HARNESS: (guard_tools(runtime, tools), HarnessRunHooks(runtime))}
    config = RunConfig(tracing_disabled=True)

    async def run(variant: str):
        model = ScriptedModel([[function_call("bash", {"command": "ls"}, call_id=f"c{i}")
                                for i in range(calls)], [assistant_message("done")]])
        tools, hooks = setups[variant]
        agent = Agent(name="a", model=model, tools=tools)
        return await Runner.run(agent, "go", hooks=hooks, run_config=config)
    return run


def claude_agent_sdk_run(runtime, calls: int):
    from harness.integrations.claude_agent_sdk import harness_hooks

    [matcher] = harness_hooks(runtime, events=["PreToolUse"])["PreToolUse"]
    [post] = harness_hooks(runtime, events=["PostToolUse"])["PostToolUse"]
    callback, after = matcher.hooks[0], post.hooks[0]
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp",
             "transcript_path": "/tmp/t.jsonl", "tool_name": "Bash",
             "tool_input": {"command": "ls"}, "tool_use_id": "t"}
    done = dict(event, hook_event_name="PostToolUse", tool_response="ok")

    async def nothing(input_data, tool_use_id, context):
        return {}

    async def run(variant: str):
        before, later = (callback, after) if variant == HARNESS else (nothing, nothing)
        for _ in range(calls):  # as the CLI calls them: (input, tool_use_id, {"signal"})
            await before(event, "t", {"signal": None})
            await later(done, "t", {"signal": None})
    return run


# -- one tool call's worth of the integration's callbacks, called as the framework calls them
def pydantic_ai_callbacks(runtime):
    from pydantic_ai.messages import ToolCallPart

    from harness.integrations.pydantic_ai import HarnessCapability

    capability, call = HarnessCapability(runtime), ToolCallPart("bash", {"command": "ls"}, "c")

    async def one_call() -> None:
        args = await capability.before_tool_execute(None, call=call, tool_def=None,
                                                    args={"command": "ls"})
        await capability.after_tool_execute(None, call=call, tool_def=None, args=args,
                                            result="ok")
    return one_call


def langchain_callbacks(runtime):
    from langchain_core.messages import ToolMessage
    from langgraph.prebuilt.tool_node import ToolCallRequest

    from harness.integrations.langchain import HarnessMiddleware

    middleware = HarnessMiddleware(runtime)
    request = ToolCallRequest(tool_call={"name": "bash", "args": {"command": "ls"}, "id": "c"},
                              tool=None, state={}, runtime=None)
    answer = ToolMessage("ok", tool_call_id="c")

    async def tool(request):
        return answer

    async def one_call() -> None:
        await middleware.awrap_tool_call(request, tool)
    return one_call


def openai_agents_callbacks(runtime):
    from agents import function_tool

    from harness.integrations.openai_agents import guard_tools

    [guarded] = guard_tools(runtime, [function_tool(bash)])
    check_input = guarded.tool_input_guardrails[0].guardrail_function
    check_output = guarded.tool_output_guardrails[-1].guardrail_function

    class Data:  # what ToolInputGuardrailData / ToolOutputGuardrailData carry that we read
        class context:  # stands for a ToolContext
            tool_arguments = '{"command":"ls"}'
        output = "ok"

    async def one_call() -> None:
        await check_input(Data)
        await check_output(Data)
    return one_call


def claude_agent_sdk_callbacks(runtime):
    run = claude_agent_sdk_run(runtime, 1)
    return lambda: run(HARNESS)


FRAMEWORKS = {"pydantic-ai": ("pydantic_ai", pydantic_ai_run, pydantic_ai_callbacks),
              "langchain": ("langchain.agents", langchain_run, langchain_callbacks),
              "openai-agents": ("agents.testing", openai_agents_run, openai_agents_callbacks),
              "claude-agent-sdk": ("claude_agent_sdk", claude_agent_sdk_run,
                                   claude_agent_sdk_callbacks)}


def callbacks_cost(make, runtime, n: int = 5000) -> float:
    """CPU seconds per tool call of the integration's own callbacks."""
    one_call = make(runtime)

    async def go() -> float:
        await one_call()
        start = time.process_time()
        for _ in range(n):
            await one_call()
        return (time.process_time() - start) / n

    return asyncio.run(go())


def measure(make, runtime, calls: int, rounds: int) -> dict[str, float]:
    """Median CPU seconds (of this process) per run of each variant, taking turns."""
    run = make(runtime, calls)
    times: dict[str, list[float]] = {v: [] for v in VARIANTS}

    async def go() -> None:
        for variant in VARIANTS:  # warm up every path
            await run(variant)
        for _ in range(rounds):
            for variant in VARIANTS:
                start = time.process_time()
                await run(variant)
                times[variant].append(time.process_time() - start)

    asyncio.run(go())
    return {v: statistics.median(t) for v, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("frameworks", nargs="*", default=list(FRAMEWORKS))
    parser.add_argument("--calls", type=int, default=20, help="tool calls per run")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--home", help="a harness home (default: one with the shell guard)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(args.home or scratch)
        if not args.home:
            (home / "tools").mkdir()
            (home / "tools" / "guard.scm").write_text(GUARD)
        with Runtime(home, load_plugins=False) as runtime:
            print(f"K = {args.calls} tool calls a run, median CPU of {args.rounds} rounds; "
                  "callbacks: the integration's own per tool call, called directly\n"
                  f"{'framework':<18}{'own µs/run':>12}{'empty µs/run':>14}"
                  f"{'harness µs/run':>16}{'µs/call over own':>18}{'over empty':>12}"
                  f"{'callbacks µs':>14}")
            for name in args.frameworks:
                module, make, callbacks = FRAMEWORKS[name]
                try:
                    __import__(module)
                except ImportError:
                    print(f"{name:<18}not installed (pip install 'harness[{name}]')")
                    continue
                t = measure(make, runtime, args.calls, args.rounds)
                own, empty, guarded = t[OWN], t[EMPTY], t[HARNESS]
                print(f"{name:<18}{own * 1e6:>12.0f}{empty * 1e6:>14.0f}{guarded * 1e6:>16.0f}"
                      f"{(guarded - own) / args.calls * 1e6:>18.1f}"
                      f"{(guarded - empty) / args.calls * 1e6:>12.1f}"
                      f"{callbacks_cost(callbacks, runtime) * 1e6:>14.1f}")


if __name__ == "__main__":
    main()
