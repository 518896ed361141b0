"""The combine rule ``claude``: how the answers to a Claude Code event become one outcome.

An answer is a Claude Code hook output (`claude_events.py`). It is checked whole first, as
Claude Code checks a hook's JSON: one wrong-typed or out-of-range value and the whole
answer is ignored and reported (an unknown key is only reported). The valid answers then
combine as the reference's runner algorithm says (§3.8), in dispatch order, so where
Claude Code lets "the last hook to finish" win, harness is deterministic:

* ``continue: false`` from any answer stops Claude; the stop reasons are joined;
* PreToolUse: deny > defer > ask > allow (legacy ``decision: approve|block`` count as
  allow|deny); the reasons of the winning decision are joined; ``updatedInput`` replaces
  the input whole, the last one wins, and counts only when the call is not denied or
  deferred;
* PermissionRequest: deny > allow;
* ``decision: "block"`` on an event that can block blocks it; reasons are joined;
* ``additionalContext`` and ``systemMessage`` of every answer are joined, one per line;
  ``watchPaths`` are united; any other value: the last one wins.

The outcome is flat: the event's ``hookSpecificOutput`` keys next to ``continue``,
``stopReason``, ``systemMessage`` and, on events that can block, ``blocked`` and
``reason``.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.hooks.claude_events import CLAUDE_EVENTS, ClaudeEvent
from harness.hooks.outcome import json_type

__all__ = ["DEFAULT_BLOCK_REASON", "PERMISSION_ORDER", "block_answer", "combine_claude"]

#: PreToolUse decisions, strongest first
PERMISSION_ORDER = ("deny", "defer", "ask", "allow")
#: what a block that gives no reason says
DEFAULT_BLOCK_REASON = "Blocked by hook"

Check = Callable[[object], "str | None"]


def _kind(name: str, test: Callable[[object], bool]) -> Check:
    def check(value: object) -> str | None:
        return None if test(value) else f"must be {name}, got {json_type(value)}"
    return check


def _one_of(*values: str) -> Check:
    def check(value: object) -> str | None:
        if value in values:
            return None
        shown = f"'{value}'" if isinstance(value, str) else json_type(value)
        return f"must be one of {', '.join(values)}, got {shown}"
    return check


_string = _kind("a string", lambda v: isinstance(v, str))
_boolean = _kind("a boolean", lambda v: isinstance(v, bool))
_object = _kind("an object", lambda v: isinstance(v, dict))
_list = _kind("a list", lambda v: isinstance(v, list))
_string_list = _kind("a list of strings",
                     lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v))


def _anything(value: object) -> str | None:
    return None


_REQUEST_DECISION: dict[str, Check] = {
    "behavior": _one_of("allow", "deny"), "updatedInput": _object,
    "updatedPermissions": _list, "message": _string, "interrupt": _boolean}


def _request_decision(value: object) -> str | None:
    """PermissionRequest's ``decision`` object."""
    if not isinstance(value, dict):
        return f"must be an object, got {json_type(value)}"
    if "behavior" not in value:
        return "needs 'behavior' (allow or deny)"
    for key, item in value.items():
        check = _REQUEST_DECISION.get(key)
        problem = check(item) if check else None
        if problem:
            return f"'{key}' {problem}"
    return None


_TOP: dict[str, Check] = {
    "continue": _boolean, "stopReason": _string, "suppressOutput": _boolean,
    "systemMessage": _string, "terminalSequence": _string, "reason": _string,
    "suppressOriginalPrompt": _boolean, "hookSpecificOutput": _object,
}
_SPECIFIC: dict[str, Check] = {
    "permissionDecision": _one_of("allow", "deny", "ask", "defer"),
    "permissionDecisionReason": _string,
    "updatedInput": _object, "additionalContext": _string, "initialUserMessage": _string,
    "sessionTitle": _string, "watchPaths": _string_list, "reloadSkills": _boolean,
    "displayContent": _string, "decision": _request_decision, "retry": _boolean,
    "updatedToolOutput": _anything, "updatedMCPToolOutput": _anything,
    "classifierContext": _string, "action": _one_of("accept", "decline", "cancel"),
    "content": _object, "worktreePath": _string,
}
_BOOLEAN_SPECIFIC = ("reloadSkills", "retry")
_JOINED = ("additionalContext", "classifierContext")
_UNITED = ("watchPaths",)


def check_answer(event: ClaudeEvent, answer: dict) -> tuple[list[str], list[str]]:
    """(why the answer is invalid, what in it is ignored): a Claude Code hook output checked
    against `event`. Unknown top-level keys are the caller's to report."""
    invalid: list[str] = []
    ignored: list[str] = []
    for key, value in answer.items():
        check = _TOP.get(key)
        if check is not None and (problem := check(value)):
            invalid.append(f"'{key}' {problem}")
    decision = answer.get("decision")
    if "decision" in answer:
        if not (event.blocks or event.name == "PreToolUse"):
            ignored.append(f"'decision' does nothing on {event.name}")
        elif decision not in ("block", "approve"):
            invalid.append("'decision' must be \"block\" or \"approve\", got "
                           + (f"'{decision}'" if isinstance(decision, str)
                              else json_type(decision)))
    if decision == "block" and event.name in ("Stop", "SubagentStop") and not (
            isinstance(answer.get("reason"), str) and answer["reason"].strip()):
        invalid.append(f"'decision': \"block\" on {event.name} needs a 'reason' (what "
                       "Claude should do next)")
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict):
        _check_specific(event, specific, invalid, ignored)
    return invalid, ignored


def _check_specific(event: ClaudeEvent, specific: dict, invalid: list[str],
                    ignored: list[str]) -> None:
    name = specific.get("hookEventName")
    if name != event.name:
        got = "missing" if name is None else f"'{name}'" if isinstance(name, str) \
            else json_type(name)
        invalid.append(f"'hookSpecificOutput.hookEventName' must be \"{event.name}\", got {got}")
    for key, value in specific.items():
        if key == "hookEventName":
            continue
        if key not in event.specific:
            ignored.append(f"'hookSpecificOutput.{key}' does nothing on {event.name}"
                           + _honoured(event))
            continue
        problem = _SPECIFIC[key](value)
        if problem:
            invalid.append(f"'hookSpecificOutput.{key}' {problem}")


def _honoured(event: ClaudeEvent) -> str:
    if not event.specific:
        return ""
    return f" (it reads {', '.join(event.specific)})"


def empty_outcome(event: ClaudeEvent) -> dict:
    """The outcome of `event` when no hook says anything."""
    out: dict = {}
    if event.blocks:
        out["blocked"] = False
        out["reason"] = None
    for key in event.specific:
        out[key] = False if key in _BOOLEAN_SPECIFIC else None
    if event.name == "UserPromptSubmit":
        out["suppressOriginalPrompt"] = False
    if event.honours_continue:
        out["continue"] = True
        out["stopReason"] = None
    out["systemMessage"] = None
    return out


def _join(old: str | None, new: str) -> str:
    return new if not old else f"{old}\n{new}"


class _Outcome:
    """The outcome of one event being built from valid answers, in dispatch order."""

    def __init__(self, event: ClaudeEvent, payload: dict) -> None:
        self.event = event
        self.payload = payload
        self.out = empty_outcome(event)
        self.permissions: list[tuple[str, str | None]] = []  # PreToolUse (decision, reason)
        self.requests: list[dict] = []  # PermissionRequest decisions

    def add(self, answer: dict) -> None:
        out = self.out
        if answer.get("continue") is False and "continue" in out:
            out["continue"] = False
            if answer.get("stopReason"):
                out["stopReason"] = _join(out["stopReason"], answer["stopReason"])
        if answer.get("systemMessage"):
            out["systemMessage"] = _join(out["systemMessage"], answer["systemMessage"])
        if "terminalSequence" in answer:
            out["terminalSequence"] = answer["terminalSequence"]
        if answer.get("suppressOriginalPrompt") is True and "suppressOriginalPrompt" in out:
            out["suppressOriginalPrompt"] = True
        specific = answer.get("hookSpecificOutput") or {}
        if self.event.name == "PreToolUse":
            self._permission(answer, specific)
        elif answer.get("decision") == "block" and self.event.blocks:
            out["blocked"] = True
            out["reason"] = _join(out["reason"], answer.get("reason") or DEFAULT_BLOCK_REASON)
        for key, value in specific.items():
            if key not in self.event.specific or key in ("permissionDecision",
                                                           "permissionDecisionReason"):
                continue
            if key == "decision":
                self.requests.append(value)
            elif key in _JOINED:
                if value:
                    out[key] = _join(out[key], value)
            elif key in _UNITED:
                out[key] = list(dict.fromkeys((out[key] or []) + value))
            elif key in _BOOLEAN_SPECIFIC:
                out[key] = out[key] or value
            else:
                out[key] = value

    def _permission(self, answer: dict, specific: dict) -> None:
        decision = specific.get("permissionDecision")
        reason = specific.get("permissionDecisionReason")
        if decision is None and answer.get("decision") in ("approve", "block"):  # legacy
            decision = "allow" if answer["decision"] == "approve" else "deny"
            reason = answer.get("reason")
        if decision is not None:
            self.permissions.append((decision, reason))

    def outcome(self) -> dict:
        out = self.out
        if self.event.name == "PreToolUse":
            self._decide_permission()
        elif self.event.name == "PermissionRequest":
            self._decide_request()
        elif self.event.name == "ConfigChange" and self.payload.get("source") == \
                "policy_settings":
            out["blocked"], out["reason"] = False, None  # managed policy cannot be refused
        return out

    def _decide_permission(self) -> None:
        out = self.out
        if not self.permissions:
            return
        decision = min((d for d, _ in self.permissions), key=PERMISSION_ORDER.index)
        reasons = [r for d, r in self.permissions if d == decision and r]
        out["permissionDecision"] = decision
        out["permissionDecisionReason"] = "\n".join(reasons) or None
        if decision == "deny":
            out["blocked"] = True
            out["reason"] = out["permissionDecisionReason"] or DEFAULT_BLOCK_REASON
        if decision in ("deny", "defer"):
            out["updatedInput"] = None  # a rewrite of a call that does not run

    def _decide_request(self) -> None:
        denials = [d for d in self.requests if d["behavior"] == "deny"]
        if denials:
            decision: dict = {"behavior": "deny"}
            message = "\n".join(d["message"] for d in denials if d.get("message"))
            if message:
                decision["message"] = message
            if any(d.get("interrupt") is True for d in denials):
                decision["interrupt"] = True
        elif self.requests:
            decision = {"behavior": "allow"}
            for d in self.requests:
                if "updatedInput" in d:
                    decision["updatedInput"] = d["updatedInput"]
            permissions = [p for d in self.requests for p in d.get("updatedPermissions", ())]
            if permissions:
                decision["updatedPermissions"] = permissions
        else:
            return
        self.out["decision"] = decision


def combine_claude(r) -> dict:
    """The rule ``claude`` over a combine round `r` (see harness.hooks.combine)."""
    event = CLAUDE_EVENTS[r.point.name]
    outcome = _Outcome(event, r.payload)
    for source, answer in r.answers:
        invalid, ignored = check_answer(event, answer)
        position = r.position_of(answer)
        for message in ignored:
            r.report(source, f"{message}; ignored", position)
        if invalid:
            r.report(source, f"answer ignored: {'; '.join(invalid)}", position)
            continue
        outcome.add(answer)
    return outcome.outcome()


def block_answer(event: ClaudeEvent, reason: str) -> dict | None:
    """An answer that blocks `event` with `reason` (None if the event cannot be blocked):
    what exit code 2 means, and what a hook that must fail closed stands for."""
    if event.name == "PreToolUse":
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "deny",
                                       "permissionDecisionReason": reason}}
    if event.blocks:
        return {"decision": "block", "reason": reason}
    return None
