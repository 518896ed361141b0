"""``harness serve``: JSON-RPC 2.0 over stdin/stdout, one message per line.

Methods (params by name or by position):

- ``fire``  ``{"hook", "payload"}`` -> the dispatch result (SPEC §9)
- ``call``  ``{"tool", "args", "context"}`` -> ``{"tool", "output", "error", "blocked",
  "stdout", "stderr", "errors", "context", "denied", "cached"}`` (``errors``: every hook
  failure of the call; see harness.calls.pipeline.ToolResult)
- ``tools`` -> the tool schemas with their sources; ``hooks`` -> ``[{"hook", "source"}]``
- ``load_errors`` -> what failed to load now: ``[{"source", "message", "last_good_runs"}]``
- ``claude_hook`` ``{"event", "cwd", "env"}`` -> ``{"exit_code", "stdout", "stderr"}``: one
  Claude Code hook event (its stdin text or object) answered as ``harness claude-hook``
  answers it, its handlers run in the caller's directory and environment

Errors: -32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid
params, -32603 internal error, and ``UNKNOWN_HOOK`` (1001) for a name that is not a hook
point (the message suggests the closest one; ``data`` has ``hook`` and ``suggestion``).
While serving, each hot reload of the home is sent as a notification
``{"jsonrpc": "2.0", "method": "reload", "params": {...}}``, and a ``load_errors``
notification ``{"errors": [...]}`` (the ``load_errors`` result) is sent at start when
something failed to load, and after a reload whenever that list changes (an empty list: all
fixed). A file that fails to load is said once: its ``reload`` notification (``"event":
"failed"``) has ``"error": null`` and the message is in the ``load_errors`` one after it. Requests are handled one at a time in arrival order; EOF on stdin ends the server
with status 0.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from typing import BinaryIO

import orjson

from harness.bridge import dumps
from harness.json_errors import json_error
from harness.loading.registry import file_source
from harness.scheme.errors import ResourceLimitExceeded

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNKNOWN_HOOK = 1001  # application errors live outside the reserved -32768..-32000


class RpcError(Exception):
    """An error response: JSON-RPC ``code``, ``message`` and optional ``data``."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


def error_response(request_id: object, code: int, message: str, data: object = None) -> dict:
    error: dict = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def _valid_id(value: object) -> bool:
    return value is None or (isinstance(value, (str, int, float)) and not isinstance(value, bool))


def _params(params: object, names: tuple[str, ...], required: int) -> list:
    """``params`` (a list or an object) as values for ``names``; the first ``required`` of
    them must be present."""
    if params is None:
        params = []
    if isinstance(params, list):
        if len(params) > len(names):
            raise RpcError(INVALID_PARAMS, f"Invalid params: expected at most {len(names)} "
                                           f"values ({', '.join(names)})")
        values = params + [None] * (len(names) - len(params))
        missing = [n for n, v in zip(names[:required], values) if v is None]
    else:
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown {', '.join(unknown)} "
                                           f"(expected {', '.join(names) or 'none'})")
        values = [params.get(n) for n in names]
        missing = [n for n in names[:required] if params.get(n) is None]
    if missing:
        raise RpcError(INVALID_PARAMS, f"Invalid params: missing {', '.join(missing)}")
    return values


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {name} must be a string")
    return value


def _object(value: object, name: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {name} must be an object")
    return value


class RpcServer:
    """Answers JSON-RPC messages with a runtime; writes responses to ``out`` (bytes)."""

    def __init__(self, runtime, out: BinaryIO) -> None:
        self.runtime = runtime
        self._out = out
        self._write_lock = threading.Lock()  # notifications arrive from the watcher thread
        self._methods: dict[str, Callable[[object], object]] = {
            "fire": self._fire, "call": self._call, "tools": self._tools, "hooks": self._hooks,
            "load_errors": self._load_errors, "claude_hook": self._claude_hook,
            "host_hook": self._host_hook}
        self._load_errors_sent: list[dict] = []

    # -- methods ---------------------------------------------------------------------------
    def _fire(self, params: object) -> dict:
        from harness.hooks.catalogue import UnknownHookError, closest_hook_name
        hook, payload = _params(params, ("hook", "payload"), 1)
        hook = _string(hook, "hook")
        payload = _object(payload, "payload")
        try:
            return self.runtime.fire(hook, payload)
        except UnknownHookError as exc:
            raise RpcError(UNKNOWN_HOOK, str(exc),
                           {"hook": hook, "suggestion": closest_hook_name(hook)}) from None

    def _call(self, params: object) -> dict:
        from harness.vfs.paths import context_name_problem
        tool, args, context = _params(params, ("tool", "args", "context"), 1)
        context = "default" if context is None else _string(context, "context")
        problem = context_name_problem(context)
        if problem is not None:
            raise RpcError(INVALID_PARAMS, f"Invalid params: context: {problem}")
        return asdict(self.runtime.call_tool(_string(tool, "tool"), _object(args, "args"),
                                             context=context))

    def _tools(self, params: object) -> list:
        _params(params, (), 0)
        return self.runtime.tools()

    def _hooks(self, params: object) -> list:
        _params(params, (), 0)
        return self.runtime.hooks()

    def _load_errors(self, params: object) -> list:
        _params(params, (), 0)
        return self.runtime.load_failures()

    def _claude_hook(self, params: object) -> dict:
        """One Claude Code hook event answered as ``harness claude-hook`` would, its
        handlers run with the caller's ``env`` and ``cwd``."""
        from harness.handlers import Invocation, using_invocation
        from harness.hosts import answer
        event, cwd, env = _params(params, ("event", "cwd", "env"), 1)
        event = event if isinstance(event, str) else dumps(_object(event, "event"))
        invocation = Invocation(_environment(env),
                                None if cwd is None else _string(cwd, "cwd"))
        with using_invocation(invocation):
            return answer(self.runtime, "claude-code", event).to_json()

    def _host_hook(self, params: object) -> dict:
        """One event of ``host`` answered as ``harness hook HOST`` would; ``env`` is laid
        over the server's environment for the handlers, which run in ``cwd``."""
        import os

        from harness.handlers import Invocation, using_invocation
        from harness.hosts import UnknownHost, adapter, answer
        host, event, name, cwd, env = _params(
            params, ("host", "event", "event_name", "cwd", "env"), 2)
        try:
            adapter(_string(host, "host"))
        except UnknownHost as exc:
            raise RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None
        event = event if isinstance(event, str) else dumps(_object(event, "event"))
        overlay = _environment(env)
        invocation = Invocation(None if overlay is None else {**os.environ, **overlay},
                                None if cwd is None else _string(cwd, "cwd"))
        with using_invocation(invocation):
            return answer(self.runtime, host, event,
                          None if name is None else _string(name, "event_name")).to_json()

    # -- protocol ----------------------------------------------------------------------------
    def handle_line(self, line: bytes) -> dict | list | None:
        """The response to one line: an object, a list for a batch, or None (notifications
        only)."""
        try:
            message = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            return error_response(None, PARSE_ERROR,
                                  f"Parse error: {json_error('input', line.strip(), exc)}")
        if isinstance(message, list):
            if not message:
                return error_response(None, INVALID_REQUEST, "Invalid Request: empty batch")
            responses = [r for r in map(self.handle_message, message) if r is not None]
            return responses or None
        return self.handle_message(message)

    def handle_message(self, message: object) -> dict | None:
        """The response to one request object, or None for a notification."""
        problem = _request_problem(message)
        if problem is not None:
            request_id = message.get("id") if isinstance(message, dict) else None
            return error_response(request_id if _valid_id(request_id) else None,
                                  INVALID_REQUEST, f"Invalid Request: {problem}")
        method = self._methods.get(message["method"])
        try:
            if method is None:
                raise RpcError(METHOD_NOT_FOUND, f"Method not found: {message['method']!r} "
                                                 f"(methods: {', '.join(self._methods)})")
            result = method(message.get("params"))
        except RpcError as exc:
            response = error_response(message.get("id"), exc.code, exc.message, exc.data)
        except (Exception, ResourceLimitExceeded) as exc:  # noqa: BLE001 - one bad request
            # must not end the server
            response = error_response(message.get("id"), INTERNAL_ERROR,
                                      f"Internal error: {type(exc).__name__}: {exc}")
        else:
            response = {"jsonrpc": "2.0", "id": message.get("id"), "result": result}
        return response if "id" in message else None

    def send(self, message: object) -> None:
        """Write one message as a line; safe to call from any thread."""
        try:
            data = dumps(message)
        except TypeError:  # a watcher event carrying a non-JSON value (a Path, say)
            data = orjson.dumps(message, default=str)
        except Exception as exc:  # noqa: BLE001 - one bad answer must not end the server
            failure = {"jsonrpc": "2.0", "id": message.get("id") if isinstance(message, dict)
                       else None, "error": {"code": -32603,
                                            "message": f"cannot encode the result: {exc}"}}
            data = orjson.dumps(failure)
        with self._write_lock:
            self._out.write(data + b"\n")
            self._out.flush()

    def notify_reload(self, event: dict) -> None:
        """A hot-reload watcher listener: forward ``event`` as a ``reload`` notification,
        then the load errors if they changed. A file that failed to load is said once: its
        message is in the ``load_errors`` notification, not in the ``reload`` one."""
        errors = self.runtime.load_failures()
        if event.get("event") == "failed" and \
                any(e["source"] == file_source(event.get("path", ""), self.runtime.home)
                    for e in errors):
            event = {**event, "error": None}
        self.send({"jsonrpc": "2.0", "method": "reload", "params": event})
        self.notify_load_errors()

    def notify_load_errors(self) -> None:
        """Send a ``load_errors`` notification if the list differs from the last one sent
        (at start: if anything failed to load)."""
        errors = self.runtime.load_failures()
        if errors != self._load_errors_sent:
            self._load_errors_sent = errors
            self.send({"jsonrpc": "2.0", "method": "load_errors", "params": {"errors": errors}})

    def serve(self, stdin: BinaryIO) -> int:
        """Answer each line of ``stdin`` in order until EOF; return the exit status 0."""
        for line in iter(stdin.readline, b""):
            if not line.strip():
                continue
            response = self.handle_line(line)
            if response is not None:
                self.send(response)
        return 0


def _environment(env: object) -> dict | None:
    if env is not None and not (isinstance(env, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
        raise RpcError(INVALID_PARAMS, "Invalid params: env must map names to strings")
    return env


def _request_problem(message: object) -> str | None:
    if not isinstance(message, dict):
        return "a request must be an object"
    if message.get("jsonrpc") != "2.0":
        return 'jsonrpc must be "2.0"'
    if not isinstance(message.get("method"), str):
        return "method must be a string"
    if "params" in message and not isinstance(message["params"], (list, dict)):
        return "params must be an array or an object"
    if "id" in message and not _valid_id(message["id"]):
        return "id must be a string, a number or null"
    return None


@contextmanager
def _stdout_reserved() -> Iterator[BinaryIO]:
    """A private binary handle on stdout for JSON-RPC; meanwhile file descriptor 1 and
    sys.stdout point at stderr, so stray output from anywhere cannot corrupt the stream."""
    sys.stdout.flush()
    try:
        out_fd, err_fd = sys.stdout.fileno(), sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):  # not real files (captured in tests)
        yield sys.stdout.buffer
        return
    rpc_fd, saved_fd = os.dup(out_fd), os.dup(out_fd)
    os.dup2(err_fd, out_fd)
    saved_stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        with os.fdopen(rpc_fd, "wb") as rpc:
            yield rpc
    finally:
        sys.stdout = saved_stdout
        os.dup2(saved_fd, out_fd)
        os.close(saved_fd)


def _start_watcher(runtime, listener: Callable[[dict], None]):
    """A started hot-reload watcher of the home that reports to ``listener``, or None when
    hot reload is not available."""
    try:
        from harness.reload import Watcher
    except ImportError as exc:
        print(f"harness serve: hot reload unavailable ({exc}); serving without it",
              file=sys.stderr)
        return None
    # the listener says each reload; the logger's last-resort stderr line would say it again
    logging.getLogger("harness.reload").addHandler(logging.NullHandler())
    watcher = Watcher(runtime)
    watcher.add_listener(listener)  # before start(): no reload goes unreported
    watcher.start()
    return watcher


def serve_until_stopped(runtime, server, name: str, listening: str,
                        cleanup: Callable[[], None] = lambda: None) -> int:
    """Run ``server`` (a socketserver) on a thread of its own, hot-reloading the home (each
    reload said on stderr), until SIGTERM or SIGINT; then shut it, run ``cleanup`` and
    close ``runtime``. ``harness serve --socket`` and ``--http`` share it; exit status 0."""
    import signal
    import threading
    stop = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: stop.set())
                for sig in (signal.SIGTERM, signal.SIGINT)}
    watcher = _start_watcher(runtime, _report_reload)
    threading.Thread(target=server.serve_forever, name=name, daemon=True).start()
    print(f"harness serve: listening on {listening}", file=sys.stderr, flush=True)
    try:
        while not stop.wait(0.5):
            pass
    finally:
        server.shutdown()
        server.server_close()
        cleanup()
        if watcher is not None:
            watcher.stop()
        runtime.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def _report_reload(event: dict) -> None:
    what = f"harness serve: {event['event']} {event['path']}"
    if event.get("error"):
        what += f": {event['error']}"
    print(what, file=sys.stderr, flush=True)


def serve_stdio(runtime) -> int:
    """Serve ``runtime`` on stdin/stdout until EOF, hot-reloading its home meanwhile."""
    with _stdout_reserved() as out:
        server = RpcServer(runtime, out)
        server.notify_load_errors()
        watcher = _start_watcher(runtime, server.notify_reload)
        try:
            return server.serve(sys.stdin.buffer)
        finally:
            if watcher is not None:
                watcher.stop()
            runtime.close()
