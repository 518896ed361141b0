"""The command a host runs for each event, and how harness knows its own entries again.

Every entry harness installs runs ``HARNESS hook HOST --home HOME [--event EVENT]
[--socket PATH | --http URL]`` with the absolute path of the harness that installed it
and the absolute home. An entry is recognised as harness's by that command — a word
``hook`` followed by the host's name, after a program whose name starts with ``harness``
(``claude-hook`` too, for Claude Code) — or, for Claude Code's ``http`` hooks, by a URL
ending in ``/claude-code`` whose token comes from ``$HARNESS_TOKEN``. So uninstall and
check find them even after harness moved, and never touch the user's own hooks.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

#: the environment variable Claude Code's http hooks read the daemon's token from
TOKEN_VARIABLE = "HARNESS_TOKEN"
VIAS = ("command", "socket", "http")


def harness_program() -> list[str]:
    """The words that start the running harness: its executable (the one this process
    was started as, else the ``harness`` on PATH), absolute; else this Python with
    ``-m harness.cli``."""
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "harness" and started.exists():
        return [str(started.resolve())]
    found = shutil.which("harness")
    if found:
        return [str(Path(found).resolve())]
    # absolute, not resolved: a virtual environment's python is a link out of it
    return [os.path.abspath(sys.executable), "-m", "harness.cli"]


@dataclass(frozen=True)
class Via:
    """How a host's hooks reach harness: ``command`` (a process per event), ``socket``
    (a process that hands the event to ``harness serve --socket PATH``) or ``http``
    (``harness serve --http``: Claude Code posts to it itself; other hosts run a small
    client process)."""

    kind: str = "command"
    socket: str | None = None
    url: str | None = None

    def options(self) -> list[str]:
        if self.kind == "socket":
            return ["--socket", str(self.socket)]
        if self.kind == "http":
            return ["--http", str(self.url)]
        return []


def hook_command(program: list[str], host: str, home: Path, via: Via,
                 event: str | None = None) -> str:
    """The shell command that answers ``host``'s events (``event`` named when the host's
    payload does not carry it)."""
    words = [*program, "hook", host, "--home", str(home)]
    if event is not None:
        words += ["--event", event]
    return shlex.join(words + via.options())


def is_harness_command(command: object, host: str) -> bool:
    """Whether ``command`` (a shell command) is one harness installed for ``host``."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for i, word in enumerate(words):
        ours = (word == "hook" and words[i + 1:i + 2] == [host]) or \
            (word == "claude-hook" and host == "claude-code")
        if ours and any(os.path.basename(w).startswith("harness") for w in words[:i]):
            return True
    return False


@dataclass(frozen=True)
class Parsed:
    """What an installed command says: the program, the home, the event and the way."""

    program: list[str]
    home: str | None
    event: str | None
    via: Via


def parse_command(command: str) -> Parsed:
    """The parts of a command ``hook_command`` made (``is_harness_command`` is true)."""
    words = shlex.split(command)
    at = words.index("claude-hook") if "claude-hook" in words else words.index("hook")
    options = words[at + 1:]

    def value(name: str) -> str | None:
        return options[options.index(name) + 1] if name in options[:-1] else None

    socket, url = value("--socket"), value("--http")
    via = Via("socket", socket=socket) if socket else Via("http", url=url) if url else Via()
    return Parsed(words[:at], value("--home"), value("--event"), via)
