"""fs_read tools that need a regex engine or a directory walk: file_grep, dir_list,
glob_files, grep_files (reference §5.2). Python's ``re`` stands in for Rust's regex (the
common syntax is the same); ``.gitignore`` files and glob patterns follow git's rules
through pathspec.

Host paths are relative to the project root; a path outside the allowed paths passed the
``pre_file_read`` gate before the tool runs. file_grep also reads ``vfs:///`` files.
"""

from __future__ import annotations

import os
import re
from collections import deque
from pathlib import Path

from harness.builtins import lenient_count, python_tool
from harness.calls.run_tool import ToolError
from harness.host_libraries.line_stream import iter_lines, open_source
from harness.sandbox.thread_context import current_runtime
from harness.vfs.paths import VfsError, is_vfs_uri, path_of_uri
from harness.vfs.store import os_error_text


def _required(arguments: dict, name: str, message: str | None = None) -> str:
    value = arguments.get(name)
    if not isinstance(value, str):
        raise ToolError(message or f"Missing '{name}' parameter")
    return value


def _host(path: str) -> Path:
    full = Path(os.path.expanduser(path))
    if full.is_absolute():
        return full
    runtime = current_runtime()
    return (Path(runtime.project_root) if runtime is not None else Path.cwd()) / full


def _read_text(path: str) -> str:
    """A VFS or host file's text (bad UTF-8 replaced); chibi's error text if it fails."""
    try:
        if is_vfs_uri(path):
            return current_runtime().vfs.read_text(path_of_uri(path))
        return _host(path).read_bytes().decode("utf-8", errors="replace")
    except VfsError as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(os_error_text(exc)) from None


def _lines(text: str) -> list[str]:
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [p.removesuffix("\r") for p in parts]


def _compile(pattern: str, message: str) -> re.Pattern:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ToolError(message.format(detail=exc)) from None


_PATH = {"type": "string", "description": "a file path (relative to the project root)"}


@python_tool("file_grep", "Search one file (a vfs:/// URI or a path) for a regex; matches "
             "are shown as >LINE:text with context lines as  LINE:text.", {
                 "properties": {
                     "path": {"type": "string", "description": "a vfs:/// URI or a path"},
                     "pattern": {"type": "string", "description": "a regular expression"},
                     "context_before": {"type": "integer", "default": 2},
                     "context_after": {"type": "integer", "default": 2}},
                 "required": ["path", "pattern"]}, "fs_read")
def file_grep(arguments: dict) -> str:
    path = _required(arguments, "path", "Must provide path")
    pattern = _required(arguments, "pattern")
    regex = _compile(pattern, "Invalid regex: {detail}")
    before, after = lenient_count(arguments, "context_before", 2), lenient_count(arguments, "context_after", 2)
    out: list[str] = []
    recent: deque[tuple[int, str]] = deque(maxlen=before or None)  # lines not yet shown
    shown = -1  # the last line index printed
    owed = 0  # context lines still to print after the last match
    with _open(path) as source:
        for i, line in enumerate(iter_lines(source)):
            matched = regex.search(line) is not None
            if owed:  # context of the match before; a match here keeps chibi's space mark
                out.append(f" {i + 1}:{line}")
                shown, owed = i, after if matched else owed - 1
            elif matched:
                if out and i > shown + 1 and (not recent or recent[0][0] > shown + 1):
                    out.append("--")
                out.extend(f" {n + 1}:{text}" for n, text in recent)
                out.append(f">{i + 1}:{line}")
                recent.clear()
                shown, owed = i, after
            elif before:
                recent.append((i, line))
    return "\n".join(out) if out else f"No matches found for pattern: {pattern}"


def _open(path: str):
    """A VFS or host file opened for streaming; chibi's error text if it fails."""
    try:
        return open_source(current_runtime(), path)
    except VfsError as exc:
        raise ToolError(str(exc)) from None
    except OSError as exc:
        raise ToolError(os_error_text(exc)) from None


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


@python_tool("dir_list", "A directory as a tree: folders first, files with their sizes.", {
    "properties": {"path": dict(_PATH, default="."),
                   "depth": {"type": "integer", "default": 1,
                             "description": "how many levels"},
                   "show_hidden": {"type": "string", "default": "false",
                                   "description": "\"true\" to show dotfiles"}},
    "required": ["path"]}, "fs_read")
def dir_list(arguments: dict) -> str:
    shown_path = arguments.get("path") if isinstance(arguments.get("path"), str) else "."
    if shown_path.startswith("vfs://"):
        raise ToolError("dir_list does not support vfs:// paths")
    root = _host(shown_path)
    if not root.exists():
        raise ToolError(f"Path not found: {shown_path}")
    if not root.is_dir():
        raise ToolError(f"Path is not a directory: {shown_path}")
    depth = max(lenient_count(arguments, "depth", 1), 1)
    hidden = arguments.get("show_hidden") == "true"
    out = [shown_path.rstrip("/") + "/"]

    def walk(directory: Path, prefix: str, level: int) -> None:
        try:
            children = [c for c in directory.iterdir() if hidden or not c.name.startswith(".")]
        except OSError as exc:
            out.append(f"{prefix}└── [{os_error_text(exc)}]")
            return
        dirs = sorted((c for c in children if c.is_dir()), key=lambda c: c.name)
        files = sorted((c for c in children if not c.is_dir()), key=lambda c: c.name)
        entries = dirs + files
        for n, child in enumerate(entries):
            last = n == len(entries) - 1
            branch = "└── " if last else "├── "
            if child.is_dir():
                out.append(f"{prefix}{branch}{child.name}/")
                if level < depth:
                    walk(child, prefix + ("    " if last else "│   "), level + 1)
            else:
                try:
                    size = _size(child.stat().st_size)
                except OSError:
                    size = "?"
                out.append(f"{prefix}{branch}{child.name} ({size})")

    walk(root, "", 1)
    return "\n".join(out) + "\n"


def _walk(root: Path):
    import pathspec
    """The files under ``root`` (relative, as text), skipping hidden names and what the
    .gitignore files on the way exclude, in walk order (sorted per folder)."""
    stack = [(root, [])]
    while stack:
        directory, ignores = stack.pop()
        local = directory / ".gitignore"
        if local.is_file():
            try:
                spec = pathspec.GitIgnoreSpec.from_lines(
                    local.read_text(encoding="utf-8", errors="replace").splitlines())
                ignores = [*ignores, (directory, spec)]
            except (OSError, ValueError):
                pass
        try:
            children = sorted(directory.iterdir(), key=lambda c: c.name)
        except OSError:
            continue
        subdirs = []
        for child in children:
            if child.name.startswith("."):
                continue
            is_dir = child.is_dir()
            if any(spec.match_file(os.path.relpath(child, base) + ("/" if is_dir else ""))
                   for base, spec in ignores):
                continue
            if is_dir:
                subdirs.append(child)
            else:
                yield os.path.relpath(child, root)
        stack.extend((d, ignores) for d in reversed(subdirs))


def _search_root(arguments: dict) -> Path:
    path = arguments.get("path") if isinstance(arguments.get("path"), str) else "."
    if path.startswith("vfs://"):
        raise ToolError(f"VFS paths are not supported here: {path}")
    root = _host(path)
    if not root.is_dir():
        raise ToolError(f"Path not found: {path}" if not root.exists()
                        else f"Path is not a directory: {path}")
    return root


def _glob(pattern: str):
    """A gitignore-style pattern as a pathspec matcher."""
    import pathspec
    try:
        return pathspec.GitIgnoreSpec.from_lines([pattern])
    except (ValueError, TypeError) as exc:
        raise ToolError(f"Invalid glob pattern '{pattern}': {exc}") from None


@python_tool("glob_files", "Files matching a glob (gitignore style, e.g. '*.py' or "
             "'src/**/*.rs'), relative to path; .gitignore and hidden files are skipped.", {
                 "properties": {"pattern": {"type": "string", "description": "the glob"},
                                "path": dict(_PATH, default="."),
                                "max_results": {"type": "integer", "default": 100}},
                 "required": ["pattern"]}, "fs_read")
def glob_files(arguments: dict) -> str:
    pattern = _required(arguments, "pattern")
    spec = _glob(pattern)
    limit = lenient_count(arguments, "max_results", 100)
    found = []
    for relative in _walk(_search_root(arguments)):
        if spec.match_file(relative):
            found.append(relative)
            if len(found) >= limit:
                break
    return "\n".join(found) if found else f"No files found matching pattern: {pattern}"


@python_tool("grep_files", "Search the files under path for a regex: FILE:LINE: text for a "
             "match, FILE:LINE-text for context.", {
                 "properties": {"pattern": {"type": "string", "description": "a regex"},
                                "path": dict(_PATH, default="."),
                                "file_pattern": {"type": "string",
                                                 "description": "only files matching this glob"},
                                "context_lines": {"type": "integer", "default": 2},
                                "max_results": {"type": "integer", "default": 50}},
                 "required": ["pattern"]}, "fs_read")
def grep_files(arguments: dict) -> str:
    pattern = _required(arguments, "pattern")
    regex = _compile(pattern, f"Invalid regex pattern '{pattern}': {{detail}}")
    only = arguments.get("file_pattern")
    spec = _glob(only) if isinstance(only, str) and only else None
    context = lenient_count(arguments, "context_lines", 2)
    limit = lenient_count(arguments, "max_results", 50)
    root = _search_root(arguments)
    out: list[str] = []
    matches = 0
    for relative in _walk(root):
        if spec is not None and not spec.match_file(relative):
            continue
        try:
            lines = _lines((root / relative).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue  # binary or unreadable files are not searched
        hits = [i for i, line in enumerate(lines) if regex.search(line)]
        hits = hits[:max(limit - matches, 0)]
        ranges: list[list[int]] = []
        for i in hits:
            lo, hi = max(i - context, 0), min(i + context, len(lines) - 1)
            if ranges and lo <= ranges[-1][1] + 1:
                ranges[-1][1] = hi
            else:
                ranges.append([lo, hi])
        hit_set = set(hits)
        for lo, hi in ranges:
            for n in range(lo, hi + 1):
                mark = ": " if n in hit_set else "-"
                out.append(f"{relative}:{n + 1}{mark}{lines[n]}".rstrip())
            out.append("")
        matches += len(hits)
        if matches >= limit:
            out.append(f"[Truncated: {limit} results limit reached]")
            break
    if not matches:
        return f"No matches found for pattern: {pattern}"
    return "\n".join(out).rstrip()


TOOLS = (file_grep, dir_list, glob_files, grep_files)
