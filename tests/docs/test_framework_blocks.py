"""The framework pages' examples run as written, offline: each framework's own test model
stands where the page names a real one (``"anthropic:claude-sonnet-4-5"``, the SDK's
default), the tools the page leaves to the reader (``[...]``, ``bash``) are a ``bash`` tool
that records what it ran, and ``~/.harness`` is a temporary home holding the overview's
shell guard. The guard must hold: ``rm -rf`` never runs and the model hears the reason."""

from __future__ import annotations

import ast
import asyncio
import functools

import pytest

from tests.docs.blocks import find, runs

REASON = "destructive delete refused"  # the overview's guard says so
RM = {"command": "rm -rf build"}


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    """``~`` a temporary folder whose ``~/.harness`` holds the overview's shell guard."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("HARNESS_HOME", raising=False)
    tools = tmp_path / ".harness" / "tools"
    tools.mkdir(parents=True)
    guard = find("docs/frameworks/index.md", ";; HOME/tools/shell_guard.scm")
    (tools / "shell_guard.scm").write_text(guard.text)
    return tmp_path


def run_block(block, namespace: dict, *replacements: tuple[str, str], then: str = "") -> dict:
    """Run ``block`` and then the code ``then`` (top-level ``await`` allowed) in
    ``namespace``, the block's text changed by ``replacements``; the namespace afterwards
    (the block's ``runtime`` closed)."""
    text = block.text
    for old, new in replacements:
        assert old in text, f"{block.where} no longer says {old!r}"
        text = text.replace(old, new)
    code = compile(text + then, block.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    try:
        result = eval(code, namespace)  # the docs' own code, as a user runs it
        if asyncio.iscoroutine(result):
            asyncio.run(result)
    finally:
        if "runtime" in namespace:
            namespace["runtime"].close()
    return namespace


MODEL = ('"anthropic:claude-sonnet-4-5"', "model")  # the test model where the page names one
#: a bash tool of pydantic-ai's that records what it ran, then a run of the agent
PYDANTIC_RUN = """
@agent.tool_plain
def bash(command: str) -> str:
    \"\"\"Run a shell command.\"\"\"
    ran.append(command)
    return "ran"

output = agent.run_sync("clean up").output
"""


@runs(("docs/frameworks/pydantic-ai.md", "from pydantic_ai import Agent"))
def test_the_pydantic_ai_example_guards_a_shell_tool(blocks, user_home):
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    def respond(messages, info):
        last = messages[-1].parts[-1]
        if isinstance(last, ToolReturnPart):
            return ModelResponse(parts=[TextPart(str(last.content))])
        return ModelResponse(parts=[ToolCallPart("bash", RM)])

    [block] = blocks
    namespace = run_block(block, {"model": FunctionModel(respond), "ran": []}, MODEL,
                          then=PYDANTIC_RUN)
    assert namespace["ran"] == [] and REASON in namespace["output"]


@runs(("docs/frameworks/langchain.md", "from langchain.agents import create_agent"))
def test_the_langchain_example_guards_a_shell_tool(blocks, user_home):
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import tool

    from tests.integrations.test_langchain import scripted

    ran: list = []

    @tool
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ran"

    [block] = blocks
    namespace = run_block(block, {"model": scripted("bash", RM), "bash": bash}, MODEL,
                          ("tools=[...]", "tools=[bash]"),
                          then="state = agent.invoke({'messages': [('user', 'clean up')]})")
    assert ran == []
    [answer] = [m for m in namespace["state"]["messages"] if isinstance(m, ToolMessage)]
    assert REASON in answer.content


@runs(("docs/frameworks/openai-agents.md", "from agents import Agent, Runner"))
def test_the_openai_agents_example_guards_a_shell_tool(blocks, user_home, monkeypatch):
    monkeypatch.setenv("OPENAI_AGENTS_DISABLE_TRACING", "1")  # nothing to export to
    from agents import function_tool

    from tests.integrations.test_openai_agents import scripted

    ran: list = []

    @function_tool
    def bash(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "ran"

    @function_tool
    def read_file(path: str) -> str:
        """Read a file."""
        return ""

    [block] = blocks
    namespace = run_block(block, {"model": scripted("bash", RM), "bash": bash,
                                  "read_file": read_file},
                          ('Agent(name="assistant",', 'Agent(name="assistant", model=model,'))
    assert ran == []
    assert REASON in str(namespace["result"].final_output)


@runs(("docs/frameworks/claude-agent-sdk.md", "from claude_agent_sdk import"))
def test_the_claude_agent_sdk_example_denies_a_shell_call(blocks, user_home, monkeypatch):
    import claude_agent_sdk

    from tests.integrations.test_claude_agent_sdk import ScriptedCLI, pre_tool_use

    cli = ScriptedCLI([("PreToolUse", pre_tool_use("Bash", RM))])
    # the CLI the SDK would start is a scripted one that fires one Bash call
    monkeypatch.setattr(claude_agent_sdk, "query",
                        functools.partial(claude_agent_sdk.query, transport=cli))
    [block] = blocks
    run_block(block, {})
    [answer] = cli.answers.values()
    output = answer["response"]["hookSpecificOutput"]
    assert (output["permissionDecision"], output["permissionDecisionReason"]) == (
        "deny", REASON)


@runs(("docs/frameworks/index.md", "DEFAULT_TOOL_KINDS.with_rule"))
def test_a_tool_kind_rule_of_your_own_is_obeyed(blocks, user_home):
    from harness.integrations.pydantic_ai import HarnessCapability
    from harness.runtime import Runtime

    [block] = blocks
    with Runtime("~/.harness") as rt:
        namespace = run_block(block, {"rt": rt, "HarnessCapability": HarnessCapability})
        kinds = namespace["kinds"]
        assert namespace["capability"] is not None
        point, payload = kinds.permission_request("run_in_sandbox", {"script": "rm -rf /"})
        assert (point, payload["command"]) == ("pre_shell_exec", "rm -rf /")
