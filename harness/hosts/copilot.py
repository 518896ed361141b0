"""The GitHub Copilot CLI (and cloud agent) adapter: ``.github/hooks/*.json`` hooks.

Facts: reference/agent-hosts.md §A.4 (github/docs ``cli-hooks-reference.md`` and the
copilot-sdk hook docs). The camelCase payload does not name its event, so the hook is
installed as ``harness hook copilot --event preToolUse`` (without ``--event`` a payload
with ``toolResult`` is taken for postToolUse, one with ``toolName`` for preToolUse, one with
``prompt`` for userPromptSubmitted). Input: ``timestamp``, ``cwd``, ``toolName``,
``toolArgs`` (an object, or its JSON text). Configured under the PascalCase name
(``PreToolUse``) Copilot sends the VS Code-format payload (``hook_event_name``,
``tool_name``, ``tool_input``); both are read, and a PascalCase event is answered in both
forms.

Copilot documents that a failing hook (non-zero exit, timeout) never blocks, so every
answer, a deny included, is JSON on exit 0.

| event | fires | answer |
|---|---|---|
| preToolUse (guard) | pre_tool + the tool's permission point | ``permissionDecision: deny`` + ``permissionDecisionReason``; a rewrite is ``modifiedArgs`` |
| permissionRequest (guard) | the same | ``behavior: deny`` + ``message`` |
| userPromptSubmitted | pre_message | — (Copilot ignores its output) |
| postToolUse | post_tool | — |
| sessionStart / sessionEnd | on_start / on_end | — |
| preCompact | pre_compact | — |

Tools: ``bash`` / ``powershell`` → pre_shell_exec, ``create`` → pre_file_write (with the
content), ``edit`` → pre_file_write, ``view`` → pre_file_read, ``web_fetch`` →
pre_fetch_url.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Copilot"]

_TOOLS = v.ToolMap({
    "bash": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "powershell": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "create": ("write", lambda t, i: v.write(t, i.get("path"), i.get("file_text",
                                                                     i.get("content")))),
    "edit": ("edit", lambda t, i: v.write(t, i.get("path"))),
    "view": ("read", lambda t, i: v.read(t, i.get("path"))),
    "web_fetch": ("fetch", lambda t, i: v.fetch(t, i.get("url"))),
})

_EVENTS = host_events("copilot")
#: the PascalCase names (VS Code-format payloads) of the same events
_PASCAL = {name[0].upper() + name[1:]: event for name, event in _EVENTS.items()}

_ALL_EVENTS = {**_EVENTS, **_PASCAL}

#: answers the host reads but does not honour, and why
_IGNORED = {
    "ask": "Copilot CLI drops the reason of an ask the user denies (copilot-cli#2647)",
    "pre_message prompt": "Copilot ignores what a userPromptSubmitted hook answers",
    "rewrite on permissionRequest": "permissionRequest takes allow or deny only",
}


class Copilot(HostAdapter):
    name = "copilot"
    title = "Copilot CLI"
    events = _ALL_EVENTS
    tools = _TOOLS
    ignored = _IGNORED

    def infer_event(self, payload: dict) -> str | None:
        if "toolResult" in payload:
            return "postToolUse"
        if "toolName" in payload:
            return "preToolUse"
        return "userPromptSubmitted" if "prompt" in payload else None

    def tool_call(self, payload: dict) -> tuple[str, object]:
        if "tool_name" in payload:  # the VS Code-format payload
            return super().tool_call(payload)
        args = payload.get("toolArgs")
        if isinstance(args, str):
            from harness.bridge import loads
            try:
                args = loads(args)
            except ValueError:
                args = {"input": args}
        return str(payload.get("toolName") or ""), args

    def tool_result(self, payload: dict) -> object:
        return payload.get("toolResult", payload.get("tool_response"))

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        answer: dict = {}
        notes = list(verdict.notes)
        pascal = "tool_name" in payload  # the VS Code-format payload: answer that way too
        if verdict.blocked:
            reason = verdict.reason or "Blocked by harness"
            if event.role == "permission":
                answer.update(behavior="deny", message=reason)
            else:
                answer.update(permissionDecision="deny", permissionDecisionReason=reason)
        elif verdict.arguments is not None:
            if event.role == "tool":
                answer["modifiedArgs"] = verdict.arguments
            else:
                notes.append("a pre_tool hook rewrote the input, but Copilot cannot rewrite "
                             "on permissionRequest: ignored")
        if pascal and event.role == "tool" and answer:
            specific = {"hookEventName": payload.get("hook_event_name", "PreToolUse")}
            if "permissionDecision" in answer:
                specific.update(permissionDecision="deny",
                                permissionDecisionReason=answer["permissionDecisionReason"])
            if "modifiedArgs" in answer:
                specific.update(permissionDecision="allow", updatedInput=verdict.arguments)
            answer["hookSpecificOutput"] = specific
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["systemMessage"] = note
        return self.json_reply(answer, self.log(verdict.errors))
