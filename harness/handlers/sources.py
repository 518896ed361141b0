"""Where declared handlers come from: the home's ``hooks.toml`` and Claude Code settings files.

``HOME/hooks.toml`` has the shape of Claude Code's ``hooks`` object, in TOML, and may name
harness's own hook points too::

    allowedHttpHookUrls = ["http://127.0.0.1:*"]

    [[PreToolUse]]
    matcher = "Bash"
    [[PreToolUse.hooks]]
    type = "command"
    command = "~/.claude/hooks/check-bash.sh"

    [mcp_servers.policy]              # servers for mcp_tool handlers (also: mcpServers)
    command = "python3"
    args = ["policy_server.py"]

A settings file (JSON) is read as Claude Code reads it: its ``hooks`` object, the policy keys
``disableAllHooks``, ``allowManagedHooksOnly`` (managed file only),
``allowedHttpHookUrls`` and ``httpHookAllowedEnvVars``, and ``mcpServers`` (so a project's
``.mcp.json`` can be named too); every other key is ignored. A problem names its file and
key; one bad entry never takes the rest of its file with it. `load_source` raises
SourceError only when a file cannot be read at all (then its last good version is kept).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from harness.handlers.spec import Handler, LoadProblem, parse_group
from harness.hooks.catalogue import HOOK_POINTS, closest_hook_name
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.spelling import closest_name

__all__ = [
    "POLICY_KEYS",
    "LoadedSource",
    "Source",
    "SourceError",
    "load_source",
    "matcher_field",
]

#: the settings keys about hooks that are not handlers
POLICY_KEYS = ("disableAllHooks", "allowManagedHooksOnly", "allowedHttpHookUrls",
               "httpHookAllowedEnvVars")
_SERVER_KEYS = ("mcp_servers", "mcpServers")
_SERVER_FIELDS = {"command": str, "args": list, "env": dict, "cwd": str, "type": str,
                  "url": str, "headers": dict}


class SourceError(Exception):
    """A handler source that cannot be read or parsed; the message has FILE[:LINE:COL]."""


@dataclass(frozen=True)
class Source:
    """A file handlers may be declared in. ``scope``: ``harness`` (the home's hooks.toml),
    ``settings`` (a Claude Code settings file outside the project), ``project`` (one inside
    the project directory: the project's own, which may be hostile) or ``managed`` (the
    managed settings file)."""

    path: str
    scope: str

    @property
    def is_toml(self) -> bool:
        return self.path.endswith(".toml")


@dataclass(frozen=True)
class LoadedSource:
    """What one file declares. ``policy`` holds the POLICY_KEYS it sets; ``digest`` is the
    hash of its bytes (None: the file does not exist, which declares nothing)."""

    source: Source
    handlers: tuple[Handler, ...] = ()
    policy: tuple[tuple[str, object], ...] = ()
    mcp_servers: tuple[tuple[str, dict], ...] = ()
    problems: tuple[LoadProblem, ...] = ()
    digest: str | None = None

    def setting(self, key: str, default: object = None) -> object:
        return dict(self.policy).get(key, default)


def matcher_field(point: str) -> str | None:
    """The payload field a matcher tests on `point`: Claude Code's choice for its events,
    ``tool_name`` on harness points that carry one."""
    event = CLAUDE_EVENTS.get(point)
    if event is not None:
        return event.matcher
    return "tool_name" if "tool_name" in HOOK_POINTS[point].fields else None


def file_digest(path: str) -> str | None:
    """The sha256 of the file's bytes, or None if it does not exist."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return f"unreadable:{exc.errno}"


def load_source(source: Source) -> LoadedSource:
    """Read `source`; a missing file declares nothing. Raises SourceError when the file
    exists but is unreadable or not valid TOML / JSON (the message says where)."""
    try:
        raw = Path(source.path).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return LoadedSource(source)
    except OSError as exc:
        raise SourceError(f"{source.path}: cannot read: {exc.strerror or exc}") from None
    digest = hashlib.sha256(raw).hexdigest()
    data = _parse(source, raw)
    problems: list[LoadProblem] = []
    if not isinstance(data, dict):
        raise SourceError(f"{source.path}: must hold an object, got {type(data).__name__}")
    if source.is_toml and "hooks" not in data:  # hooks.toml: events at the top level
        events = {k: v for k, v in data.items() if k not in (*POLICY_KEYS, *_SERVER_KEYS)}
        prefix = ""
    else:
        events = data.get("hooks", {})
        prefix = "hooks."
        if not isinstance(events, dict):
            problems.append(LoadProblem(f"{source.path}: hooks", "must be a table of event "
                                        f"name -> matcher groups, got {type(events).__name__}"))
            events = {}
    handlers = _handlers(source, events, prefix, problems)
    policy = _policy(source, data, problems)
    servers = _servers(source, data, problems)
    return LoadedSource(source, tuple(handlers), tuple(policy), tuple(servers), tuple(problems),
                        digest)


def _parse(source: Source, raw: bytes) -> object:
    if source.is_toml:
        import tomllib
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SourceError(f"{source.path}: not UTF-8 text ({exc.reason})") from None
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            from harness.toml_errors import toml_error
            raise SourceError(toml_error(source.path, text, str(exc))) from None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        from harness.json_errors import json_error
        raise SourceError(json_error(source.path, raw, exc)) from None




def _handlers(source: Source, events: dict, prefix: str,
              problems: list[LoadProblem]) -> list[Handler]:
    handlers: list[Handler] = []
    for name, groups in events.items():
        where = f"{source.path}: {prefix}{name}"
        if name not in HOOK_POINTS or (not source.is_toml and name not in CLAUDE_EVENTS):
            problems.append(LoadProblem(where, _unknown_event(name, source), "error",
                                        closest_hook_name(str(name))))
            continue
        if not isinstance(groups, list):
            problems.append(LoadProblem(where, "must be a list of matcher groups "
                                        "({matcher, hooks}), got " + type(groups).__name__,
                                        "error", name))
            continue
        for index, group in enumerate(groups):
            found, trouble = parse_group(name, group, f"{where}[{index}]", source.path,
                                         source.scope, matcher_field(name))
            handlers.extend(found)
            problems.extend(trouble)
    return handlers


def _unknown_event(name: object, source: Source) -> str:
    if isinstance(name, str) and name in HOOK_POINTS:
        return (f"'{name}' is a harness hook point, not a Claude Code event: declare it in "
                "the home's hooks.toml")
    close = closest_hook_name(str(name))
    if close is not None and not source.is_toml and close not in CLAUDE_EVENTS:
        close = closest_name(str(name), CLAUDE_EVENTS)
    hint = f"; did you mean '{close}'?" if close else ""
    return f"unknown event '{name}'{hint} (its handlers are skipped)"


def _policy(source: Source, data: dict, problems: list[LoadProblem]) -> list[tuple]:
    policy = []
    for key in POLICY_KEYS:
        if key not in data:
            continue
        value = data[key]
        where = f"{source.path}: {key}"
        if key in ("disableAllHooks", "allowManagedHooksOnly"):
            if not isinstance(value, bool):
                problems.append(LoadProblem(where, "must be true or false; ignored"))
                continue
            if key == "allowManagedHooksOnly" and source.scope != "managed":
                problems.append(LoadProblem(where, "is honoured only in the managed settings "
                                            "file; ignored", "warning"))
                continue
        elif source.scope == "project":  # a hostile project must not widen the allowlists
            problems.append(LoadProblem(where, "is not honoured in a project's own settings "
                                        "file (set it in hooks.toml, user or managed "
                                        "settings); ignored", "warning"))
            continue
        elif not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            problems.append(LoadProblem(where, "must be a list of strings; ignored"))
            continue
        policy.append((key, tuple(value) if isinstance(value, list) else value))
    return policy


def _servers(source: Source, data: dict, problems: list[LoadProblem]) -> list[tuple]:
    servers = []
    for table_key in _SERVER_KEYS:
        table = data.get(table_key)
        if table is None:
            continue
        if not isinstance(table, dict):
            problems.append(LoadProblem(f"{source.path}: {table_key}", "must be a table of "
                                        "server name -> {command, args, env} or {url}"))
            continue
        for name, spec in table.items():
            message = _server_problem(spec)
            if message:
                problems.append(LoadProblem(f"{source.path}: {table_key}.{name}", message))
            else:
                servers.append((name, _server_spec(spec, source)))
    return servers


def _server_problem(spec: object) -> str | None:
    if not isinstance(spec, dict):
        return "must be a table with 'command' (and 'args', 'env') or 'url'"
    if not isinstance(spec.get("command"), str) and not isinstance(spec.get("url"), str):
        return "needs 'command' (a server started over stdio) or 'url' (streamable HTTP)"
    for key, value in spec.items():
        kind = _SERVER_FIELDS.get(key)
        if kind is not None and not isinstance(value, kind):
            return f"'{key}' must be a {kind.__name__}"
    if not all(isinstance(a, str) for a in spec.get("args", ())):
        return "'args' must be a list of strings"
    return None


def _server_spec(spec: dict, source: Source) -> dict:
    """A server's table with ``cwd`` resolved against the file that declares it."""
    out = dict(spec)
    if "cwd" in out:
        out["cwd"] = os.path.join(os.path.dirname(source.path), os.path.expanduser(out["cwd"]))
    return out
