"""Fixtures of the declared-handler tests: claude-hook in this process and a local HTTP
server (for http handlers and an OpenAI-compatible model endpoint). They share
claude_helpers (tests/fixtures/handlers) with tests/cli."""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "handlers"))

from claude_helpers import run_claude_hook


@pytest.fixture
def claude_hook(capsys, monkeypatch):
    """``harness claude-hook --home HOME`` in this process: (status, stdout, stderr)."""
    def run(home, payload, *extra):
        return run_claude_hook(home, payload, capsys, monkeypatch, *extra)
    return run


class LocalServer:
    """An HTTP server on 127.0.0.1 that records each request and answers with
    `respond(path, headers, body) -> (status, body bytes[, headers])`."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.respond = lambda path, headers, body: (200, b"")
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                server.requests.append({"path": self.path, "headers": dict(self.headers),
                                        "body": json.loads(body) if body else None})
                status, answer, *extra = server.respond(self.path, self.headers, body)
                self.send_response(status)
                for name, value in (extra[0] if extra else {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def local_server():
    server = LocalServer()
    yield server
    server.close()
