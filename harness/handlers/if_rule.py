"""A handler's ``if`` field: one Claude Code permission rule the tool call must match.

``"Bash(git *)"``, ``"Edit(*.ts)"``, ``"WebFetch(domain:example.com)"``, or a bare tool name.
It is only evaluated on the tool events (PreToolUse, PostToolUse, PostToolUseFailure,
PermissionRequest, PermissionDenied); on any other event a handler with ``if`` never runs.
What the rule tests, by tool:

* ``Bash`` / ``PowerShell``: every subcommand (split on ``&&``, ``||``, ``;``, ``|``, ``&``
  and newlines, and the insides of ``$(...)`` and backticks), without leading
  ``VAR=value`` assignments, against a wildcard pattern (``*`` is any text; a trailing
  ``:*`` is the legacy prefix form). One matching subcommand is enough. A command that
  cannot be split (an open quote) fails open: the handler runs.
* file tools (Read, Edit, Write, MultiEdit, NotebookEdit, Glob, Grep): the path, against a
  gitignore-style pattern: ``//abs`` is absolute, ``~/x`` under the home directory, ``/x``
  under the project directory, ``x`` or ``./x`` under the current directory; ``*`` stays
  within a directory, ``**`` crosses them; a pattern with no ``/`` matches a base name.
* ``WebFetch``: ``domain:HOST`` matches HOST and its subdomains.
* ``Agent`` / ``Task``: the subagent type. Anything else: the rule's tool name alone decides.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["IfRule", "compile_if"]

_RULE = re.compile(r"\s*([A-Za-z0-9_*-]+)\s*(?:\((.*)\))?\s*", re.DOTALL)
_SHELLS = ("Bash", "PowerShell")
_FILE_FIELDS = {"Read": "file_path", "Edit": "file_path", "Write": "file_path",
                "MultiEdit": "file_path", "NotebookEdit": "notebook_path", "Glob": "path",
                "Grep": "path"}
_SEPARATORS = re.compile(r"&&|\|\||[;|&\n]")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_SUBSTITUTION = re.compile(r"\$\(([^()]*)\)|`([^`]*)`")


@dataclass(frozen=True)
class IfRule:
    """A compiled ``if`` rule: the tool (may hold ``*``) and the pattern inside the
    parentheses, if any."""

    text: str
    tool: str
    pattern: str | None

    def matches(self, tool_name: object, tool_input: object, cwd: str,
                project_dir: str) -> bool:
        """Whether the tool call matches; a call the rule cannot read matches (fail open)."""
        if not isinstance(tool_name, str) or not fnmatch.fnmatchcase(tool_name, self.tool):
            return False
        if self.pattern is None or not isinstance(tool_input, dict):
            return True
        if tool_name in _SHELLS:
            return _command_matches(self.pattern, tool_input.get("command"))
        if tool_name in _FILE_FIELDS:
            path = tool_input.get(_FILE_FIELDS[tool_name])
            return not isinstance(path, str) or _path_matches(self.pattern, path, cwd,
                                                              project_dir)
        if tool_name == "WebFetch" and self.pattern.startswith("domain:"):
            return _domain_matches(self.pattern[len("domain:"):], tool_input.get("url"))
        if tool_name in ("Agent", "Task"):
            kind = tool_input.get("subagent_type")
            return not isinstance(kind, str) or fnmatch.fnmatchcase(kind, self.pattern)
        return True


def compile_if(text: str) -> IfRule:
    """The rule `text`; raises ValueError saying why it is not one rule."""
    if any(op in text for op in ("&&", "||")):
        raise ValueError(f"'if' holds one permission rule, not a combination: {text!r}")
    found = _RULE.fullmatch(text)
    if not found:
        raise ValueError(f"'if' must be a permission rule like \"Bash(git *)\" or "
                         f"\"Edit(*.ts)\", got {text!r}")
    tool, pattern = found.group(1), found.group(2)
    return IfRule(text, tool, pattern.strip() if pattern is not None else None)


# -- shell commands -------------------------------------------------------------------------

def _command_matches(pattern: str, command: object) -> bool:
    if not isinstance(command, str):
        return True
    subcommands = _subcommands(command)
    if subcommands is None:
        return True  # cannot be parsed: fail open
    regex = _command_regex(pattern)
    return any(regex.fullmatch(sub) for sub in subcommands)


def _command_regex(pattern: str) -> re.Pattern:
    if pattern.endswith(":*"):  # legacy prefix form: "npm run test:*"
        return re.compile(re.escape(pattern[:-2]) + r"(?:\s.*)?", re.DOTALL)
    return re.compile(".*".join(re.escape(part) for part in pattern.split("*")), re.DOTALL)


def _subcommands(command: str) -> list[str] | None:
    """The simple commands of `command` (inner substitutions too), each without leading
    assignments; None if it cannot be split."""
    found: list[str] = []
    pending = [command]
    while pending:
        text = pending.pop()
        for match in _SUBSTITUTION.finditer(text):
            pending.append(match.group(1) if match.group(1) is not None else match.group(2))
        try:
            shlex.split(text)  # only to refuse what a shell could not split either
        except ValueError:
            return None
        for part in _SEPARATORS.split(_SUBSTITUTION.sub(" ", text)):
            words = part.split()
            while words and _ASSIGNMENT.match(words[0]):
                words.pop(0)
            if words:
                found.append(" ".join(words))
    return found


# -- paths ----------------------------------------------------------------------------------

def _path_matches(pattern: str, path: str, cwd: str, project_dir: str) -> bool:
    if pattern.startswith("//"):
        anchored = pattern[1:]
    elif pattern.startswith("~/"):
        anchored = os.path.expanduser("~") + pattern[1:]
    elif pattern.startswith("/"):
        anchored = project_dir.rstrip("/") + pattern
    elif "/" not in pattern.rstrip("/"):  # a bare name: any base name, anywhere
        return _glob_regex(pattern).fullmatch(os.path.basename(path)) is not None
    else:
        anchored = os.path.join(cwd, pattern.removeprefix("./"))
    absolute = path if os.path.isabs(path) else os.path.join(cwd, path)
    return _glob_regex(os.path.normpath(anchored)).fullmatch(
        os.path.normpath(absolute)) is not None


def _glob_regex(glob: str) -> re.Pattern:
    """``**`` crosses directories, ``*`` and ``?`` do not."""
    out = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out), re.DOTALL)


def _domain_matches(domain: str, url: object) -> bool:
    if not isinstance(url, str):
        return True
    host = (urlsplit(url).hostname or "").lower()
    domain = domain.strip().lower()
    return host == domain or host.endswith("." + domain)
