"""stdin and stdout for the SDK's ``stdio_server``, read and written by the event loop.

The SDK's own streams go through ``anyio.wrap_file``: every line read and every write and
flush is a hop to a worker thread, about 16 hops per tool call, which cost more than a
millisecond a call (bench/mcp.py, cProfile of the server). Here the loop reads the pipe
itself (``connect_read_pipe``) and writes it (``connect_write_pipe``): no thread.

As the SDK does with its own streams, while serving fd 0 reads the null device and fd 1
writes to stderr (so a hook, a tool or a child process can neither eat the client's
messages nor corrupt the answers), and both come back afterwards. Where the loop cannot
own the pipes (stdin a regular file, or stdout and stderr one and the same pipe, which
non-blocking writes would share) `loop_stdio` yields None and the SDK's streams serve.
"""

from __future__ import annotations

import asyncio
import os
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

#: the longest message line read (a write_file of a large file fits)
MAX_LINE = 64 * 1024 * 1024


class _Lines:
    """stdin as the async iterator of text lines ``stdio_server`` reads."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _Output:
    """stdout as the ``write`` / ``flush`` pair ``stdio_server`` calls."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


def _loop_can_own_pipes() -> bool:
    try:
        modes = [os.fstat(fd) for fd in (0, 1, 2)]
    except OSError:
        return False
    readable = stat.S_ISFIFO(modes[0].st_mode) or stat.S_ISSOCK(modes[0].st_mode) or \
        stat.S_ISCHR(modes[0].st_mode)
    shared = (modes[1].st_dev, modes[1].st_ino) == (modes[2].st_dev, modes[2].st_ino)
    return readable and not shared


@asynccontextmanager
async def loop_stdio() -> AsyncIterator[tuple[_Lines, _Output] | None]:
    """``(stdin, stdout)`` for ``stdio_server(stdin, stdout)`` (see the module doc), or
    None when the SDK's streams must serve."""
    if not _loop_can_own_pipes():
        yield None
        return
    loop = asyncio.get_running_loop()
    sys.stdout.flush()
    saved = os.dup(0), os.dup(1)
    wire_in, wire_out = os.fdopen(os.dup(0), "rb", buffering=0), \
        os.fdopen(os.dup(1), "wb", buffering=0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    saved_stdout, sys.stdout = sys.stdout, sys.stderr
    reader = asyncio.StreamReader(limit=MAX_LINE)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), wire_in)
    write_transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), wire_out)
    writer = asyncio.StreamWriter(write_transport, protocol, None, loop)
    try:
        yield _Lines(reader), _Output(writer)
    finally:
        read_transport.close()
        write_transport.close()
        sys.stdout = saved_stdout
        for fd, copy in zip((0, 1), saved):
            os.dup2(copy, fd)
            os.close(copy)
