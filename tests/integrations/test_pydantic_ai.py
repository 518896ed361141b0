"""harness.integrations.pydantic_ai with pydantic-ai's own offline FunctionModel."""

from __future__ import annotations

import pytest

pytest.importorskip("pydantic_ai", reason="needs the pydantic-ai extra: "
                    "pip install 'harness[pydantic-ai]'")

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from harness.integrations.pydantic_ai import HarnessCapability
from harness.integrations.tool_kinds import DEFAULT_TOOL_KINDS, ToolKind


def scripted(tool_name: str, args: dict, seen: dict | None = None) -> FunctionModel:
    """A model that calls ``tool_name(**args)`` once, then answers with what the tool
    returned (so the run's output is what the model heard)."""
    def respond(messages, info: AgentInfo) -> ModelResponse:
        if seen is not None:
            seen["tools"] = [t.name for t in info.function_tools]
            seen["settings"] = info.model_settings
        last = messages[-1].parts[-1]
        if isinstance(last, ToolReturnPart):
            return ModelResponse(parts=[TextPart(str(last.content))])
        if isinstance(last, RetryPromptPart):
            return ModelResponse(parts=[TextPart(str(last.content))])
        return ModelResponse(parts=[ToolCallPart(tool_name, args)])
    return FunctionModel(respond)


def agent_for(runtime, model, ran: list, **options) -> Agent:
    agent = Agent(model, capabilities=[HarnessCapability(runtime, **options)])

    @agent.tool_plain
    def bash(command: str) -> str:
        ran.append(("bash", command))
        return f"ran {command}"

    @agent.tool_plain
    def greet(name: str) -> str:
        ran.append(("greet", name))
        return f"hello {name}"

    @agent.tool_plain
    def write_file(path: str, content: str) -> str:
        ran.append(("write_file", path))
        return "written"

    @agent.tool_plain
    def read_file(path: str) -> str:
        ran.append(("read_file", path))
        return "contents"

    return agent


def test_a_denied_shell_command_never_runs_and_the_model_hears_why(guarded):
    ran: list = []
    result = agent_for(guarded, scripted("bash", {"command": "rm -rf /"}), ran).run_sync("go")
    assert ran == []
    assert guarded.deny_reason in result.output


def test_a_harmless_call_runs_and_post_tool_sees_it(guarded):
    ran: list = []
    result = agent_for(guarded, scripted("bash", {"command": "ls"}), ran).run_sync("go")
    assert ran == [("bash", "ls")]
    assert result.output == "ran ls"
    assert guarded.seen_post_tool == [("bash", {"command": "ls"}, "ran ls")]


def test_a_rewrite_reaches_the_tool(guarded):
    ran: list = []
    result = agent_for(guarded, scripted("greet", {"name": "mallory"}), ran).run_sync("go")
    assert ran == [("greet", "harness")]
    assert result.output == "hello harness"


def test_a_crashing_guard_fails_closed_on_its_permission_point(guarded):
    ran: list = []
    result = agent_for(guarded, scripted("write_file", {"path": "a", "content": "b"}),
                       ran).run_sync("go")
    assert ran == []
    assert "hook failed" in result.output


def test_a_permission_point_nobody_guards_is_no_decision(guarded):
    ran: list = []
    agent_for(guarded, scripted("read_file", {"path": "notes.txt"}), ran).run_sync("go")
    assert ran == [("read_file", "notes.txt")]


def test_tool_kinds_are_configurable(guarded):
    ran: list = []
    kinds = DEFAULT_TOOL_KINDS.with_rule(ToolKind("pre_shell_exec", {"greet"},
                                                  {"command": ("name",)}))
    guarded.register_hook("pre_tool", lambda p: None)  # keeps the rewrite to "harness"
    model = scripted("greet", {"name": "rm -rf ~"})
    guarded.register_hook("pre_shell_exec", lambda p: {"denied": True, "reason": p["command"]})
    result = agent_for(guarded, model, ran, tool_kinds=kinds).run_sync("go")
    assert ran == []
    assert result.output == "harness"  # the permission point saw the rewritten arguments


def test_pre_api_tools_and_pre_api_request_shape_the_model_request(guarded):
    guarded.register_hook("pre_api_tools", lambda p: {"exclude": ["bash"]})
    guarded.register_hook("pre_api_request",
                          lambda p: {"request_body": {"temperature": 0.25}})
    seen: dict = {}
    ran: list = []
    agent_for(guarded, scripted("read_file", {"path": "x"}, seen), ran).run_sync("go")
    assert "bash" not in seen["tools"] and "greet" in seen["tools"]
    assert seen["settings"]["temperature"] == 0.25


def test_pre_tool_output_replaces_what_the_model_hears(guarded):
    guarded.register_hook("pre_tool_output", lambda p: {"output": "[redacted]"})
    ran: list = []
    result = agent_for(guarded, scripted("bash", {"command": "ls"}), ran).run_sync("go")
    assert ran == [("bash", "ls")]
    assert result.output == "[redacted]"
    assert guarded.seen_post_tool == [("bash", {"command": "ls"}, "[redacted]")]
