"""harness's own recordings (the audit log of harness.record) as replay events.

A line written for a host event (``host`` set) replays as that host's event; a bare
dispatch (``host`` null) replays as a dispatch of its hook point; a ``nested`` line is
left out (replaying the line it was made from makes it again). ``live`` is the decision
the line recorded.
"""

from __future__ import annotations

from harness.record import RECORD_MARK
from harness.replay.decisions import outcome_decision
from harness.replay.events import Problem, ReplayEvent, Transcript
from harness.replay.lines import json_lines

__all__ = ["looks_like", "read"]


def looks_like(entry: dict) -> bool:
    """Whether a line is a line of a harness recording."""
    return RECORD_MARK in entry


def read(path: str) -> Transcript:
    """The events recorded in ``path``."""
    events: list[ReplayEvent] = []
    problems: list[Problem] = []
    for item in json_lines(path):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        number, line = item
        if RECORD_MARK not in line:
            problems.append(Problem(path, number, "not a harness recording line: skipped"))
            continue
        if line.get("nested"):
            continue
        event, payload, host = line.get("event"), line.get("payload"), line.get("host")
        if not isinstance(event, str) or not isinstance(payload, dict) or \
                not (host is None or isinstance(host, str)):
            problems.append(Problem(path, number, "a recording line needs event (a string), "
                                                  "payload (an object) and host (a string "
                                                  "or null): skipped"))
            continue
        if host is None:
            outcome = line.get("outcome")
            live = outcome_decision(event, outcome)[0] if isinstance(outcome, dict) else None
        else:
            live = line.get("decision") if isinstance(line.get("decision"), str) else None
        session = payload.get("session_id")
        tool_input = payload.get("tool_input", payload.get("arguments"))
        events.append(ReplayEvent(host, event, payload,
                                  session if isinstance(session, str) else _stem(path), path,
                                  number, payload.get("tool_name"), tool_input, live))
    return Transcript(path, "recording", events, problems)


def _stem(path: str) -> str:
    return path.rsplit("/", 1)[-1]
