"""The Claude Agent SDK with its real bundled CLI, offline: the CLI talks to a scripted
Messages API on 127.0.0.1, asks for Bash commands, and calls harness_hooks' callbacks over
the control channel. A denied ``rm -rf`` never runs and the model is told why; a harmless
command runs."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sdk = pytest.importorskip("claude_agent_sdk", reason="needs the claude-agent-sdk extra: "
                          "pip install 'harness[claude-agent-sdk]'")

from claude_agent_sdk import ClaudeAgentOptions, ResultMessage, query

from harness.integrations.claude_agent_sdk import harness_hooks
from harness.runtime import Runtime

CLI = Path(sdk.__file__).parent / "_bundled" / "claude"
REASON = "destructive delete refused by harness"
GUARD = f"""
(register-hook 'pre_shell_exec
  (lambda (payload)
    (if (string-contains (cdr (assoc "command" payload)) "rm -rf")
        '(("denied" . #t) ("reason" . "{REASON}"))
        '())))
"""


class ScriptedAnthropic:
    """A Messages API that asks for ``commands`` as Bash tool calls, one a turn, then
    answers "done"; ``tool_results`` are the tool results the model was sent."""

    def __init__(self, commands: list[str]) -> None:
        self.commands = commands
        self.tool_results: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    return self.reply(200, {"input_tokens": 1})
                self.stream(server.answer(body), body.get("stream", False))

            def reply(self, status: int, answer: dict) -> None:
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def stream(self, message: dict, streamed: bool) -> None:
                if not streamed:
                    return self.reply(200, message)
                events = [("message_start", {"message": {**message, "content": [],
                                                         "stop_reason": None}})]
                for n, block in enumerate(message["content"]):
                    if block["type"] == "tool_use":
                        events += [("content_block_start", {"index": n, "content_block": {
                                        **block, "input": {}}}),
                                   ("content_block_delta", {"index": n, "delta": {
                                        "type": "input_json_delta",
                                        "partial_json": json.dumps(block["input"])}})]
                    else:
                        events += [("content_block_start", {"index": n, "content_block": {
                                        "type": "text", "text": ""}}),
                                   ("content_block_delta", {"index": n, "delta": {
                                        "type": "text_delta", "text": block["text"]}})]
                    events.append(("content_block_stop", {"index": n}))
                events += [("message_delta", {"delta": {"stop_reason": message["stop_reason"]},
                                              "usage": {"output_tokens": 1}}),
                           ("message_stop", {})]
                data = "".join(f"event: {name}\ndata: {json.dumps({'type': name, **fields})}\n\n"
                               for name, fields in events).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def answer(self, body: dict) -> dict:
        results = [block for message in body.get("messages", [])
                   if isinstance(message.get("content"), list)
                   for block in message["content"] if block.get("type") == "tool_result"]
        wants_tools = any(t.get("name") == "Bash" for t in body.get("tools", []))
        turn = len(results)
        if wants_tools and turn > len(self.tool_results):
            self.tool_results = results
        if not wants_tools or turn >= len(self.commands):
            content = [{"type": "text", "text": "done"}]
            stop = "end_turn"
        else:
            content = [{"type": "tool_use", "id": f"toolu_{turn}", "name": "Bash",
                        "input": {"command": self.commands[turn],
                                  "description": "scripted"}}]
            stop = "tool_use"
        return {"id": f"msg_{turn}", "type": "message", "role": "assistant",
                "model": body.get("model", "claude"), "content": content,
                "stop_reason": stop, "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1}}

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.skipif(not CLI.exists(), reason="this claude-agent-sdk wheel bundles no CLI")
def test_the_real_cli_obeys_the_guard(tmp_path):
    home, project = tmp_path / "user", tmp_path / "project"
    home.mkdir()
    project.mkdir()
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True,
        "projects": {str(project): {"hasTrustDialogAccepted": True}}}))
    harness_home = tmp_path / "harness"
    (harness_home / "tools").mkdir(parents=True)
    (harness_home / "tools" / "guard.scm").write_text(GUARD)
    refused, allowed = project / "refused", project / "allowed"
    api = ScriptedAnthropic([f"touch {refused} && rm -rf {project}/nothing",
                             f"touch {allowed}"])
    env = {"HOME": str(home), "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": "test",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "PATH": os.environ["PATH"]}
    results: list = []

    async def run(runtime) -> None:
        options = ClaudeAgentOptions(hooks=harness_hooks(runtime), allowed_tools=["Bash"],
                                     cwd=str(project), env=env, max_turns=5,
                                     setting_sources=[])
        async for message in query(prompt="clean up", options=options):
            if isinstance(message, ResultMessage):
                results.append(message)

    try:
        with Runtime(harness_home, load_plugins=False) as runtime:
            asyncio.run(asyncio.wait_for(run(runtime), 120))
    finally:
        api.close()
    assert results and not results[0].is_error, results
    assert not refused.exists()
    assert allowed.exists()
    first = api.tool_results[0]
    assert first["is_error"] is True
    assert REASON in json.dumps(first["content"])
