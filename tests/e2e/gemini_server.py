"""A scripted Gemini API (generateContent) server on 127.0.0.1, for driving a real Gemini
CLI offline through ``GOOGLE_GEMINI_BASE_URL``.

Every ``POST /v1beta/models/MODEL:streamGenerateContent`` (or ``:generateContent``) gets the
next scripted turn; ``:countTokens`` gets a count. A turn is a list of parts, made with
`shell_call` (a ``run_shell_command`` function call) or `text`. Every request body is kept.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

__all__ = ["GeminiServer", "shell_call", "text"]


def shell_call(command: str) -> dict:
    return {"functionCall": {"name": "run_shell_command",
                             "args": {"command": command, "description": "run it"}}}


def text(words: str) -> dict:
    return {"text": words}


class GeminiServer:
    """Serves `turns` in order to the main conversation (the last one again once they run
    out); side requests (JSON-schema'd ones: routing, next-speaker checks) get ``{}``."""

    def __init__(self, turns: list[list[dict]]) -> None:
        self.turns = list(turns)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def _send(self, body: bytes, kind: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                self._send(b'{"models": []}', "application/json")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                if ":countTokens" in self.path:
                    self._send(b'{"totalTokens": 10}', "application/json")
                    return
                config = request.get("generationConfig") or {}
                if config.get("responseMimeType") == "application/json":
                    # a side question (model routing, next speaker): the dullest answer
                    parts = [text(json.dumps({"complexity_reasoning": "simple",
                                              "complexity_score": 1, "reasoning": "done",
                                              "next_speaker": "user"}))]
                else:
                    with server._lock:
                        server.requests.append(request)
                        turns = server.turns
                        parts = turns.pop(0) if len(turns) > 1 else turns[0]
                chunk = {"candidates": [{"content": {"role": "model", "parts": parts},
                                         "finishReason": "STOP", "index": 0}],
                         "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                           "totalTokenCount": 15},
                         "modelVersion": "gemini-2.5-pro"}
                if "streamGenerateContent" in self.path:
                    self._send(f"data: {json.dumps(chunk)}\r\n\r\n".encode(),
                               "text/event-stream")
                else:
                    self._send(json.dumps(chunk).encode(), "application/json")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
