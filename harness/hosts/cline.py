"""The Cline adapter: one executable per event, answers as ``{"cancel", "errorMessage"}``.

Facts: reference/agent-hosts.md §A.6 (docs.cline.bot hooks pages, Cline PR #7173). The
output field names (``cancel``, ``errorMessage``, ``contextModification``) come from
third-party summaries: the docs excerpt read had no output section (docs/hosts.md says
so). Input: ``clineVersion``, ``hookName`` (the event), ``timestamp``, ``taskId``,
``workspaceRoots``, and one object named after the event: ``preToolUse: {toolName,
parameters}``, ``postToolUse: {toolName, parameters, result, success}``,
``userPromptSubmit: {prompt}``.

| event | fires | answer |
|---|---|---|
| PreToolUse (guard) | pre_tool + the tool's permission point | ``cancel: true`` + ``errorMessage`` |
| UserPromptSubmit (guard) | pre_message | ``cancel: true`` + ``errorMessage`` (only when harness cannot answer) |
| PostToolUse | post_tool | — |
| TaskStart / TaskComplete / TaskCancel | on_start / on_end | — |
| PreCompact | pre_compact | — |

Tools: ``execute_command`` → pre_shell_exec, ``write_to_file`` / ``replace_in_file`` →
pre_file_write, ``read_file`` → pre_file_read, ``web_fetch`` → pre_fetch_url. Cline cannot
rewrite a tool's parameters.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Cline"]

_TOOLS = v.ToolMap({
    "execute_command": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "write_to_file": ("write", lambda t, i: v.write(t, i.get("path"), i.get("content"))),
    "replace_in_file": ("edit", lambda t, i: v.write(t, i.get("path"))),
    "read_file": ("read", lambda t, i: v.read(t, i.get("path"))),
    "web_fetch": ("fetch", lambda t, i: v.fetch(t, i.get("url"))),
})

_EVENTS = host_events("cline")


def _section(payload: dict, key: str) -> dict:
    section = payload.get(key)
    return section if isinstance(section, dict) else {}


#: answers the host reads but does not honour, and why
_IGNORED = {
    "rewrite": "Cline cannot rewrite a tool's parameters",
    "pre_message prompt": "Cline cannot rewrite a prompt",
}


class Cline(HostAdapter):
    name = "cline"
    title = "Cline"
    events = _EVENTS
    tools = _TOOLS
    event_key = "hookName"
    ignored = _IGNORED

    def tool_call(self, payload: dict) -> tuple[str, object]:
        section = _section(payload, "preToolUse") or _section(payload, "postToolUse")
        return str(section.get("toolName") or ""), section.get("parameters")

    def tool_result(self, payload: dict) -> object:
        return _section(payload, "postToolUse").get("result", "")

    def prompt_of(self, payload: dict) -> object:
        return _section(payload, "userPromptSubmit").get("prompt")

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        notes = list(verdict.notes)
        if verdict.arguments is not None:
            notes.append("a pre_tool hook rewrote the parameters, but Cline cannot rewrite "
                         "them: ignored")
        answer: dict = {}
        if verdict.blocked:
            answer.update(cancel=True, errorMessage=verdict.reason or "Blocked by harness")
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["errorMessage"] = "\n".join(filter(None, (answer.get("errorMessage"),
                                                             note)))
        return self.json_reply(answer, self.log(verdict.errors))
