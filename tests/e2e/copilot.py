"""A real GitHub Copilot CLI, driven offline: `run_copilot` runs ``copilot -p PROMPT`` once
against a scripted Responses API server (responses_server.py) with the given hooks.

Copilot CLI takes a custom provider ("BYOK") from ``COPILOT_PROVIDER_BASE_URL`` with
``COPILOT_PROVIDER_WIRE_API=responses``, and ``COPILOT_OFFLINE=true`` keeps it off GitHub
(``copilot help environment``); hooks come from ``$COPILOT_HOME/hooks/*.json``
(``{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ...}]}}``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from codex import CodexRun
from npm_host import installed
from responses_server import ResponsesServer

__all__ = ["COPILOT_VERSION", "copilot_binary", "run_copilot"]

COPILOT_VERSION = "1.0.102"


def copilot_binary() -> Path:
    """The pinned Copilot CLI (installed on first use)."""
    return installed("@github/copilot", COPILOT_VERSION) / "node_modules" / ".bin" / "copilot"


def run_copilot(binary: Path, root: Path, project: Path, turns: list[list[dict]],
                hooks: dict) -> CodexRun:
    """Run ``copilot -p`` in `project` with `hooks` against a server that plays `turns`
    (the result has the same shape as a Codex run: both speak the Responses API)."""
    home = root / "copilot-home"
    copilot_home = home / ".copilot"
    (copilot_home / "hooks").mkdir(parents=True, exist_ok=True)
    (copilot_home / "hooks" / "harness.json").write_text(json.dumps({"version": 1,
                                                                     "hooks": hooks}))
    with ResponsesServer(turns) as server:
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "COPILOT_HOME": str(copilot_home),
               "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url,
               "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_PROVIDER_API_KEY": "offline",
               "COPILOT_MODEL": "gpt-5", "COPILOT_AUTO_UPDATE": "false"}
        done = subprocess.run([str(binary), "-p", "run the commands", "--allow-all-tools",
                               "--trust-folder", "--disable-client-telemetry"], cwd=project,
                              env=env, capture_output=True, text=True, timeout=180,
                              stdin=subprocess.DEVNULL, check=False)
        return CodexRun(done.returncode, done.stdout, done.stderr, list(server.requests))
