"""The last good version of every tool file, kept on disk in the home (SPEC §14, never open).

When a tool file loads, its source is kept in ``HOME/.harness-state/last-good/`` under the
SHA-256 of its text (``<digest>.src``), and ``index.json`` maps the file's path relative to
the home to ``{"digest", "saved", "points"}`` (when that version was first kept, and the
hook points it registered). A process whose copy of the file no longer loads (a fresh
``harness claude-hook`` has nothing in memory) runs the kept version instead; a file that is
deleted loses its entry, so a deleted guard is gone while a broken one is not.

Every write is atomic (harness.atomic_file); a ``.gitignore`` keeps the folder out of a
home kept in git. The store never raises: a read-only or broken
state folder leaves a note in ``problems`` (reported, never fatal) and the runtime goes on
without it. A process reads the index once and writes only when a file's good version
changed, so a start whose files are unchanged costs one small read.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from harness.atomic_file import write_atomically

__all__ = ["GoodVersion", "LastGoodStore"]

STATE_DIR = ".harness-state"


@dataclass(frozen=True)
class GoodVersion:
    """A kept good version of a file: its text, when it was kept (local time, to the
    second) and the hook points it registered."""

    text: str
    digest: str
    saved: str
    points: tuple[str, ...]


class LastGoodStore:
    """The last-good folder of one home (``HOME/.harness-state/last-good``)."""

    def __init__(self, home: Path) -> None:
        self.home = str(home)
        self.folder = Path(home) / STATE_DIR / "last-good"
        self._index: dict[str, dict] | None = None
        #: what went wrong reading or writing the store (a read-only home, ...)
        self.problems: list[str] = []

    # -- the index ---------------------------------------------------------------------
    @property
    def index(self) -> dict[str, dict]:
        """The entries by path relative to the home (read on first use)."""
        if self._index is None:
            self._index = self._read_index()
        return self._index

    def _read_index(self) -> dict[str, dict]:
        path = self.folder / "index.json"
        try:
            data = json.loads(path.read_bytes())
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            self.problems.append(f"{path}: cannot read the last good versions: {exc}")
            return {}
        if not isinstance(data, dict):
            self.problems.append(f"{path}: not a JSON object; last good versions ignored")
            return {}
        return {k: v for k, v in data.items() if isinstance(v, dict)}

    def _write_index(self) -> None:
        data = json.dumps(self.index, indent=1, sort_keys=True).encode()
        self._write(self.folder / "index.json", data)

    def _write(self, path: Path, data: bytes) -> bool:
        try:
            ignore = self.folder.parent / ".gitignore"  # a home kept in git leaves it out
            if not ignore.exists():
                write_atomically(ignore, b"# harness's own state (see harness.load_failures.last_good)\n*\n")
            write_atomically(path, data)
        except OSError as exc:
            self.problems.append(f"{path}: cannot keep the last good version: {exc}")
            return False
        return True

    def _key(self, path: str) -> str:
        """``path`` relative to the home (the runtime keeps only files under tools/)."""
        prefix = f"{self.home}{os.sep}"
        return path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path,
                                                                                 self.home)

    # -- what the runtime calls ----------------------------------------------------------
    def saved(self, path: str, digest: str) -> str | None:
        """When the good version of ``path`` with ``digest`` was kept, or None when the
        store does not hold that version as the file's last good one."""
        entry = self.index.get(self._key(path))
        return entry.get("saved") if entry and entry.get("digest") == digest else None

    def remember(self, path: str, digest: str, points: list[str], text: str) -> str:
        """Keep ``text`` (which loaded, and hashes to ``digest``) as the last good version
        of ``path``; return when it was kept (now, or when this same version was kept)."""
        key = self._key(path)
        entry = self.index.get(key)
        if entry and entry.get("digest") == digest and isinstance(entry.get("saved"), str):
            return entry["saved"]
        saved = time.strftime("%Y-%m-%d %H:%M:%S")
        if not self._write(self.folder / f"{digest}.src", text.encode()):
            return saved
        self._index = self._read_index()  # another process may have kept a file meanwhile
        old = self.index.get(key, {}).get("digest")
        self.index[key] = {"digest": digest, "saved": saved, "points": sorted(set(points))}
        self._write_index()
        if old and old != digest:
            self._drop_source(old)
        return saved

    def recall(self, path: str) -> GoodVersion | None:
        """The kept good version of ``path``, or None (none kept, or its text is missing
        or does not match its digest)."""
        entry = self.index.get(self._key(path))
        if not entry or not isinstance(entry.get("digest"), str):
            return None
        digest = entry["digest"]
        try:
            text = (self.folder / f"{digest}.src").read_bytes().decode()
        except (OSError, UnicodeDecodeError):
            return None
        if hashlib.sha256(text.encode()).hexdigest() != digest:
            return None
        points = entry.get("points")
        return GoodVersion(text, digest, str(entry.get("saved", "?")),
                           tuple(p for p in points if isinstance(p, str))
                           if isinstance(points, list) else ())

    def forget(self, path: str) -> None:
        """Drop the kept version of ``path`` (the file was deleted)."""
        if self._key(path) not in self.index:
            return
        self._index = self._read_index()  # another process may have kept a file meanwhile
        entry = self.index.pop(self._key(path), None)
        if entry is not None:
            self._write_index()
            if isinstance(entry.get("digest"), str):
                self._drop_source(entry["digest"])

    def forget_missing(self, present: set[str]) -> None:
        """Drop the kept versions of the files under tools/ that are no longer there
        (``present``: the tool files, as absolute paths)."""
        keys = {self._key(p) for p in present}
        gone = [k for k in self.index if k not in keys]
        for key in gone:
            self.forget(os.path.join(self.home, key))

    def _drop_source(self, digest: str) -> None:
        """Delete ``<digest>.src`` unless another entry still uses it."""
        if any(e.get("digest") == digest for e in self.index.values()):
            return
        try:
            (self.folder / f"{digest}.src").unlink()
        except OSError:
            pass
