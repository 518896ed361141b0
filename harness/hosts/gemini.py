"""The Gemini CLI adapter (Antigravity's ``agy`` reads the same decisions; unconfirmed).

Facts: reference/agent-hosts.md §A.2 (``docs/hooks/reference.md`` and
``packages/core/src/hooks/*`` of google-gemini/gemini-cli). Input: ``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name``, ``timestamp``; BeforeTool adds
``tool_name``, ``tool_input``; BeforeAgent ``prompt``.

| event | fires | answer |
|---|---|---|
| BeforeTool (guard) | pre_tool + the tool's permission point | ``decision: deny`` + ``reason``; a rewrite is ``hookSpecificOutput.tool_input`` (merged into the arguments) |
| BeforeAgent (guard) | pre_message | ``decision: deny`` + ``reason`` (only when harness cannot answer) |
| AfterTool | post_tool | — |
| SessionStart / SessionEnd | on_start / on_end | — |
| PreCompress | pre_compact | — |

Tools: ``run_shell_command`` → pre_shell_exec; ``write_file`` / ``replace`` →
pre_file_write; ``read_file`` / ``read_many_files`` → pre_file_read; ``web_fetch`` →
pre_fetch_url for each URL in its prompt. Messages go in ``systemMessage``.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Gemini"]


def _path(tool_input: dict) -> object:
    return tool_input.get("file_path", tool_input.get("absolute_path", tool_input.get("path")))


def _read_many(tool: str, tool_input: dict) -> list[v.Check]:
    paths = tool_input.get("paths")
    return [c for p in paths for c in v.read(tool, p)] if isinstance(paths, list) else []


_TOOLS = v.ToolMap({
    "run_shell_command": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "write_file": ("write", lambda t, i: v.write(t, _path(i), i.get("content"))),
    "replace": ("edit", lambda t, i: v.write(t, _path(i))),
    "read_file": ("read", lambda t, i: v.read(t, _path(i))),
    "read_many_files": ("read", _read_many),
    "web_fetch": ("fetch", lambda t, i: [c for url in v.urls_in(i.get("prompt", i.get("url")))
                                         for c in v.fetch(t, url)]),
})

_EVENTS = host_events("gemini")


#: answers the host reads but does not honour, and why
_IGNORED = {
    "removed arguments": "Gemini merges hookSpecificOutput.tool_input into the "
                         "arguments: a rewrite can change or add keys, not remove them",
    "pre_message prompt": "Gemini CLI cannot rewrite a prompt",
}


class Gemini(HostAdapter):
    name = "gemini"
    title = "Gemini CLI"
    events = _EVENTS
    tools = _TOOLS
    ignored = _IGNORED

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        answer: dict = {}
        notes = list(verdict.notes)
        if verdict.blocked:
            answer.update(decision="deny", reason=verdict.reason or "Blocked by harness")
        elif event.role == "tool" and verdict.arguments is not None:
            given = payload.get("tool_input") if isinstance(payload.get("tool_input"),
                                                            dict) else {}
            if set(given) - set(verdict.arguments):
                notes.append("a pre_tool hook removed arguments, but Gemini CLI merges a "
                             "rewrite into them: the removed ones stay")
            answer["hookSpecificOutput"] = {"hookEventName": event.name,
                                            "tool_input": verdict.arguments}
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["systemMessage"] = note
        return self.json_reply(answer, self.log(verdict.errors))
