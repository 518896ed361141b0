"""The Windsurf (Cascade) adapter: pre-hooks block with exit code 2, nothing else.

Facts: reference/agent-hosts.md §A.5 (docs.windsurf.com/windsurf/cascade/hooks). Input:
``agent_action_name`` (the event), ``trajectory_id``, ``execution_id``, ``timestamp`` and
``tool_info``: ``command_line`` and ``cwd`` (pre_run_command), ``file_path``
(pre_read_code), ``file_path`` and ``edits`` (pre_write_code), ``mcp_server_name``,
``mcp_tool_name``, ``mcp_tool_arguments`` (pre_mcp_tool_use), ``user_prompt``
(pre_user_prompt).

Windsurf reads no JSON answer: a block is exit 2 with the reason on stderr, and nothing
can be rewritten. Over HTTP the answer is ``{"blocked": true, "reason"}`` (harness's own
shape, for a client that prints it).

| event | fires | answer |
|---|---|---|
| pre_run_command (guard) | pre_shell_exec | exit 2 + reason |
| pre_write_code (guard) | pre_file_write | exit 2 + reason |
| pre_read_code (guard) | pre_file_read | exit 2 + reason |
| pre_mcp_tool_use (guard) | pre_tool (``SERVER/TOOL``) | exit 2 + reason |
| pre_user_prompt (guard) | pre_message | exit 2 + reason |
| post_run_command / post_write_code / post_read_code / post_mcp_tool_use | post_tool | — |
"""

from __future__ import annotations

from harness.hosts import vocabulary as v
from harness.hosts.adapter import HostAdapter, HostEvent, HostReply, host_events
from harness.hosts.guard import Verdict

__all__ = ["Windsurf"]

_EVENTS = host_events("windsurf")
_TOOL_OF = {"run_command": "run_command", "write_code": "write_code",
            "read_code": "read_code"}


def _info(payload: dict) -> dict:
    info = payload.get("tool_info")
    return info if isinstance(info, dict) else {}


#: answers the host reads but does not honour, and why
_IGNORED = {
    "rewrite": "Windsurf cannot rewrite a command, a file or a tool input",
    "context": "Windsurf reads no JSON answer: only exit code 2 (block) and stderr",
    "pre_message prompt": "Windsurf cannot rewrite a prompt",
}


class Windsurf(HostAdapter):
    name = "windsurf"
    title = "Windsurf"
    events = _EVENTS
    event_key = "agent_action_name"
    ignored = _IGNORED
    json_answers = False

    def tool_call(self, payload: dict) -> tuple[str, object]:
        info = _info(payload)
        if "mcp_tool_name" in info:
            args = info.get("mcp_tool_arguments")
            return (f"{info.get('mcp_server_name')}/{info.get('mcp_tool_name')}",
                    args if isinstance(args, dict) else {})
        action = str(payload.get("agent_action_name", "")).split("_", 1)[-1]
        return _TOOL_OF.get(action, action), info

    def tool_result(self, payload: dict) -> object:
        info = _info(payload)
        return info.get("output", info.get("result", ""))

    def prompt_of(self, payload: dict) -> object:
        return _info(payload).get("user_prompt")

    def checks_of(self, event: HostEvent, payload: dict) -> list:
        info = _info(payload)
        if event.role == "shell":
            return v.shell("run_command", info.get("command_line"))
        if event.role == "write":
            return v.write("write_code", info.get("file_path"))
        return v.read("read_code", info.get("file_path"))

    def render(self, event: HostEvent, payload: dict, verdict: Verdict) -> HostReply:
        notes = list(verdict.notes)
        if verdict.arguments is not None:
            notes.append("a pre_tool hook rewrote the input, but Windsurf cannot rewrite: "
                         "ignored")
        log = self.log(verdict.errors) + "".join(f"harness: {n}\n" for n in notes)
        if verdict.blocked:
            reason = verdict.reason or "Blocked by harness"
            return HostReply(2, "", reason + "\n", {"blocked": True, "reason": reason})
        return HostReply(0, "", log, {"messages": notes} if notes else {})
