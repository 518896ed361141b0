"""Claude Code session transcripts: ``~/.claude/projects/<project>/<session>.jsonl``.

Each line is one entry with a ``type``. The ones that make hook events:

| entry | events |
|---|---|
| the first ``user`` / ``assistant`` entry | SessionStart (``source: startup``) |
| ``user`` whose content is text (not ``isMeta``) | UserPromptSubmit ``{prompt}`` |
| ``assistant`` ``tool_use`` block | PreToolUse ``{tool_name, tool_input, tool_use_id}`` |
| ``user`` ``tool_result`` the tool produced | PostToolUse ``{tool_response}`` (``toolUseResult``) or, when it failed, PostToolUseFailure ``{error}`` |
| ``assistant`` with ``stop_reason: end_turn`` | Stop |

A tool call a hook refused has no PostToolUse (the tool never ran). What the live hooks
did is read back as ``live``: a ``tool_result`` whose ``permissionDecision`` came from a
hook and rejected the call is a deny; a hook's ``attachment`` (``hook_success``, ...) with
the call's ``toolUseID`` gives its answer (a rewrite, an ask); a call that ran with no
hook objecting was allowed. Other entry types (attachments, API request shapes, costs,
summaries) carry no event; a type this reader has never seen is reported once per file.
"""

from __future__ import annotations

import dataclasses

from harness.bridge import dumps
from harness.replay.decisions import answer_decision, strongest
from harness.replay.events import Problem, ReplayEvent, Transcript
from harness.replay.lines import json_lines

__all__ = ["HOST", "looks_like", "read"]

HOST = "claude-code"
#: entry types that carry no hook event (seen in Claude Code 2.1 transcripts and its docs)
_QUIET_TYPES = frozenset({
    "attachment", "system", "summary", "queue-operation", "last-prompt", "atis-latch",
    "api-request", "api-request-shape", "api-request-blob", "tools-used", "cost-state",
    "file-history-snapshot", "custom-title", "progress", "tag", "agent-name",
    "permission-mode", "pr-link", "worktree-state", "mode",
})
_MESSAGE_TYPES = frozenset({"user", "assistant"})


def looks_like(entry: dict) -> bool:
    """Whether a transcript line is a Claude Code entry."""
    kind = entry.get("type")
    return isinstance(kind, str) and ("sessionId" in entry or "uuid" in entry
                                      or kind in _MESSAGE_TYPES or kind in _QUIET_TYPES)


def read(path: str) -> Transcript:
    """The hook events of the Claude Code transcript at ``path`` (see the module doc)."""
    return _Reader(path).read()


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.events: list[ReplayEvent] = []
        self.problems: list[Problem] = []
        self.calls: dict[str, int] = {}       # tool_use_id -> index of its PreToolUse
        self.hook_answers: dict[str, list[tuple[str, dict | None]]] = {}
        self.started = False
        self.unknown: set[str] = set()

    def read(self) -> Transcript:
        for item in json_lines(self.path):
            if isinstance(item, Problem):
                self.problems.append(item)
                continue
            number, entry = item
            try:
                self.entry(number, entry)
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                self.problems.append(Problem(self.path, number, f"malformed {entry.get('type')!r} "
                                                                f"entry ({exc}): skipped"))
        self.settle_live()
        return Transcript(self.path, HOST, self.events, self.problems)

    # -- entries ------------------------------------------------------------------------------
    def entry(self, number: int, entry: dict) -> None:
        kind = entry.get("type")
        if kind == "attachment":
            self.attachment(entry.get("attachment") or {})
            return
        if kind not in _MESSAGE_TYPES:
            if kind not in _QUIET_TYPES and kind not in self.unknown:
                self.unknown.add(kind)
                self.problems.append(Problem(self.path, number, f"unknown entry type {kind!r} "
                                                                "(no hook event read from it; "
                                                                "reported once per file)"))
            return
        message = entry.get("message")
        if not isinstance(message, dict):
            raise TypeError("no message object")
        if not self.started:
            self.started = True
            self.add(number, entry, "SessionStart", {"source": "startup",
                                                     **_model(message)})
        content = message.get("content")
        if kind == "assistant":
            self.assistant(number, entry, message, content)
        else:
            self.user(number, entry, content)

    def assistant(self, number: int, entry: dict, message: dict, content) -> None:
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input") if isinstance(block.get("input"), dict) else {}
                self.calls[block["id"]] = len(self.events)
                self.add(number, entry, "PreToolUse", {
                    "tool_name": block["name"], "tool_input": tool_input,
                    "tool_use_id": block["id"]}, tool_name=block["name"], tool_input=tool_input)
        if message.get("stop_reason") == "end_turn":
            self.add(number, entry, "Stop", {"stop_hook_active": False,
                                             "last_assistant_message": _text(content)})

    def user(self, number: int, entry: dict, content) -> None:
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(content, list) else []
        if not results:
            prompt = _text(content)
            if prompt and not entry.get("isMeta") and not entry.get("isCompactSummary"):
                self.add(number, entry, "UserPromptSubmit", {"prompt": prompt},
                         tool_input=prompt)
            return
        decision = entry.get("permissionDecision")
        refused_by_hook = isinstance(decision, dict) and decision.get("source") == "hook" \
            and decision.get("decision") not in ("accept", "allow")
        for block in results:
            index = self.calls.get(block.get("tool_use_id"))
            if index is None:
                self.problems.append(Problem(self.path, number, "a tool_result for an unknown "
                                                                "tool_use_id: skipped"))
                continue
            call = self.events[index]
            if refused_by_hook:
                self.hook_answers.setdefault(call.payload["tool_use_id"], []).append(
                    ("deny", None))
                continue
            self.hook_answers.setdefault(call.payload["tool_use_id"], []).append(("ran", None))
            tool_input = self.ran_with(call)
            base = {"tool_name": call.tool_name, "tool_input": tool_input,
                    "tool_use_id": call.payload["tool_use_id"]}
            if block.get("is_error"):
                self.add(number, entry, "PostToolUseFailure",
                         {**base, "error": _text(block.get("content"))},
                         tool_name=call.tool_name, tool_input=tool_input)
            else:
                response = entry.get("toolUseResult", block.get("content"))
                self.add(number, entry, "PostToolUse", {**base, "tool_response": response},
                         tool_name=call.tool_name, tool_input=tool_input)

    def attachment(self, attachment: dict) -> None:
        """A hook's own record: its answer to the PreToolUse of ``toolUseID``."""
        if not str(attachment.get("type", "")).startswith("hook_") or \
                attachment.get("hookEvent") != "PreToolUse":
            return
        tool_use = attachment.get("toolUseID")
        if not isinstance(tool_use, str):
            return
        from harness.bridge import loads
        try:
            answer = loads(attachment.get("stdout") or "{}")
        except ValueError:
            answer = {}
        code = attachment.get("exitCode")
        decision, _, rewritten = answer_decision(
            "PreToolUse", answer if isinstance(answer, dict) else {},
            code if isinstance(code, int) else 0, str(attachment.get("stderr") or ""))
        if attachment.get("type") == "hook_blocking_error":
            decision = "deny"
        self.hook_answers.setdefault(tool_use, []).append((decision, rewritten))

    # -- building -----------------------------------------------------------------------------
    def ran_with(self, call: ReplayEvent) -> dict:
        """The input the tool ran with: a live hook's rewrite, else the model's."""
        for decision, rewritten in self.hook_answers.get(call.payload["tool_use_id"], ()):
            if decision == "rewrite" and rewritten is not None:
                return rewritten
        return call.payload["tool_input"]

    def settle_live(self) -> None:
        """What the live hooks decided on each PreToolUse, from what the session shows."""
        for tool_use, index in self.calls.items():
            seen = self.hook_answers.get(tool_use)
            if not seen:
                continue  # no result: the session ended first
            decisions = [d for d, _ in seen if d != "ran"]
            live = strongest(decisions) if decisions else "allow"
            self.events[index] = dataclasses.replace(self.events[index], live=live)

    def add(self, number: int, entry: dict, event: str, fields: dict, *,
            tool_name: str | None = None, tool_input: object = None) -> None:
        session = entry.get("sessionId") or _stem(self.path)
        payload = {"session_id": session, "transcript_path": self.path,
                   "cwd": entry.get("cwd") or "", "hook_event_name": event}
        if event not in ("SessionStart", "SessionEnd"):
            payload["permission_mode"] = entry.get("permissionMode") or "default"
        payload.update(fields)
        self.events.append(ReplayEvent(HOST, event, payload, session, self.path, number,
                                       tool_name, tool_input))


def _text(content) -> str:
    """The text of a message's content: a string, or its text blocks joined (system
    reminders left out)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return "" if content is None else dumps(content).decode()
    parts = [b.get("text", "") for b in content if isinstance(b, dict)
             and b.get("type") == "text"
             and not str(b.get("text", "")).startswith("<system-reminder>")]
    return "\n".join(p for p in parts if p)


def _model(message: dict) -> dict:
    model = message.get("model")
    return {"model": model} if isinstance(model, str) else {}


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.removesuffix(".jsonl")
