"""A scripted Anthropic Messages API server on loopback, for driving a real agent host offline.

A script is a list of turns. Each ``POST /v1/messages`` that carries the conversation (the
host's other small requests, such as title generation or token counting, get a plain answer
and do not use up a turn) takes the next turn: a :class:`Turn` with tool calls answers
``stop_reason: "tool_use"``, a turn with only text ends the conversation. When the script is
used up, the server answers with ``final`` text. A :class:`Retry` turn is asked again (as a
model retries a search that found nothing) until the host's next request shows what it waited
for: a scripted model answers at once, faster than a host's own background work (such as
refreshing an MCP server's tool list) can settle. Every request body is recorded, so a test
can read back the ``tool_result`` the host sent (for example what a hook's deny said).

Both plain JSON and SSE streaming (``"stream": true``) are served, in the event shape the
Messages API uses: ``message_start``, ``content_block_start`` / ``content_block_delta``
(``text_delta`` or ``input_json_delta``) / ``content_block_stop``, ``message_delta`` with the
stop reason, ``message_stop``.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


@dataclass(frozen=True)
class ToolCall:
    """One ``tool_use`` block: the tool's name (``"Bash"``) and its input."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """One assistant message: optional text, then the tool calls (none ends the run)."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()


@dataclass(frozen=True)
class Retry:
    """``turn``, answered again (after ``pause`` seconds) while the request that follows it
    does not satisfy ``until``; after ``attempts`` answers the script moves on regardless."""

    turn: Turn
    until: Callable[[RecordedRequest], bool]
    pause: float = 0.2
    attempts: int = 50


def bash(command: str, description: str = "run a command") -> Turn:
    """A turn that asks the host to run ``command`` with its Bash tool."""
    return Turn(tool_calls=(ToolCall("Bash", {"command": command, "description": description}),))


def say(text: str) -> Turn:
    """A final turn: text only."""
    return Turn(text=text)


@dataclass
class RecordedRequest:
    """A request the server got: its path and decoded JSON body."""

    path: str
    body: dict[str, Any]

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks sent since the last assistant message (a host may add
        a message of its own after the results, such as a note that new tools are ready)."""
        results: list[dict[str, Any]] = []
        for message in reversed(self.body.get("messages") or []):
            if message.get("role") == "assistant":
                break
            if isinstance(message.get("content"), list):
                results[:0] = [b for b in message["content"] if b.get("type") == "tool_result"]
        return results


@dataclass
class ScriptedAnthropicServer:
    """The server; use it as a context manager, or call :meth:`start` and :meth:`stop`."""

    turns: list[Turn | Retry]
    final: str = "done"
    model: str = "claude-sonnet-4-5"
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._next_turn = 0
        self._retries = 0  # how many times the current Retry turn was answered
        self._ids = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> ScriptedAnthropicServer:
        """Listen on 127.0.0.1 (an ephemeral port) in a daemon thread."""
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The value for ``ANTHROPIC_BASE_URL``."""
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    # -- what the test reads ---------------------------------------------------------------

    @property
    def conversation_requests(self) -> list[RecordedRequest]:
        """The requests that took a turn (carried tools), in order."""
        return [r for r in self.requests if _is_conversation(r)]

    def tool_results(self) -> list[dict[str, Any]]:
        """Every ``tool_result`` block the host sent back, in order."""
        return [b for r in self.conversation_requests for b in r.tool_results]

    # -- answering -------------------------------------------------------------------------

    def answer(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """Record the request and build the message to answer with."""
        request = RecordedRequest(path, body)
        pause = 0.0
        with self._lock:
            self.requests.append(request)
            if _is_conversation(request):
                turn, pause = self._take_turn(request)
            else:
                turn = say("ok")
            serial = next(self._ids)
        time.sleep(pause)
        content: list[dict[str, Any]] = []
        if turn.text:
            content.append({"type": "text", "text": turn.text})
        for n, call in enumerate(turn.tool_calls):
            content.append({"type": "tool_use", "id": f"toolu_{serial:04d}_{n}",
                            "name": call.name, "input": call.input})
        return {
            "id": f"msg_{serial:04d}", "type": "message", "role": "assistant",
            "model": body.get("model") or self.model, "content": content,
            "stop_reason": "tool_use" if turn.tool_calls else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
        }


    def _take_turn(self, request: RecordedRequest) -> tuple[Turn, float]:
        """The turn that answers a conversation request, and the pause before answering."""
        entry = self.turns[self._next_turn] if self._next_turn < len(self.turns) else None
        if isinstance(entry, Retry):
            if self._retries and (entry.until(request) or self._retries >= entry.attempts):
                self._next_turn, self._retries = self._next_turn + 1, 0
                return self._take_turn(request)
            self._retries += 1
            return entry.turn, entry.pause if self._retries > 1 else 0.0
        if entry is None:
            return say(self.final), 0.0
        self._next_turn += 1
        return entry, 0.0


def _is_conversation(request: RecordedRequest) -> bool:
    """A request of the agent loop (it offers tools), not a side request such as a title."""
    return request.path.startswith("/v1/messages") and not request.path.endswith(
        "count_tokens") and bool(request.body.get("tools"))


def sse_events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The streaming events that deliver ``message``, in the Messages API order."""
    start = dict(message, content=[], stop_reason=None)
    start["usage"] = dict(message["usage"], output_tokens=1)
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start",
                                                                   "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            opening, delta = {"type": "text", "text": ""}, {"type": "text_delta",
                                                            "text": block["text"]}
        else:
            opening = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                               "content_block": opening}))
        events.append(("content_block_delta", {"type": "content_block_delta", "index": index,
                                               "delta": delta}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": message["usage"]["output_tokens"]}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _handler_for(server: ScriptedAnthropicServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # quiet
            pass

        def do_HEAD(self) -> None:
            self._send_json(200, {})

        def do_GET(self) -> None:
            self._send_json(200, {"data": [], "has_more": False})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b"{}"
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            path = self.path.split("?", 1)[0]
            if path.endswith("count_tokens"):
                server.requests.append(RecordedRequest(path, body))
                self._send_json(200, {"input_tokens": 10})
                return
            message = server.answer(path, body)
            if body.get("stream"):
                self._send_stream(message)
            else:
                self._send_json(200, message)

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_stream(self, message: dict[str, Any]) -> None:
            data = b"".join(
                f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode()
                for name, payload in sse_events(message))
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
