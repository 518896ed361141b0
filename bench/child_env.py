"""The environment of timed child processes (bench/commands.py, bench/whole_process.py).

A child must start as an installed harness does: with its byte code already written. The
shell these benchmarks often run in sets PYTHONDONTWRITEBYTECODE, and a source tree may
have no ``__pycache__``; a child would then compile every module it imports (about 0.14 s
of `harness run`'s start-up). So each child writes and reads byte code under ``root`` and
keeps `harness run`'s parse cache there too; run each command once before timing it.
"""

from __future__ import annotations

import os
from pathlib import Path


def child_environment(root: Path, source_tree: Path) -> dict[str, str]:
    """os.environ for a child that imports harness from ``source_tree`` (on PYTHONPATH),
    with its byte code and parse cache under ``root``."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPYCACHEPREFIX"] = str(root / "pycache")
    env["XDG_CACHE_HOME"] = str(root / "xdg")  # harness run's parse cache
    env["PYTHONPATH"] = str(source_tree)
    return env
