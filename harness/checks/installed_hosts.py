"""The hosts harness is installed in (``harness install``): for each host whose user file
($HOME) or project file (the working directory, ``[hooks] project_dir``, ``[tools]
project_root``) holds harness's hooks, whether they would still work for this home.

An error when an entry runs a harness executable that is not there, or names a home that
does not exist (a guard that is not there guards nothing); a warning when an event of
the host is missing, when the host's fail-closed switch is off on a guard event, when an
entry is not what ``harness install`` writes today (stale: install again), or when Codex's
config.toml turns hooks off. Entries for another home that exists are that home's
business and not reported.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck
from harness.install import cline_files, codex_features
from harness.install.command import Via, parse_command
from harness.install.config_file import InstallError, JsonFile
from harness.install.hosts import HOSTS, Host
from harness.install.shapes import handler_command


def check_installed_hosts(subject: HomeUnderCheck) -> Iterator[Finding]:
    projects = _project_dirs(subject)
    for host in HOSTS.values():
        places = [("user", host.path(None))]
        places += [("project", host.path(project)) for project in projects]
        seen: set[Path] = set()
        for scope, path in places:
            if path in seen:
                continue
            seen.add(path)
            yield from _check(subject, host, scope, path)


def _project_dirs(subject: HomeUnderCheck) -> list[Path]:
    runtime = subject.runtime
    found = [Path.cwd(), Path(runtime.handlers.project_dir)]
    if subject.config.project_root:
        found.append(Path(subject.config.project_root))
    return list(dict.fromkeys(p.resolve() for p in found))


def _installed(host: Host, path: Path) -> dict[str, dict] | None:
    """harness's handlers in the host's file at ``path`` by event (None: not there)."""
    if host.shape is None:
        commands = {event.name: cline_files.installed_command(path / event.name)
                    for event in host.events}
        return {name: {"command": c} for name, c in commands.items() if c is not None}
    if not path.is_file():
        return None
    data = JsonFile.read(path).data()
    return {event: handler for event, handler in host.shape.found(data, str(path))}


def _check(subject: HomeUnderCheck, host: Host, scope: str,
           path: Path) -> Iterator[Finding]:
    where = f"host:{host.name} ({scope})"
    try:
        found = _installed(host, path)
    except InstallError as exc:
        yield Finding(ERROR, where, f"{exc} (so harness cannot tell whether it is installed)")
        return
    if not found:
        return
    home = subject.home.resolve()
    errors: list[str] = []
    mine: dict[str, dict] = {}  # the entries for this home
    for event, handler in found.items():
        parsed = _parse(handler)
        if parsed is None:  # a Claude Code http hook: it names no home
            mine[event] = handler
            continue
        program, named_home, _via = parsed
        if named_home is None or not Path(named_home).is_dir():
            errors.append(f"{event} names the harness home {named_home}, which does not "
                          "exist")
        elif Path(named_home).resolve() == home:
            mine[event] = handler
            if program and not (os.path.isfile(program[0]) and os.access(program[0],
                                                                          os.X_OK)):
                errors.append(f"{event} runs {program[0]}, which is not an executable "
                              "file (harness moved? install again)")
    for message in errors:
        yield Finding(ERROR, where, f"{path}: {message}")
    if mine:
        yield from _compare(host, where, path, found, mine, home, bool(errors))


def _parse(handler: dict) -> tuple[list[str], str | None, Via] | None:
    command = handler_command(handler)
    if not isinstance(command, str):
        return None
    parsed = parse_command(command)
    return parsed.program, parsed.home, parsed.via


def _compare(host: Host, where: str, path: Path, found: dict[str, dict],
             mine: dict[str, dict], home: Path, failed: bool) -> Iterator[Finding]:
    """Missing events, the fail-closed switch, stale entries (of this home's ``mine``),
    Codex's flag; else ok (unless ``failed``: errors were reported)."""
    warnings = []
    missing = [e.name for e in host.events if e.name not in found]
    if missing:
        warnings.append(f"no harness hook on {', '.join(missing)}: harness install "
                        f"{host.name} adds {'it' if len(missing) == 1 else 'them'}")
    open_events: list[str] = []
    if host.fail_closed is not None:
        key, value = host.fail_closed
        open_events = [e.name for e in host.events
                       if e.guard and e.name in mine and mine[e.name].get(key) != value]
        if open_events:
            warnings.append(f"the fail-closed switch ({key}: {value!r}) is off on "
                            f"{', '.join(open_events)}: if harness cannot start, "
                            f"{host.title} lets the action through")
    stale = [e.name for e in host.events if e.name in mine and e.name not in open_events
             and mine[e.name] != _expected(host, e, mine[e.name], home)]
    if stale:
        warnings.append(f"the hooks of {', '.join(stale)} are not what harness install "
                        f"writes now: run harness install {host.name} again")
    if host.name == "codex":
        try:
            _, toml = codex_features.read(codex_features.config_path(path))
        except InstallError as exc:
            toml = {}
            warnings.append(str(exc))
        if codex_features.hooks_setting(toml) is False:
            warnings.append(f"{codex_features.config_path(path)} turns Codex hooks off "
                            "([features] hooks = false)")
    for warning in warnings:
        yield Finding(WARNING, where, f"{path}: {warning}")
    if not warnings and not failed:
        switch = "fail closed" if host.fail_closed else "no fail-closed switch in the host"
        yield Finding(OK, where, f"{path}: installed on {len(found)} events ({switch})")


def _expected(host: Host, event, handler: dict, home: Path) -> dict:
    """What harness install would write for ``event`` with this entry's harness and way."""
    parsed = _parse(handler)
    if parsed is None:  # http: the URL without /claude-code
        via = Via("http", url=str(handler.get("url", "")).rsplit("/", 1)[0])
        program: list[str] = []
    else:
        program, _, via = parsed
    if host.shape is None:
        from harness.install.command import hook_command
        return {"command": hook_command(program, host.name, home, via, event.name_arg)}
    return host.handler(event, program, home, via)
