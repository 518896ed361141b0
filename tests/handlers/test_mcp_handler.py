"""``mcp_tool`` handlers against a local MCP server (the MCP Python SDK over stdio), through
``harness claude-hook``, and a server kept connected by a runtime that lives."""

import sys

from claude_helpers import HERE, answer_of, bash, make_home

from harness.runtime import Runtime

SERVER = f"""
[mcp_servers.policy]
command = "{sys.executable}"
args = ["{HERE / 'mcp_policy_server.py'}"]
"""


def mcp_home(tmp_path, tool: str, input_table: str | None = 'command = '
             '"${tool_input.command}"', server: str = "policy", extra: str = ""):
    text = SERVER + f"""
[[PreToolUse]]
matcher = "Bash"
[[PreToolUse.hooks]]
type = "mcp_tool"
server = "{server}"
tool = "{tool}"
timeout = 20
{extra}
"""
    if input_table is not None:
        text += f"[PreToolUse.hooks.input]\n{input_table}\n"
    return make_home(tmp_path, text)


def test_a_tool_of_a_local_mcp_server_decides(tmp_path, claude_hook):
    home = mcp_home(tmp_path, "check")
    code, _out, err = claude_hook(home, bash("rm -rf /"))
    assert (code, err) == (2, "policy server refused: rm -rf /\n")


def test_an_unknown_server_is_named_with_the_known_ones(tmp_path, claude_hook):
    home = mcp_home(tmp_path, "check", server="nowhere")
    code, out, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 0
    assert "MCP server 'nowhere' is not configured (configured: policy)" in \
        answer_of(out)["systemMessage"]


def test_a_server_that_cannot_start_is_reported_with_its_stderr(tmp_path, claude_hook):
    home = make_home(tmp_path, f"""
[mcp_servers.policy]
command = "{sys.executable}"
args = ["-c", "import sys; print('no policy store configured', file=sys.stderr); sys.exit(3)"]

[[PreToolUse]]
[[PreToolUse.hooks]]
type = "mcp"
server = "policy"
tool = "check"
timeout = 20
""")
    code, out, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 0
    message = answer_of(out)["systemMessage"]
    assert "MCP server policy:" in message
    assert "no policy store configured" in message


def test_a_living_runtime_keeps_one_server_for_every_call(tmp_path):
    # one server answers: PreToolUse (input from the event), PostToolUse (the whole event),
    # and Stop (a tool that fails)
    home = mcp_home(tmp_path, "check", extra="""
[[PostToolUse]]
[[PostToolUse.hooks]]
type = "mcp_tool"
server = "policy"
tool = "whole_event"

[[Stop]]
[[Stop.hooks]]
type = "mcp_tool"
server = "policy"
tool = "broken"
""")
    with Runtime(home) as rt:
        for command in ("rm -rf a", "ls", "rm -rf b"):
            result = rt.fire("PreToolUse", bash(command))
            assert result["errors"] == []
            assert result["outcome"]["blocked"] is command.startswith("rm")
        post = bash("ls")
        post["hook_event_name"] = "PostToolUse"
        assert rt.fire("PostToolUse", post)["outcome"]["systemMessage"] == \
            "saw PostToolUse of Bash"
        (error,) = rt.fire("Stop", {"hook_event_name": "Stop"})["errors"]
        assert error["message"].startswith("MCP tool policy/broken failed: ")
        (connection,) = rt.handlers.mcp._connections.values()
        assert connection.alive, "one server answered every event"
    assert not connection.alive, "closing the runtime stops the server"
