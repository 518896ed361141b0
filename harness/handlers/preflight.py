"""What will not work in declared handlers that load fine, found before an event runs them.

Claude Code's users' top complaint is the hook that silently never works: a mistyped script
path makes ``sh`` exit 127, which is a non-blocking error, so the guard is simply gone.
`preflight` looks at every handler that may run and warns about:

* a ``command`` whose program (or the script given to an interpreter such as ``python3`` or
  ``bash``) does not exist or is not executable;
* a ``command`` that runs ``harness claude-hook`` itself (it will not answer: recursion);
* an ``http`` handler whose URL no ``allowedHttpHookUrls`` entry allows (never called);
* an ``mcp_tool`` handler naming a server that is not configured;
* ``prompt`` and ``agent`` handlers with no model to ask.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil

from harness.handlers.spec import Handler, LoadProblem

__all__ = ["preflight"]

_INTERPRETERS = {"python", "python3", "bash", "sh", "zsh", "node", "ruby", "perl", "deno",
                 "bun"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def preflight(handlers, has_model: bool) -> list[LoadProblem]:
    """Warnings about the handlers of `handlers` (a HandlerSet) that may run."""
    table = handlers.table
    found: list[LoadProblem] = []
    for point_handlers in table.by_point.values():
        for handler in point_handlers:
            message = _problem(handler, handlers.project_dir, table, has_model)
            if message:
                found.append(LoadProblem(f"{handler.file}: {handler.key}", message, "warning",
                                         handler.point))
    return found


def _problem(handler: Handler, project_dir: str, table, has_model: bool) -> str | None:
    options = handler.options
    if handler.type == "command":
        return _command_problem(options, project_dir)
    if handler.type == "http" and not table.url_allowed(options["url"]):
        return (f"{options['url']} is not in allowedHttpHookUrls: this handler will never be "
                "called")
    if handler.type == "mcp_tool" and options["server"] not in table.mcp_servers:
        return f"MCP server {options['server']!r} is not configured (mcp_servers / mcpServers)"
    if handler.type in ("prompt", "agent") and not has_model:
        return (f"no model is configured for this {handler.type} handler ([model] in "
                "harness.toml, or Runtime(model=...))")
    return None


def _command_problem(options: dict, project_dir: str) -> str | None:
    text = options["command"]
    if "claude-hook" in text and "harness" in text:
        return ("runs harness claude-hook itself: called from harness, it will not answer "
                "(a settings file that runs harness should not also be one of its sources)")
    if "args" in options:
        words = [text]
    else:
        try:
            words = shlex.split(text)
        except ValueError:
            return None  # the shell will say what is wrong
        while words and _ASSIGNMENT.match(words[0]):
            words.pop(0)
        words = [_expanded(word, project_dir) for word in words]
        if not words or any(c in words[0] for c in "$`;|&<>(){}*?"):
            return None  # too dynamic to judge before it runs
    program = words[0] if "args" not in options else _expanded(words[0], project_dir)
    if "/" not in program:
        if shutil.which(program) is None:
            return f"runs {program}, which is not on PATH: every run will fail"
        script = words[1] if len(words) > 1 else ""
        # a relative script is looked for where Claude Code runs it: not judged here
        if os.path.basename(program) in _INTERPRETERS and os.path.isabs(script) and \
                not os.path.isfile(script):
            return f"runs {program} {script}, which does not exist: every run will fail"
        return None
    if not os.path.isfile(program):
        return f"runs {program}, which does not exist: every run will fail"
    if not os.access(program, os.X_OK):
        return f"runs {program}, which is not executable (chmod +x): every run will fail"
    return None


def _expanded(word: str, project_dir: str) -> str:
    for form in ("${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"):
        word = word.replace(form, project_dir)
    return os.path.expanduser(word)
