"""How the answers of several hooks become one outcome: the combine rules of SPEC §2 / §9.

`COMBINE_RULES` maps a rule id (`HookPoint.combine`) to one small function; `combine` is
the only entry point. Answers are read in dispatch order. Every answer is checked in full,
even after a winner is known, so the trace reports every ignored value:

* a non-object answer on a hook that can modify is ignored and reported;
* a value of the wrong type (`"block": "yes"`) is ignored and reported;
* an unknown key (`"blocked"` for `"block"`) is reported with the closest valid key.

Observers ignore answers entirely and fail open; the four permission hooks fail closed:
a hook listed in `failed` (crashed, timed out) denies the action. Claude Code's events
combine by one rule, ``claude`` (claude_combine.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.hooks.catalogue import HOOK_POINTS, HookPoint, hook_point
from harness.hooks.claude_combine import block_answer as claude_block_answer
from harness.hooks.claude_combine import combine_claude
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.hooks.host_combine import block_answer as host_block_answer
from harness.hooks.host_combine import combine_host
from harness.hooks.outcome import NO_ANSWER, Problem, json_type, problem
from harness.spelling import closest_name

__all__ = ["COMBINE_RULES", "FALLBACKS", "PermissionHandler", "block_answer", "combine"]

#: (hook name, payload) -> True to allow, False to deny, or (allowed, reason); None
#: abstains (the outcome is the fail-safe deny of no handler)
PermissionHandler = Callable[[str, dict], object]

#: the values `fallback` may take
FALLBACKS = ("call_agent", "call_user")

_MISSING = object()


def _is_string(v: object) -> bool:
    return isinstance(v, str)


def _is_boolean(v: object) -> bool:
    return isinstance(v, bool)


def _is_object(v: object) -> bool:
    return isinstance(v, dict)


def _is_integer(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_string_list(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


_KINDS: dict[str, Callable[[object], bool]] = {
    "a string": _is_string,
    "a boolean": _is_boolean,
    "an object": _is_object,
    "an integer": _is_integer,
    "a list of strings": _is_string_list,
}


#: each answer key of harness's own points -> the points where it decides something
_DECIDING_POINTS: dict[str, list[str]] = {}
for _point in HOOK_POINTS.values():
    if _point.combine not in ("observe", "advisory", "claude", "host"):
        for _key in _point.answer_keys:
            _DECIDING_POINTS.setdefault(_key, []).append(_point.name)

#: harness's own answer keys, answered on a Claude Code event: what that event wants instead
_CLAUDE_HINTS = {
    key: f"; '{key}' is a harness answer key (of {points}): on Claude Code's events answer "
         f"{instead}, or register the hook on {points.split(',')[0]}"
    for key, points, instead in (
        ("block", "pre_tool", '{"decision": "block", "reason": "..."}'),
        ("message", "pre_tool", '{"decision": "block", "reason": "..."}'),
        ("arguments", "pre_tool", '{"hookSpecificOutput": {"updatedInput": {...}}}'),
        ("denied", "pre_shell_exec, pre_file_write, ...",
         ('{"hookSpecificOutput": {"permissionDecision": "deny", '
         '"permissionDecisionReason": "..."}}')),
        ("prompt", "pre_message", '{"hookSpecificOutput": {"additionalContext": "..."}}'))}


class _Round:
    """One combine: the object answers in order, and a typed reader that reports mistakes.

    Problems are kept with the position of the answer they concern, so `problems()` lists
    them in dispatch order whichever rule step found them.
    """

    __slots__ = ("_found", "_position", "answers", "failed", "payload", "permission_handler",
                 "point")

    def __init__(self, point: HookPoint, payload: dict, answers: Sequence[tuple[str, object]],
                 permission_handler: PermissionHandler | None, failed: Sequence[str]) -> None:
        self.point = point
        self.payload = payload
        self.permission_handler = permission_handler
        self.failed = tuple(failed)
        self.answers: list[tuple[str, dict]] = []
        self._found: list[tuple[int, Problem]] = []
        self._position: dict[int, int] = {}  # id(answer) -> its place in dispatch order
        checks = point.combine not in ("observe", "advisory", "host")  # a host's own keys
        for position, (source, answer) in enumerate(answers):
            if answer is NO_ANSWER or answer is None:
                continue
            if isinstance(answer, dict):
                self.answers.append((source, answer))
                self._position[id(answer)] = position
                if checks:
                    self._check_keys(source, answer, position)
                elif point.combine == "observe":
                    self._check_observed(source, answer, position)
            elif checks:
                self.report(source, f"answer is {json_type(answer)}, not an object; ignored",
                            position)

    def report(self, source: str, message: str, position: int) -> None:
        self._found.append((position, problem(source, f"{self.point.name}: {message}")))

    def problems(self) -> list[tuple[int, Problem]]:
        """(position of the answer, problem), in dispatch order."""
        if not self._found:
            return []
        return sorted(self._found, key=lambda item: item[0])

    def position_of(self, answer: dict) -> int:
        return self._position[id(answer)]

    def _check_keys(self, source: str, answer: dict, position: int) -> None:
        valid = self.point.answer_keys
        for key in answer:
            if key not in valid:
                hint = _CLAUDE_HINTS.get(key) if self.point.combine == "claude" else None
                if hint is None:
                    close = closest_name(str(key), valid)
                    hint = f"; did you mean '{close}'?" if close else ""
                self.report(source, f"unknown answer key '{key}' ignored{hint}", position)

    def _check_observed(self, source: str, answer: dict, position: int) -> None:
        """An observer's answer changes nothing; a key that decides on other points
        (``block`` on post_tool) is a mistake worth saying, other keys are its data."""
        for key in answer:
            acts_on = _DECIDING_POINTS.get(key)
            if acts_on:
                self.report(source, f"only observes: answer key '{key}' changes nothing here "
                                    f"(it acts on {', '.join(acts_on)}); ignored", position)

    def take(self, source: str, answer: dict, key: str, kind: str) -> object:
        """answer[key] if present and of `kind`; else _MISSING (a wrong type is reported)."""
        value = answer.get(key, _MISSING)
        if value is _MISSING or _KINDS[kind](value):
            return value
        self.report(source, f"'{key}' must be {kind}, got {json_type(value)}; ignored",
                    self.position_of(answer))
        return _MISSING


# --- the rules ----------------------------------------------------------------------------


def _observe(r: _Round) -> dict:
    return {}


def _prompt(r: _Round) -> dict:
    prompt = r.payload.get("prompt", "")
    for source, answer in r.answers:
        value = r.take(source, answer, "prompt", "a string")
        if value is not _MISSING:
            prompt = value
    return {"prompt": prompt}


def _inject(r: _Round) -> dict:
    parts = []
    for source, answer in r.answers:
        value = r.take(source, answer, "inject", "a string")
        if value is not _MISSING and value.strip():
            parts.append(value)
    return {"inject": "\n\n".join(parts)}


def _block_of(r: _Round, source: str, answer: dict, default: str) -> str | None:
    """The message an answer blocks with (`default` if it gives none), or None."""
    block = r.take(source, answer, "block", "a boolean")
    message = r.take(source, answer, "message", "a string")
    if block is not True:
        return None
    return message if message is not _MISSING else default


def _tool_call(r: _Round) -> dict:
    arguments = r.payload.get("arguments", {})
    blocked = None  # the message of the first blocking answer
    for source, answer in r.answers:
        new_arguments = r.take(source, answer, "arguments", "an object")
        found = _block_of(r, source, answer, "Tool call blocked by hook")
        blocked = found if blocked is None else blocked
        if new_arguments is not _MISSING:
            arguments = new_arguments
    if blocked is not None:
        return {"blocked": True, "message": blocked, "arguments": r.payload.get("arguments", {})}
    return {"blocked": False, "message": None, "arguments": arguments}


def _tool_output(r: _Round) -> dict:
    output = r.payload.get("output", "")
    blocked = None
    for source, answer in r.answers:
        new_output = r.take(source, answer, "output", "a string")
        found = _block_of(r, source, answer, "Tool output blocked by hook")
        blocked = found if blocked is None else blocked
        if new_output is not _MISSING:
            output = new_output
    if blocked is not None:
        return {"blocked": True, "output": blocked}
    return {"blocked": False, "output": output}


def _tool_names(tools: object) -> list[str]:
    names = []
    for tool in tools if isinstance(tools, list) else ():
        name = tool.get("name") if isinstance(tool, dict) else tool
        if isinstance(name, str):
            names.append(name)
    return names


def _tool_filter(r: _Round) -> dict:
    include: set[str] | None = None
    exclude: set[str] = set()
    for source, answer in r.answers:
        allowed = r.take(source, answer, "include", "a list of strings")
        if allowed is not _MISSING:
            include = set(allowed) if include is None else include & set(allowed)
        removed = r.take(source, answer, "exclude", "a list of strings")
        if removed is not _MISSING:
            exclude.update(removed)
    kept = [name for name in _tool_names(r.payload.get("tools"))
            if (include is None or name in include) and name not in exclude]
    return {"tools": kept}


def _request_merge(r: _Round) -> dict:
    body = r.payload.get("request_body")
    merged = dict(body) if isinstance(body, dict) else {}
    for source, answer in r.answers:
        update = r.take(source, answer, "request_body", "an object")
        if update is not _MISSING:
            merged.update(update)
    return {"request_body": merged}


def _fallback(r: _Round, source: str, answer: dict, fallback: object) -> object:
    value = r.take(source, answer, "fallback", "a string")
    if value is _MISSING:
        return fallback
    if value not in FALLBACKS:
        r.report(source, f"'fallback' must be one of {', '.join(FALLBACKS)}, got '{value}'; "
                         "ignored", r.position_of(answer))
        return fallback
    return value


def _start_fuel(r: _Round) -> object:
    return r.payload.get("fuel_remaining", 0)


def _loop_control(r: _Round) -> dict:
    fallback = r.payload.get("current_fallback")
    fuel = _start_fuel(r)
    for source, answer in r.answers:
        fallback = _fallback(r, source, answer, fallback)
        value = r.take(source, answer, "fuel", "an integer")
        if value is not _MISSING:
            fuel = max(0, value)
    return {"fallback": fallback, "fuel_remaining": fuel}


def _batch_control(r: _Round) -> dict:
    fallback = r.payload.get("current_fallback")
    fuel = _start_fuel(r)
    for source, answer in r.answers:
        fallback = _fallback(r, source, answer, fallback)
        delta = r.take(source, answer, "fuel_delta", "an integer")
        if delta is not _MISSING:
            base = fuel if _is_integer(fuel) else 0
            fuel = max(0, base + delta)  # saturating: each hook's delta stops at zero
    return {"fallback": fallback, "fuel_remaining": fuel}


def _permission(r: _Round) -> dict:
    denial = None
    for source, answer in r.answers:
        denied = r.take(source, answer, "denied", "a boolean")
        reason = r.take(source, answer, "reason", "a string")
        if denied is True and denial is None:
            denial = reason if reason is not _MISSING else "denied by plugin"
    if denial is not None:
        return {"denied": True, "reason": denial, "decided_by": "hook"}
    if r.failed:
        return {"denied": True, "reason": f"hook failed: {', '.join(r.failed)}",
                "decided_by": "hook"}
    if r.permission_handler is None:
        return {"denied": True, "reason": "no permission handler configured",
                "decided_by": "fail-safe"}
    return _ask_handler(r)


def _ask_handler(r: _Round) -> dict:
    try:
        verdict = r.permission_handler(r.point.name, r.payload)
    except Exception as exc:  # noqa: BLE001 - a broken handler must not allow the action
        return {"denied": True, "reason": f"permission handler failed: {exc}",
                "decided_by": "handler"}
    if verdict is None:  # the handler abstains: as if there were none
        return {"denied": True, "reason": "the permission handler did not decide",
                "decided_by": "fail-safe"}
    reason = None
    if isinstance(verdict, tuple) and len(verdict) == 2:
        verdict, reason = verdict
    if verdict is True:
        return {"denied": False, "reason": reason, "decided_by": "handler"}
    if verdict is False:
        return {"denied": True, "reason": reason or "denied by permission handler",
                "decided_by": "handler"}
    return {"denied": True, "reason": f"permission handler returned {verdict!r}",
            "decided_by": "handler"}


def _spawn_agent(r: _Round) -> dict:
    response: object = _MISSING
    blocked = None
    for source, answer in r.answers:
        value = r.take(source, answer, "response", "a string")
        if value is not _MISSING and response is _MISSING:
            response = value
        found = _block_of(r, source, answer, "Sub-agent call blocked by hook")
        blocked = found if blocked is None else blocked
    if response is not _MISSING:
        return {"blocked": False, "message": None, "response": response}
    if blocked is not None:
        return {"blocked": True, "message": blocked, "response": None}
    return {"blocked": False, "message": None, "response": None}


def _cache_output(r: _Round) -> dict:
    summary = None
    skip = False
    for source, answer in r.answers:
        value = r.take(source, answer, "summary", "a string")
        if value is not _MISSING and summary is None:
            summary = value
        if r.take(source, answer, "block", "a boolean") is True:
            skip = True
    return {"skip_cache": skip, "summary": summary}


def _default_via(source: str) -> str:
    return source.removeprefix("plugin:")


def _send_message(r: _Round) -> dict:
    claim = None
    for source, answer in r.answers:
        delivered = r.take(source, answer, "delivered", "a boolean")
        via = r.take(source, answer, "via", "a string")
        if delivered is True and claim is None:
            claim = via if via is not _MISSING else _default_via(source)
    if claim is None:
        return {"delivered": False, "via": None}
    return {"delivered": True, "via": claim}


#: rule id -> rule; every HookPoint.combine names one of these
COMBINE_RULES: dict[str, Callable[[_Round], dict]] = {
    "observe": _observe,
    "advisory": _observe,  # pre_vfs_write: answers are only recorded by the dispatcher
    "prompt": _prompt,
    "inject_before": _inject,
    "inject_after": _inject,
    "tool_call": _tool_call,
    "tool_output": _tool_output,
    "tool_filter": _tool_filter,
    "request_merge": _request_merge,
    "loop_control": _loop_control,
    "batch_control": _batch_control,
    "permission": _permission,
    "spawn_agent": _spawn_agent,
    "cache_output": _cache_output,
    "send_message": _send_message,
    "claude": combine_claude,  # Claude Code's events: see claude_combine.py
    "host": combine_host,  # the other hosts' own events: see host_combine.py
}

def _nothing(payload: dict) -> dict:
    return {}


def _tool_call_as_is(payload: dict) -> dict:
    return {"blocked": False, "message": None, "arguments": payload.get("arguments", {})}


def _tool_output_as_is(payload: dict) -> dict:
    return {"blocked": False, "output": payload.get("output", "")}


#: rule id -> the outcome of a dispatch with no answer and no failed hook, from its payload
#: alone, for the rules of the commonest points (every tool call fires pre_tool, the two
#: output points and post_tool): what the rule gives then, without building a round for it
#: (a third of an empty dispatch's cost)
_UNANSWERED: dict[str, Callable[[dict], dict]] = {
    "observe": _nothing,
    "advisory": _nothing,
    "tool_call": _tool_call_as_is,
    "tool_output": _tool_output_as_is,
}

#: rules where a hook may block with ``{"block": true, "message": ...}``
_BLOCK_RULES = ("tool_call", "tool_output", "spawn_agent")


def block_answer(point: HookPoint, message: str) -> dict | None:
    """An answer that blocks `point` with `message`, in that point's own terms (None when
    nothing there can block): what a failed hook that must fail closed stands for."""
    if point.combine in _BLOCK_RULES:
        return {"block": True, "message": message}
    if point.combine == "claude":
        return claude_block_answer(CLAUDE_EVENTS[point.name], message)
    if point.combine == "host" and point.can_modify:
        return host_block_answer(message)
    return None


def combine(point: HookPoint | str, payload: dict | None,
            answers: Sequence[tuple[str, object]],
            permission_handler: PermissionHandler | None = None,
            failed: Sequence[str] = ()) -> tuple[dict, list[Problem]]:
    """Combine `answers` ([(source, answer)] in dispatch order) into the point's outcome.

    Returns (outcome, problems). `failed` lists the sources of hooks that crashed or timed
    out: on a permission hook they deny the action (fail closed); elsewhere they are
    ignored here (the dispatcher reports them). `permission_handler(name, payload)` decides
    permission hooks that no hook denied; without one they are denied (fail-safe).
    """
    outcome, placed = combine_placed(point, payload, answers, permission_handler, failed)
    return outcome, [p for _, p in placed]


def combine_placed(point: HookPoint | str, payload: dict | None,
                   answers: Sequence[tuple[str, object]],
                   permission_handler: PermissionHandler | None = None,
                   failed: Sequence[str] = ()) -> tuple[dict, list[tuple[int, Problem]]]:
    """``combine``, each problem given with the position in ``answers`` of the answer it
    concerns (the dispatcher puts it among the errors where that answer's source ran)."""
    if type(point) is not HookPoint:
        point = hook_point(point)
    if type(payload) is not dict:
        payload = payload if isinstance(payload, dict) else {}
    if not answers:  # the usual dispatch: nothing to check, nothing to report
        if not failed:
            quiet = _UNANSWERED.get(point.combine)
            if quiet is not None:
                return quiet(payload), []
        return COMBINE_RULES[point.combine](_Unanswered(point, payload, permission_handler,
                                                        tuple(failed))), []
    state = _Round(point, payload, answers, permission_handler, failed)
    outcome = COMBINE_RULES[point.combine](state)
    return outcome, state.problems()


class _Unanswered:
    """The round of a dispatch nobody answered: what the rules read, and nothing else."""

    __slots__ = ("failed", "payload", "permission_handler", "point")
    answers = ()

    def __init__(self, point: HookPoint, payload: dict,
                 permission_handler: PermissionHandler | None, failed: tuple) -> None:
        self.point = point
        self.payload = payload
        self.permission_handler = permission_handler
        self.failed = failed
