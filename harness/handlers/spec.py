"""One declared handler: an entry of a ``hooks`` object checked and made ready to run.

```json
{"hooks": {"PreToolUse": [{"matcher": "Bash",
                           "hooks": [{"type": "command", "command": "~/guard.sh"}]}]}}
```

`parse_group` reads one matcher group (``{"matcher", "hooks": [...]}``) of an event and
returns its handlers plus what is wrong with it, each problem naming its key path
(``hooks.PreToolUse[0].hooks[1].timeout``). A bad handler is skipped; the others of the
group still load. Types, as in Claude Code: ``command``, ``http``, ``mcp_tool`` (``mcp`` is
accepted as another name for it), ``prompt``, ``agent``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import orjson

from harness.hooks.claude_events import CLAUDE_EVENTS, HANDLER_TYPES
from harness.hooks.outcome import json_type
from harness.spelling import closest_name

# Matchers and `if` rules are compiled by the first group declared: every runtime imports
# this module, most with no handler to parse.
if TYPE_CHECKING:
    from harness.handlers.if_rule import IfRule
    from harness.handlers.matcher import Matcher

__all__ = ["Handler", "LoadProblem", "parse_group"]

#: type aliases accepted in a handler's ``type``
TYPE_ALIASES = {"mcp": "mcp_tool"}


@dataclass(frozen=True)
class LoadProblem:
    """Something wrong in a handler source. ``where`` is ``FILE: KEY``; an ``error`` also
    shows in every dispatch of the hook point it concerns (``point``; None: all of them),
    a ``warning`` only where the sources are checked and loaded."""

    where: str
    message: str
    severity: str = "error"
    point: str | None = None

    @property
    def file(self) -> str:
        return self.where.split(": ", 1)[0]

    @property
    def key(self) -> str:
        """The key path in the file ("" for the file as a whole)."""
        parts = self.where.split(": ", 1)
        return parts[1] if len(parts) > 1 else ""

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class Handler:
    """A declared handler ready to run.

    ``options`` are its type's own fields, checked (``command``, ``args``, ``url``, ...).
    ``source`` names it in dispatch results: ``handler:FILE:KEY``. ``scope`` is where it
    was declared: ``harness`` (hooks.toml), ``settings`` or ``managed``.
    """

    point: str
    type: str
    options: dict
    matcher: Matcher
    if_rule: IfRule | None
    timeout: float | None  # None: the default of its type and event
    is_async: bool
    on_failure: str  # "ignore" (fail open, as Claude Code) or "block"
    file: str
    key: str
    scope: str
    identity: tuple = field(compare=False)

    @property
    def source(self) -> str:
        return f"handler:{self.file}:{self.key}"


Check = Callable[[object], "str | None"]


def _string(value: object) -> str | None:
    return None if isinstance(value, str) and value.strip() else \
        f"must be a non-empty string, got {_shown(value)}"


def _boolean(value: object) -> str | None:
    return None if isinstance(value, bool) else f"must be true or false, got {_shown(value)}"


def _seconds(value: object) -> str | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    return None if ok else f"must be a positive number of seconds, got {_shown(value)}"


def _strings(value: object) -> str | None:
    ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    return None if ok else f"must be a list of strings, got {_shown(value)}"


def _string_table(value: object) -> str | None:
    ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    return None if ok else f"must be a table of strings, got {_shown(value)}"


def _table(value: object) -> str | None:
    return None if isinstance(value, dict) else f"must be a table (object), got {_shown(value)}"


def _url(value: object) -> str | None:
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        return None
    return f"must be an http:// or https:// URL, got {_shown(value)}"


def _one_of(*values: str) -> Check:
    def check(value: object) -> str | None:
        return None if value in values else \
            f"must be one of {', '.join(repr(v) for v in values)}, got {_shown(value)}"
    return check


def _shell(value: object) -> str | None:
    if value == "powershell":
        return "PowerShell handlers are not supported here (use bash or sh)"
    return _one_of("bash", "sh")(value)


def _turns(value: object) -> str | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 50
    return None if ok else f"must be a whole number from 1 to 50, got {_shown(value)}"


def _shown(value: object) -> str:
    if isinstance(value, str):
        return repr(value)
    return json_type(value)


_COMMON: dict[str, Check] = {"type": _string, "if": _string, "timeout": _seconds,
                             "statusMessage": _string, "once": _boolean,
                             "onFailure": _one_of("block", "ignore")}
#: per type: its own keys (checked) and which of them are required
_FIELDS: dict[str, tuple[dict[str, Check], tuple[str, ...]]] = {
    "command": ({"command": _string, "args": _strings, "shell": _shell,
                 "async": _boolean, "asyncRewake": _boolean}, ("command",)),
    "http": ({"url": _url, "headers": _string_table, "allowedEnvVars": _strings,
              "async": _boolean}, ("url",)),
    "mcp_tool": ({"server": _string, "tool": _string, "input": _table, "async": _boolean},
                 ("server", "tool")),
    "prompt": ({"prompt": _string, "model": _string, "continueOnBlock": _boolean,
                "async": _boolean}, ("prompt",)),
    "agent": ({"prompt": _string, "model": _string, "maxTurns": _turns, "async": _boolean},
              ("prompt",)),
}
_GROUP_KEYS = ("matcher", "hooks")


def parse_group(point: str, group: object, where: str, file: str, scope: str,
                matcher_field: str | None) -> tuple[list[Handler], list[LoadProblem]]:
    """The handlers of one matcher group of `point` declared at `where` (``FILE: KEY``).

    `matcher_field` is what the point's matcher tests (None: a matcher is ignored there, with
    a warning). Returns the handlers that are fine and the problems of the rest."""
    problems: list[LoadProblem] = []

    def problem(key: str, message: str, severity: str = "error") -> None:
        problems.append(LoadProblem(f"{where}{key}", message, severity, point))

    if not isinstance(group, dict):
        problem("", f"a matcher group must be a table with 'hooks' (and 'matcher'), got "
                    f"{_shown(group)}")
        return [], problems
    for key in group:
        if key not in _GROUP_KEYS:
            problem(f".{key}", f"unknown key{_closest(key, _GROUP_KEYS)}; ignored", "warning")
    from harness.handlers.matcher import compile_matcher
    text = group.get("matcher")
    matcher = compile_matcher(None, point)
    if text is not None:
        if not isinstance(text, str):
            problem(".matcher", f"must be a string, got {_shown(text)}; this group is skipped")
            return [], problems
        if matcher_field is None and text not in ("", "*"):
            problem(".matcher", f"{point} has no matcher; it is ignored and the group runs "
                                "on every event", "warning")
        else:
            try:
                matcher = compile_matcher(text, point)
            except ValueError as exc:
                problem(".matcher", f"{exc}; this group is skipped")
                return [], problems
    entries = group.get("hooks")
    if not isinstance(entries, list):
        problem(".hooks", f"must be a list of handlers, got "
                          f"{'nothing' if entries is None else _shown(entries)}")
        return [], problems
    handlers = []
    for index, entry in enumerate(entries):
        key = f"{where}.hooks[{index}]"
        handler = _parse_handler(point, entry, key, file, scope, matcher, problems)
        if handler is not None:
            handlers.append(handler)
    return handlers, problems


def _parse_handler(point: str, entry: object, where: str, file: str, scope: str,
                   matcher: Matcher, problems: list[LoadProblem]) -> Handler | None:
    def problem(message: str, severity: str = "error", key: str = "") -> None:
        problems.append(LoadProblem(where + key, message, severity, point))

    if not isinstance(entry, dict):
        problem(f"a handler must be a table with 'type', got {_shown(entry)}")
        return None
    kind = entry.get("type")
    kind = TYPE_ALIASES.get(kind, kind)
    if kind not in HANDLER_TYPES:
        hint = _closest(kind, HANDLER_TYPES) if isinstance(kind, str) else ""
        problem(f"'type' must be one of {', '.join(HANDLER_TYPES)}, got "
                f"{_shown(entry.get('type')) if 'type' in entry else 'nothing'}{hint}",
                key=".type")
        return None
    event = CLAUDE_EVENTS.get(point)
    if event is not None and kind not in event.handler_types:
        problem(f"{kind} handlers do not run on {point} (it takes "
                f"{', '.join(event.handler_types)})", key=".type")
        return None
    own, required = _FIELDS[kind]
    bad = False
    for key, value in entry.items():
        check = _COMMON.get(key) or own.get(key)
        if check is None:
            problem(f"unknown key for a {kind} handler{_closest(key, [*_COMMON, *own])}; "
                    "ignored", "warning", f".{key}")
        elif (message := check(value)) is not None:
            problem(message, key=f".{key}")
            bad = True
    for key in required:
        if key not in entry:
            problem(f"a {kind} handler needs '{key}'", key=f".{key}")
            bad = True
    if entry.get("once") is True:
        problem("'once' is honoured only in skill frontmatter; the handler runs every time",
                "warning", ".once")
    if_rule = None
    if isinstance(entry.get("if"), str):
        from harness.handlers.if_rule import compile_if
        try:
            if_rule = compile_if(entry["if"])
        except ValueError as exc:
            problem(str(exc), key=".if")
            bad = True
    if bad:
        return None
    options = {key: value for key, value in entry.items() if key in own and key != "async"}
    is_async = bool(entry.get("async") or entry.get("asyncRewake"))
    return Handler(point=point, type=kind, options=options, matcher=matcher, if_rule=if_rule,
                   timeout=entry.get("timeout"), is_async=is_async,
                   on_failure=entry.get("onFailure", "ignore"), file=file,
                   key=where.split(": ", 1)[-1], scope=scope,
                   identity=_identity(point, entry))


def _identity(point: str, entry: dict) -> tuple:
    """What makes two handlers the same (they then run once): the point and every field
    but the spinner text; sorted keys give one text whatever the order they were written."""
    same = {k: v for k, v in entry.items() if k not in ("statusMessage", "once")}
    same["type"] = TYPE_ALIASES.get(same["type"], same["type"])
    return (point, orjson.dumps(same, option=orjson.OPT_SORT_KEYS))


def _closest(name: str, names) -> str:
    close = closest_name(str(name), names)
    return f" (did you mean '{close}'?)" if close else ""
