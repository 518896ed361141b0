"""The Kiro adapter (Kiro CLI hooks, and the Kiro IDE 1.x's ``runCommand`` hooks).

Facts: reference/agent-hosts.md §A.7 (kiro.dev/docs/cli/hooks; the IDE 1.x stdin payload
as probed by awslabs/aidlc-workflows). Input: ``hook_event_name`` (``preToolUse`` in the
CLI, ``PreToolUse`` in the IDE), ``cwd``, ``tool_name``, ``tool_input``,
``tool_response`` (after a tool). A block is exit code 2 with the reason on stderr (given
to the model); Kiro reads no JSON decision and cannot rewrite. Over HTTP the answer is
``{"blocked": true, "reason"}`` (harness's own shape).

| event | fires | answer |
|---|---|---|
| preToolUse (guard) | pre_tool + the tool's permission point | exit 2 + reason |
| postToolUse | post_tool | — |
| userPromptSubmit | pre_message | — (stdout is added as context) |
| agentSpawn | on_start | — |

Tools: ``execute_bash`` (``executeBash``) → pre_shell_exec, ``fs_write`` (``fsWrite``) →
pre_file_write, ``fs_read`` (``fsRead``) → pre_file_read for each path. The tool input
fields are as the CLI's built-in tools document them; unconfirmed for the IDE.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Kiro"]


def _reads(tool: str, tool_input: dict) -> list[v.Check]:
    operations = tool_input.get("operations")
    if isinstance(operations, list):
        return [c for op in operations if isinstance(op, dict)
                for c in v.read(tool, op.get("path"))]
    return v.read(tool, tool_input.get("path"))


def _writes(tool: str, tool_input: dict) -> list[v.Check]:
    content = tool_input.get("file_text") if tool_input.get("command") == "create" else None
    return v.write(tool, tool_input.get("path"), content)


_TOOLS = v.ToolMap({
    **{n: ("shell", lambda t, i: v.shell(t, i.get("command")))
       for n in ("execute_bash", "executeBash")},
    **{n: ("write", _writes) for n in ("fs_write", "fsWrite")},
    **{n: ("read", _reads) for n in ("fs_read", "fsRead")},
})

_CAMEL = host_events("kiro")

#: the IDE 1.x spells the same events in PascalCase
_EVENTS = {**_CAMEL, **{n[0].upper() + n[1:]: e for n, e in _CAMEL.items()}}

#: answers the host reads but does not honour, and why
_IGNORED = {
    "rewrite": "Kiro cannot rewrite a tool's input",
    "context": "Kiro reads no JSON decision: only exit code 2 (block) and stderr",
    "pre_message prompt": "Kiro cannot rewrite a prompt",
}


class Kiro(HostAdapter):
    name = "kiro"
    title = "Kiro"
    events = _EVENTS
    tools = _TOOLS
    ignored = _IGNORED
    json_answers = False

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        notes = list(verdict.notes)
        if verdict.arguments is not None:
            notes.append("a pre_tool hook rewrote the input, but Kiro cannot rewrite: "
                         "ignored")
        if verdict.blocked:
            reason = verdict.reason or "Blocked by harness"
            return HostReply(2, "", reason + "\n", {"blocked": True, "reason": reason})
        log = self.log(verdict.errors) + "".join(f"harness: {n}\n" for n in notes)
        return HostReply(0, "", log, {"messages": notes} if notes else {})
