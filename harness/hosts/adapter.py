"""What a host adapter is: one host's events in, that host's answers out.

A host module (``claude_code.py``, ``codex.py``, ...) defines a `HostAdapter` subclass.
The adapter knows the host's events (`events`: name -> `HostEvent`), which of them are
*guard events* (a deny there stops something: a tool call, a permission, a prompt), how to
answer one event with a runtime (`respond`: the host's own ``HOST.EVENT`` hook point, then
`decide` by the event's role, then `render`) and how to say "no" in the host's format when
harness cannot answer at all (`render_deny`: a broken home, an internal error, a daemon
that does not answer). Everything else — reading the JSON, naming an unknown event, never failing
open — is done once, here and in ``harness.hosts``.

A reply (`HostReply`) has two forms: a command hook's exit code, stdout and stderr, and
``answer``, the JSON object a host that POSTs the event (Claude Code's ``http`` hooks)
reads from a 200 response.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from harness.bridge import dumps
from harness.hooks.host_events import HOST_EVENTS, host_point_name
from harness.hosts.guard import (
    Verdict,
    guard_checks,
    guard_prompt,
    guard_tool_call,
    observe,
    post_tool_payload,
    session_payload,
)
from harness.hosts.vocabulary import ToolMap

__all__ = ["FAILED", "HostAdapter", "HostEvent", "HostReply", "UnknownEvent", "host_events"]

#: a command hook's own failure that blocks nothing (observe-only events)
FAILED = 1
_SHOWN_ERRORS = 5  # hook errors listed in the host's message field at most


@dataclass(frozen=True)
class HostReply:
    """A host's answer: as a command hook (``exit_code``, ``stdout``, ``stderr``) and as
    the JSON object of an HTTP answer (``answer``; empty: no decision)."""

    exit_code: int
    stdout: str = ""
    stderr: str = ""
    answer: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The command form as JSON (what ``harness hook --socket/--http`` clients print)."""
        return {"exit_code": self.exit_code, "stdout": self.stdout, "stderr": self.stderr}


@dataclass(frozen=True)
class HostEvent:
    """One event of a host: its name, whether it is a guard event, and what it means in
    harness (``role``: see harness.hooks.host_events)."""

    name: str
    role: str = "observe"
    guard: bool = False


def host_events(host: str) -> dict[str, HostEvent]:
    """`host`'s events, from harness.hooks.host_events (the table the catalogue reads)."""
    return {name: HostEvent(name, role, guard)
            for name, (role, guard) in HOST_EVENTS[host].items()}


class UnknownEvent(ValueError):
    """An event name the host does not have (the message suggests the closest one)."""


class HostAdapter:
    """One host. Subclasses set `name`, `title`, `events` and implement `respond` and
    `render_deny`; `ignored` lists answers the host reads but does not honour."""

    name: str = ""
    title: str = ""
    events: ClassVar[dict[str, HostEvent]] = {}
    #: answer -> why the host does not honour it (``harness check`` warns with these)
    ignored: ClassVar[dict[str, str]] = {}
    #: payload key naming the event (None: the host does not say; ``--event`` must)
    event_key: str | None = "hook_event_name"

    # -- reading ---------------------------------------------------------------------------
    def event_of(self, payload: dict, given: str | None = None) -> HostEvent:
        """The event `payload` is (``given`` overrides the payload); raises UnknownEvent."""
        name = given if given is not None else (payload.get(self.event_key)
                                                if self.event_key else None)
        if name is None:
            name = self.infer_event(payload)
        if not isinstance(name, str) or not name:
            where = f"no {self.event_key}" if self.event_key else "no event name"
            raise UnknownEvent(f"the {self.title} event has {where} (give it with --event, "
                               f"or POST /{self.name}/EVENT)")
        event = self.events.get(name)
        if event is None:
            raise UnknownEvent(f"unknown {self.title} event '{name}'{self._hint(name)}")
        return event

    def infer_event(self, payload: dict) -> str | None:
        """The event a payload without an event name is (None: cannot tell)."""
        return None

    def _hint(self, name: str) -> str:
        import difflib
        close = difflib.get_close_matches(name, list(self.events), n=1, cutoff=0.6)
        if not close:
            folded = {n.lower(): n for n in self.events}
            close = [folded[name.lower()]] if name.lower() in folded else []
        return f"; did you mean '{close[0]}'?" if close else ""

    def guard_event_of(self, payload: object, given: str | None = None) -> HostEvent | None:
        """The event of a payload if it is a guard event, else None (never raises): what
        an edge failure must deny."""
        if not isinstance(payload, dict):
            return None
        try:
            event = self.event_of(payload, given)
        except UnknownEvent:
            return None
        return event if event.guard else None

    # -- answering -------------------------------------------------------------------------
    #: the host's tools in the cross-host vocabulary
    tools: ToolMap = ToolMap({})

    #: whether the host reads a JSON answer (Windsurf and Kiro read exit codes only)
    json_answers: bool = True

    def respond(self, runtime, event: HostEvent, payload: dict) -> HostReply:
        """Answer `event` (`payload`) with `runtime`, in the host's format: the hooks of
        the host's own event (``HOST.EVENT``) first; unless they said no, what the event
        means in harness (`decide`); their other answers are passed on beside ours."""
        own = runtime.fire(host_point_name(self.name, event.name), payload)
        outcome = own["outcome"]
        if outcome["blocked"]:
            verdict = Verdict()
            verdict.block(outcome["reason"])
        else:
            verdict = self.decide(runtime, event, payload)
        verdict.add_errors(own["errors"])  # deduplicated: both list the load errors
        passed, notes = self.honoured(event, dict(outcome["answer"]))
        verdict.notes.extend(notes)
        reply = self.render(event, payload, verdict)
        extra = {k: v for k, v in passed.items() if k not in reply.answer}
        if not extra or not self.json_answers:
            return reply
        answer = {**reply.answer, **extra}
        return self.json_reply(answer, reply.stderr, reply.exit_code)

    def honoured(self, event: HostEvent, answer: dict) -> tuple[dict, list[str]]:
        """What of a ``HOST.EVENT`` hook's `answer` the host honours, and a note for each
        part it would not (said in the host's message field instead of passed on)."""
        return answer, []

    def decide(self, runtime, event: HostEvent, payload: dict) -> Verdict:
        """Fire what `event` means in harness (by its role) and say what was decided."""
        role = event.role
        if role in ("tool", "permission"):
            tool, tool_input = self.tool_call(payload)
            return guard_tool_call(runtime, self.name, tool, tool_input, self.tools)
        if role in ("shell", "read", "write", "fetch"):
            return guard_checks(runtime, self.name, self.checks_of(event, payload), Verdict())
        if role == "prompt":
            return guard_prompt(runtime, self.name, self.prompt_of(payload), self.title)
        if role == "post_tool":
            tool, tool_input = self.tool_call(payload)
            return observe(runtime, "post_tool", post_tool_payload(
                self.name, tool, tool_input, self.tool_result(payload)))
        if role in ("start", "end"):
            return observe(runtime, "on_start" if role == "start" else "on_end",
                           session_payload(runtime, self.name))
        if role == "compact":
            return observe(runtime, "pre_compact", {"context_name": "default",
                                                    "message_count": 0, "summary": "",
                                                    "host": self.name})
        return Verdict()

    def tool_call(self, payload: dict) -> tuple[str, object]:
        """The host tool name and input of a tool event."""
        return str(payload.get("tool_name") or ""), payload.get("tool_input")

    def tool_result(self, payload: dict) -> object:
        """What a finished tool returned (post-tool events)."""
        return payload.get("tool_response")

    def prompt_of(self, payload: dict) -> object:
        """The prompt of a prompt event."""
        return payload.get("prompt")

    def checks_of(self, event: HostEvent, payload: dict) -> list:
        """The permission checks of a host event that is itself one (Cursor's
        beforeShellExecution, Windsurf's pre_run_command, ...)."""
        return []

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        """`verdict` on `event` in the host's format."""
        raise NotImplementedError

    def render_deny(self, event: HostEvent, reason: str) -> HostReply:
        """The host's explicit "no" to the guard event `event`, with `reason`."""
        verdict = Verdict()
        verdict.block(reason)
        return self.render(event, {}, verdict)

    def failure(self, message: str) -> HostReply:
        """A failure on an event that guards nothing: reported, blocks nothing."""
        return HostReply(FAILED, "", f"harness hook {self.name}: {message}\n")

    # -- helpers for subclasses ------------------------------------------------------------
    def error_note(self, errors: list[dict], notes: list[str] = ()) -> str:
        """One line for the host's message field: the notes, then the hook errors."""
        parts = list(notes)
        if errors:
            shown = [e["message"].splitlines()[0] for e in errors[:_SHOWN_ERRORS]]
            more = len(errors) - len(shown)
            parts.append(f"harness: {len(errors)} hook error{'s' if len(errors) > 1 else ''}"
                         ": " + "; ".join(shown) + (f" (and {more} more)" if more > 0 else ""))
        return "\n".join(parts)

    def log(self, errors: list[dict]) -> str:
        """The hook errors as stderr lines."""
        return "".join(f"harness: {e['source']}: {e['message']}\n" for e in errors)

    @staticmethod
    def json_reply(answer: dict, stderr: str = "", exit_code: int = 0) -> HostReply:
        """Exit `exit_code` with `answer` as the stdout JSON (nothing when it is empty)."""
        return HostReply(exit_code, dumps(answer).decode() + "\n" if answer else "", stderr,
                         answer)
