"""A scripted OpenAI Responses API server on 127.0.0.1, for driving a real Codex or Copilot
CLI offline.

Each ``POST .../responses`` gets the next scripted turn as a Server-Sent Events stream
(``response.created``, one ``response.output_item.done`` per item, ``response.completed``);
every request body is kept in ``requests``. A turn is a list of output items, made with
`shell_call` (a function call of the shell tool the request offered) or `message`.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

__all__ = ["ResponsesServer", "message", "shell_call"]


def message(text: str) -> dict:
    """An assistant message item."""
    return {"type": "message", "role": "assistant", "id": "msg_1",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def shell_call(command: str, call_id: str) -> dict:
    """A call of the shell tool with `command`: the arguments are filled in per request
    for the shell tool that request offers (Codex's ``exec_command``, Copilot's ``bash``, else
    ``shell``)."""
    return {"type": "shell_call", "command": command, "call_id": call_id}


def _item_for(item: dict, tools: list) -> dict:
    if item.get("type") != "shell_call":
        return item
    names = {t.get("name") or t.get("type") for t in tools}
    if "exec_command" in names:  # Codex
        name, arguments = "exec_command", {"cmd": item["command"]}
    elif "bash" in names:  # Copilot CLI
        name, arguments = "bash", {"command": item["command"], "description": "run it"}
    elif "shell_command" in names:
        name, arguments = "shell_command", {"command": item["command"]}
    else:
        name, arguments = "shell", {"command": ["bash", "-lc", item["command"]]}
    return {"type": "function_call", "id": f"fc_{item['call_id']}", "name": name,
            "arguments": json.dumps(arguments), "call_id": item["call_id"]}


class ResponsesServer:
    """Serves `turns` in order (the last one again once they run out)."""

    def __init__(self, turns: list[list[dict]]) -> None:
        self.turns = list(turns)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:  # /models and the like: nothing to list
                body = json.dumps({"data": [], "models": []}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server.requests.append(request)
                    turn = server.turns.pop(0) if len(server.turns) > 1 else server.turns[0]
                items = [_item_for(i, request.get("tools") or []) for i in turn]
                events = [{"type": "response.created", "response": {
                    "id": "resp_1", "object": "response", "status": "in_progress",
                    "model": request.get("model"), "output": []}}]
                for n, item in enumerate(items):
                    events.append({"type": "response.output_item.added", "output_index": n,
                                   "item": item})
                    events.append({"type": "response.output_item.done", "output_index": n,
                                   "item": item})
                events.append({"type": "response.completed", "response": {
                    "id": "resp_1", "object": "response", "status": "completed",
                    "model": request.get("model"), "output": items, "usage": {"input_tokens": 10, "output_tokens": 5,
                                              "total_tokens": 15,
                                              "input_tokens_details": {"cached_tokens": 0},
                                              "output_tokens_details":
                                                  {"reasoning_tokens": 0}}}})
                body = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n"
                               for e in events).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
