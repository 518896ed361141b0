"""``harness claude-hook``: answer one Claude Code hook event, as a command hook does.

Claude Code runs it with the event JSON on stdin; it prints the answer (see
harness.claude_hook) and exits 0, or 2 to block. With ``--socket PATH`` (or
``$HARNESS_SOCKET``) it hands the event, its environment and its directory to a running
``harness serve --socket PATH`` and prints that server's answer, so a hook costs a
connection instead of a runtime's start-up; when no server answers there it answers
the event itself. Its own failures (bad input, a broken ``harness.toml``, a missing home)
exit 1 — a non-blocking error in Claude Code's terms — never 2.

The path through the socket imports nothing but the standard library's ``socket`` and
``json``: it runs on every event.
"""

from __future__ import annotations

import os
import sys

#: our own failures: Claude Code reports them and goes on (2 would block)
FAILED = 1


DESCRIPTION = ("Read one Claude Code hook event on stdin, run everything registered for it "
               "and for its harness equivalent, and answer as a command hook: exit 2 with "
               "the reason on stderr to block, else exit 0 with the JSON answer (or "
               "nothing). Its own failures exit 1, which never blocks.")


def register(sub) -> None:
    hook = sub.add_parser(
        "claude-hook", help="answer one Claude Code hook event (stdin) as a Claude Code "
                            "command hook", description=DESCRIPTION)
    _options(hook)
    hook.set_defaults(run=lambda args: run(args))


def _options(parser) -> None:
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")
    parser.add_argument("--socket", default=None, metavar="PATH",
                        help="hand the event to `harness serve --socket PATH` (default: "
                             "$HARNESS_SOCKET); answer it here when no server listens")


def main(argv: list[str]) -> int:
    """``harness claude-hook ARGV``, parsed on its own (the fast path of harness.cli.main):
    a usage error is exit 1, not argparse's 2."""
    import argparse
    parser = argparse.ArgumentParser(prog="harness claude-hook", description=DESCRIPTION,
                                     exit_on_error=False)
    _options(parser)
    try:
        args, unknown = parser.parse_known_args(argv)
    except argparse.ArgumentError as exc:
        print(f"harness claude-hook: {exc}", file=sys.stderr)
        return FAILED
    if unknown:
        print(f"harness claude-hook: unknown arguments: {' '.join(unknown)}", file=sys.stderr)
        return FAILED
    return run(args)


def run(args) -> int:
    data = sys.stdin.buffer.read()
    socket_path = args.socket or os.environ.get("HARNESS_SOCKET")
    if socket_path:
        reply = _ask_server(socket_path, data)
        if reply is not None:
            return _emit(reply.get("exit_code", FAILED), reply.get("stdout", ""),
                         reply.get("stderr", ""))
    return _answer_here(args.home, data)


def _ask_server(path: str, data: bytes) -> dict | None:
    """The server's reply, or None when none listens at `path` (or it fails us)."""
    import json
    import socket
    request = {"jsonrpc": "2.0", "id": 1, "method": "claude_hook",
               "params": {"event": data.decode("utf-8", "replace"), "cwd": _cwd(),
                          "env": dict(os.environ)}}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(path)
            connection.sendall(json.dumps(request).encode() + b"\n")
            connection.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        response = json.loads(b"".join(chunks))
    except (OSError, ValueError):
        return None
    result = response.get("result") if isinstance(response, dict) else None
    return result if isinstance(result, dict) else None


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def _answer_here(home: str | None, data: bytes) -> int:
    from harness.claude_hook import answer_event
    from harness.cli.frozen_imports import freeze_imports
    from harness.config import ConfigError
    from harness.runtime import Runtime, resolve_home
    freeze_imports()
    path = resolve_home(home)
    if not path.is_dir():
        return _emit(FAILED, "", f"harness claude-hook: the home {path} does not exist "
                                 "(--home DIR, $HARNESS_HOME or ~/.harness)\n")
    try:
        runtime = Runtime(path)
    except ConfigError as exc:
        return _emit(FAILED, "", f"harness claude-hook: {exc}\n")
    runtime.handlers.pool.defer()  # async handlers outlive us in a process of their own
    try:
        reply = answer_event(runtime, data)
    finally:
        runtime.handlers.pool.detach(str(runtime.home))
        runtime.close()
    return _emit(reply.exit_code, reply.stdout, reply.stderr)


def _emit(code: int, stdout: str, stderr: str) -> int:
    if stdout:
        sys.stdout.write(stdout)
        sys.stdout.flush()
    if stderr:
        sys.stderr.write(stderr)
        sys.stderr.flush()
    return code
