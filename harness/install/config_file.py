"""A host's configuration file as the installer reads and writes it.

Reading: a file that does not parse is an ``InstallError`` naming ``FILE:LINE:COL``, raised
before anything is written, so a broken file is never made worse.

Writing keeps the file's own indentation and key order. The first time harness changes a
file that holds none of its entries, the file as it was is kept beside it as
``NAME.harness-backup``; uninstall puts those very bytes back when what is left after
removing harness's entries is that content, deletes the file when harness created it and
nothing else is left, and otherwise writes what is left.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import orjson

from harness.atomic_file import write_atomically
from harness.json_errors import json_error

BACKUP_SUFFIX = ".harness-backup"


class InstallError(Exception):
    """What keeps an install or uninstall from being done; nothing was changed."""


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


@dataclass
class JsonFile:
    """One JSON configuration file: its text as found (None: no such file)."""

    path: Path
    text: str | None

    @classmethod
    def read(cls, path: Path) -> JsonFile:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(path, None)
        except (OSError, UnicodeDecodeError) as exc:
            raise InstallError(f"{path}: cannot read: {exc}") from None
        return cls(path, text)

    def data(self) -> dict:
        """The parsed object ({} for a missing or empty file); InstallError with the
        position when it is not a JSON object."""
        if self.text is None or not self.text.strip():
            return {}
        try:
            data = orjson.loads(self.text)
        except orjson.JSONDecodeError as exc:
            raise InstallError(f"{json_error(self.path, self.text, exc)}\n(nothing was "
                               "changed)") from None
        if not isinstance(data, dict):
            raise InstallError(f"{self.path}:1:1: a JSON object was expected; nothing was "
                               "changed")
        return data

    def render(self, data: dict) -> str:
        """``data`` as text in this file's style (its indentation; two spaces for a new
        file), ending in a newline."""
        return json.dumps(data, indent=_indent(self.text), ensure_ascii=False) + "\n"

    def write(self, data: dict, has_ours: bool) -> Path | None:
        """Write ``data`` (unchanged data: nothing is written). ``has_ours``: the file as
        found already holds harness's entries (then no backup is made: the one made before
        them stays). Returns the backup made, if any."""
        if self.text is not None and self.text.strip() and orjson.loads(self.text) == data:
            return None
        made = None
        if self.text is not None and not has_ours:
            made = backup_path(self.path)
            write_atomically(made, self.text.encode("utf-8"))
        write_atomically(self.path, self.render(data).encode("utf-8"))
        return made

    def restore(self, data: dict, empty: dict) -> str:
        """After harness's entries were taken out of this file's data: put the backup's
        bytes back when they say the same as ``data``; delete the file when ``data`` is
        ``empty`` and there is no backup (harness made the file); else write ``data``.
        Returns what was done: "restored", "deleted", "written" or "unchanged"."""
        backup = backup_path(self.path)
        if backup.is_file():
            old = JsonFile.read(backup)
            try:
                same = old.data() == data
            except InstallError:
                same = False
            if same:
                write_atomically(self.path, (old.text or "").encode("utf-8"))
                backup.unlink()
                return "restored"
        elif data == empty:
            self.path.unlink(missing_ok=True)
            return "deleted"
        if self.text is not None and self.data() == data:
            return "unchanged"
        write_atomically(self.path, self.render(data).encode("utf-8"))
        return "written"


def _indent(text: str | None) -> int | str:
    """The indentation of the first indented line of ``text`` (2 when none)."""
    match = re.search(r"\n([ \t]+)\S", text or "")
    if match is None:
        return 2
    unit = match.group(1)
    return len(unit) if set(unit) == {" "} else unit
