"""Serving a `HarnessMcp`: over stdio (the SDK's ``stdio_server``: while it serves, file
descriptor 1 points at stderr, so nothing a hook prints reaches the protocol stream) or
over streamable HTTP (the SDK's Starlette app under uvicorn, behind a bearer token).

Both watch the home (harness.reload) and announce tool-list changes; both end on EOF of
stdin / SIGINT / SIGTERM with the watcher stopped and the runtime closed.
"""

from __future__ import annotations

import logging
import sys

import anyio

from harness.mcp_server.server import HarnessMcp

log = logging.getLogger("harness.mcp")


def _start_watcher(app: HarnessMcp):
    """The home's hot-reload watcher, reporting to the tool-list watch (None when hot
    reload is unavailable: served without it, and said so)."""
    try:
        from harness.reload import Watcher
        watcher = Watcher(app.runtime)
    except (ImportError, OSError) as exc:
        log.warning("hot reload unavailable (%s): edits of the home need a restart", exc)
        return None
    watcher.add_listener(app.changes.reloaded)
    watcher.start()
    return watcher


def serve_stdio(app: HarnessMcp) -> int:
    """Serve ``app`` on stdin/stdout until the client closes stdin; exit status 0."""
    from mcp.server.stdio import stdio_server

    from harness.mcp_server.bad_input import AnsweringBadInput
    from harness.mcp_server.stdio_pipes import loop_stdio

    async def main() -> None:
        app.bind()
        async with loop_stdio() as pipes, stdio_server(*(pipes or ())) as (read, write):
            await app.server.run(AnsweringBadInput(read, write), write,
                                 app.server.create_initialization_options())

    watcher = _start_watcher(app)
    try:
        anyio.run(main)
    finally:
        if watcher is not None:
            watcher.stop()
        app.runtime.close()
    return 0


def serve_http(app: HarnessMcp, host: str, port: int, token: str) -> int:
    """Serve ``app`` over streamable HTTP at ``http://HOST:PORT/mcp`` until SIGINT or
    SIGTERM; every request needs ``Authorization: Bearer <token>`` (401 otherwise). The
    address actually bound (port 0 takes a free one) is printed on stderr first."""
    import socket

    import uvicorn

    starlette_app = app.server.streamable_http_app(host=host)
    guarded = BearerToken(starlette_app, token)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)  # connections queue from now on: the address printed below works
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"harness mcp: serving http://{shown}:{bound}/mcp (Authorization: Bearer "
          f"<the token in {app.runtime.home}/serve.token>)", file=sys.stderr, flush=True)
    config = uvicorn.Config(guarded, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)

    async def main() -> None:
        app.bind()
        await server.serve(sockets=[sock])

    watcher = _start_watcher(app)
    try:
        anyio.run(main)
    finally:
        if watcher is not None:
            watcher.stop()
        app.runtime.close()
        sock.close()
    return 0


class BearerToken:
    """ASGI middleware: HTTP requests without ``Authorization: Bearer <token>`` get a 401
    before they reach the MCP app (lifespan events pass)."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and not self._authorised(scope):
            body = (b'{"error": "unauthorized", "error_description": "a valid Authorization: '
                    b'Bearer <token> header is required (the token is HOME/serve.token)"}')
            await send({"type": "http.response.start", "status": 401, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b'Bearer realm="harness"')]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def _authorised(self, scope) -> bool:
        import hmac
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                return hmac.compare_digest(value, self._expected)
        return False
