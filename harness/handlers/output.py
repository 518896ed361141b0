"""What a handler's output means: exit code, stdout and stderr become an answer or an error.

The reference's rules (§3.1-3.2, Era C), for a command handler:

* stdout that starts with ``{`` (after leading whitespace) and parses is a JSON answer;
  anything else is plain text. Plain text on exit 0 is context on the events that take it
  (UserPromptSubmit, UserPromptExpansion, SessionStart) and the worktree's path on
  WorktreeCreate; elsewhere Claude Code only logs it, so it is no answer (noted in the
  trace). On a harness hook point it is a string answer, as a plugin's.
* exit 2 on an event that can block blocks it, whatever the JSON says: the reason is the
  JSON's when the JSON itself blocks, else stderr. On the other events it does what Claude
  Code does with that stderr: shows it to Claude (PostToolUse: a block note next to the
  result; PostToolUseFailure: context), to the user (a ``systemMessage``), or nothing.
* any other exit: a valid JSON answer still counts and the exit code is ignored; without
  one it is a non-blocking error naming the first line of stderr.

HTTP, MCP and model handlers hand their text to `text_answer` as if a command printed it
and exited 0.
"""

from __future__ import annotations

import re

from harness.bridge import loads
from harness.hooks.catalogue import HOOK_POINTS
from harness.hooks.claude_combine import DEFAULT_BLOCK_REASON, check_answer
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.hooks.combine import block_answer
from harness.hooks.outcome import NO_ANSWER
from harness.plugins.process import ProcessRun

__all__ = ["Interpreted", "blocking_answer", "command_answer", "json_object", "text_answer"]

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Interpreted:
    """An answer (or NO_ANSWER), the error that made the handler fail (or None), and a
    note for the trace (what was ignored)."""

    __slots__ = ("answer", "error", "note")

    def __init__(self, answer: object = NO_ANSWER, error: str | None = None,
                 note: str | None = None) -> None:
        self.answer = answer
        self.error = error
        self.note = note


def blocking_answer(point: str, reason: str) -> dict | None:
    """An answer that blocks (or denies) `point` with `reason`; None if nothing there can."""
    hook_point = HOOK_POINTS[point]
    if hook_point.combine == "permission":
        return {"denied": True, "reason": reason}
    return block_answer(hook_point, reason)


def command_answer(point: str, run: ProcessRun) -> Interpreted:
    """The meaning of a command handler's run on `point` (``run.error`` already excluded)."""
    stdout = run.stdout.decode("utf-8", "replace")
    stderr = run.stderr.decode("utf-8", "replace").strip()
    parsed = json_object(stdout)
    event = CLAUDE_EVENTS.get(point)
    code = run.exit_code
    if code == 0:
        return text_answer(point, stdout, parsed)
    if code == 2:
        return _exit_two(point, parsed, stderr)
    valid = parsed is not None and (event is None or not check_answer(event, parsed)[0])
    if valid and event is not None:
        return Interpreted(parsed)  # Claude Code: valid JSON decides, the exit code does not
    return Interpreted(error=_failure(code, stderr))


def text_answer(point: str, text: str, parsed: dict | None = None) -> Interpreted:
    """What output `text` (a command's stdout on exit 0, an HTTP body, an MCP tool's text)
    answers on `point`."""
    if parsed is None:
        parsed = json_object(text)
    if parsed is not None:
        return Interpreted(parsed)
    text = text.strip()
    if not text:
        return Interpreted()
    event = CLAUDE_EVENTS.get(point)
    if event is None:
        return Interpreted(text)  # a harness hook point: a string answer, as a plugin's
    if event.text_is_context:
        return Interpreted({"hookSpecificOutput": {"hookEventName": point,
                                                   "additionalContext": text}})
    if point == "WorktreeCreate":
        lines = [line for line in _ANSI.sub("", text).splitlines() if line.strip()]
        return Interpreted({"hookSpecificOutput": {"hookEventName": point,
                                                   "worktreePath": lines[-1].strip()}})
    return Interpreted(note=f"plain text output is not an answer on {point}; ignored: "
                            f"{_first_line(text)}")


def _exit_two(point: str, parsed: dict | None, stderr: str) -> Interpreted:
    event = CLAUDE_EVENTS.get(point)
    reason = stderr or DEFAULT_BLOCK_REASON
    if event is None:
        block = blocking_answer(point, reason)
        if block is None:
            return Interpreted(error=_failure(2, stderr))
        return Interpreted(block)
    valid = parsed is not None and not check_answer(event, parsed)[0]
    answer = dict(parsed) if valid else {}
    note = None if valid or parsed is None else "its JSON is not a valid answer; stderr " \
                                                "stands for it"
    if event.blocks:
        if not _blocks(point, answer):
            _merge(answer, blocking_answer(point, reason))
        return Interpreted(answer, note=note)
    if event.exit2 == "claude":  # PostToolUse blocks nothing: the note goes to Claude
        extra = {"decision": "block", "reason": reason} if event.block_decision else \
            {"hookSpecificOutput": {"hookEventName": point, "additionalContext": stderr}}
        _merge(answer, extra if stderr or event.block_decision else {})
    elif event.exit2 == "user" and stderr:
        answer["systemMessage"] = f"{answer['systemMessage']}\n{stderr}" \
            if answer.get("systemMessage") else stderr
    elif not answer:
        return Interpreted(note=f"exit code 2 is ignored on {point}")
    return Interpreted(answer or NO_ANSWER, note=note)


def _blocks(point: str, answer: dict) -> bool:
    """Whether a (valid) Claude Code answer already blocks `point` by itself."""
    if point == "PreToolUse":
        specific = answer.get("hookSpecificOutput") or {}
        return specific.get("permissionDecision") == "deny" or answer.get("decision") == "block"
    return answer.get("decision") == "block"


def _merge(answer: dict, extra: dict) -> None:
    """Put `extra`'s keys into `answer`, one level into ``hookSpecificOutput``."""
    for key, value in extra.items():
        if key == "hookSpecificOutput" and isinstance(answer.get(key), dict):
            answer[key] = {**answer[key], **value}
        else:
            answer[key] = value


def json_object(text: str) -> dict | None:
    """`text` as a JSON object when it is one (leading whitespace allowed), else None."""
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return None
    try:
        value = loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _failure(code: int | None, stderr: str) -> str:
    if code is not None and code < 0:
        import signal
        try:
            what = f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            what = f"killed by signal {-code}"
    else:
        what = f"failed with non-blocking status code {code}"
    return f"{what}: {_first_line(stderr)}" if stderr else f"{what} (no stderr output)"


def _first_line(text: str, limit: int = 300) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit] + "…"
