"""Being a Claude Code hook (SPEC §13): one event in, the answer Claude Code expects out.

`answer_event(runtime, data)` reads one hook event (Claude Code's stdin JSON), fires its
PascalCase hook point — plugins, declared handlers, Scheme, Hy and Python hooks registered
on it — and then, unless that already decided the matter, the harness hook point it
corresponds to:

| event | also fires | with |
|---|---|---|
| PreToolUse | pre_tool | ``{"tool_name", "arguments": tool_input}`` (as rewritten so far) |
| PostToolUse | post_tool | ``{"tool_name", "arguments", "result": tool_response, "cached"}`` |
| UserPromptSubmit | pre_message | ``{"prompt", "context_name", "summary"}`` |
| SessionStart / SessionEnd | on_start / on_end | ``{"harness_home", "project_root", ...}`` |
| PreCompact | pre_compact | ``{"context_name", "message_count", "summary"}`` |

A ``pre_tool`` block becomes a deny with its message as the reason, and changed
``arguments`` become ``updatedInput``. Claude Code cannot rewrite a prompt, so a
``pre_message`` hook that changes it is reported, not obeyed.

The reply is what a command hook gives: a block is exit code 2 with the reason on stderr
(and the full JSON answer on stdout, which Claude Code reads too); anything else is exit 0
with the JSON answer (or nothing) on stdout. Hook errors go to stderr and, so that a broken
guard is never silent, into ``systemMessage`` (shown to the user). Bad input is exit 1, a
non-blocking error in Claude Code's terms.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.bridge import dumps, loads
from harness.handlers.handler_set import RECURSION_VARIABLE
from harness.handlers.invocation import current_invocation
from harness.hooks.catalogue import closest_hook_name
from harness.hooks.claude_combine import DEFAULT_BLOCK_REASON
from harness.hooks.claude_events import CLAUDE_EVENTS, ClaudeEvent

__all__ = ["HookReply", "answer_event", "render"]

_SHOWN_ERRORS = 5  # hook errors listed in systemMessage at most


@dataclass(frozen=True)
class HookReply:
    """What a Claude Code command hook answers: its exit code, stdout and stderr."""

    exit_code: int
    stdout: str = ""
    stderr: str = ""

    def to_json(self) -> dict:
        return {"exit_code": self.exit_code, "stdout": self.stdout, "stderr": self.stderr}


def answer_event(runtime, data: bytes | str) -> HookReply:
    """Answer the Claude Code hook event `data` (its stdin) with `runtime`."""
    try:
        payload = loads(data)
    except ValueError as exc:
        return _bad_input(f"stdin is not JSON: {exc}")
    if not isinstance(payload, dict):
        return _bad_input("stdin must be a JSON object (a Claude Code hook event)")
    name = payload.get("hook_event_name")
    event = CLAUDE_EVENTS.get(name) if isinstance(name, str) else None
    if event is None:
        if name is None:
            return _bad_input("the event has no hook_event_name")
        close = closest_hook_name(str(name))
        hint = f"; did you mean '{close}'?" if close in CLAUDE_EVENTS else ""
        return _bad_input(f"unknown Claude Code event '{name}'{hint}")
    env = current_invocation().environment()
    if env.get(RECURSION_VARIABLE) == f"{payload.get('session_id')}/{event.name}":
        return HookReply(0, "", f"harness claude-hook: not answering {event.name}: it was "
                                "started by a handler of this same event (a settings file "
                                "that runs harness claude-hook is among harness's sources)")
    recorder = runtime.recorder
    if recorder is None:
        return _answer(runtime, event, payload)
    with recorder.host_event("claude-code", event.name, payload) as entry:  # the audit log
        reply = _answer(runtime, event, payload)
        from harness.replay.decisions import claude_decision
        entry.reply, entry.decision = reply.to_json(), claude_decision(event.name, reply)[0]
    return reply


def _answer(runtime, event: ClaudeEvent, payload: dict) -> HookReply:
    result = runtime.fire(event.name, payload)
    outcome = dict(result["outcome"])
    errors = list(result["errors"])
    if event.equivalent and not _settled(outcome):
        _fire_equivalent(runtime, event, payload, outcome, errors)
    unique = {(e["source"], e["message"]): e for e in errors}  # both dispatches list load errors
    return render(event, outcome, list(unique.values()))


def _settled(outcome: dict) -> bool:
    """Whether the PascalCase hooks already decided: blocked, denied or stopped."""
    return bool(outcome.get("blocked")) or outcome.get("continue") is False


def _fire_equivalent(runtime, event: ClaudeEvent, payload: dict, outcome: dict,
                     errors: list) -> None:
    point = event.equivalent
    if point == "pre_tool":
        given = outcome.get("updatedInput") or payload.get("tool_input") or {}
        result = runtime.fire(point, {"tool_name": payload.get("tool_name"),
                                      "arguments": given})
        decision = result["outcome"]
        if decision["blocked"]:
            outcome.update(blocked=True, reason=decision["message"],
                           permissionDecision="deny",
                           permissionDecisionReason=decision["message"], updatedInput=None)
        elif decision["arguments"] != given:
            outcome["updatedInput"] = decision["arguments"]
    elif point == "post_tool":
        response = payload.get("tool_response")
        result = runtime.fire(point, {"tool_name": payload.get("tool_name"),
                                      "arguments": payload.get("tool_input") or {},
                                      "result": response if isinstance(response, str)
                                      else dumps(response).decode(), "cached": False})
    elif point == "pre_message":
        prompt = payload.get("prompt", "")
        result = runtime.fire(point, {"prompt": prompt, "context_name": "default",
                                      "summary": ""})
        if result["outcome"]["prompt"] != prompt:
            errors.append({"source": "pre_message", "message": "a pre_message hook changed "
                           "the prompt, but Claude Code cannot rewrite a prompt: ignored"})
    elif point in ("on_start", "on_end"):
        home = str(runtime.home)
        result = runtime.fire(point, {"harness_home": home, "chibi_home": home,
                                      "project_root": runtime.handlers.project_dir,
                                      "tool_count": len(runtime.tools())})
    else:  # pre_compact
        result = runtime.fire(point, {"context_name": "default", "message_count": 0,
                                      "summary": payload.get("custom_instructions") or ""})
    errors.extend(result["errors"])


def render(event: ClaudeEvent, outcome: dict, errors: list | None = None) -> HookReply:
    """The command hook answer to `event` that says `outcome` (plus `errors`)."""
    log = "".join(f"harness: {e['source']}: {e['message']}\n" for e in errors or ())
    answer = _json_answer(event, outcome)
    if errors:
        shown = [e["message"].splitlines()[0] for e in errors[:_SHOWN_ERRORS]]
        more = len(errors) - len(shown)
        note = f"harness: {len(errors)} hook error{'s' if len(errors) > 1 else ''}: " + \
            "; ".join(shown) + (f" (and {more} more)" if more > 0 else "")
        answer["systemMessage"] = f"{answer['systemMessage']}\n{note}" \
            if answer.get("systemMessage") else note
    if event.name == "WorktreeCreate":
        return _worktree(outcome, log)
    stdout = dumps(answer).decode() + "\n" if answer else ""
    if outcome.get("blocked"):
        return HookReply(2, stdout, (outcome.get("reason") or DEFAULT_BLOCK_REASON) + "\n")
    return HookReply(0, stdout, log)


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


def _worktree(outcome: dict, log: str) -> HookReply:
    """WorktreeCreate: a command hook prints the path (no JSON); any failure is non-zero."""
    if outcome.get("blocked"):
        return HookReply(2, "", (outcome.get("reason") or DEFAULT_BLOCK_REASON) + "\n")
    path = outcome.get("worktreePath")
    if not path:
        return HookReply(1, "", log + "harness claude-hook: no hook answered a worktree path\n")
    return HookReply(0, path + "\n", log)


def _bad_input(message: str) -> HookReply:
    return HookReply(1, "", f"harness claude-hook: {message}\n")

