"""safety_guard.py: blocks `rm -rf` shell commands before they run.

The Python twin of examples/plugins/safety_guard and scheme_hooks/safety_guard.scm.
Python cannot be sandboxed: give this file the unsandboxed tier in harness.toml.
"""

from harness.api import hook

SHELL_TOOLS = {"shell_exec", "run_command"}


def command_of(payload: dict) -> str:
    """The command argument, or "" when it is missing or not a string."""
    arguments = payload.get("arguments")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    return command if isinstance(command, str) else ""


@hook("pre_tool")
def no_rm_rf(payload: dict) -> dict | None:
    # The first pre_tool answer with "block" True stops the call; its message is what the
    # model sees. None means no answer: the call goes ahead.
    if payload.get("tool_name") in SHELL_TOOLS and "rm -rf" in command_of(payload):
        return {"block": True, "message": "Blocked: rm -rf commands are not allowed"}
    return None
