"""Every host's own hook events as data (SPEC §14): each is a hook point named
``HOST.EVENT`` (``codex.PreToolUse``, ``gemini.BeforeTool``, ``cursor.beforeShellExecution``),
whose payload is the host's event and whose answers are the host's own hook output.

Claude Code's events keep their bare PascalCase names (claude_events.py). The host adapters
(harness.hosts) read the same table: what each event means in harness (``role``) and
whether a deny there stops something (``guard``).

Roles: ``tool`` (a tool call: pre_tool and the tool's permission point), ``permission``
(a permission request for a tool call: the same checks, no rewrite), ``shell``, ``read``,
``write`` (an event that is itself that permission check), ``prompt`` (pre_message),
``post_tool``, ``start`` (on_start), ``end`` (on_end), ``compact`` (pre_compact),
``observe`` (nothing else fires).
"""

from __future__ import annotations

__all__ = ["HOST_EVENTS", "HostEventSpec", "host_point_name"]

#: (role, guard) of an event
HostEventSpec = tuple[str, bool]

_T, _F = True, False

#: host -> event -> (role, guard)
HOST_EVENTS: dict[str, dict[str, HostEventSpec]] = {
    "codex": {
        "PreToolUse": ("tool", _T), "PermissionRequest": ("permission", _T),
        "UserPromptSubmit": ("prompt", _T), "PostToolUse": ("post_tool", _F),
        "SessionStart": ("start", _F), "SessionEnd": ("end", _F),
        "PreCompact": ("compact", _F), "PostCompact": ("observe", _F),
        "Stop": ("observe", _F), "SubagentStart": ("observe", _F),
        "SubagentStop": ("observe", _F), "Interrupt": ("observe", _F),
    },
    "gemini": {
        "BeforeTool": ("tool", _T), "BeforeAgent": ("prompt", _T),
        "AfterTool": ("post_tool", _F), "SessionStart": ("start", _F),
        "SessionEnd": ("end", _F), "PreCompress": ("compact", _F),
        "AfterAgent": ("observe", _F), "BeforeModel": ("observe", _F),
        "AfterModel": ("observe", _F), "BeforeToolSelection": ("observe", _F),
        "Notification": ("observe", _F),
    },
    "cursor": {
        "preToolUse": ("tool", _T), "beforeShellExecution": ("shell", _T),
        "beforeReadFile": ("read", _T), "beforeMCPExecution": ("tool", _T),
        "beforeSubmitPrompt": ("prompt", _T), "postToolUse": ("post_tool", _F),
        "sessionStart": ("start", _F), "sessionEnd": ("end", _F),
        "preCompact": ("compact", _F),
        **{name: ("observe", _F) for name in (
            "postToolUseFailure", "subagentStart", "subagentStop", "afterShellExecution",
            "afterMCPExecution", "afterFileEdit", "stop", "afterAgentResponse",
            "afterAgentThought", "beforeTabFileRead", "afterTabFileEdit", "workspaceOpen")},
    },
    "copilot": {
        "preToolUse": ("tool", _T), "permissionRequest": ("permission", _T),
        "userPromptSubmitted": ("prompt", _F), "postToolUse": ("post_tool", _F),
        "sessionStart": ("start", _F), "sessionEnd": ("end", _F),
        "preCompact": ("compact", _F),
        **{name: ("observe", _F) for name in ("postToolUseFailure", "agentStop",
                                              "subagentStart", "subagentStop",
                                              "errorOccurred", "notification")},
    },
    "windsurf": {
        "pre_run_command": ("shell", _T), "pre_write_code": ("write", _T),
        "pre_read_code": ("read", _T), "pre_mcp_tool_use": ("tool", _T),
        "pre_user_prompt": ("prompt", _T),
        **{name: ("post_tool", _F) for name in ("post_run_command", "post_write_code",
                                                "post_read_code", "post_mcp_tool_use")},
        **{name: ("observe", _F) for name in ("post_cascade_response",
                                              "post_cascade_response_with_transcript",
                                              "post_setup_worktree")},
    },
    "cline": {
        "PreToolUse": ("tool", _T), "UserPromptSubmit": ("prompt", _T),
        "PostToolUse": ("post_tool", _F), "TaskStart": ("start", _F),
        "TaskResume": ("start", _F), "TaskComplete": ("end", _F), "TaskCancel": ("end", _F),
        "PreCompact": ("compact", _F),
    },
    "kiro": {
        "preToolUse": ("tool", _T), "postToolUse": ("post_tool", _F),
        "userPromptSubmit": ("prompt", _F), "agentSpawn": ("start", _F),
        "stop": ("observe", _F),
    },
    "opencode": {
        "tool.execute.before": ("tool", _T), "permission.ask": ("permission", _T),
        "tool.execute.after": ("post_tool", _F),
    },
}


def host_point_name(host: str, event: str) -> str:
    """The hook point of `host`'s own event `event`."""
    return f"{host}.{event}"
