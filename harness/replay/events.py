"""What a transcript reader gives: the hook events a session produced, and the lines it
could not read.

A `ReplayEvent` is one event as the host would have sent it to its hook (``host`` and
``event`` name it, ``payload`` is the host's JSON), or, from a harness recording, one bare
dispatch (``host`` None, ``event`` the hook point). ``live`` is what the session shows the
live hooks decided, when it shows it (a Claude Code transcript records a hook's denial and
its rewritten input; a recording holds the decision itself).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Problem", "ReplayEvent", "Transcript"]


@dataclass(frozen=True)
class ReplayEvent:
    """One hook event rebuilt from a session (see the module doc)."""

    host: str | None
    event: str
    payload: dict
    session: str
    file: str
    line: int
    tool_name: str | None = None
    input: object = None
    live: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Problem:
    """A line (or a whole file, line 0 or 1) that was reported and skipped."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class Transcript:
    """What one file gave: its host (None: unknown), events and problems."""

    file: str
    host: str | None
    events: list[ReplayEvent]
    problems: list[Problem]
