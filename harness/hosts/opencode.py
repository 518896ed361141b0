"""The OpenCode adapter: what the plugin ``opencode-plugin.js`` (beside this module) POSTs.

OpenCode has no subprocess hooks: its plugins are JS/TS modules run in process by Bun
(reference/agent-hosts.md §A.8, ``packages/plugin/src/index.ts`` of anomalyco/opencode).
The plugin shipped here forwards ``tool.execute.before``, ``tool.execute.after`` and
``permission.ask`` to ``harness serve --http`` (``POST /opencode``) as
``{"hook_event_name", "tool", "sessionID", "callID", "args"}`` (plus ``output`` after a
tool), and acts on the answer:

| event | fires | answer | the plugin |
|---|---|---|---|
| tool.execute.before (guard) | pre_tool + the tool's permission point | ``{"decision": "deny", "reason"}``, or ``{"args"}`` (rewritten) | throws (OpenCode blocks the call) / replaces ``output.args`` |
| permission.ask (guard) | the same | ``{"decision": "deny", "reason"}`` | sets ``output.status = "deny"`` |
| tool.execute.after | post_tool | ``{}`` | — |

When the daemon cannot be reached or answers an error, the plugin throws on the guard
events (never open) unless ``HARNESS_FAIL_OPEN=1``.

Tools: ``bash`` → pre_shell_exec, ``write`` → pre_file_write (with the content), ``edit`` /
``patch`` → pre_file_write, ``read`` → pre_file_read, ``webfetch`` → pre_fetch_url.
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["PLUGIN", "OpenCode"]

#: the plugin file to copy into ``.opencode/plugins/`` (or ``~/.config/opencode/plugins/``)
PLUGIN = "opencode-plugin.js"


def _path(i: dict) -> object:
    return i.get("filePath", i.get("file_path", i.get("path")))


_TOOLS = v.ToolMap({
    "bash": ("shell", lambda t, i: v.shell(t, i.get("command"))),
    "write": ("write", lambda t, i: v.write(t, _path(i), i.get("content"))),
    "edit": ("edit", lambda t, i: v.write(t, _path(i))),
    "patch": ("edit", lambda t, i: v.write(t, _path(i))),
    "read": ("read", lambda t, i: v.read(t, _path(i))),
    "webfetch": ("fetch", lambda t, i: v.fetch(t, i.get("url"))),
})

_EVENTS = host_events("opencode")

#: answers the host reads but does not honour, and why
_IGNORED = {
    "rewrite on permission.ask": "permission.ask answers allow, ask or deny only",
    "pre_message prompt": "the plugin does not forward prompts",
}


class OpenCode(HostAdapter):
    name = "opencode"
    title = "OpenCode"
    events = _EVENTS
    tools = _TOOLS
    ignored = _IGNORED

    def tool_call(self, payload: dict) -> tuple[str, object]:
        return str(payload.get("tool") or ""), payload.get("args")

    def tool_result(self, payload: dict) -> object:
        return payload.get("output", "")

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        answer: dict = {}
        notes = list(verdict.notes)
        if verdict.blocked:
            answer.update(decision="deny", reason=verdict.reason or "Blocked by harness")
        elif verdict.arguments is not None:
            if event.role == "tool":
                answer["args"] = verdict.arguments
            else:
                notes.append("a pre_tool hook rewrote the arguments, but permission.ask "
                             "cannot rewrite: ignored")
        note = self.error_note(verdict.errors, notes)
        if note:
            answer["message"] = note
        return self.json_reply(answer, self.log(verdict.errors))
