"""The read-only tools an ``agent`` handler's model may call: Read, Grep and Glob.

Named and shaped like Claude Code's own (``file_path``, ``pattern``, ``path``, ``glob``,
``output_mode``), so a prompt written for a Claude Code agent hook works. Relative paths
are taken from the caller's current directory. Every answer is capped (lines, matches,
bytes) so one call cannot flood the model's context; a failure is a text the model reads
("error: ..."), never an exception.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

__all__ = ["AGENT_TOOLS", "run_agent_tool"]

_MAX_LINES = 2000
_MAX_CHARS = 100_000
_MAX_RESULTS = 200
_SKIPPED_DIRS = {".git", "node_modules", "__pycache__", ".venv", ".hg", ".svn"}

AGENT_TOOLS: list[dict] = [
    {"name": "Read", "description": "Read a text file; lines are numbered from 1.",
     "parameters": {"type": "object", "required": ["file_path"], "properties": {
         "file_path": {"type": "string", "description": "absolute or relative path"},
         "offset": {"type": "integer", "description": "first line to read (1-based)"},
         "limit": {"type": "integer", "description": "how many lines"}}}},
    {"name": "Grep", "description": "Search files for a regular expression.",
     "parameters": {"type": "object", "required": ["pattern"], "properties": {
         "pattern": {"type": "string"}, "path": {"type": "string"},
         "glob": {"type": "string", "description": "only files whose name matches"},
         "output_mode": {"type": "string",
                         "enum": ["files_with_matches", "content", "count"]},
         "-i": {"type": "boolean", "description": "ignore case"}}}},
    {"name": "Glob", "description": "List files matching a glob pattern such as **/*.py.",
     "parameters": {"type": "object", "required": ["pattern"], "properties": {
         "pattern": {"type": "string"}, "path": {"type": "string"}}}},
]


def run_agent_tool(name: str, arguments: dict, cwd: str) -> str:
    """What the tool `name` answers to `arguments`; errors are answers too."""
    tool = _TOOLS.get(name)
    if tool is None:
        return f"error: unknown tool {name!r} (tools: Read, Grep, Glob)"
    try:
        return _capped(tool(arguments, cwd))
    except (OSError, ValueError, TypeError, KeyError, re.error) as exc:
        return f"error: {type(exc).__name__}: {exc}"


def _path(arguments: dict, key: str, cwd: str, default: str | None = None) -> Path:
    value = arguments.get(key, default)
    if not isinstance(value, str):
        raise TypeError(f"'{key}' must be a string")
    return Path(cwd, os.path.expanduser(value))


def _read(arguments: dict, cwd: str) -> str:
    path = _path(arguments, "file_path", cwd)
    offset = max(1, int(arguments.get("offset") or 1))
    limit = min(_MAX_LINES, max(1, int(arguments.get("limit") or _MAX_LINES)))
    lines = []
    with path.open(encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            if number >= offset + limit:
                break
            if number >= offset:
                lines.append(f"{number:6}\t{line.rstrip()}")
    return "\n".join(lines) if lines else "(no lines there)"


def _files(root: Path, name_glob: str | None):
    if root.is_file():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name_glob is None or Path(name).match(name_glob):
                yield Path(folder, name)


def _grep(arguments: dict, cwd: str) -> str:
    flags = re.IGNORECASE if arguments.get("-i") else 0
    regex = re.compile(str(arguments["pattern"]), flags)
    mode = arguments.get("output_mode") or "files_with_matches"
    root = _path(arguments, "path", cwd, ".")
    out: list[str] = []
    for file in _files(root, arguments.get("glob")):
        try:
            text = file.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary or unreadable: not searched
        hits = [(n, line) for n, line in enumerate(text.splitlines(), 1) if regex.search(line)]
        if not hits:
            continue
        if mode == "content":
            out.extend(f"{file}:{n}:{line}" for n, line in hits)
        elif mode == "count":
            out.append(f"{file}:{len(hits)}")
        else:
            out.append(str(file))
        if len(out) >= _MAX_RESULTS:
            out.append(f"(stopped after {_MAX_RESULTS} results)")
            break
    return "\n".join(out) if out else "no matches"


def _glob(arguments: dict, cwd: str) -> str:
    root = _path(arguments, "path", cwd, ".")
    found = []
    for path in sorted(root.glob(str(arguments["pattern"]))):
        if not any(part in _SKIPPED_DIRS for part in path.relative_to(root).parts):
            found.append(str(path))
        if len(found) >= _MAX_RESULTS:
            found.append(f"(stopped after {_MAX_RESULTS} files)")
            break
    return "\n".join(found) if found else "no files"


def _capped(text: str) -> str:
    if len(text) <= _MAX_CHARS:
        return text
    return text[:_MAX_CHARS] + f"\n(cut at {_MAX_CHARS} characters)"


_TOOLS: dict[str, Callable[[dict, str], str]] = {"Read": _read, "Grep": _grep, "Glob": _glob}
