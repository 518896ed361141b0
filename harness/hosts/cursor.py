"""The Cursor adapter: flat snake_case answers, no ``hookSpecificOutput``.

Facts: reference/agent-hosts.md §A.1 (cursor.com/docs/reference/hooks, with live tests on
Cursor 3.9 reported by third parties). Input: ``conversation_id``, ``generation_id``,
``hook_event_name``, ``workspace_roots``; ``preToolUse`` adds ``tool_name``,
``tool_input``; ``beforeShellExecution`` ``command``, ``cwd``; ``beforeReadFile``
``file_path``; ``beforeSubmitPrompt`` ``prompt``.

Cursor fires both ``preToolUse`` and the specific event for a shell command or a file
read, so ``pre_shell_exec`` fires on ``beforeShellExecution`` and ``pre_file_read`` on
``beforeReadFile`` only (never twice); ``preToolUse`` fires ``pre_tool`` and the checks of
the tools with no event of their own (writes, edits, fetches).

| event | fires | answer |
|---|---|---|
| preToolUse (guard) | pre_tool (+ pre_file_write / pre_fetch_url) | ``permission: deny`` + ``user_message`` / ``agent_message``; a rewrite is ``permission: allow`` + ``updated_input`` |
| beforeShellExecution (guard) | pre_shell_exec | ``permission: deny`` |
| beforeReadFile (guard) | pre_file_read | ``permission: deny`` |
| beforeMCPExecution (guard) | pre_tool | ``permission: deny`` |
| beforeSubmitPrompt (guard) | pre_message | ``continue: false`` + ``user_message`` |
| postToolUse | post_tool | — |
| sessionStart / sessionEnd | on_start / on_end | — |
| preCompact | pre_compact | — |
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Cursor"]


def _path(i: dict) -> object:
    return i.get("file_path", i.get("target_file", i.get("path")))


_NONE: v.Extract = lambda t, i: []

_TOOLS = v.ToolMap({
    "Shell": ("shell", _NONE),
    "Read": ("read", _NONE),
    "Write": ("write", lambda t, i: v.write(t, _path(i), i.get("contents", i.get("content")))),
    **{name: ("edit", lambda t, i: v.write(t, _path(i)))
       for name in ("Edit", "StrReplace", "MultiEdit", "Delete")},
    "WebFetch": ("fetch", lambda t, i: v.fetch(t, i.get("url"))),
})

_EVENTS = host_events("cursor")


#: answers the host reads but does not honour, and why
_IGNORED = {
    "agent_message": "Cursor was not seen passing agent_message to the model; "
                     "user_message is sent too",
    "ask": "Cursor honours ask only on beforeShellExecution / beforeMCPExecution, "
           "where it behaves like deny",
    "rewrite": "Cursor takes updated_input on preToolUse only",
    "pre_message prompt": "Cursor cannot rewrite a prompt",
}


class Cursor(HostAdapter):
    name = "cursor"
    title = "Cursor"
    events = _EVENTS
    tools = _TOOLS
    ignored = _IGNORED

    def tool_call(self, payload: dict) -> tuple[str, object]:
        tool, tool_input = super().tool_call(payload)
        if isinstance(tool_input, str):  # beforeMCPExecution sends the input as JSON text
            from harness.bridge import loads
            try:
                tool_input = loads(tool_input)
            except ValueError:
                tool_input = {"input": tool_input}
        return tool, tool_input

    def checks_of(self, event: HostEvent, payload: dict) -> list:
        if event.role == "shell":
            return v.shell("Shell", payload.get("command"))
        return v.read("Read", payload.get("file_path"))

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        answer: dict = {}
        notes = list(verdict.notes)
        if verdict.blocked:
            reason = verdict.reason or "Blocked by harness"
            if event.role == "prompt":
                answer.update({"continue": False, "user_message": reason})
            else:
                answer.update(permission="deny", user_message=reason, agent_message=reason)
        elif verdict.arguments is not None:
            if event.name == "preToolUse":
                answer.update(permission="allow", updated_input=verdict.arguments)
            else:
                notes.append(f"a pre_tool hook rewrote the input, but Cursor takes a "
                             f"rewrite on preToolUse only, not {event.name}: ignored")
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["user_message"] = "\n".join(filter(None, (answer.get("user_message"),
                                                             note)))
        return self.json_reply(answer, self.log(verdict.errors))
