"""Cline's hooks: one executable file per event, named exactly like the event, in
``.clinerules/hooks/`` (project) or ``~/Documents/Cline/Hooks/`` (user).

harness's file is a two-line shell script that runs ``harness hook cline --event EVENT``;
it is recognised by that command. A file of the event's name that is not harness's is the
user's own hook: two programs cannot have one name, so install refuses (naming the file)
rather than replace it, and changes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.atomic_file import write_atomically
from harness.install.command import is_harness_command
from harness.install.config_file import InstallError

HEADER = "#!/bin/sh\n# Installed by `harness install cline`; `harness uninstall cline` removes it.\n"


def script(command: str) -> str:
    return f"{HEADER}exec {command}\n"


def installed_command(path: Path) -> str | None:
    """The harness command of the hook file ``path``, or None when it is not harness's
    (or not there)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    for line in text.splitlines():
        if line.startswith("exec ") and is_harness_command(line[5:], "cline"):
            return line[5:]
    return None


def check_free(paths: list[Path]) -> None:
    """InstallError when one of ``paths`` is a hook of the user's own."""
    for path in paths:
        if path.exists() and installed_command(path) is None:
            raise InstallError(f"{path}: a Cline hook of your own is already there; a Cline "
                               f"event runs one file, so merge harness into it by hand "
                               f"(exec harness hook cline --event {path.name} ...) or move "
                               "it; nothing was changed")


def write(path: Path, command: str) -> bool:
    """Write the hook file (executable); False when it already says this."""
    text = script(command)
    try:
        if path.read_text(encoding="utf-8") == text and os.access(path, os.X_OK):
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomically(path, text.encode("utf-8"))
    path.chmod(0o755)
    return True
