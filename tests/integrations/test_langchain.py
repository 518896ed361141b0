"""harness.integrations.langchain with a LangChain fake chat model that binds tools."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("langchain.agents", reason="needs the langchain extra: "
                    "pip install 'harness[langchain]'")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from harness.integrations.langchain import HarnessMiddleware


class ToolCallingFake(GenericFakeChatModel):
    """GenericFakeChatModel that accepts bind_tools (the stock one raises) and records what
    each call was given: the tools bound, the settings and the messages."""

    calls: list  # set per model: scripted() passes calls=[]

    def bind_tools(self, tools, **settings):
        self.calls.append({"tools": [t.name for t in tools], "settings": settings})
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        self.calls.append({"messages": list(messages)})
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def scripted(name: str, args: dict) -> ToolCallingFake:
    """A model that calls ``name(**args)`` once, then says "done"."""
    return ToolCallingFake(calls=[], messages=iter([
        AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": "call-1"}]),
        AIMessage(content="done")]))


def run(runtime, model, ran: list, *, use_async: bool = False) -> list:
    @tool
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(("bash", command))
        return f"ran {command}"

    @tool
    def greet(name: str) -> str:
        """Greet someone."""
        ran.append(("greet", name))
        return f"hello {name}"

    @tool
    def write_file(path: str, content: str) -> str:
        """Write a file."""
        ran.append(("write_file", path))
        return "written"

    agent = create_agent(model, tools=[bash, greet, write_file],
                         middleware=[HarnessMiddleware(runtime)])
    given = {"messages": [HumanMessage("go")]}
    state = asyncio.run(agent.ainvoke(given)) if use_async else agent.invoke(given)
    return state["messages"]


def heard(model: ToolCallingFake) -> list[ToolMessage]:
    """The tool results the model was sent."""
    sent = [c["messages"] for c in model.calls if "messages" in c]
    return [m for m in sent[-1] if isinstance(m, ToolMessage)]


@pytest.mark.parametrize("use_async", [False, True])
def test_a_denied_shell_command_never_runs_and_the_model_hears_why(guarded, use_async):
    ran: list = []
    model = scripted("bash", {"command": "rm -rf /"})
    run(guarded, model, ran, use_async=use_async)
    assert ran == []
    [answer] = heard(model)
    assert answer.content == guarded.deny_reason and answer.status == "error"


@pytest.mark.parametrize("use_async", [False, True])
def test_a_harmless_call_runs(guarded, use_async):
    ran: list = []
    model = scripted("bash", {"command": "ls"})
    run(guarded, model, ran, use_async=use_async)
    assert ran == [("bash", "ls")]
    assert heard(model)[0].content == "ran ls"
    assert guarded.seen_post_tool == [("bash", {"command": "ls"}, "ran ls")]


def test_a_rewrite_reaches_the_tool(guarded):
    ran: list = []
    model = scripted("greet", {"name": "mallory"})
    run(guarded, model, ran)
    assert ran == [("greet", "harness")]
    assert heard(model)[0].content == "hello harness"


def test_a_crashing_guard_fails_closed_on_its_permission_point(guarded):
    ran: list = []
    model = scripted("write_file", {"path": "a", "content": "b"})
    run(guarded, model, ran)
    assert ran == []
    assert "hook failed" in heard(model)[0].content


def test_pre_message_rewrites_the_prompt(guarded):
    guarded.register_hook("pre_message", lambda p: {"prompt": p["prompt"] + " (carefully)"})
    model = scripted("bash", {"command": "ls"})
    messages = run(guarded, model, [])
    assert messages[0].content == "go (carefully)"
    first = next(c["messages"] for c in model.calls if "messages" in c)
    assert [m.content for m in first] == ["go (carefully)"]


def test_pre_api_tools_and_pre_api_request_shape_the_model_call(guarded):
    guarded.register_hook("pre_api_tools", lambda p: {"exclude": ["bash"]})
    guarded.register_hook("pre_api_request", lambda p: {"request_body": {"temperature": 0}})
    model = scripted("greet", {"name": "x"})
    run(guarded, model, [])
    bound = model.calls[0]
    assert bound["tools"] == ["greet", "write_file"]
    assert bound["settings"]["temperature"] == 0


def test_pre_tool_output_replaces_the_tool_messages_content(guarded):
    guarded.register_hook("pre_tool_output", lambda p: {"block": True, "message": "withheld"})
    model = scripted("bash", {"command": "ls"})
    run(guarded, model, [])
    assert heard(model)[0].content == "withheld"
