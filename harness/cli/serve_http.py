"""``harness serve --http [HOST:]PORT``: every host's hook events over HTTP, no process start.

Routes:

- ``POST /<host>`` (and ``POST /<host>/<event>`` for hosts whose payload does not name its
  event): the body is the host's hook event; the answer is a 200 whose body is the JSON the
  host reads (harness.hosts: ``HostReply.answer``; ``{}`` for no decision). This is what
  Claude Code's ``http`` hook type POSTs, and Claude Code reads only a 200's JSON (a non-2xx
  status blocks nothing), so a deny is a 200 with a deny decision. With ``?reply=command``
  the body is ``{"exit_code", "stdout", "stderr"}`` instead: the command-hook answer that
  ``harness hook HOST --http URL`` prints for a host that only runs commands; with
  ``?reply=raw`` the same without JSON (headers ``X-Harness-Exit`` and
  ``X-Harness-Stdout-Length``, the body stdout then stderr), what that client reads.
- ``GET /health``: ``{"status": "ok", "hosts": [...], "load_errors": N}``, without a token.

Every other request needs ``Authorization: Bearer <token>``, the token being the contents of
``HOME/serve.token`` (made with mode 0600 on first start; a token file others can read is
refused). Refused before any hook runs, and the connection closed: 401 (wrong or missing token), 404 (unknown path or
host), 411/413 (no length, or a body over ``--max-body``), 400 (a body that is not a JSON
object, an unknown event). A client that sends less than it announced, or nothing for
``_IDLE`` seconds, is dropped; the server goes on.

One thread per connection (`ThreadingHTTPServer`): a slow hook holds its own client only.
With ``--timeout S`` a guard event not answered within S seconds is denied (the host's own
timeout would let it through: Claude Code's does, without ``onFailure: "block"``).
HTTP/1.1 keep-alive, so a host that reuses its connection pays no new handshake. The home is
watched and hot-reloaded as by ``harness serve``. Loopback by default; another address only
when it is given.
"""

from __future__ import annotations

import hmac
import os
import secrets
import socket
import stat
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import orjson

from harness.cli.serve import serve_until_stopped

__all__ = ["DEFAULT_MAX_BODY", "TOKEN_FILE", "HttpServer", "parse_address", "read_token",
           "serve_http"]

TOKEN_FILE = "serve.token"
DEFAULT_MAX_BODY = 8 * 1024 * 1024  # bytes: a Write of a large file still fits
_IDLE = 30.0  # seconds a connection may stay silent


def parse_address(text: str) -> tuple[str, int]:
    """``[HOST:]PORT`` -> (host, port); the host defaults to 127.0.0.1. Raises ValueError."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError(f"'{text}' is not [HOST:]PORT (a port is 0..65535)")
    return host, int(port)


def read_token(home: Path) -> str:
    """The daemon's bearer token, ``home/serve.token``, made (0600) if missing. Raises
    PermissionError for a token file others can read."""
    path = home / TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise PermissionError(f"{path} can be read by others (mode "
                                  f"{stat.S_IMODE(mode):o}): chmod 600 it") from None
        token = path.read_text(encoding="ascii").strip()
        if not token:
            raise PermissionError(f"{path} is empty: delete it to make a new token")
        return token
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(token + "\n")
    return token


class _Request(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: HttpServer

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(_IDLE)
        if self.connection.family in (socket.AF_INET, socket.AF_INET6):
            # headers and body are two writes: with Nagle's algorithm and the client's
            # delayed ACK each kept-alive answer waited ~40 ms (bench/hosts.py)
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args) -> None:
        pass  # a line per event would cost more than the event; errors go to the client

    # -- routes ----------------------------------------------------------------------------
    def do_GET(self) -> None:
        if urlsplit(self.path).path == "/health":
            self._send(200, {"status": "ok", "hosts": list(self.server.hosts),
                             "load_errors": len(self.server.runtime.load_failures())})
        else:
            self._refuse(404, f"no such path: GET {self.path} (GET /health, POST /<host>)")

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if not self._authorised():
            self._refuse(401, "a valid Authorization: Bearer <token> is required (the "
                              "token is HOME/serve.token)")
            return
        parts = [p for p in url.path.split("/") if p]
        if not 1 <= len(parts) <= 2:
            self._refuse(404, f"no such path: POST {url.path} (POST /<host> or "
                              "/<host>/<event>)")
            return
        host, event = parts[0], parts[1] if len(parts) == 2 else None
        if host not in self.server.hosts:
            from harness.hosts import UnknownHost
            self._refuse(404, str(UnknownHost(host)))
            return
        body = self._body()
        if body is None:
            return
        self._answer(host, event, body, parse_qs(url.query).get("reply", ["host"])[-1])

    def do_PUT(self) -> None:
        self._refuse(405, "use POST /<host> or GET /health")

    do_DELETE = do_PATCH = do_PUT

    # -- steps -----------------------------------------------------------------------------
    def _authorised(self) -> bool:
        given = self.headers.get("Authorization", "")
        scheme, _, token = given.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            token.strip().encode(), self.server.token.encode())

    def _body(self) -> bytes | None:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self._chunked_body()
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self._refuse(411, "a Content-Length (or a chunked body) is required")
            return None
        size = int(length)
        if size > self.server.max_body:
            self._refuse(413, f"the body is {size} bytes; at most {self.server.max_body} "
                              "are taken")
            return None
        try:
            body = self.rfile.read(size)
        except (TimeoutError, OSError):
            body = b""
        if len(body) < size:  # the client went away mid-request: nobody to answer
            self.close_connection = True
            return None
        return body

    def _chunked_body(self) -> bytes | None:
        """A ``Transfer-Encoding: chunked`` body, refused (413) as soon as it passes the
        cap; None (connection dropped) when the client sends garbage or goes away."""
        chunks, size = [], 0
        try:
            while True:
                line = self.rfile.readline(1024).split(b";", 1)[0].strip()
                length = int(line, 16)
                if length == 0:
                    while self.rfile.readline(1024).strip():
                        pass  # trailers
                    return b"".join(chunks)
                size += length
                if size > self.server.max_body:
                    self._refuse(413, f"the body is over {self.server.max_body} bytes")
                    return None
                chunk = self.rfile.read(length)
                self.rfile.readline(1024)
                if len(chunk) < length:
                    raise ValueError("short chunk")
                chunks.append(chunk)
        except (ValueError, TimeoutError, OSError):
            self.close_connection = True
            return None

    def _answer(self, host: str, event: str | None, body: bytes, form: str) -> None:
        from harness.handlers import Invocation
        from harness.hosts import UnknownEvent, adapter
        try:
            payload = orjson.loads(body)
        except orjson.JSONDecodeError as exc:
            self._refuse(400, f"the body is not JSON: {exc.msg} at column {exc.colno}")
            return
        if not isinstance(payload, dict):
            self._refuse(400, "the body must be a JSON object (the host's hook event)")
            return
        try:
            adapter(host).event_of(payload, event)
        except UnknownEvent as exc:
            self._refuse(400, str(exc))
            return
        cwd = self.headers.get("X-Harness-Cwd") or payload.get("cwd")
        invocation = Invocation(None, cwd if isinstance(cwd, str) and os.path.isdir(cwd)
                                else None)
        reply = self._within_deadline(lambda: _answer_as(invocation, self.server.runtime, host,
                                                          payload, event), host, payload, event)
        if form == "raw":
            self._send_raw(reply)
        else:
            self._send(200, reply.to_json() if form == "command" else reply.answer)

    def _within_deadline(self, work, host: str, payload: dict, event: str | None):
        """`work()`, or, past ``--timeout`` on a guard event, the host's deny (the hook
        goes on in the background; its answer is dropped)."""
        deadline = self.server.deadline
        if deadline is None:
            return work()
        from harness.hosts import adapter, edge_failure
        if adapter(host).guard_event_of(payload, event) is None:
            return work()
        done: list = []
        worker = threading.Thread(target=lambda: done.append(work()), daemon=True,
                                  name="harness-http-answer")
        worker.start()
        worker.join(deadline)
        if done:
            return done[0]
        return edge_failure(host, payload, f"no answer within --timeout {deadline:g} s",
                            event)

    def _send_raw(self, reply) -> None:
        """The command form without JSON: what the lightest client reads."""
        stdout = reply.stdout.encode()
        data = stdout + reply.stderr.encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Harness-Exit", str(reply.exit_code))
            self.send_header("X-Harness-Stdout-Length", str(len(stdout)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True

    def _refuse(self, status: int, message: str) -> None:
        self.close_connection = True  # a body we did not read must not be taken for a request
        self._send(status, {"error": message})

    def _send(self, status: int, body: dict) -> None:
        data = orjson.dumps(body)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True  # the client left before its answer


def _answer_as(invocation, runtime, host: str, payload: dict, event: str | None):
    """One event answered for the caller `invocation` (its directory)."""
    from harness.handlers import using_invocation
    from harness.hosts import answer
    with using_invocation(invocation):
        return answer(runtime, host, payload, event)


class HttpServer(ThreadingHTTPServer):
    """The daemon: `runtime` answering every host of harness.hosts over HTTP."""

    daemon_threads = True
    block_on_close = False
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], runtime, token: str,
                 max_body: int = DEFAULT_MAX_BODY, deadline: float | None = None) -> None:
        from harness.hosts import HOSTS
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.runtime = runtime
        self.token = token
        self.max_body = max_body
        self.deadline = deadline
        self.hosts = HOSTS
        super().__init__(address, _Request)

    def handle_error(self, request, client_address) -> None:
        print(f"harness serve: a request from {client_address} failed: "
              f"{sys.exc_info()[1]!r}", file=sys.stderr, flush=True)


def serve_http(runtime, address: str, max_body: int = DEFAULT_MAX_BODY,
               deadline: float | None = None) -> int:
    """Serve `runtime` over HTTP at `address` (``[HOST:]PORT``) until SIGTERM or SIGINT;
    the exit status."""
    try:
        where = parse_address(address)
        token = read_token(runtime.home)
        server = HttpServer(where, runtime, token, max_body, deadline)
    except (ValueError, OSError) as exc:
        print(f"harness serve: cannot serve on {address}: {exc}", file=sys.stderr)
        runtime.close()
        return 1
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    return serve_until_stopped(runtime, server, "harness-http", f"http://{shown}:{port} "
                               f"(token in {runtime.home / TOKEN_FILE})")

