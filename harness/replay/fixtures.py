"""Writing replayed events as ``harness test`` cases (``harness replay --fixtures DIR``).

Each chosen event becomes one case per dispatch it made (``PreToolUse`` and then
``pre_tool``, ...), with that dispatch's payload and, as the expectation, the outcome this
home gave (``match: exact``) and its number of hook errors. The cases of one session go to
``DIR/<session>.hooktest.json``. They pass on the home they came from and fail on a home
whose hooks decide any of those dispatches differently, so a real session becomes a
regression test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.replay.fire import Replayed

__all__ = ["write_fixtures"]


def write_fixtures(directory: str, chosen: list[tuple[int, Replayed]]) -> list[Path]:
    """Write the cases of ``chosen`` (index, replayed event) under ``directory``; return the
    files written."""
    by_session: dict[str, list[dict]] = {}
    for index, item in chosen:
        event = item.event
        what = event.event + (f" {event.tool_name}" if event.tool_name else "")
        for step, dispatch in enumerate(item.dispatches, 1):
            name = f"#{index} {what} -> {item.decision} ({event.file}:{event.line})"
            if len(item.dispatches) > 1:
                name += f" dispatch {step}: {dispatch['hook']}"
            by_session.setdefault(event.session, []).append({
                "name": name, "hook": dispatch["hook"], "payload": dispatch["payload"],
                "expect": dispatch["outcome"], "errors": len(dispatch["errors"])})
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for session, cases in by_session.items():
        path = folder / f"{_file_name(session)}.hooktest.json"
        body = {"description": f"replayed from session {session} by harness replay: the "
                               "outcomes this home gave",
                "match": "exact", "cases": cases}
        path.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _file_name(session: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", session).strip("._") or "session"
