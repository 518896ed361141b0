"""harness.integrations.openai_agents with the SDK's own agents.testing.ScriptedModel."""

from __future__ import annotations

import pytest

pytest.importorskip("agents.testing", reason="needs the openai-agents extra: "
                    "pip install 'harness[openai-agents]'")

from agents import Agent, RunConfig, Runner, function_tool
from agents.testing import ModelStep, ScriptedModel, assistant_message, function_call

from harness.integrations.openai_agents import HarnessRunHooks, guard_tools


def scripted(name: str, args: dict) -> ScriptedModel:
    """A model that calls ``name(**args)`` once, then says what the tool answered."""
    def echo(call) -> list:
        outputs = [item["output"] for item in call.input
                   if isinstance(item, dict) and item.get("type") == "function_call_output"]
        return [assistant_message(str(outputs[-1]))]
    return ScriptedModel([[function_call(name, args, call_id="call-1")],
                          ModelStep.respond(echo)])


def run(runtime, model: ScriptedModel, ran: list, **tool_options) -> str:
    @function_tool
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(("bash", command))
        return f"ran {command}"

    @function_tool
    def greet(name: str) -> str:
        """Greet someone."""
        ran.append(("greet", name))
        return f"hello {name}"

    @function_tool
    def write_file(path: str, content: str) -> str:
        """Write a file."""
        ran.append(("write_file", path))
        return "written"

    agent = Agent(name="assistant", model=model,
                  tools=guard_tools(runtime, [bash, greet, write_file], **tool_options))
    result = Runner.run_sync(agent, "go", hooks=HarnessRunHooks(runtime),
                             run_config=RunConfig(tracing_disabled=True))  # offline
    return result.final_output


def test_a_denied_shell_command_never_runs_and_the_model_hears_why(guarded):
    ran: list = []
    heard = run(guarded, scripted("bash", {"command": "rm -rf /"}), ran)
    assert ran == []
    assert heard == guarded.deny_reason


def test_a_harmless_call_runs_and_post_tool_fires_once(guarded):
    ran: list = []
    heard = run(guarded, scripted("bash", {"command": "ls"}), ran)
    assert ran == [("bash", "ls")]
    assert heard == "ran ls"
    assert guarded.seen_post_tool == [("bash", {"command": "ls"}, "ran ls")]


def test_a_rewrite_reaches_the_tool(guarded):
    ran: list = []
    heard = run(guarded, scripted("greet", {"name": "mallory"}), ran)
    assert ran == [("greet", "harness")]
    assert heard == "hello harness"


def test_a_crashing_guard_fails_closed_on_its_permission_point(guarded):
    ran: list = []
    heard = run(guarded, scripted("write_file", {"path": "a", "content": "b"}), ran)
    assert ran == []
    assert "hook failed" in heard


def test_pre_tool_output_replaces_what_the_model_hears(guarded):
    guarded.register_hook("pre_tool_output", lambda p: {"output": "[redacted]"})
    ran: list = []
    heard = run(guarded, scripted("bash", {"command": "ls"}), ran)
    assert ran == [("bash", "ls")]
    assert heard == "[redacted]"


def test_run_hooks_fire_post_message(guarded):
    said: list = []
    guarded.register_hook("post_message", lambda p: said.append(p["response"]))
    run(guarded, scripted("bash", {"command": "ls"}), [])
    assert said == ["ran ls"]
