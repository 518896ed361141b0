"""Firing a rebuilt event through a home, as the live hook would have, running no tool.

A host event goes through that host's adapter — the same function that answers the live
hook (``harness.hosts.answer``) — so its decision is the one the live hook made. A bare dispatch from a recording fires its hook
point. Scheme, Hy and Python hooks and plugins run as in any dispatch, in their tiers;
declared handlers (command, http, mcp, prompt, agent: they have side effects) run only
when asked: otherwise each one the event selects is listed with no answer.

Which hook said what is read from the dispatches the event made: the replayer stands in
for the runtime's recorder (harness.record), so nothing is written to the home's audit log
while replaying.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field

from harness.handlers.invocation import Invocation, using_invocation
from harness.record import HostEntry
from harness.replay.decisions import claude_decision, outcome_decision, source_decision
from harness.replay.events import ReplayEvent

__all__ = ["HANDLERS_SKIPPED", "Replayed", "Replayer"]

HANDLERS_SKIPPED = "not run: replay runs declared handlers only with --handlers"


@dataclass
class Replayed:
    """What one home did with one event: the decision (allow, block, deny, ask, rewrite),
    its reason, the rewritten input, each hook's part (``sources``: ``{"source", "hook",
    "decision", "ms"}``, decision ``error`` for a hook that failed, ``skipped`` for a
    declared handler not run), the errors, and the dispatches made (for fixtures)."""

    event: ReplayEvent
    decision: str
    reason: str | None = None
    rewritten: object = None
    sources: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    dispatches: list[dict] = field(default_factory=list)


class _Collector:
    """The recorder interface (harness.record.Recorder) keeping dispatches in memory."""

    #: every hook's trace entry (the report lists each source's decision and ms)
    hook_trace = True

    def __init__(self) -> None:
        self.dispatches: list[dict] = []

    def dispatched(self, hook: str, payload: dict, result: dict, trace: list, start: float,
                   nested: bool, ran: int | None = None) -> None:
        if not nested:
            self.dispatches.append({"hook": hook, "payload": payload,
                                    "outcome": result["outcome"], "errors": result["errors"],
                                    "hooks": trace})

    @contextmanager
    def host_event(self, host: str, event: str, payload: dict):
        yield HostEntry(host, event, payload)

    def close(self) -> None:
        """Nothing to close (the runtime closes its recorder)."""


class Replayer:
    """Replays events through ``runtime`` (which it takes over: its recorder, and its
    declared handlers unless ``handlers``)."""

    def __init__(self, runtime, *, handlers: bool = False) -> None:
        self.runtime = runtime
        self._collector = _Collector()
        if runtime.recorder is not None:
            runtime.recorder.close()
        runtime.recorder = self._collector
        if not handlers:
            runtime.handlers.dry_run = HANDLERS_SKIPPED
        # the environment read once: each event reads it (a copy of os.environ decodes
        # every entry, a third of a replay's time when read per event)
        self._invocation = Invocation(dict(os.environ))

    def replay(self, event: ReplayEvent) -> Replayed:
        """Fire ``event`` and say what the home decided."""
        with using_invocation(self._invocation):
            return self._replay(event)

    def _replay(self, event: ReplayEvent) -> Replayed:
        collector = self._collector
        collector.dispatches = []
        errors: list[dict] = []
        if event.host is None:
            try:
                result = self.runtime.fire(event.event, event.payload)
            except (ValueError, TypeError) as exc:  # an unknown hook point, a bad payload
                return Replayed(event, "allow", errors=[{"source": "replay",
                                                         "message": str(exc)}])
            decision, reason, rewritten = outcome_decision(event.event, result["outcome"])
            if decision == "allow" and event.event == "pre_tool" and \
                    result["outcome"].get("arguments") != event.payload.get("arguments"):
                decision, rewritten = "rewrite", result["outcome"].get("arguments")
        else:
            reply = answer_host(self.runtime, event)
            decision, reason, rewritten = claude_decision(event.event, reply)
            if reply.exit_code == 1 and not collector.dispatches:  # the adapter refused it
                errors.append({"source": "replay", "message": reply.stderr.strip()})
        dispatches = list(collector.dispatches)
        for dispatch in dispatches:
            errors.extend(dispatch["errors"])
        unique = {(e["source"], e["message"]): e for e in errors}
        return Replayed(event, decision, reason, rewritten, _sources(dispatches),
                        list(unique.values()), dispatches)


def answer_host(runtime, event: ReplayEvent):
    """The host adapter's reply to ``event`` (exit_code, stdout, stderr)."""
    from harness import hosts
    return hosts.answer(runtime, event.host, event.payload, event.event)


def _sources(dispatches: list[dict]) -> list[dict]:
    out = []
    for dispatch in dispatches:
        hook = dispatch["hook"]
        for entry in dispatch["hooks"] or ():
            source = entry.get("source")
            if source is None or source == "in-process":
                continue
            if "error" in entry:
                decision = "error"
            elif entry.get("note") == HANDLERS_SKIPPED:
                decision = "skipped"
            else:
                decision = source_decision(hook, entry.get("answer"))
            out.append({"source": source, "hook": hook, "decision": decision,
                        "ms": entry.get("ms")})
    return out
