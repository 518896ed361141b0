"""The Claude Agent SDK guarded by harness (pip install 'harness[claude-agent-sdk]').

    python examples/frameworks/claude_agent_sdk_hooks.py          # the callbacks, offline
    python examples/frameworks/claude_agent_sdk_hooks.py --live   # a real session

harness_hooks(runtime) is the ``hooks`` of ClaudeAgentOptions: the CLI calls its callbacks
for each event, and they answer as ``harness claude-hook`` would. Offline, this example
calls the PreToolUse callback as the CLI calls it; ``--live`` runs a real query (it needs
Claude Code's credentials).
"""

import asyncio
import sys
from pathlib import Path

from claude_agent_sdk import ClaudeAgentOptions, query

from harness.integrations.claude_agent_sdk import harness_hooks
from harness.runtime import Runtime

HOME = Path(__file__).parent / "home"  # tools/no_rm_rf.scm: the guard


async def offline(hooks: dict) -> None:
    [matcher] = hooks["PreToolUse"]
    for command in ("rm -rf /", "ls"):
        event = {"hook_event_name": "PreToolUse", "session_id": "example", "cwd": ".",
                 "transcript_path": "", "tool_name": "Bash",
                 "tool_input": {"command": command}, "tool_use_id": "toolu_1"}
        answer = await matcher.hooks[0](event, "toolu_1", {"signal": None})
        print(f"PreToolUse Bash {command!r} ->", answer or "{} (no objection)")


async def live(hooks: dict) -> None:
    options = ClaudeAgentOptions(hooks=hooks, allowed_tools=["Bash"])
    async for message in query(prompt="Run `rm -rf /tmp/harness-example`", options=options):
        print(message)


with Runtime(HOME) as runtime:
    hooks = harness_hooks(runtime)
    asyncio.run(live(hooks) if "--live" in sys.argv else offline(hooks))
