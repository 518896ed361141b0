"""Finding transcripts under the paths given and telling which host wrote each.

A folder is read recursively (``*.jsonl``, sorted). Each file's format is told from its
first JSON object line: a harness recording, a Codex rollout or a Claude Code transcript;
``host`` given forces the reader of that host for every file that is not a recording. A
file of no known format, a path that does not exist and a host without a transcript reader
are problems (reported, skipped), never errors that stop the replay.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from harness.replay import claude_code, codex, recording
from harness.replay.events import Problem, Transcript
from harness.replay.lines import json_lines

__all__ = ["READERS", "read_paths", "unknown_host"]

#: host -> its transcript reader module (``looks_like(entry)``, ``read(path)``)
READERS = {"claude-code": claude_code, "codex": codex}
_ALIASES = {"claude": "claude-code"}
_SNIFFED_LINES = 50


def unknown_host(host: str) -> str | None:
    """Why ``host`` cannot be read (None: it can)."""
    if _ALIASES.get(host, host) in READERS:
        return None
    from harness.spelling import closest_name
    close = closest_name(host, list(READERS))
    hint = f"did you mean '{close}'? " if close else ""
    return f"no transcript reader for host '{host}' ({hint}hosts: {', '.join(READERS)})"


def read_paths(paths: list[str], host: str | None = None) -> Iterator[Transcript]:
    """Every transcript under ``paths``, read (see the module doc)."""
    host = _ALIASES.get(host, host) if host else None
    for path in paths:
        if os.path.isdir(path):
            files = sorted(str(p) for p in Path(path).rglob("*.jsonl") if p.is_file())
        elif os.path.exists(path):
            files = [path]
        else:
            yield Transcript(path, None, [], [Problem(path, 0, "no such file or folder")])
            continue
        for file in files:
            yield _read(file, host)


def _read(path: str, host: str | None) -> Transcript:
    kind, number = _sniff(path)
    if kind == "recording":
        return recording.read(path)
    if host is not None:
        return READERS[host].read(path)
    if kind is None:
        what = "an empty file" if number == 0 else \
            "not a transcript of a known host (Claude Code, Codex) nor a harness recording"
        return Transcript(path, None, [], [Problem(path, number or 1, f"{what}: skipped "
                                                                      "(give --host to "
                                                                      "force a reader)")])
    return READERS[kind].read(path)


def _sniff(path: str) -> tuple[str | None, int]:
    """(format, line) from the first object lines of ``path``: ``recording``, a host name
    or None; the line it was told from (0: no object line at all)."""
    seen = 0
    for item in json_lines(path):
        if isinstance(item, Problem):
            continue
        number, entry = item
        seen = seen or number
        if recording.looks_like(entry):
            return "recording", number
        if codex.looks_like(entry):
            return "codex", number
        if claude_code.looks_like(entry):
            return "claude-code", number
        if number >= _SNIFFED_LINES:
            break
    return None, seen
