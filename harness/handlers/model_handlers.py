"""``prompt`` and ``agent`` handlers: ask the runtime's model whether the action may go on.

The model (``Runtime(model=...)`` or ``[model]`` in harness.toml, see harness.model) gets
the handler's ``prompt`` with ``$ARGUMENTS`` replaced by the event JSON (appended when the
prompt has no ``$ARGUMENTS``; ``\\$`` is a literal ``$``) and must answer ``{"ok": true}``
or ``{"ok": false, "reason": "..."}`` (a prompt handler may add ``"impossible": true``).
An ``agent`` handler is the same question asked of a bounded loop (``maxTurns``, default
50) in which the model may call the read-only tools Read, Grep and Glob first.

``ok: false`` means what the reference's table (§3.7) says for the event: PreToolUse is
denied (and the turn ends, unless ``continueOnBlock``); Stop and SubagentStop go on with the
reason as Claude's next instruction (unless ``impossible``); a prompt is blocked; on
PostToolUse and TeammateIdle the turn ends unless ``continueOnBlock``; PostToolUseFailure
gets the reason as context; PermissionRequest and PermissionDenied ignore it. An agent
handler behaves as a prompt handler with ``continueOnBlock: true``. A model that fails,
times out or answers anything else is a non-blocking error.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable

import orjson

from harness.handlers.agent_tools import AGENT_TOOLS, run_agent_tool
from harness.handlers.output import Interpreted, blocking_answer
from harness.handlers.spec import Handler
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.model import ModelError, ModelReply, ModelRequest

__all__ = ["ask_agent", "ask_prompt"]

AskModel = Callable[[ModelRequest], ModelReply]

_SYSTEM = (
    "You are a hook of an AI coding agent. You get one hook event of the agent as JSON and "
    "an instruction saying what to check. Answer with one JSON object and nothing else: "
    '{"ok": true} when the action may go on, or {"ok": false, "reason": "why, in one '
    'sentence the agent can act on"} when it must not.')
_IMPOSSIBLE = (' If the instruction cannot be met at all, answer {"ok": false, "reason": '
               '"...", "impossible": true}.')
_AGENT = (" You may first use the tools Read, Grep and Glob to look at the project; they "
          "only read.")
_ARGUMENTS = re.compile(r"(\\?)\$ARGUMENTS")


def prompt_text(template: str, event: dict) -> str:
    """The handler's prompt with ``$ARGUMENTS`` replaced by the event JSON."""
    event_json = orjson.dumps(event).decode()
    found = False

    def replace(match: re.Match) -> str:
        nonlocal found
        if match.group(1):  # \$ARGUMENTS: literal
            return "$ARGUMENTS"
        found = True
        return event_json
    text = _ARGUMENTS.sub(replace, template).replace("\\$", "$")
    return text if found else f"{text}\n\nHook event:\n{event_json}"


def ask_prompt(handler: Handler, point: str, event: dict, ask: AskModel,
               timeout: float) -> Interpreted:
    """Ask the model once; what its verdict means on `point`."""
    messages = [{"role": "system", "content": _SYSTEM + _IMPOSSIBLE},
                {"role": "user", "content": prompt_text(handler.options["prompt"], event)}]
    reply, error = _ask_within(ask, ModelRequest(messages, model=handler.options.get("model"),
                                                 temperature=0.0), timeout)
    if error is not None:
        return Interpreted(error=error)
    return _verdict(point, reply.text, handler.options.get("continueOnBlock", False))


def ask_agent(handler: Handler, point: str, event: dict, ask: AskModel, timeout: float,
              cwd: str) -> Interpreted:
    """Let the model use the read-only tools for up to ``maxTurns`` turns, then judge."""
    deadline = time.monotonic() + timeout
    messages: list[dict] = [
        {"role": "system", "content": _SYSTEM + _AGENT},
        {"role": "user", "content": prompt_text(handler.options["prompt"], event)}]
    turns = handler.options.get("maxTurns", 50)
    for _ in range(turns):
        left = deadline - time.monotonic()
        if left <= 0:
            return Interpreted(error=f"the agent gave no verdict within {timeout:g} s")
        reply, error = _ask_within(ask, ModelRequest(messages, model=handler.options.get(
            "model"), temperature=0.0, tools=AGENT_TOOLS), left)
        if error is not None:
            return Interpreted(error=error)
        if not reply.tool_calls:
            return _verdict(point, reply.text, True)
        messages.append({"role": "assistant", "content": reply.text or None, "tool_calls": [
            {"id": call.id, "type": "function",
             "function": {"name": call.name, "arguments": orjson.dumps(call.arguments).decode()}}
            for call in reply.tool_calls]})
        for call in reply.tool_calls:
            messages.append({"role": "tool", "tool_call_id": call.id,
                             "content": run_agent_tool(call.name, call.arguments, cwd)})
    return Interpreted(error=f"the agent gave no verdict in {turns} turns")


def _ask_within(ask: AskModel, request: ModelRequest,
                timeout: float) -> tuple[ModelReply | None, str | None]:
    """The model's reply, or why there is none; a model still busy at `timeout` is left to
    finish on its own thread (a host's callable cannot be interrupted)."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((ask(request), None))
        except ModelError as exc:
            outcome.append((None, str(exc)))
        except Exception as exc:  # noqa: BLE001 - ask() reports model failures as ModelError
            outcome.append((None, f"the model failed: {type(exc).__name__}: {exc}"))
    worker = threading.Thread(target=run, name="harness-model-handler", daemon=True)
    worker.start()
    worker.join(timeout)
    if not outcome:
        return None, f"the model did not answer within {timeout:g} s"
    return outcome[0]


def _verdict(point: str, text: str, continue_on_block: bool) -> Interpreted:
    verdict = _json_in(text)
    if not isinstance(verdict, dict) or not isinstance(verdict.get("ok"), bool):
        shown = text.strip()[:200] or "(nothing)"
        return Interpreted(error=f'the model did not answer {{"ok": true|false, "reason": ...}}: '
                                 f"{shown}")
    if verdict["ok"]:
        return Interpreted()
    reason = verdict.get("reason") if isinstance(verdict.get("reason"), str) else ""
    reason = reason.strip() or "the hook's model said no"
    return Interpreted(_refusal(point, reason, continue_on_block,
                                verdict.get("impossible") is True))


def _refusal(point: str, reason: str, continue_on_block: bool, impossible: bool) -> object:
    """What ``ok: false`` answers on `point`."""
    from harness.hooks.outcome import NO_ANSWER
    stop = {"continue": False, "stopReason": reason}
    event = CLAUDE_EVENTS.get(point)
    if event is None:
        return blocking_answer(point, reason) or NO_ANSWER
    if point in ("PermissionRequest", "PermissionDenied"):
        return NO_ANSWER
    if point in ("Stop", "SubagentStop"):
        return {"systemMessage": reason} if impossible else \
            {"decision": "block", "reason": reason}
    if point == "PostToolUseFailure":
        return {"hookSpecificOutput": {"hookEventName": point, "additionalContext": reason}}
    if point in ("PreToolUse", "PostToolUse", "TeammateIdle") and not continue_on_block:
        deny = blocking_answer(point, reason) if point == "PreToolUse" else {}
        return {**deny, **stop}
    return blocking_answer(point, reason) or (stop if event.honours_continue else NO_ANSWER)


def _json_in(text: str) -> object:
    """The JSON object in a model's text (code fences and chatter around it allowed)."""
    start = text.find("{")
    while start != -1:
        depth = 0
        for end in range(start, len(text)):
            if text[end] == "{":
                depth += 1
            elif text[end] == "}":
                depth -= 1
                if depth == 0:
                    try:
                        return orjson.loads(text[start:end + 1])
                    except orjson.JSONDecodeError:
                        break
        start = text.find("{", start + 1)
    return None
