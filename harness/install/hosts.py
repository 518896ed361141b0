"""What ``harness install HOST`` writes for each host: which file, which events, what a
handler looks like, and the host's own fail-closed switch.

Facts: reference/agent-hosts.md (§A, §B.2) and the adapters of harness.hosts, whose events
these are: every guard event (a tool call, a permission, a prompt) and the observe events
harness maps (after a tool, session start and end, compaction). The fail-closed switch goes
on the guard events only: on an observe event it would stop a session over a log line.

| host | project file | user file | fail closed |
|---|---|---|---|
| claude-code | .claude/settings.json | ~/.claude/settings.json | ``"onFailure": "block"`` (Claude Code >= 2.1.295) |
| codex | .codex/hooks.json (+ config.toml) | $CODEX_HOME or ~/.codex/hooks.json | none (harness denies itself) |
| cursor | .cursor/hooks.json | ~/.cursor/hooks.json | ``"failClosed": true`` |
| gemini | .gemini/settings.json | ~/.gemini/settings.json | none |
| copilot | .github/hooks/harness.json | ~/.copilot/hooks/harness.json | none (Copilot never blocks on a failure) |
| windsurf | .windsurf/hooks.json | ~/.codeium/windsurf/hooks.json | none |
| cline | .clinerules/hooks/EVENT | ~/Documents/Cline/Hooks/EVENT | none |
| kiro | .kiro/hooks/harness.json | ~/.kiro/hooks/harness.json | none |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from harness.install.command import TOKEN_VARIABLE, Via, hook_command
from harness.install.shapes import FlatHooks, GroupedHooks, NamedHooks

HOST_NAMES = ("claude-code", "codex", "cursor", "gemini", "copilot", "windsurf", "cline",
              "kiro")


@dataclass(frozen=True)
class Event:
    """An event harness installs a handler on. ``guard``: it can stop something (the
    host's fail-closed switch goes on it); ``matcher``: the matcher of harness's group
    (Gemini's tool events); ``name_arg``: the ``--event`` given to ``harness hook`` where
    the payload does not name its event."""

    name: str
    guard: bool = False
    matcher: str | None = None
    name_arg: str | None = None


@dataclass(frozen=True)
class Host:
    """One host's installer facts."""

    name: str
    title: str
    project_file: str
    user_file: str
    events: tuple[Event, ...]
    shape: GroupedHooks | None  # None: one executable file per event (Cline)
    #: the handler key that fails closed, with its value (None: the host has none)
    fail_closed: tuple[str, object] | None = None
    #: the command handler's other fields
    extra: dict = field(default_factory=dict)
    #: the key of the handler's command (Copilot: "bash")
    command_key: str = "command"
    #: handler ``type`` (None: the host's handlers have no type)
    handler_type: str | None = "command"

    def path(self, project: Path | None) -> Path:
        """The file written for a project install in ``project``, else the user's (under
        $HOME, so a test may point it at a temporary folder)."""
        if project is not None:
            return project / self.project_file
        if self.name == "codex" and os.environ.get("CODEX_HOME"):
            return Path(os.environ["CODEX_HOME"]) / Path(self.user_file).name
        return Path(os.environ.get("HOME") or Path.home()) / self.user_file

    def handler(self, event: Event, program: list[str], home: Path, via: Via) -> dict:
        """The handler of ``event``: a command running ``harness hook``, or for Claude
        Code with ``via`` http a native http hook where the event allows one."""
        if self.name == "claude-code" and via.kind == "http" and event.name != "SessionStart":
            handler: dict = {"type": "http", "url": f"{via.url.rstrip('/')}/claude-code",
                             "headers": {"Authorization": f"Bearer ${TOKEN_VARIABLE}"},
                             "allowedEnvVars": [TOKEN_VARIABLE]}
        else:
            command = hook_command(program, self.name, home, via, event.name_arg)
            if self.name == "kiro":
                handler = {"name": f"harness-{event.name}", "trigger": event.name,
                           "action": {"type": "command", "command": command},
                           "enabled": True}
            else:
                handler = {"type": self.handler_type} if self.handler_type else {}
                handler[self.command_key] = command
                handler.update(self.extra)
        if event.guard and self.fail_closed is not None:
            key, value = self.fail_closed
            handler[key] = value
        return handler


def _claude_events() -> tuple[Event, ...]:
    return (Event("PreToolUse", True), Event("PermissionRequest", True),
            Event("UserPromptSubmit", True), Event("PostToolUse"), Event("SessionStart"),
            Event("SessionEnd"), Event("PreCompact"))


HOSTS: dict[str, Host] = {host.name: host for host in (
    Host("claude-code", "Claude Code", ".claude/settings.json", ".claude/settings.json",
         _claude_events(), GroupedHooks("claude-code"), ("onFailure", "block")),
    Host("codex", "Codex CLI", ".codex/hooks.json", ".codex/hooks.json", _claude_events(),
         GroupedHooks("codex")),
    Host("cursor", "Cursor", ".cursor/hooks.json", ".cursor/hooks.json",
         (Event("preToolUse", True), Event("beforeShellExecution", True),
          Event("beforeReadFile", True), Event("beforeMCPExecution", True),
          Event("beforeSubmitPrompt", True), Event("postToolUse"), Event("sessionStart"),
          Event("sessionEnd"), Event("preCompact")),
         FlatHooks("cursor", version=1), ("failClosed", True)),
    Host("gemini", "Gemini CLI", ".gemini/settings.json", ".gemini/settings.json",
         (Event("BeforeTool", True, ".*"), Event("BeforeAgent", True),
          Event("AfterTool", matcher=".*"), Event("SessionStart"), Event("SessionEnd"),
          Event("PreCompress")),
         GroupedHooks("gemini"), extra={"name": "harness"}),
    Host("copilot", "GitHub Copilot CLI", ".github/hooks/harness.json",
         ".copilot/hooks/harness.json",
         tuple(Event(name, guard, name_arg=name) for name, guard in (
             ("preToolUse", True), ("permissionRequest", True),
             ("userPromptSubmitted", False), ("postToolUse", False),
             ("sessionStart", False), ("sessionEnd", False), ("preCompact", False))),
         FlatHooks("copilot", version=1), command_key="bash"),
    Host("windsurf", "Windsurf", ".windsurf/hooks.json", ".codeium/windsurf/hooks.json",
         tuple(Event(name, name.startswith("pre_"), name_arg=name) for name in (
             "pre_run_command", "pre_write_code", "pre_read_code", "pre_mcp_tool_use",
             "pre_user_prompt", "post_run_command", "post_write_code", "post_read_code",
             "post_mcp_tool_use")),
         FlatHooks("windsurf"), handler_type=None),
    Host("cline", "Cline", ".clinerules/hooks", "Documents/Cline/Hooks",
         tuple(Event(name, guard, name_arg=name) for name, guard in (
             ("PreToolUse", True), ("UserPromptSubmit", True), ("PostToolUse", False),
             ("TaskStart", False), ("TaskResume", False), ("TaskComplete", False),
             ("TaskCancel", False), ("PreCompact", False))),
         None),
    Host("kiro", "Kiro", ".kiro/hooks/harness.json", ".kiro/hooks/harness.json",
         (Event("PreToolUse", True, name_arg="preToolUse"),
          Event("UserPromptSubmit", True, name_arg="userPromptSubmit"),
          Event("PostToolUse", name_arg="postToolUse"),
          Event("SessionStart", name_arg="agentSpawn")),
         NamedHooks("kiro")),
)}
