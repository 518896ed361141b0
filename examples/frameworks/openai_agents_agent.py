"""An OpenAI Agents SDK agent guarded by harness (pip install 'harness[openai-agents]').

    python examples/frameworks/openai_agents_agent.py

Runs offline: agents.testing.ScriptedModel asks for ``rm -rf /`` and ``ls``. For a real
model, drop ``model=`` and set OPENAI_API_KEY (and drop ``tracing_disabled``).
"""

from pathlib import Path

from agents import Agent, RunConfig, Runner, function_tool
from agents.testing import ScriptedModel, assistant_message, function_call

from harness.integrations.openai_agents import HarnessRunHooks, guard_tools
from harness.runtime import Runtime

HOME = Path(__file__).parent / "home"  # tools/no_rm_rf.scm: the guard


@function_tool
def bash(command: str) -> str:
    """Run a shell command (this example only pretends to)."""
    print(f"  tool ran: {command}")
    return f"ran {command}"


def report(call) -> list:
    heard = [item["output"] for item in call.input
             if isinstance(item, dict) and item.get("type") == "function_call_output"]
    return [assistant_message(" | ".join(heard))]


model = ScriptedModel([
    [function_call("bash", {"command": "rm -rf /"}, call_id="1"),
     function_call("bash", {"command": "ls"}, call_id="2")],
    {"responder": report}])

with Runtime(HOME) as runtime:
    agent = Agent(name="assistant", model=model, tools=guard_tools(runtime, [bash]))
    result = Runner.run_sync(agent, "clean up", hooks=HarnessRunHooks(runtime),
                             run_config=RunConfig(tracing_disabled=True))
    print("the model heard:", result.final_output)
