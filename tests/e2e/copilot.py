"""A real GitHub Copilot CLI, driven offline: `run_copilot` runs ``copilot -p PROMPT`` once
against a scripted Responses API server (responses_server.py) with the given hooks.

Copilot CLI takes a custom provider ("BYOK") from ``COPILOT_PROVIDER_BASE_URL`` with
``COPILOT_PROVIDER_WIRE_API=responses``, and ``COPILOT_OFFLINE=true`` keeps it off GitHub
(``copilot help environment``); hooks come from ``$COPILOT_HOME/hooks/*.json``
(``{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ...}]}}``).
"""

from __future__ import annotations

import json
from pathlib import Path

from host_driver import HostRun, run_host
from npm_host import npm_command
from responses_server import ResponsesServer

__all__ = ["COPILOT_VERSION", "copilot_binary", "run_copilot"]

COPILOT_VERSION = "1.0.102"


def copilot_binary() -> Path:
    """The pinned Copilot CLI (installed on first use)."""
    return npm_command("@github/copilot", COPILOT_VERSION, "copilot")


def run_copilot(binary: Path, root: Path, project: Path, turns: list[list[dict]],
                hooks: dict) -> HostRun:
    """Run ``copilot -p`` in `project` with `hooks` against a server that plays `turns`."""
    home = root / "copilot-home"
    copilot_home = home / ".copilot"
    (copilot_home / "hooks").mkdir(parents=True, exist_ok=True)
    (copilot_home / "hooks" / "harness.json").write_text(json.dumps({"version": 1,
                                                                     "hooks": hooks}))
    with ResponsesServer(turns) as server:
        return run_host([str(binary), "-p", "run the commands", "--allow-all-tools",
                         "--trust-folder", "--disable-client-telemetry"], server,
                        {"HOME": str(home), "COPILOT_HOME": str(copilot_home),
                         "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url,
                         "COPILOT_PROVIDER_WIRE_API": "responses",
                         "COPILOT_PROVIDER_API_KEY": "offline", "COPILOT_MODEL": "gpt-5",
                         "COPILOT_AUTO_UPDATE": "false"}, cwd=project)
