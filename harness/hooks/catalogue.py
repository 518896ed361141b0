"""The hook points of SPEC §2 as data: names, payload fields, combine rules, docs, samples.

This is the single source for everything that lists hook points: the dispatcher and
`combine` look up a point's rule here, the plugin schema loader validates hook names
against it, and the REPL's `,sample` / `(hook-doc 'point)` read the docs and samples.

After harness's own snake_case points come Claude Code's PascalCase events (SPEC §13,
`claude_events.py`): their payloads are Claude Code's hook input, their answers Claude
Code's hook output, combined by the rule ``claude``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from harness.hooks.claude_events import CLAUDE_EVENTS, ClaudeEvent
from harness.hooks.host_events import HOST_EVENTS, host_point_name

__all__ = ["HOOK_POINTS", "HookPoint", "UnknownHookError", "closest_hook_name", "hook_point"]


class UnknownHookError(ValueError):
    """A name that is not one of the hook points; the message suggests the closest one."""

    def __init__(self, name: str) -> None:
        self.name = name
        suggestion = closest_hook_name(name)
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        super().__init__(f"unknown hook point '{name}'{hint}")


@dataclass(frozen=True)
class HookPoint:
    """One hook point: what its payload carries, which answer keys count and how they combine.

    `combine` is a rule id of harness.hooks.combine.COMBINE_RULES. `sample` is a realistic
    payload for trying a hook by hand; use `sample_payload()` to get a private copy.
    """

    name: str
    fields: tuple[str, ...]
    combine: str
    can_modify: bool
    doc: str
    answer_keys: tuple[str, ...] = ()
    sample: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def sample_payload(self) -> dict:
        """A fresh deep copy of the sample payload (safe to mutate)."""
        return copy.deepcopy(self.sample)


_CONTEXT_SUMMARY = "User is refactoring the parser module; tests pass."


def _point(name: str, fields: str, combine: str, doc: str, sample: dict,
           answers: str = "", can_modify: bool | None = None) -> HookPoint:
    modifies = combine not in ("observe", "advisory") if can_modify is None else can_modify
    return HookPoint(name=name, fields=tuple(fields.split()), combine=combine,
                     can_modify=modifies, doc=doc, answer_keys=tuple(answers.split()),
                     sample=sample)


_SESSION_SAMPLE = {
    "harness_home": "/home/ada/.harness",
    "chibi_home": "/home/ada/.harness",
    "project_root": "/home/ada/src/parser",
    "tool_count": 12,
}
_FLOCK_GOALS = [{"flock": "parser", "goals": "Keep the public API stable."}]
_SYSTEM_PROMPT_SAMPLE = {
    "context_name": "default", "summary": _CONTEXT_SUMMARY, "flock_goals": _FLOCK_GOALS,
}
_TOOL_ARGS = {"command": "ls -la src"}
_FUEL = {"fuel_remaining": 18, "fuel_total": 30}
_MESSAGE_SAMPLE = {
    "from": "default", "to": "research", "content": "Please look up the RFC.",
    "context_name": "default",
}

_POINTS = (
    _point("on_start", "harness_home chibi_home project_root tool_count", "observe",
           "fires when the host starts, before any processing", _SESSION_SAMPLE),
    _point("on_end", "harness_home chibi_home project_root tool_count", "observe",
           "fires when the host exits, after all processing", _SESSION_SAMPLE),
    _point("on_context_switch", "from_context to_context is_ephemeral", "observe",
           "fires when the active context changes",
           {"from_context": "default", "to_context": "coding", "is_ephemeral": False}),
    _point("pre_message", "prompt context_name summary", "prompt",
           "fires before a prompt is sent to the LLM; can replace the prompt",
           {"prompt": "Why does the parser reject '(a . b . c)'?", "context_name": "default",
            "summary": _CONTEXT_SUMMARY}, answers="prompt"),
    _point("post_message", "prompt response context_name", "observe",
           "fires after the LLM response is received",
           {"prompt": "Why does the parser reject '(a . b . c)'?",
            "response": "A dotted list allows one dot before the last element.",
            "context_name": "default"}),
    _point("pre_system_prompt", "context_name summary flock_goals", "inject_before",
           "fires before the system prompt is built; can inject text in front",
           _SYSTEM_PROMPT_SAMPLE, answers="inject"),
    _point("post_system_prompt", "context_name summary flock_goals", "inject_after",
           "fires after the system prompt is built; can append text",
           _SYSTEM_PROMPT_SAMPLE, answers="inject"),
    _point("pre_tool", "tool_name arguments", "tool_call",
           "fires before a tool runs; can replace its arguments or block it",
           {"tool_name": "shell_exec", "arguments": _TOOL_ARGS},
           answers="block message arguments"),
    _point("post_tool", "tool_name arguments result cached", "observe",
           "fires after a tool ran",
           {"tool_name": "shell_exec", "arguments": _TOOL_ARGS,
            "result": "total 8\n-rw-r--r-- 1 ada ada 812 parser.py\n", "cached": False}),
    _point("pre_tool_output", "tool_name arguments output", "tool_output",
           "fires after a tool returns, before caching; can replace or block its output",
           {"tool_name": "shell_exec", "arguments": _TOOL_ARGS,
            "output": "total 8\n-rw-r--r-- 1 ada ada 812 parser.py\n"},
           answers="block message output"),
    _point("post_tool_output", "tool_name arguments output final_output cached", "observe",
           "fires after tool output processing and caching",
           {"tool_name": "shell_exec", "arguments": _TOOL_ARGS,
            "output": "total 8\n-rw-r--r-- 1 ada ada 812 parser.py\n",
            "final_output": "total 8\n-rw-r--r-- 1 ada ada 812 parser.py\n", "cached": False}),
    _point("pre_api_tools", "context_name tools fuel_remaining fuel_total", "tool_filter",
           "fires before the tool list is sent to the API; can include or exclude tools",
           {"context_name": "default",
            "tools": [{"name": "shell_exec", "type": "builtin"},
                      {"name": "file_head", "type": "file"},
                      {"name": "word_count", "type": "synthesised"},
                      {"name": "greet", "type": "plugin"}],
            **_FUEL}, answers="include exclude"),
    _point("pre_api_request", "context_name request_body fuel_remaining fuel_total",
           "request_merge",
           "fires before the HTTP request; answer keys are merged into the request body",
           {"context_name": "default",
            "request_body": {"model": "anthropic/claude-sonnet-4", "temperature": 0.7,
                             "messages": [{"role": "user", "content": "hello"}]},
            **_FUEL}, answers="request_body"),
    _point("pre_agentic_loop",
           "context_name fuel_remaining fuel_total current_fallback message", "loop_control",
           "fires before each agentic loop iteration; can set the fallback and the fuel",
           {"context_name": "default", **_FUEL, "current_fallback": "call_user",
            "message": "Refactor the parser."}, answers="fallback fuel"),
    _point("post_tool_batch",
           "context_name fuel_remaining fuel_total current_fallback tool_calls",
           "batch_control",
           "fires after a batch of tool calls; can set the fallback and adjust the fuel",
           {"context_name": "default", **_FUEL, "current_fallback": "call_agent",
            "tool_calls": [{"name": "shell_exec", "arguments": _TOOL_ARGS}]},
           answers="fallback fuel_delta"),
    _point("pre_file_read", "tool_name path", "permission",
           "fires before a file outside the allowed paths is read; deny-only",
           {"tool_name": "file_head", "path": "/etc/hosts"}, answers="denied reason"),
    _point("pre_file_write", "tool_name path content", "permission",
           "fires before write_file or file_edit; deny-only",
           {"tool_name": "write_file", "path": "/home/ada/src/parser/notes.txt",
            "content": "remember the dotted-pair case\n"}, answers="denied reason"),
    _point("pre_shell_exec", "tool_name command", "permission",
           "fires before a shell command runs; deny-only",
           {"tool_name": "shell_exec", "command": "rm -rf build/"}, answers="denied reason"),
    _point("pre_fetch_url", "tool_name url safety reason summary", "permission",
           "fires before a sensitive URL is fetched; deny-only",
           {"tool_name": "fetch_url", "url": "http://169.254.169.254/latest/meta-data",
            "safety": "sensitive", "reason": "link-local address", "summary": None},
           answers="denied reason"),
    _point("pre_spawn_agent", "system_prompt input model temperature max_tokens",
           "spawn_agent",
           "fires before a sub-agent LLM call; can answer it instead or block it",
           {"system_prompt": "Summarise the text in three bullet points.",
            "input": "The parser reads s-expressions...", "model": "openai/gpt-4o-mini",
            "temperature": 0.2, "max_tokens": 400}, answers="response block message"),
    _point("post_spawn_agent", "system_prompt input model response", "observe",
           "fires after a sub-agent returns",
           {"system_prompt": "Summarise the text in three bullet points.",
            "input": "The parser reads s-expressions...", "model": "openai/gpt-4o-mini",
            "response": "- reads s-expressions\n- reports positions\n- is fast"}),
    _point("pre_cache_output", "tool_name arguments content char_count line_count",
           "cache_output",
           "fires before a large tool output is cached; can give a summary or skip caching",
           {"tool_name": "fetch_url", "arguments": {"url": "https://example.com"},
            "content": "<html>...</html>", "char_count": 50000, "line_count": 1200},
           answers="summary block"),
    _point("post_cache_output", "tool_name cache_id output_size preview_size", "observe",
           "fires after a tool output was cached",
           {"tool_name": "fetch_url", "cache_id": "fetch_url_3f9a2c1e",
            "output_size": 50000, "preview_size": 500}),
    _point("pre_send_message", "from to content context_name", "send_message",
           "fires before an inter-context message is delivered; can claim delivery",
           _MESSAGE_SAMPLE, answers="delivered via"),
    _point("post_send_message", "from to content context_name delivery_result", "observe",
           "fires after an inter-context message was delivered",
           {**_MESSAGE_SAMPLE,
            "delivery_result": "Message delivered to 'research' via local inbox"}),
    _point("post_index_file", "path lang symbol_count ref_count", "observe",
           "fires after the code indexer indexed a file",
           {"path": "src/parser.py", "lang": "python", "symbol_count": 42, "ref_count": 137}),
    _point("pre_vfs_write", "tool_name path content caller", "advisory",
           "fires before a VFS write; advisory: answers are recorded, never block",
           {"tool_name": "write_file", "path": "vfs:///shared/notes.md",
            "content": "# Notes\n", "caller": "default"}),
    _point("post_vfs_write", "tool_name path caller", "observe",
           "fires after a successful VFS write",
           {"tool_name": "write_file", "path": "vfs:///shared/notes.md", "caller": "default"}),
    _point("pre_clear", "context_name message_count summary", "observe",
           "fires before a context is cleared",
           {"context_name": "default", "message_count": 10, "summary": _CONTEXT_SUMMARY}),
    _point("post_clear", "context_name message_count summary", "observe",
           "fires after a context was cleared",
           {"context_name": "default", "message_count": 10, "summary": _CONTEXT_SUMMARY}),
    _point("pre_compact", "context_name message_count summary", "observe",
           "fires before full compaction",
           {"context_name": "default", "message_count": 20, "summary": _CONTEXT_SUMMARY}),
    _point("post_compact", "context_name message_count summary", "observe",
           "fires after full compaction",
           {"context_name": "default", "message_count": 20, "summary": _CONTEXT_SUMMARY}),
    _point("pre_rolling_compact", "context_name message_count non_system_count summary",
           "observe", "fires before rolling compaction",
           {"context_name": "default", "message_count": 50, "non_system_count": 48,
            "summary": _CONTEXT_SUMMARY}),
    _point("post_rolling_compact", "context_name message_count messages_archived summary",
           "observe", "fires after rolling compaction",
           {"context_name": "default", "message_count": 25, "messages_archived": 25,
            "summary": _CONTEXT_SUMMARY}),
)

#: the keys of a Claude Code hook output that every event reads
CLAUDE_OUTPUT_KEYS = ("continue", "stopReason", "suppressOutput", "systemMessage",
                      "terminalSequence")


def _claude_point(event: ClaudeEvent) -> HookPoint:
    keys = " ".join(CLAUDE_OUTPUT_KEYS)
    if event.blocks or event.name == "PreToolUse":  # PreToolUse: the legacy form
        keys += " decision reason"
    if event.specific:
        keys += " hookSpecificOutput"
    if event.name == "UserPromptSubmit":
        keys += " suppressOriginalPrompt"
    return _point(event.name, " ".join(event.sample), "claude", event.doc, event.sample,
                  answers=keys)


def _host_point(host: str, event: str, guard: bool) -> HookPoint:
    name = host_point_name(host, event)
    what = "can deny it" if guard else "observe, or answer as the host reads"
    return HookPoint(name=name, fields=("hook_event_name",), combine="host", can_modify=guard,
                     doc=f"{host}: its own {event} event, payload and answers as {host}'s "
                         f"hook ({what})", sample={"hook_event_name": event})


#: Every hook point by name: SPEC §2's in its order, then Claude Code's events (SPEC §13),
#: then the other hosts' own events as HOST.EVENT (SPEC §14, host_events.py).
HOOK_POINTS: dict[str, HookPoint] = {p.name: p for p in _POINTS}
HOOK_POINTS.update((name, _claude_point(event)) for name, event in CLAUDE_EVENTS.items())
HOOK_POINTS.update((host_point_name(host, event), _host_point(host, event, guard))
                   for host, events in HOST_EVENTS.items()
                   for event, (_, guard) in events.items())


def _folded(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def closest_hook_name(name: str) -> str | None:
    """The valid hook point name closest to `name`, or None if nothing is close. Case,
    ``_`` and ``-`` hardly count; between ``pre_compact`` and ``PreCompact`` the spelling
    of `name` decides."""
    import difflib  # here, not at the top: only a misspelt name pays for its import
    text = name.strip()
    pascal = "_" not in text and text != text.upper() and text != text.lower()
    best, best_ratio = None, 0.0
    matcher = difflib.SequenceMatcher(b=_folded(text))
    for point in HOOK_POINTS:
        matcher.set_seq1(_folded(point))
        ratio = matcher.ratio()
        if ratio < 0.6 or ratio < best_ratio:
            continue
        # a tie (pre_compact / PreCompact fold alike): the spelling like `name` wins
        if ratio > best_ratio or ((point in CLAUDE_EVENTS) == pascal
                                  and (best in CLAUDE_EVENTS) != pascal):
            best, best_ratio = point, ratio
    return best


def hook_point(name: str) -> HookPoint:
    """The hook point called `name`; raises UnknownHookError naming the closest valid one."""
    point = HOOK_POINTS.get(name) if isinstance(name, str) else None
    if point is None:
        raise UnknownHookError(str(name))
    return point
