"""Input that is not JSON-RPC, answered: the SDK's stdio transport hands a line it cannot
read to the server as an exception, which the server drops without a word; here it becomes
the error response JSON-RPC prescribes (``-32700`` for text that is not JSON, ``-32600``
for JSON that is not a message, ``id`` null) and a line in the server log, and the
server reads on."""

from __future__ import annotations

import logging

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

log = logging.getLogger("harness.mcp")


def error_for(exc: Exception) -> JSONRPCError:
    """The JSON-RPC error response to a line that failed to parse with ``exc``."""
    errors = getattr(exc, "errors", None)
    kinds = {e.get("type") for e in errors()} if callable(errors) else set()
    if "json_invalid" in kinds:
        code, message = PARSE_ERROR, "Parse error: the message is not JSON"
    else:
        code, message = INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"
    return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))


class AnsweringBadInput:
    """A read stream of the server that answers what the transport could not read (on
    ``write``) instead of passing it on."""

    def __init__(self, read, write) -> None:
        self._read = read
        self._write = write

    async def receive(self):
        while True:
            item = await self._read.receive()
            if not isinstance(item, Exception):
                return item
            log.warning("bad input from the client: %s", str(item).splitlines()[0])
            await self._write.send(SessionMessage(error_for(item)))

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._read.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()

    def __getattr__(self, name: str):  # what else the transport's stream offers
        return getattr(self._read, name)
