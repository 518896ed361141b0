"""A real Claude Code (offline, scripted model) using ``harness mcp``: it calls a synthesised
``.scm`` tool as ``mcp__harness__<tool>``, writes itself a tool and calls it in the same
session, and runs a harness guard through an ``mcp_tool`` hook on the connected server."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.e2e.anthropic_server import Retry, ScriptedAnthropicServer, ToolCall, Turn, bash, say

GREET = """(import (harness tools))
(define-tool greet
  (description "Greet someone by name")
  (parameters '((name . ((type . "string") (description . "Name to greet")))))
  (execute (lambda (args) (string-append "Hello, " (cdr (assoc "name" args)) "!"))))
"""
SHOUT = """(import (harness tools))
(define-tool shout
  (description "Shout a text")
  (parameters '((text . ((type . "string")))))
  (execute (lambda (args) (string-upcase (cdr (assoc "text" args))))))
"""
NO_RM = """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (assoc "command" (cdr (assoc "arguments" payload)))))
      (if (and command (string-contains (cdr command) "rm -rf"))
          (list (cons "block" #t) (cons "message" "harness says: no rm -rf"))
          '()))))
"""


def mcp_home(tmp_path: Path) -> Path:
    home = tmp_path / "harness-home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "greet.scm").write_text(GREET)
    (home / "tools" / "no_rm.scm").write_text(NO_RM)
    return home


def mcp_config(tmp_path: Path, harness: str, home: Path, *args: str) -> Path:
    """A ``--mcp-config`` file naming ``harness mcp --home HOME ARGS...`` as ``harness``."""
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"harness": {
        "command": harness, "args": ["mcp", "--home", str(home), *args]}}}))
    return path


def call(tool: str, **arguments) -> Turn:
    return Turn(tool_calls=(ToolCall(f"mcp__harness__{tool}", arguments),))


def announced(request) -> set[str]:
    """The harness tools a model request offers: Claude Code loads MCP tools lazily, so it
    names them in the conversation ("deferred tools ... available via ToolSearch") and in
    ``tools`` once loaded."""
    return set(re.findall(r"mcp__harness__\w+", json.dumps(request.body)))


def text_of(result: dict) -> str:
    content = result["content"]
    return content if isinstance(content, str) else json.dumps(content)


def test_claude_code_calls_a_scheme_tool_through_harness_mcp(claude_code, harness_executable,
                                                             tmp_path):
    home = mcp_home(tmp_path)
    config = mcp_config(tmp_path, harness_executable, home)
    with ScriptedAnthropicServer([call("greet", name="Ada"), say("greeted")]) as server:
        run = claude_code.run("greet Ada", server, allowed_tools="mcp__harness__greet",
                              extra_args=["--mcp-config", str(config), "--strict-mcp-config"])
    assert run.returncode == 0, run.stderr
    [result] = run.tool_results()
    assert "Hello, Ada!" in text_of(result) and not result.get("is_error"), result
    assert {"mcp__harness__greet", "mcp__harness__harness_hook"} <= \
        announced(server.conversation_requests[0])


def test_claude_code_writes_itself_a_tool_and_calls_it(claude_code, harness_executable,
                                                       tmp_path):
    home = mcp_home(tmp_path)
    config = mcp_config(tmp_path, harness_executable, home, "--builtins")
    # Claude Code defers MCP tools: a model loads a new one with ToolSearch, then calls it.
    # It refreshes the list in the background when harness tells it the list changed, so the
    # (instant) scripted model searches again until the search finds the tool.
    search = Turn(tool_calls=(ToolCall("ToolSearch", {"query": "select:mcp__harness__shout"}),))
    script = [call("write_file", path="vfs:///tools/home/default/shout.scm", content=SHOUT),
              Retry(search, until=lambda request: "mcp__harness__shout" in json.dumps(
                  request.tool_results)),
              call("shout", text="made it"), say("done")]
    with ScriptedAnthropicServer(script) as server:
        run = claude_code.run("make a tool and use it", server,
                              allowed_tools="mcp__harness__write_file,mcp__harness__shout,"
                                            "ToolSearch",
                              extra_args=["--mcp-config", str(config), "--strict-mcp-config"])
    assert run.returncode == 0, run.stderr
    results = server.tool_results()
    wrote, found, shouted = results[0], results[-2], results[-1]
    assert not wrote.get("is_error") and "shout.scm" in text_of(wrote), wrote
    assert "mcp__harness__shout" in text_of(found), found
    assert "MADE IT" in text_of(shouted) and not shouted.get("is_error"), shouted
    # the list Claude Code refreshed when told: the new tool is announced to the model
    assert "mcp__harness__shout" not in announced(server.conversation_requests[0])
    assert "mcp__harness__shout" in announced(server.conversation_requests[-1])


def test_a_guard_runs_as_an_mcp_tool_hook_on_the_connected_server(claude_code,
                                                                  harness_executable,
                                                                  tmp_path):
    home = mcp_home(tmp_path)
    config = mcp_config(tmp_path, harness_executable, home)
    guard = {"type": "mcp_tool", "server": "harness", "tool": "harness_hook",
             "input": {"hook_event_name": "${hook_event_name}", "session_id": "${session_id}",
                       "cwd": "${cwd}", "tool_name": "${tool_name}",
                       "tool_input": "${tool_input}"}}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}]}}
    (claude_code.project / "keep").mkdir()
    with ScriptedAnthropicServer([bash("rm -rf keep"), bash("echo fine"),
                                  say("ok")]) as server:
        run = claude_code.run("tidy up", server, settings=settings,
                              extra_args=["--mcp-config", str(config), "--strict-mcp-config"])
    assert run.returncode == 0, run.stderr
    denied, allowed = run.tool_results()
    assert denied.get("is_error") and "harness says: no rm -rf" in text_of(denied), denied
    assert (claude_code.project / "keep").is_dir()
    assert "fine" in text_of(allowed) and not allowed.get("is_error"), allowed
