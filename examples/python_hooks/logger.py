"""logger.py: logs lifecycle events to HOME/vfs/hook.log.

The Python twin of examples/plugins/logger. Needs the unsandboxed tier (it writes a file).
"""

import json
from datetime import UTC, datetime

from harness.api import home, hook


def log_event(point: str):
    """An observer of ``point`` that appends the event and its payload to the log."""
    def observe(payload: dict) -> None:
        log_file = home() / "vfs" / "hook.log"
        log_file.parent.mkdir(parents=True, exist_ok=True)
        with log_file.open("a", encoding="utf-8") as f:
            f.write(f"[{datetime.now(UTC).strftime('%Y%m%d-%H%Mz')}] {point}\n")
            f.write(json.dumps(payload) + "\n")
        # observe only: no answer
    return observe


# `hook` is an ordinary function: applied in a loop, it registers one observer per point.
for point in ("on_start", "on_end", "pre_message", "post_message"):
    hook(point)(log_event(point))
