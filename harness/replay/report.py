"""What ``harness replay`` prints: one line per event worth a look and a summary per hook
source (text), or everything as JSON::

    {"events": [{"session", "index", "file", "line", "host", "event", "tool_name", "input",
                 "decision", "reason", "rewritten", "live", "sources", "errors"
                 [, "against": {"decision", "reason", "rewritten", "sources", "errors"}]}],
     "summary": {"events", "decisions": {decision: n}, "sources": {source: {decision: n}},
                 "live_differs", "problems", ["differences"]},
     "problems": ["FILE:LINE: message"]}

``decision`` is one of allow, block, deny, ask, rewrite; a source's counts also have
``error`` (it failed) and ``skipped`` (a declared handler not run). ``live`` is what the
session shows its live hooks decided, when it shows it.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from harness.replay.events import Problem
from harness.replay.fire import Replayed

__all__ = ["event_json", "render_text", "summary"]

_SHOWN_INPUT = 70


def event_json(index: int, ours: Replayed, theirs: Replayed | None = None) -> dict:
    """One event's JSON entry (``theirs``: the same event through the --against home)."""
    event = ours.event
    out = {"session": event.session, "index": index, "file": event.file, "line": event.line,
           "host": event.host, "event": event.event, "tool_name": event.tool_name,
           "input": event.input, "decision": ours.decision, "reason": ours.reason,
           "rewritten": ours.rewritten, "live": event.live, "sources": ours.sources,
           "errors": ours.errors}
    if theirs is not None:
        out["against"] = {"decision": theirs.decision, "reason": theirs.reason,
                          "rewritten": theirs.rewritten, "sources": theirs.sources,
                          "errors": theirs.errors}
    return out


def summary(replayed: list[Replayed], problems: list[Problem],
            differences: int | None = None) -> dict:
    """Counts per decision and per hook source (see the module doc)."""
    per_source: dict[str, Counter] = defaultdict(Counter)
    for item in replayed:
        for part in item.sources:
            per_source[part["source"]][part["decision"]] += 1
        for error in item.errors:
            if error["source"] == "replay":
                per_source["replay"]["error"] += 1
    out = {"events": len(replayed),
           "decisions": dict(Counter(item.decision for item in replayed)),
           "sources": {source: dict(counts) for source, counts in sorted(per_source.items())},
           "live_differs": sum(1 for item in replayed
                               if item.event.live is not None
                               and item.event.live != item.decision),
           "problems": len(problems)}
    if differences is not None:
        out["differences"] = differences
    return out


def render_text(entries: list[dict], total: dict, problems: list[str], *,
                against: bool) -> str:
    """The human report: problems, the events that are not a plain allow (or, with
    ``against``, those the two homes decide differently), then the summary."""
    lines = list(problems)
    for entry in entries:
        if not against and entry["decision"] == "allow" and not entry["errors"] and \
                entry["live"] in (None, "allow"):
            continue
        lines.append(_event_line(entry, against))
    lines.append(_summary_text(total, against))
    return "\n".join(lines) + "\n"


def _event_line(entry: dict, against: bool) -> str:
    what = entry["event"] + (f" {entry['tool_name']}" if entry["tool_name"] else "")
    shown = _input_text(entry["input"])
    decision = entry["decision"]
    if against:
        decision = f"{decision} (other home: {entry['against']['decision']})"
    text = f"{entry['file']}:{entry['line']}: #{entry['index']} {what}"
    if shown:
        text += f" {shown}"
    text += f" -> {decision}"
    if entry["reason"]:
        text += f": {entry['reason']}"
    if entry["live"] is not None and entry["live"] != entry["decision"]:
        text += f" (live: {entry['live']})"
    deciders = sorted({p["source"] for p in entry["sources"]
                       if p["decision"] not in ("allow", "skipped")})
    if deciders:
        text += f" [{', '.join(deciders)}]"
    for error in entry["errors"]:
        text += f"\n    error: {error['source']}: {error['message'].splitlines()[0]}"
    return text


def _input_text(value: object) -> str:
    if isinstance(value, dict):
        for key in ("command", "file_path", "path", "url", "prompt"):
            if isinstance(value.get(key), str):
                value = value[key]
                break
    if value is None or value == {}:
        return ""
    from harness.bridge import dumps
    text = value if isinstance(value, str) else dumps(value).decode()
    text = text.replace("\n", " ")
    return repr(text if len(text) <= _SHOWN_INPUT else text[:_SHOWN_INPUT - 1] + "…")


def _summary_text(total: dict, against: bool) -> str:
    decisions = ", ".join(f"{n} {d}" for d, n in sorted(total["decisions"].items())) or "none"
    out = [f"{total['events']} events replayed: {decisions}"]
    if against:
        out.append(f"{total['differences']} decided differently by the other home")
    if total["live_differs"]:
        out.append(f"{total['live_differs']} decided otherwise than the live hooks did")
    if total["problems"]:
        out.append(f"{total['problems']} lines or files skipped (listed above)")
    if total["sources"]:
        out.append("by hook source:")
        for source, counts in total["sources"].items():
            parts = ", ".join(f"{n} {d}" for d, n in sorted(counts.items()))
            out.append(f"  {source}: {parts}")
    return "\n".join(out)
