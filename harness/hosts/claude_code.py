"""The Claude Code adapter (SPEC §13): one hook event in, the answer Claude Code expects out.

`answer_event(runtime, data)` reads one hook event (Claude Code's stdin JSON), fires its
PascalCase hook point — plugins, declared handlers, Scheme, Hy and Python hooks registered
on it — and then, unless that already decided the matter, the harness hook point it
corresponds to:

| event | also fires | with |
|---|---|---|
| PreToolUse | pre_tool, then the permission point of the tool (``Bash`` → pre_shell_exec, ``Write``/``Edit``/``MultiEdit``/``NotebookEdit`` → pre_file_write, ``Read`` → pre_file_read, ``WebFetch`` → pre_fetch_url) | ``{"tool_name", "arguments": tool_input, "host", "tool"}`` (as rewritten so far); vocabulary.py |
| PostToolUse | post_tool | ``{"tool_name", "arguments", "result": tool_response, "cached"}`` |
| UserPromptSubmit | pre_message | ``{"prompt", "context_name", "summary"}`` |
| SessionStart / SessionEnd | on_start / on_end | ``{"harness_home", "project_root", ...}`` |
| PreCompact | pre_compact | ``{"context_name", "message_count", "summary"}`` |

A ``pre_tool`` block becomes a deny with its message as the reason, and changed
``arguments`` become ``updatedInput``; a permission point that a hook denies is a deny,
one that no hook answered is no decision. Claude Code cannot rewrite a prompt, so a
``pre_message`` hook that changes it is reported, not obeyed.

The reply is what a command hook gives: a block is exit code 2 with the reason on stderr
(and the full JSON answer on stdout, which Claude Code reads too); anything else is exit 0
with the JSON answer (or nothing) on stdout. Hook errors go to stderr and, so that a broken
guard is never silent, into ``systemMessage`` (shown to the user). Bad input is exit 1, a
non-blocking error in Claude Code's terms — except on a guard event (PreToolUse,
PermissionRequest, UserPromptSubmit), where whatever keeps harness from answering is an
explicit deny (``harness.hosts``: never open).

Over HTTP (Claude Code's ``http`` hooks) only the JSON answer counts — a non-2xx status
blocks nothing — so a block is always also said in the JSON: ``permissionDecision: deny``
on PreToolUse, ``decision: block`` elsewhere.
"""

from __future__ import annotations

import os

from harness.bridge import loads
from harness.handlers.handler_set import RECURSION_VARIABLE
from harness.handlers.invocation import current_invocation
from harness.hooks.catalogue import closest_hook_name
from harness.hooks.claude_combine import DEFAULT_BLOCK_REASON
from harness.hooks.claude_events import CLAUDE_EVENTS, ClaudeEvent
from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply
from harness.hosts.guard import (
    Verdict,
    guard_tool_call,
    observe,
    post_tool_payload,
    session_payload,
)

__all__ = ["TOOLS", "ClaudeCode", "answer_event", "answer_payload", "render"]

#: Claude Code's tools and what each one is in the cross-host vocabulary
TOOLS = v.ToolMap({
    "Bash": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "Write": ("write", lambda t, i: v.write(t, i.get("file_path"), i.get("content"))),
    "Edit": ("edit", lambda t, i: v.write(t, i.get("file_path"))),
    "MultiEdit": ("edit", lambda t, i: v.write(t, i.get("file_path"))),
    "NotebookEdit": ("edit", lambda t, i: v.write(t, i.get("notebook_path"))),
    "Read": ("read", lambda t, i: v.read(t, i.get("file_path"))),
    "WebFetch": ("fetch", lambda t, i: v.fetch(t, i.get("url"))),
})

#: the events where a deny stops something
GUARD_EVENTS = ("PreToolUse", "PermissionRequest", "UserPromptSubmit")


_EVENTS = {name: HostEvent(name, "claude", name in GUARD_EVENTS) for name in CLAUDE_EVENTS}
#: answers the host reads but does not honour, and why
_IGNORED = {"pre_message prompt": "Claude Code cannot rewrite a prompt (UserPromptSubmit "
                                 "can block it or add context)"}


class ClaudeCode(HostAdapter):
    """Claude Code: every event of CLAUDE_EVENTS is a hook point of its own (SPEC §13)."""

    name = "claude-code"
    title = "Claude Code"
    events = _EVENTS
    ignored = _IGNORED

    def event_of(self, payload: dict, given: str | None = None) -> HostEvent:
        from harness.hosts.adapter import UnknownEvent
        name = given if given is not None else payload.get("hook_event_name")
        if name is None:
            raise UnknownEvent("the event has no hook_event_name")
        event = self.events.get(name) if isinstance(name, str) else None
        if event is None:
            close = closest_hook_name(str(name))
            hint = f"; did you mean '{close}'?" if close in CLAUDE_EVENTS else ""
            raise UnknownEvent(f"unknown Claude Code event '{name}'{hint}")
        return event

    def respond(self, runtime, event: HostEvent, payload: dict) -> HostReply:
        return _answer(runtime, CLAUDE_EVENTS[event.name], payload)

    def render_deny(self, event: HostEvent, reason: str) -> HostReply:
        claude = CLAUDE_EVENTS[event.name]
        if event.name == "PermissionRequest":
            outcome = {"decision": {"behavior": "deny", "message": reason}}
            return render(claude, outcome)
        return render(claude, {"blocked": True, "reason": reason,
                               "permissionDecision": "deny",
                               "permissionDecisionReason": reason})

    def failure(self, message: str) -> HostReply:
        return HostReply(1, "", f"harness claude-hook: {message}\n")


def answer_event(runtime, data: bytes | str) -> HostReply:
    """Answer the Claude Code hook event `data` (its stdin) with `runtime`. Bad input is
    a non-blocking error (exit 1); see harness.hosts.answer for the never-open wrapper."""
    from harness.hosts.adapter import UnknownEvent
    adapter = ClaudeCode()
    try:
        payload = loads(data)
    except ValueError as exc:
        return adapter.failure(f"stdin is not JSON: {exc}")
    if not isinstance(payload, dict):
        return adapter.failure("stdin must be a JSON object (a Claude Code hook event)")
    try:
        event = adapter.event_of(payload)
    except UnknownEvent as exc:
        return adapter.failure(str(exc))
    return adapter.respond(runtime, event, payload)


def _answer(runtime, event: ClaudeEvent, payload: dict) -> HostReply:
    given = current_invocation().env  # not .environment(): a copy of os.environ per event
    env = os.environ if given is None else given
    if env.get(RECURSION_VARIABLE) == f"{payload.get('session_id')}/{event.name}":
        return HostReply(0, "", f"harness claude-hook: not answering {event.name}: it was "
                                "started by a handler of this same event (a settings file "
                                "that runs harness claude-hook is among harness's sources)")
    return answer_payload(runtime, event, payload)


def answer_payload(runtime, event: ClaudeEvent, payload: dict) -> HostReply:
    """Answer the event ``payload`` of kind ``event`` (already read and checked): what
    ``answer_event`` answers once it has parsed its input. In-process callers (the Claude
    Agent SDK's hook callbacks) start here."""
    result = runtime.fire(event.name, payload)
    outcome = dict(result["outcome"])
    verdict = Verdict()
    verdict.add_errors(result["errors"])
    if event.equivalent and not _settled(outcome):
        _fire_equivalent(runtime, event, payload, outcome, verdict)
    return render(event, outcome, verdict.errors, verdict.notes)


def _settled(outcome: dict) -> bool:
    """Whether the PascalCase hooks already decided: blocked, denied or stopped."""
    return bool(outcome.get("blocked")) or outcome.get("continue") is False


def _fire_equivalent(runtime, event: ClaudeEvent, payload: dict, outcome: dict,
                     verdict: Verdict) -> None:
    point, host = event.equivalent, ClaudeCode.name
    if point == "pre_tool":
        given = outcome.get("updatedInput") or payload.get("tool_input") or {}
        guard_tool_call(runtime, host, payload.get("tool_name"), given, TOOLS, verdict)
        if verdict.blocked:
            outcome.update(blocked=True, reason=verdict.reason, permissionDecision="deny",
                           permissionDecisionReason=verdict.reason, updatedInput=None)
        elif verdict.arguments is not None:
            outcome["updatedInput"] = verdict.arguments
    elif point == "post_tool":
        observe(runtime, point, post_tool_payload(host, payload.get("tool_name"),
                                                  payload.get("tool_input"),
                                                  payload.get("tool_response")), verdict)
    elif point == "pre_message":
        prompt = payload.get("prompt", "")
        result = runtime.fire(point, {"prompt": prompt, "context_name": "default",
                                      "summary": "", "host": host})
        verdict.add_errors(result["errors"])
        if result["outcome"]["prompt"] != prompt:
            verdict.add_errors([{"source": "pre_message", "message": "a pre_message hook "
                                 "changed the prompt, but Claude Code cannot rewrite a "
                                 "prompt: ignored"}])
    elif point in ("on_start", "on_end"):
        observe(runtime, point, session_payload(runtime, host), verdict)
    else:  # pre_compact
        observe(runtime, point, {"context_name": "default", "message_count": 0,
                                 "summary": payload.get("custom_instructions") or "",
                                 "host": host}, verdict)


def render(event: ClaudeEvent, outcome: dict, errors: list | None = None,
           notes: list | None = None) -> HostReply:
    """The command hook answer to `event` that says `outcome` (plus `errors`)."""
    adapter = ClaudeCode()
    errors = errors or []
    log = adapter.log(errors)
    answer = _json_answer(event, outcome)
    note = adapter.error_note(errors, notes or [])
    if note:
        answer["systemMessage"] = f"{answer['systemMessage']}\n{note}" \
            if answer.get("systemMessage") else note
    if event.name == "WorktreeCreate":
        return _worktree(outcome, log, answer)
    if outcome.get("blocked"):
        return adapter.json_reply(answer, (outcome.get("reason") or DEFAULT_BLOCK_REASON)
                                  + "\n", 2)
    return adapter.json_reply(answer, log)


def _json_answer(event: ClaudeEvent, outcome: dict) -> dict:
    """`outcome` as Claude Code's hook output JSON, without its defaults."""
    answer: dict = {}
    if outcome.get("continue") is False:
        answer["continue"] = False
        if outcome.get("stopReason"):
            answer["stopReason"] = outcome["stopReason"]
    if outcome.get("blocked") and event.name != "PreToolUse":
        answer["decision"] = "block"
        answer["reason"] = outcome.get("reason") or DEFAULT_BLOCK_REASON
    if outcome.get("suppressOriginalPrompt"):
        answer["suppressOriginalPrompt"] = True
    for key in ("systemMessage", "terminalSequence"):
        if outcome.get(key):
            answer[key] = outcome[key]
    specific = {key: outcome[key] for key in event.specific
                if outcome.get(key) not in (None, False)}
    if specific:
        answer["hookSpecificOutput"] = {"hookEventName": event.name, **specific}
    return answer


def _worktree(outcome: dict, log: str, answer: dict) -> HostReply:
    """WorktreeCreate: a command hook prints the path (no JSON); any failure is non-zero.
    Over HTTP the path is ``hookSpecificOutput.worktreePath`` (``answer``)."""
    if outcome.get("blocked"):
        return HostReply(2, "", (outcome.get("reason") or DEFAULT_BLOCK_REASON) + "\n",
                         answer)
    path = outcome.get("worktreePath")
    if not path:
        return HostReply(1, "", log + "harness claude-hook: no hook answered a worktree "
                                      "path\n", answer)
    return HostReply(0, path + "\n", log, answer)
