"""What the scripted model servers share (gemini_server.py, responses_server.py): an HTTP
server on 127.0.0.1 (port 0) that hands out scripted turns in order, the last one again
once they run out, and keeps every request body that took a turn.

A subclass says only what its API differs in: `answer` (the body and content type of the
reply to one ``POST``, taking a turn with `next_turn` when it should), `tool_outputs` (what
the host sent back for each tool call, read from the kept requests), and optionally the
``GET`` body and the path the host is given (`url`).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self

__all__ = ["JSON", "ScriptedServer"]

JSON = "application/json"


class ScriptedServer:
    """Serves `turns` (lists of the API's output items) in order."""

    #: what ``GET`` answers (model lists and the like: nothing to list)
    listing: bytes = b'{"data": [], "models": []}'
    #: appended to ``http://127.0.0.1:PORT`` in `url`
    base_path = ""

    def __init__(self, turns: list[list[dict]]) -> None:
        self.turns = list(turns)
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}{self.base_path}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def next_turn(self, request: dict) -> list[dict]:
        """Keep `request` and take the next turn (the last one stays)."""
        with self._lock:
            self.requests.append(request)
            return self.turns.pop(0) if len(self.turns) > 1 else self.turns[0]

    def answer(self, path: str, request: dict) -> tuple[bytes, str]:
        """The body and content type of the reply to ``POST path`` with body `request`."""
        raise NotImplementedError

    @staticmethod
    def tool_outputs(requests: list[dict]) -> list[str]:
        """What the host sent back for each tool call in `requests`, in order."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
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
            self._send(server.listing, JSON)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self._send(*server.answer(self.path, json.loads(self.rfile.read(length) or b"{}")))

    return Handler
