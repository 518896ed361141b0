"""What a hook answers and what a hook point decides (SPEC §9), as types a host can read.

`NO_ANSWER` is "this hook had nothing to say" (empty plugin stdout, Scheme `'()` at top
level); it is distinct from every JSON value, including null. The TypedDicts name the
outcome shape of each combine rule, so a host never re-derives them from the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

__all__ = [
    "NO_ANSWER",
    "CacheOutcome",
    "InjectOutcome",
    "LoopOutcome",
    "NoAnswer",
    "PermissionOutcome",
    "Problem",
    "PromptOutcome",
    "RequestOutcome",
    "SendOutcome",
    "SpawnOutcome",
    "ToolCallOutcome",
    "ToolFilterOutcome",
    "ToolOutputOutcome",
    "blocks_or_denies",
    "json_type",
    "problem",
]


class NoAnswer:
    """The type of NO_ANSWER (a single instance)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_ANSWER"

    def __bool__(self) -> bool:
        return False


NO_ANSWER = NoAnswer()


class Problem(TypedDict):
    """Something about an answer or a hook that was ignored or failed, and who caused it."""

    source: str
    message: str


def problem(source: str, message: str) -> Problem:
    """A Problem entry: `source` is 'plugin:NAME' or 'scm:PATH:LINE'."""
    return {"source": source, "message": message}


def blocks_or_denies(outcome: Mapping) -> bool:
    """True when an outcome stops the action: a block (pre_tool, pre_tool_output,
    pre_spawn_agent) or a deny (the permission hooks)."""
    return outcome.get("blocked") is True or outcome.get("denied") is True


def json_type(v: object) -> str:
    """What kind of JSON value ``v`` is, for messages: "a string", "null", "a list", ..."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


class PromptOutcome(TypedDict):
    prompt: str


class InjectOutcome(TypedDict):
    inject: str


class ToolCallOutcome(TypedDict):
    blocked: bool
    message: str | None
    arguments: object


class ToolOutputOutcome(TypedDict):
    blocked: bool
    output: object


class ToolFilterOutcome(TypedDict):
    tools: list[str]


class RequestOutcome(TypedDict):
    request_body: dict


class LoopOutcome(TypedDict):
    fallback: object
    fuel_remaining: object


class PermissionOutcome(TypedDict):
    denied: bool
    reason: str | None
    decided_by: str  # "hook", "handler" or "fail-safe"


class SpawnOutcome(TypedDict):
    blocked: bool
    message: str | None
    response: str | None


class CacheOutcome(TypedDict):
    skip_cache: bool
    summary: str | None


class SendOutcome(TypedDict):
    delivered: bool
    via: str | None
