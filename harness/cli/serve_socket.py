"""``harness serve --socket PATH``: the JSON-RPC server of ``harness serve`` on a Unix socket.

Any number of clients connect at once; each connection is served on a thread of its own,
one message per line, with the methods of `RpcServer` (``fire``, ``call``, ``tools``,
``hooks``, ``claude_hook``). This is what ``harness claude-hook --socket PATH`` talks to:
it sends one ``claude_hook`` request and reads one line, so a Claude Code hook costs a
connection instead of a runtime's start-up.

A request line is capped at MAX_REQUEST bytes. The socket is made readable and writable
by its owner only (a client can run the home's
handlers with an environment of its choosing). A path where another server still answers
is refused; a stale socket left by one that died is replaced. The home is watched and
hot-reloaded; each reload is reported on stderr. SIGTERM or SIGINT stop the server, which
removes its socket.
"""

from __future__ import annotations

import os
import socket
import socketserver
import stat
import sys
from contextlib import suppress

from harness.cli.serve import INVALID_REQUEST, RpcServer, error_response, serve_until_stopped

__all__ = ["SocketInUse", "serve_socket"]

_READ_TIMEOUT = 60.0  # seconds a connection may stay silent before it is closed
#: bytes one request line may take; a longer one is answered with an error and the
#: connection closed (a 1.5 GB line had grown the server to 1.58 GB)
MAX_REQUEST = 16 * 1024 * 1024


class SocketInUse(Exception):
    """The path is taken: a server answers there, or it is not a socket."""


def _claim(path: str) -> None:
    """Make `path` free for a new socket (removing a stale one), or raise SocketInUse."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise SocketInUse(f"{path} exists and is not a socket")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            os.unlink(path)  # nobody answers: left behind by a server that died
            return
    raise SocketInUse(f"another server answers on {path}")


class _Connection(socketserver.StreamRequestHandler):
    """One client: answer each line it sends, in order, until it closes."""

    def handle(self) -> None:
        self.request.settimeout(_READ_TIMEOUT)
        rpc = RpcServer(self.server.runtime, self.wfile)
        try:
            for line in iter(lambda: self.rfile.readline(MAX_REQUEST + 1), b""):
                if len(line) > MAX_REQUEST:
                    rpc.send(error_response(None, INVALID_REQUEST, f"request over "
                                                                   f"{MAX_REQUEST} bytes"))
                    return  # the rest of the line cannot be told from a next request
                if line.strip():
                    response = rpc.handle_line(line)
                    if response is not None:
                        rpc.send(response)
        except (TimeoutError, ConnectionError, BrokenPipeError):
            pass  # the client went away or went quiet: nothing to answer


class _Server(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, path: str, runtime) -> None:
        self.runtime = runtime
        old = os.umask(0o177)  # the socket is born 0600: no window where others can connect
        try:
            super().__init__(path, _Connection)
        finally:
            os.umask(old)


def serve_socket(runtime, path: str) -> int:
    """Serve `runtime` on the Unix socket `path` until SIGTERM or SIGINT; exit status."""
    path = os.path.abspath(path)
    try:
        _claim(path)
        server = _Server(path, runtime)
    except (SocketInUse, OSError) as exc:
        print(f"harness serve: cannot serve on {path}: {exc}", file=sys.stderr)
        runtime.close()
        return 1
    def remove_socket() -> None:
        with suppress(FileNotFoundError):
            os.unlink(path)
    return serve_until_stopped(runtime, server, "harness-socket", path, remove_socket)

