"""A pydantic-ai agent guarded by harness (pip install 'harness[pydantic-ai]').

    python examples/frameworks/pydantic_ai_agent.py

Runs offline: a FunctionModel plays the model and asks for ``rm -rf /`` and then ``ls``.
For a real model, pass its name instead (``Agent("anthropic:claude-sonnet-4-5", ...)``).
"""

from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel

from harness.integrations.pydantic_ai import HarnessCapability
from harness.runtime import Runtime

HOME = Path(__file__).parent / "home"  # tools/no_rm_rf.scm: the guard
SCRIPT = ["rm -rf /", "ls"]  # what the scripted model asks the shell tool to run


def model(messages, info) -> ModelResponse:
    """Ask for each command of SCRIPT in turn, then report what the tool answered."""
    results = [p.content for m in messages for p in getattr(m, "parts", [])
               if isinstance(p, ToolReturnPart)]
    if len(results) < len(SCRIPT):
        return ModelResponse(parts=[ToolCallPart("bash", {"command": SCRIPT[len(results)]})])
    return ModelResponse(parts=[TextPart(" | ".join(map(str, results)))])


with Runtime(HOME) as runtime:
    agent = Agent(FunctionModel(model), capabilities=[HarnessCapability(runtime)])

    @agent.tool_plain
    def bash(command: str) -> str:
        """Run a shell command (this example only pretends to)."""
        print(f"  tool ran: {command}")
        return f"ran {command}"

    print("the model heard:", agent.run_sync("clean up").output)
