"""A LangChain v1 agent guarded by harness (pip install 'harness[langchain]').

    python examples/frameworks/langchain_agent.py

Runs offline: a fake chat model asks for ``rm -rf /`` and ``ls``. For a real model, pass
it instead (``create_agent("anthropic:claude-sonnet-4-5", ...)``).
"""

from pathlib import Path

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool

from harness.integrations.langchain import HarnessMiddleware
from harness.runtime import Runtime

HOME = Path(__file__).parent / "home"  # tools/no_rm_rf.scm: the guard


class ScriptedModel(GenericFakeChatModel):
    """The stock fake chat model refuses bind_tools; create_agent needs it."""

    def bind_tools(self, tools, **settings):
        return self


@tool
def bash(command: str) -> str:
    """Run a shell command (this example only pretends to)."""
    print(f"  tool ran: {command}")
    return f"ran {command}"


model = ScriptedModel(messages=iter([
    AIMessage("", tool_calls=[{"name": "bash", "args": {"command": "rm -rf /"}, "id": "1"},
                              {"name": "bash", "args": {"command": "ls"}, "id": "2"}]),
    AIMessage("done")]))

with Runtime(HOME) as runtime:
    agent = create_agent(model, tools=[bash], middleware=[HarnessMiddleware(runtime)])
    state = agent.invoke({"messages": [HumanMessage("clean up")]})
    for message in state["messages"]:
        if isinstance(message, ToolMessage):
            print(f"the model heard ({message.status}): {message.content}")
