"""The Codex CLI adapter: Claude Code's event names and answer fields, Codex's tools.

Facts: reference/agent-hosts.md §A.3 (developers.openai.com/codex/hooks and the generated
schemas ``codex-rs/hooks/schema/generated/*.json``). Input: ``session_id``, ``cwd``,
``hook_event_name``, ``model``, ``turn_id``, ``tool_name``, ``tool_use_id``, ``tool_input``.

| event | fires | answer |
|---|---|---|
| PreToolUse (guard) | pre_tool + the tool's permission point | ``hookSpecificOutput.permissionDecision: deny`` + reason; a rewrite is ``allow`` + ``updatedInput`` |
| PermissionRequest (guard) | the same | ``hookSpecificOutput.decision.behavior: deny`` + ``message`` (no rewrite: reserved, fails closed) |
| UserPromptSubmit (guard) | pre_message | ``decision: block`` + reason (harness blocks only when it cannot answer) |
| PostToolUse | post_tool | — |
| SessionStart / SessionEnd | on_start / on_end | — |
| PreCompact | pre_compact | — |

Tools: ``Bash`` (also ``shell``, ``exec_command``, ``local_shell``) → pre_shell_exec;
``apply_patch`` (also ``Edit``, ``Write``: ``tool_input.command`` is the patch) →
pre_file_write for each file the patch adds, updates or deletes. Hook errors and answers
Codex cannot honour go in ``systemMessage``.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Codex"]


def _shell(tool: str, tool_input: dict) -> list[v.Check]:
    command = tool_input.get("command")
    if isinstance(command, list) and all(isinstance(c, str) for c in command):
        command = " ".join(command)  # local_shell passes argv
    return v.shell(tool, command)


def _patch(tool: str, tool_input: dict) -> list[v.Check]:
    patch = tool_input.get("command", tool_input.get("patch", tool_input.get("input")))
    return [check for path, content in v.apply_patch_files(patch)
            for check in v.write(tool, path, content)]


_TOOLS = v.ToolMap({
    **{name: ("shell", _shell) for name in ("Bash", "shell", "exec_command", "local_shell")},
    **{name: ("edit", _patch) for name in ("apply_patch", "Edit", "Write")},
})

_EVENTS = host_events("codex")


#: answers the host reads but does not honour, and why
_IGNORED = {
    "ask": "Codex PreToolUse does not support ask: it marks the hook failed and runs "
           "the tool",
    "rewrite on PermissionRequest": "updatedInput is reserved on PermissionRequest "
                                    "(Codex fails closed): harness never sends it",
    "pre_message prompt": "Codex cannot rewrite a prompt",
}


class Codex(HostAdapter):
    name = "codex"
    title = "Codex"
    events = _EVENTS
    tools = _TOOLS
    ignored = _IGNORED

    def honoured(self, event: HostEvent, answer: dict) -> tuple[dict, list[str]]:
        """Codex PreToolUse fails open on ``ask``, ``continue``, ``stopReason`` and
        ``suppressOutput`` (it marks the hook failed and runs the tool): never pass them."""
        if event.name != "PreToolUse":
            return answer, []
        notes = [f"a codex.PreToolUse hook answered {key}, which Codex does not support on "
                 "PreToolUse: ignored" for key in ("continue", "stopReason", "suppressOutput")
                 if answer.pop(key, None) is not None]
        specific = answer.get("hookSpecificOutput")
        if isinstance(specific, dict) and specific.get("permissionDecision") == "ask":
            answer["hookSpecificOutput"] = {k: v for k, v in specific.items()
                                            if k not in ("permissionDecision",
                                                         "permissionDecisionReason")}
            notes.append("a codex.PreToolUse hook answered ask, which Codex does not "
                         "support (it would run the tool unasked): ignored")
        return answer, notes

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        notes = list(verdict.notes)
        if event.role == "permission" and verdict.arguments is not None:
            notes.append("a pre_tool hook rewrote the input, but Codex cannot rewrite on "
                         "PermissionRequest: ignored")
        answer: dict = {}
        if verdict.blocked:
            reason = verdict.reason or "Blocked by harness"
            if event.role == "tool":
                answer["hookSpecificOutput"] = {"hookEventName": event.name,
                                                "permissionDecision": "deny",
                                                "permissionDecisionReason": reason}
            elif event.role == "permission":
                answer["hookSpecificOutput"] = {"hookEventName": event.name, "decision": {
                    "behavior": "deny", "message": reason}}
            else:
                answer.update(decision="block", reason=reason)
        elif event.role == "tool" and verdict.arguments is not None:
            answer["hookSpecificOutput"] = {"hookEventName": event.name,
                                            "permissionDecision": "allow",
                                            "updatedInput": verdict.arguments}
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["systemMessage"] = note
        return self.json_reply(answer, self.log(verdict.errors))
