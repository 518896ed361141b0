"""What a home check reports, and what it is given to look at."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.config import Config

#: how bad a finding is; ``harness check --home`` fails on errors and warnings
ERROR, WARNING, OK = "error", "warning", "ok"


@dataclass(frozen=True)
class Finding:
    """One thing a check found: ``severity`` (ERROR, WARNING or OK), ``where`` (a path
    relative to the home, or ``plugin:NAME``) and ``message`` (may span lines)."""

    severity: str
    where: str
    message: str

    def as_json(self) -> dict:
        return {"severity": self.severity, "where": self.where, "message": self.message}


@dataclass
class HomeUnderCheck:
    """What every check looks at: the home, its configuration as read (the defaults when
    harness.toml is malformed: ``config_error`` says why) and a Runtime loaded from it
    with that configuration (not watching)."""

    home: Path
    config: Config
    config_error: str | None
    runtime: object  # harness.runtime.Runtime

    def relative(self, path: str | Path) -> str:
        """``path`` relative to the home when it is inside it."""
        try:
            return Path(path).relative_to(self.home).as_posix()
        except ValueError:
            return str(path)
