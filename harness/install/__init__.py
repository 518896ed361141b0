"""``harness install HOST`` / ``harness uninstall HOST``: put harness in front of a coding
agent's hooks, and take it out again (SPEC §14).

Install writes or merges the host's hook configuration (harness.install.hosts says which
file, which events, which fail-closed switch): every event gets a handler that runs
``harness hook HOST --home HOME`` (or reaches a running ``harness serve``), after the
user's own handlers, which stay as they are. It is idempotent: a second install finds
harness's entries and writes nothing. Before the first change to a file that holds none
of harness's entries, the file is kept as ``NAME.harness-backup``. A file that does not
parse stops everything before anything is written, with its ``FILE:LINE:COL``.

Uninstall removes exactly the entries harness recognises as its own (by their command:
harness.install.command), then whatever only held them; when what is left is the file
as it was before the install, its backup's very bytes are put back, and a file harness
created is deleted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from harness.install import cline_files, codex_features
from harness.install.command import Via, harness_program
from harness.install.config_file import InstallError, JsonFile
from harness.install.hosts import HOST_NAMES, HOSTS, Host

__all__ = ["HOSTS", "HOST_NAMES", "InstallError", "Report", "Via", "install", "uninstall"]


@dataclass
class Report:
    """What an install or uninstall did: one line per file, and warnings."""

    lines: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def host_named(name: str) -> Host:
    host = HOSTS.get(name)
    if host is None:
        from harness.spelling import closest_name
        close = closest_name(name, HOSTS)
        hint = f"; did you mean {close}?" if close else ""
        raise InstallError(f"unknown host {name!r}{hint} (hosts: {', '.join(HOST_NAMES)})")
    return host


def install(name: str, home: Path, *, project: Path | None = None, via: Via | None = None,
            program: list[str] | None = None) -> Report:
    """Install harness's hooks for host ``name``: in ``project`` (a directory), else in
    the user's configuration. Raises InstallError (nothing changed)."""
    host = host_named(name)
    home = home.resolve()
    via = via or Via()
    program = program or harness_program()
    path = host.path(project.resolve() if project else None)
    if host.shape is None:
        return _install_cline(host, path, home, via, program)
    config = JsonFile.read(path)
    data = config.data()
    toml_path = toml_text = None
    if host.name == "codex":
        toml_path = codex_features.config_path(path)
        toml_text, toml = codex_features.read(toml_path)
    found = list(host.shape.found(data, str(path)))
    wanted = copy.deepcopy(data)
    for event in host.events:
        handler = host.handler(event, program, home, via)
        host.shape.put(wanted, str(path), event.name, handler, event.matcher)
    report = Report()
    backup = config.write(wanted, has_ours=bool(found))
    if backup is None and config.text is not None and config.data() == wanted:
        report.lines.append(f"{path}: already up to date")
    else:
        report.lines.append(f"{path}: {'updated' if config.text else 'written'} "
                            f"({len(host.events)} events)" +
                            (f"; backup in {backup}" if backup else ""))
    if toml_path is not None:
        _codex_flag(toml_path, toml_text, toml, report)
    report.warnings += _notes(host, via, project)
    return report


def uninstall(name: str, *, project: Path | None = None) -> Report:
    """Remove harness's hooks for host ``name`` (see the module doc). Raises
    InstallError (nothing changed)."""
    host = host_named(name)
    path = host.path(project.resolve() if project else None)
    report = Report()
    if host.shape is None:
        for event in host.events:
            file = path / event.name
            if cline_files.installed_command(file) is not None:
                file.unlink()
                report.lines.append(f"{file}: deleted")
        return _nothing_found(report, host, path)
    config = JsonFile.read(path)
    data = config.data()
    if host.name == "codex":
        codex_features.read(codex_features.config_path(path))  # refuse before any change
    if list(host.shape.found(data, str(path))):
        rest = copy.deepcopy(data)
        host.shape.remove(rest, str(path))
        # what a file harness made holds once harness's entries are out of it
        empty = {"version": host.shape.version} if host.shape.version is not None else {}
        done = config.restore(rest, empty)
        report.lines.append(f"{path}: {done}")
    if host.name == "codex":
        toml_path = codex_features.config_path(path)
        done = codex_features.remove(toml_path)
        if done != "unchanged":
            report.lines.append(f"{toml_path}: {done}")
    return _nothing_found(report, host, path)


def _nothing_found(report: Report, host: Host, path: Path) -> Report:
    if not report.lines:
        report.lines.append(f"{path}: no hooks of harness for {host.title} there")
    return report


def _install_cline(host: Host, directory: Path, home: Path, via: Via,
                   program: list[str]) -> Report:
    files = [directory / event.name for event in host.events]
    cline_files.check_free(files)
    report = Report()
    written = 0
    for event, file in zip(host.events, files):
        command = host.handler(event, program, home, via)["command"]
        written += cline_files.write(file, command)
    report.lines.append(f"{directory}: " + (f"{written} hook files written" if written
                                            else "already up to date"))
    report.warnings += _notes(host, via, None)
    return report


def _codex_flag(path: Path, text: str | None, toml: dict, report: Report) -> None:
    setting = codex_features.hooks_setting(toml)
    if setting is None:
        backup = codex_features.add(path, text)
        report.lines.append(f"{path}: [features] hooks = true added" +
                            (f"; backup in {backup}" if backup else ""))
    elif setting is not True:
        report.warnings.append(f"{path} turns Codex hooks off ([features] hooks = "
                               f"{setting!r}): harness's hooks will not run until it is true")


def _notes(host: Host, via: Via, project: Path | None) -> list[str]:
    """What the user must still do for the hooks to run."""
    notes = []
    if host.name == "claude-code" and via.kind == "http":
        notes.append("Claude Code sends the token from $HARNESS_TOKEN: export "
                     "HARNESS_TOKEN=\"$(cat HOME/serve.token)\" where Claude Code starts, "
                     f"and run harness serve --http at {via.url}")
    if host.name == "codex":
        notes.append("Codex asks you to review and trust new hooks: open /hooks in Codex "
                     "once" + (" (and trust the project's .codex folder)" if project else ""))
    if host.name == "gemini" and project is not None:
        notes.append("Gemini CLI runs a project's hooks once you trust them (it asks)")
    if host.fail_closed is None:
        notes.append(f"{host.title} has no fail-closed switch: if harness cannot start at "
                     "all, the host lets the action through (harness itself denies "
                     "whatever it cannot answer)")
    return notes
