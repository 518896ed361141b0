"""harness in front of the Claude Agent SDK: ``ClaudeAgentOptions(hooks=harness_hooks(rt))``.

The SDK's CLI calls Python hook callbacks over its control channel, in process. Each
callback here answers exactly as ``harness claude-hook`` answers the same event as a command
hook (harness.hosts.claude_code): it fires the PascalCase hook point and the harness point it
corresponds to (``PreToolUse`` → ``pre_tool``, ``PostToolUse`` → ``post_tool``,
``UserPromptSubmit`` → ``pre_message``, ``PreCompact`` → ``pre_compact``), with the same
decisions (a block is ``permissionDecision: "deny"`` with the reason; changed arguments are
``updatedInput``). Where a command hook says "block" with exit code 2, the callback says it
in the JSON the SDK returns to the CLI. A tool call fires the permission point of its kind
as claude-hook fires it (SPEC §14: ``Bash`` → ``pre_shell_exec``, ``Write``/``Edit`` →
``pre_file_write``, ...; harness.hosts.vocabulary); nobody answering it is no decision, a
guard that fails on it denies.

The guard events (PreToolUse, PermissionRequest, UserPromptSubmit) are registered with
``on_failure="block"``: should the callback itself fail, the CLI blocks the action rather
than letting it through. The other events fail open, as observers do.

Needs ``pip install 'harness[claude-agent-sdk]'`` (0.2.177 or later, for ``on_failure``).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any

from claude_agent_sdk import HookMatcher
from claude_agent_sdk.types import HookEvent

from harness.bridge import loads
from harness.hooks.claude_combine import DEFAULT_BLOCK_REASON
from harness.hooks.claude_events import CLAUDE_EVENTS
from harness.hosts.claude_code import answer_payload

__all__ = ["GUARD_EVENTS", "SDK_EVENTS", "HarnessHookError", "harness_hooks"]

#: the events the Python SDK lets a program register (harness knows all of them)
SDK_EVENTS: tuple[str, ...] = tuple(
    value for literal in typing.get_args(HookEvent) for value in typing.get_args(literal)
    if value in CLAUDE_EVENTS)
#: events whose callback blocks the action when it fails
GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})


class HarnessHookError(RuntimeError):
    """harness could not answer an event (the CLI then blocks a guard event)."""


def harness_hooks(runtime, *, events: Iterable[str] | None = None,
                  timeout: float | None = None) -> dict[str, list[HookMatcher]]:
    """The ``hooks`` of ``ClaudeAgentOptions``: one matcher per event (default: every event
    the SDK offers), whose callback answers the event with ``runtime``. ``timeout``: the
    matchers' timeout in seconds (None: the CLI's default)."""
    chosen = SDK_EVENTS if events is None else tuple(events)
    unknown = [e for e in chosen if e not in SDK_EVENTS]
    if unknown:
        raise ValueError(f"harness_hooks: not a Claude Agent SDK hook event: "
                         f"{', '.join(unknown)} (known: {', '.join(SDK_EVENTS)})")

    async def answer(input_data: dict, tool_use_id: str | None, context: Any) -> dict:
        return sdk_answer(runtime, input_data)

    return {event: [HookMatcher(matcher=None, hooks=[answer], timeout=timeout,
                                on_failure="block" if event in GUARD_EVENTS else "continue")]
            for event in chosen}


def sdk_answer(runtime, input_data: dict) -> dict:
    """What ``harness claude-hook`` would answer to ``input_data``, as the JSON a hook
    callback returns. Raises HarnessHookError for an event harness cannot read."""
    name = input_data.get("hook_event_name") if isinstance(input_data, dict) else None
    event = CLAUDE_EVENTS.get(name) if isinstance(name, str) else None
    if event is None:
        raise HarnessHookError(f"not a Claude Code hook event: {name!r}")
    reply = answer_payload(runtime, event, input_data)
    if reply.exit_code not in (0, 2):
        raise HarnessHookError(reply.stderr.strip() or "harness could not answer the event")
    answer = loads(reply.stdout) if reply.stdout.strip() else {}
    if reply.exit_code == 2:  # a command hook's "block", said in JSON
        reason = reply.stderr.strip() or DEFAULT_BLOCK_REASON
        if input_data.get("hook_event_name") == "PreToolUse":
            specific = answer.setdefault("hookSpecificOutput", {"hookEventName": "PreToolUse"})
            specific.setdefault("permissionDecision", "deny")
            specific.setdefault("permissionDecisionReason", reason)
        else:
            answer.setdefault("decision", "block")
            answer.setdefault("reason", reason)
    return answer
