"""The cross-host vocabulary (SPEC §14): what a host's tool call means in harness's terms.

Every host names its tools its own way (Claude Code ``Bash``, Gemini ``run_shell_command``,
Copilot ``bash``, ...). A host module maps each of its tools to a canonical *kind* and to
the permission checks the call implies; this module holds the kinds and builds the checks'
payloads, so that one guard on ``pre_shell_exec`` holds on every host:

| kind | permission point | payload |
|---|---|---|
| ``shell`` | pre_shell_exec | ``{"tool_name", "command", "host"}`` |
| ``write`` / ``edit`` | pre_file_write | ``{"tool_name", "path", "content", "host"}`` (content null for an edit) |
| ``read`` | pre_file_read | ``{"tool_name", "path", "host"}`` |
| ``fetch`` | pre_fetch_url | ``{"tool_name", "url", "safety", "reason", "summary", "host"}`` |

``tool_name`` is the host's own tool name. A tool of no kind fires only ``pre_tool`` /
``post_tool`` (``{"tool_name", "arguments", "host", "tool"}``, ``tool`` being the kind or
null).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = ["KINDS", "PERMISSION_POINTS", "Check", "ToolMap", "apply_patch_files", "fetch",
           "read", "shell", "urls_in", "write"]

#: the canonical tool kinds and the permission point each one fires
PERMISSION_POINTS = {"shell": "pre_shell_exec", "write": "pre_file_write",
                     "edit": "pre_file_write", "read": "pre_file_read", "fetch": "pre_fetch_url"}
KINDS = tuple(PERMISSION_POINTS)


@dataclass(frozen=True)
class Check:
    """One permission check a tool call implies: the point and its payload (without
    ``host``, which the guard adds)."""

    point: str
    payload: dict


def shell(tool: str, command: object) -> list[Check]:
    """The check of a shell command (none when the command is not a string)."""
    if not isinstance(command, str):
        return []
    return [Check("pre_shell_exec", {"tool_name": tool, "command": command})]


def write(tool: str, path: object, content: object = None) -> list[Check]:
    """The check of a write (``content`` a string) or an edit (``content`` None)."""
    if not isinstance(path, str):
        return []
    return [Check("pre_file_write", {"tool_name": tool, "path": path,
                                     "content": content if isinstance(content, str) else None})]


def read(tool: str, path: object) -> list[Check]:
    """The check of a file read."""
    if not isinstance(path, str):
        return []
    return [Check("pre_file_read", {"tool_name": tool, "path": path})]


def fetch(tool: str, url: object) -> list[Check]:
    """The check of a web fetch."""
    if not isinstance(url, str):
        return []
    return [Check("pre_fetch_url", {"tool_name": tool, "url": url, "safety": None,
                                    "reason": None, "summary": None})]


_URL = re.compile(r"https?://[^\s\"'<>)]+")


def urls_in(text: object) -> list[str]:
    """The http(s) URLs written in `text` (Gemini's web_fetch takes a prompt with URLs)."""
    if not isinstance(text, str):
        return []
    return [url.rstrip(".,;:!?") for url in _URL.findall(text)]


_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$")


def apply_patch_files(patch: object) -> list[tuple[str, str | None]]:
    """The files a Codex ``apply_patch`` envelope touches: ``(path, content)`` with the
    whole content of an added file, None for an update or a deletion."""
    if not isinstance(patch, str):
        return []
    files: list[tuple[str, str | None]] = []
    added: list[str] | None = None
    for line in patch.splitlines():
        match = _PATCH_FILE.match(line)
        if match:
            if added is not None:
                files[-1] = (files[-1][0], "".join(added))
            added = [] if match.group(1) == "Add" else None
            files.append((match.group(2).strip(), None))
        elif added is not None and line.startswith("+"):
            added.append(line[1:] + "\n")
        elif line.startswith("*** "):
            if added is not None:
                files[-1] = (files[-1][0], "".join(added))
            added = None
    if added is not None:
        files[-1] = (files[-1][0], "".join(added))
    return files


Extract = Callable[[str, dict], list[Check]]


class ToolMap:
    """A host's tools: name -> (kind, how its input becomes checks). Names not listed
    match ``prefixes`` (e.g. ``mcp__``) to no kind."""

    def __init__(self, tools: dict[str, tuple[str, Extract]]) -> None:
        self._tools = tools

    def kind(self, tool: str) -> str | None:
        """The canonical kind of the host tool `tool` (None: no kind)."""
        entry = self._tools.get(tool)
        return entry[0] if entry else None

    def checks(self, tool: str, tool_input: object) -> list[Check]:
        """The permission checks a call of `tool` with `tool_input` implies."""
        entry = self._tools.get(tool)
        if entry is None or not isinstance(tool_input, dict):
            return []
        return entry[1](tool, tool_input)

    def names(self) -> Iterable[str]:
        return self._tools.keys()
