"""Lines of a VFS or host file, read as a stream (issue 23, item 6): ``file_head`` of 3
lines of a 1 GB file had read all of it first and peaked at 6.9 GB.

Lines are counted as chibi's builtin tools count them (``(harness lines)``, Rust's
``str::lines``): split at ``\\n``, one ``\\r`` dropped from each line's end, no empty line
after a final newline; bad UTF-8 is replaced. A line over MAX_LINE bytes is cut there
(with a note) and the rest of it skipped unread into memory, so no single line can make
a reader hold the whole file either.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from harness.scheme.errors import error

# typing is for type checkers only: importing it costs ~2 ms of every harness
# process's start-up (tests/cli/test_startup_imports.py keeps it out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

#: bytes of one line kept; the rest of a longer line is skipped
MAX_LINE = 1 << 20
CUT_NOTE = " … [line cut at 1 MiB]"
_CHUNK = 1 << 16


def open_source(runtime, text: str) -> BinaryIO:
    """``text`` (a ``vfs:///`` URI, or a host path relative to the project root) opened
    for reading. Raises VfsError or OSError."""
    from harness.vfs.paths import is_vfs_uri, path_of_uri
    if is_vfs_uri(text):
        return runtime.vfs.open_binary(path_of_uri(text))
    return resolve_host_path(runtime, text).open("rb")


def resolve_host_path(runtime, text: str) -> Path:
    """``text`` as a host path: ``~`` expanded, a relative path joined to the project
    root. A misspelt ``vfs:`` URI is refused (harness.vfs.paths.misspelt_uri)."""
    from harness.vfs.paths import misspelt_uri
    misspelt = misspelt_uri(text)
    if misspelt is not None:
        raise error(misspelt)
    path = Path(os.path.expanduser(text))
    return path if path.is_absolute() else Path(runtime.project_root) / path


def iter_lines(source: BinaryIO) -> Iterator[str]:
    """The lines of ``source``, one at a time (see the module doc)."""
    while True:
        raw = source.readline(MAX_LINE + 1)
        if not raw:
            return
        cut = len(raw) > MAX_LINE and not raw.endswith(b"\n")
        if cut:
            raw = raw[:MAX_LINE]
            while True:  # skip the rest of the line without keeping it
                rest = source.readline(_CHUNK)
                if not rest or rest.endswith(b"\n"):
                    break
        elif raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        line = raw.decode("utf-8", errors="replace")
        yield line + CUT_NOTE if cut else line


def lines_between(source: BinaryIO, start: int, count: int | None) -> list[str]:
    """Lines ``start`` (from 0) to ``start + count`` (exclusive; None: to the end); only
    those are kept, and reading stops after the last."""
    out: list[str] = []
    if count == 0:
        return out
    for index, line in enumerate(iter_lines(source)):
        if index >= start:
            out.append(line)
            if count is not None and len(out) >= count:
                break
    return out


def last_lines(source: BinaryIO, count: int) -> list[str]:
    """The last ``count`` lines: the whole file is read, but only ``count`` lines kept."""
    if count == 0:
        return []
    return list(deque(iter_lines(source), maxlen=count))
