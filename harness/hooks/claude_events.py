"""Claude Code's hook events (Era C, v2.1.240) as data: what each one carries, what its
matcher tests, what exit code 2 does, which output fields it honours, and which harness hook
point `harness claude-hook` also fires for it.

The facts come from `shared/reference/claude-code-hooks.md` (§2.2 events, §3.2-3.5 output).
`catalogue.py` turns every event into a hook point (combine rule ``claude``) and
`combine.py` reads this table to combine answers, which are Claude Code hook outputs:

```json
{"continue": true, "stopReason": "...", "systemMessage": "...", "decision": "block",
 "reason": "...", "hookSpecificOutput": {"hookEventName": "PreToolUse", ...}}
```
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLAUDE_EVENTS", "COMMON_FIELDS", "EXIT2_EFFECTS", "HANDLER_TYPES", "TOOL_EVENTS",
           "ClaudeEvent"]

#: the declared handler types, as settings files spell them (``mcp`` is harness's alias)
HANDLER_TYPES = ("command", "http", "mcp_tool", "prompt", "agent")

#: what exit code 2 of a command handler does on an event
EXIT2_EFFECTS = {
    "block": "blocks the action; stderr is the reason",
    "claude": "does not block; stderr is shown to Claude",
    "user": "does not block; stderr is shown to the user",
    "ignored": "is ignored",
}

#: input fields every event carries (some events leave out permission_mode)
COMMON_FIELDS = ("session_id", "transcript_path", "cwd", "hook_event_name")

_ALL_TYPES = HANDLER_TYPES
_NO_MODEL = ("command", "http", "mcp_tool")
_COMMAND_MCP = ("command", "mcp_tool")


@dataclass(frozen=True)
class ClaudeEvent:
    """One Claude Code hook event.

    ``matcher`` is the input field a matcher is tested against (None: matchers are ignored
    and every handler runs). ``exit2`` is a key of EXIT2_EFFECTS. ``block_decision``: the
    event accepts top-level ``decision: "block"`` + ``reason``. ``specific`` are the
    ``hookSpecificOutput`` keys it honours; ``honours_continue``: ``continue: false`` stops
    Claude. ``text_is_context``: plain stdout on exit 0 is added to Claude's context.
    ``equivalent`` is the harness hook point ``harness claude-hook`` fires as well.
    """

    name: str
    doc: str
    sample: dict
    matcher: str | None = None
    exit2: str = "ignored"
    block_decision: bool = False
    specific: tuple[str, ...] = ()
    honours_continue: bool = False
    text_is_context: bool = False
    handler_types: tuple[str, ...] = _ALL_TYPES
    equivalent: str | None = None

    @property
    def blocks(self) -> bool:
        """Whether a hook can block this event (exit 2 or ``decision: "block"``)."""
        return self.exit2 == "block" or self.block_decision


def _base(event: str, permission_mode: bool = True) -> dict:
    sample = {"session_id": "abc123",
              "transcript_path": "/home/ada/.claude/projects/parser/abc123.jsonl",
              "cwd": "/home/ada/src/parser"}
    if permission_mode:
        sample["permission_mode"] = "default"
    sample["hook_event_name"] = event
    return sample


_BASH_INPUT = {"command": "npm test", "description": "Run test suite", "timeout": 120000,
               "run_in_background": False}


def _event(name: str, doc: str, fields: dict, *, permission_mode: bool = True,
           **rules) -> ClaudeEvent:
    return ClaudeEvent(name=name, doc=doc, sample={**_base(name, permission_mode), **fields},
                       **rules)


_EVENTS = (
    _event("SessionStart", "Claude Code: a session starts, resumes, forks, or is cleared or "
           "compacted; can add context", {"source": "startup", "model": "claude-sonnet-5"},
           permission_mode=False, matcher="source", exit2="user", honours_continue=True,
           specific=("additionalContext", "initialUserMessage", "sessionTitle", "watchPaths",
                     "reloadSkills"),
           text_is_context=True, handler_types=_COMMAND_MCP, equivalent="on_start"),
    _event("Setup", "Claude Code: --init or --maintenance runs; can add context",
           {"trigger": "init"}, permission_mode=False, matcher="trigger", exit2="user",
           honours_continue=True, specific=("additionalContext",),
           handler_types=_COMMAND_MCP),
    _event("InstructionsLoaded", "Claude Code: a CLAUDE.md or rules file is loaded "
           "(observe only)",
           {"file_path": "/home/ada/src/parser/CLAUDE.md", "memory_type": "Project",
            "load_reason": "session_start"}, matcher="load_reason", handler_types=_NO_MODEL),
    _event("UserPromptSubmit", "Claude Code: a prompt is submitted; can block it or add "
           "context (it cannot rewrite it)", {"prompt": "Write a factorial function"},
           exit2="block", block_decision=True, honours_continue=True,
           specific=("additionalContext", "sessionTitle"), text_is_context=True,
           equivalent="pre_message"),
    _event("UserPromptExpansion", "Claude Code: a /command or MCP prompt expands; can block "
           "it or add context",
           {"expansion_type": "slash_command", "command_name": "review",
            "command_args": "src/", "command_source": "project", "prompt": "/review src/"},
           matcher="command_name", exit2="block", block_decision=True,
           honours_continue=True, specific=("additionalContext",), text_is_context=True),
    _event("MessageDisplay", "Claude Code: assistant text is shown; can change what is "
           "displayed", {"turn_id": "t1", "message_id": "m1", "index": 0, "final": True,
                         "delta": "Done."},
           specific=("displayContent",), handler_types=_NO_MODEL),
    _event("PreToolUse", "Claude Code: before a tool runs; can deny, ask, allow or rewrite "
           "its input", {"tool_name": "Bash", "tool_input": _BASH_INPUT,
                         "tool_use_id": "toolu_01ABC"},
           matcher="tool_name", exit2="block", honours_continue=True,
           specific=("permissionDecision", "permissionDecisionReason", "updatedInput",
                     "additionalContext"), equivalent="pre_tool"),
    _event("PermissionRequest", "Claude Code: a permission prompt is about to be shown; can "
           "allow or deny it",
           {"tool_name": "Bash", "tool_input": {"command": "rm -rf node_modules",
                                                "description": "Remove node_modules"},
            "permission_suggestions": []},
           matcher="tool_name", honours_continue=True, specific=("decision",)),
    _event("PermissionDenied", "Claude Code: the auto-mode classifier denied a call; can let "
           "Claude retry",
           {"tool_name": "Bash", "tool_input": {"command": "curl http://example.com"},
            "tool_use_id": "toolu_01ABC", "reason": "network access"},
           matcher="tool_name", honours_continue=True, specific=("retry",)),
    _event("PostToolUse", "Claude Code: a tool succeeded; can give Claude feedback or "
           "replace what it sees",
           {"tool_name": "Write", "tool_input": {"file_path": "/home/ada/src/parser/a.txt",
                                                 "content": "x"},
            "tool_response": {"filePath": "/home/ada/src/parser/a.txt", "success": True},
            "tool_use_id": "toolu_01ABC", "duration_ms": 12},
           matcher="tool_name", exit2="claude", block_decision=True, honours_continue=True,
           specific=("additionalContext", "updatedToolOutput", "updatedMCPToolOutput",
                     "classifierContext"), equivalent="post_tool"),
    _event("PostToolUseFailure", "Claude Code: a tool failed; can add context next to the "
           "error",
           {"tool_name": "Bash", "tool_input": {"command": "npm test"},
            "tool_use_id": "toolu_01ABC", "error": "Exit code 1\nError: Cannot find module",
            "is_interrupt": False, "duration_ms": 4187},
           matcher="tool_name", exit2="claude", honours_continue=True,
           specific=("additionalContext",)),
    _event("PostToolBatch", "Claude Code: a batch of parallel tool calls resolved; can stop "
           "the loop or add context",
           {"tool_calls": [{"tool_name": "Bash", "tool_input": {"command": "ls"},
                            "tool_use_id": "toolu_01ABC", "tool_response": "a.txt\n"}]},
           exit2="block", block_decision=True, honours_continue=True,
           specific=("additionalContext",)),
    _event("Notification", "Claude Code: a notification is sent (observe only)",
           {"message": "Claude needs your permission", "title": "Permission needed",
            "notification_type": "permission_prompt"},
           permission_mode=False, matcher="notification_type", handler_types=_NO_MODEL),
    _event("SubagentStart", "Claude Code: a subagent is spawned; can add context for it",
           {"agent_id": "agent-abc123", "agent_type": "Explore"}, permission_mode=False,
           matcher="agent_type", exit2="user", honours_continue=True,
           specific=("additionalContext",), handler_types=_NO_MODEL),
    _event("SubagentStop", "Claude Code: a subagent finished; can make it go on",
           {"stop_hook_active": False, "agent_id": "def456", "agent_type": "Explore",
            "agent_transcript_path": "/home/ada/.claude/projects/parser/abc123/subagents/"
                                     "agent-def456.jsonl",
            "last_assistant_message": "Found 3 issues", "background_tasks": [],
            "session_crons": []},
           matcher="agent_type", exit2="block", block_decision=True, honours_continue=True,
           specific=("additionalContext",)),
    _event("TaskCreated", "Claude Code: TaskCreate is called; can refuse the task",
           {"task_id": "task-1", "task_subject": "Write the parser tests"},
           exit2="block", block_decision=True),
    _event("TaskCompleted", "Claude Code: a task is marked completed; can keep it open",
           {"task_id": "task-1", "task_subject": "Write the parser tests"},
           exit2="block", honours_continue=True),
    _event("Stop", "Claude Code: the main agent finished responding; can make it go on",
           {"stop_hook_active": False, "last_assistant_message": "Done.",
            "background_tasks": [], "session_crons": []},
           exit2="block", block_decision=True, honours_continue=True,
           specific=("additionalContext",)),
    _event("StopFailure", "Claude Code: a turn ended on an API error (observe only)",
           {"error": "rate_limit", "last_assistant_message": "API Error: rate limited"},
           matcher="error", handler_types=_NO_MODEL),
    _event("TeammateIdle", "Claude Code: a teammate is about to go idle; can keep it "
           "working", {"teammate_name": "reviewer"}, exit2="block", honours_continue=True),
    _event("ConfigChange", "Claude Code: a settings or skill file changed; can refuse the "
           "change", {"source": "project_settings",
                      "file_path": "/home/ada/src/parser/.claude/settings.json"},
           permission_mode=False, matcher="source", exit2="block", block_decision=True,
           handler_types=_NO_MODEL),
    _event("CwdChanged", "Claude Code: the working directory changed; can set the watched "
           "paths", {"old_cwd": "/home/ada/src/parser", "new_cwd": "/home/ada/src/parser/lib"},
           permission_mode=False, exit2="user", specific=("watchPaths",),
           handler_types=_NO_MODEL),
    _event("DirectoryAdded", "Claude Code: a directory was added with /add-dir (observe "
           "only)", {"directory": "/home/ada/src/shared", "source": "slash_command"},
           permission_mode=False, matcher="source", handler_types=_NO_MODEL),
    _event("FileChanged", "Claude Code: a watched file changed on disk; can set the watched "
           "paths", {"file_path": "/home/ada/src/parser/.envrc", "event": "change"},
           permission_mode=False, matcher="file_path", exit2="user",
           specific=("watchPaths",), handler_types=_NO_MODEL),
    _event("WorktreeCreate", "Claude Code: a worktree is created; the hook makes it and "
           "answers its path", {"name": "feature-auth"}, permission_mode=False,
           exit2="block", specific=("worktreePath",), handler_types=_NO_MODEL),
    _event("WorktreeRemove", "Claude Code: a worktree is removed (observe only)",
           {"worktree_path": "/home/ada/src/parser-feature-auth"}, permission_mode=False,
           handler_types=_NO_MODEL),
    _event("PreCompact", "Claude Code: before compaction; can skip it",
           {"trigger": "manual", "custom_instructions": ""}, permission_mode=False,
           matcher="trigger", exit2="block", block_decision=True, handler_types=_NO_MODEL,
           equivalent="pre_compact"),
    _event("PostCompact", "Claude Code: after compaction (observe only)",
           {"trigger": "auto", "compact_summary": "The user is refactoring the parser."},
           permission_mode=False, matcher="trigger", handler_types=_NO_MODEL),
    _event("Elicitation", "Claude Code: an MCP server asks the user for input; can answer "
           "or decline it",
           {"mcp_server_name": "memory", "message": "Which project?", "mode": "form"},
           permission_mode=False, matcher="mcp_server_name", exit2="block",
           specific=("action", "content"), handler_types=_NO_MODEL),
    _event("ElicitationResult", "Claude Code: the user answered an elicitation; can "
           "override the answer",
           {"mcp_server_name": "memory", "action": "accept", "content": {"project": "parser"}},
           permission_mode=False, matcher="mcp_server_name", exit2="block",
           specific=("action", "content"), handler_types=_NO_MODEL),
    _event("SessionEnd", "Claude Code: the session ends (observe only)", {"reason": "other"},
           permission_mode=False, matcher="reason", exit2="user", handler_types=_NO_MODEL,
           equivalent="on_end"),
)

#: every Claude Code event by name, in the reference's order
CLAUDE_EVENTS: dict[str, ClaudeEvent] = {e.name: e for e in _EVENTS}

#: the events about one tool call: their matcher tests ``tool_name``, and only on them is a
#: handler's ``if`` rule evaluated
TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
               "PermissionDenied")
