"""A real Codex CLI, driven offline: `run_codex` runs ``codex exec`` once against a scripted
Responses API server (responses_server.py) with the given hooks, in a scratch HOME.

Codex reads a custom provider from ``$CODEX_HOME/config.toml`` (``model_provider`` and
``[model_providers.NAME] base_url``, ``wire_api = "responses"``) and its hooks from
``$CODEX_HOME/hooks.json`` (Claude Code's shape); ``--dangerously-bypass-hook-trust`` runs
them without the interactive review, ``--dangerously-bypass-approvals-and-sandbox`` runs
commands without asking.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from npm_host import installed
from responses_server import ResponsesServer

__all__ = ["CODEX_VERSION", "CodexRun", "codex_binary", "run_codex"]

CODEX_VERSION = "0.171.0"


def codex_binary() -> Path:
    """The pinned Codex CLI (installed on first use)."""
    return installed("@openai/codex", CODEX_VERSION) / "node_modules" / ".bin" / "codex"


@dataclass
class CodexRun:
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict]

    def tool_outputs(self) -> list[str]:
        """What each function call returned to the model, in order."""
        return [item.get("output") if isinstance(item.get("output"), str)
                else json.dumps(item.get("output"))
                for request in self.requests for item in request.get("input", [])
                if isinstance(item, dict) and item.get("type") == "function_call_output"]


def run_codex(binary: Path, root: Path, project: Path, turns: list[list[dict]],
              hooks: dict, env: dict | None = None) -> CodexRun:
    """Run ``codex exec`` in `project` with `hooks` (the ``hooks`` object of hooks.json)
    against a server that plays `turns`."""
    home = root / "codex-home"
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    with ResponsesServer(turns) as server:
        (codex_home / "config.toml").write_text(
            f'model = "gpt-5"\nmodel_provider = "mock"\n[model_providers.mock]\n'
            f'name = "mock"\nbase_url = "{server.url}"\nwire_api = "responses"\n'
            f'env_key = "MOCK_API_KEY"\n[features]\nhooks = true\n')
        (codex_home / "hooks.json").write_text(json.dumps({"hooks": hooks}))
        full_env = {"PATH": os.environ["PATH"], "HOME": str(home),
                    "CODEX_HOME": str(codex_home), "MOCK_API_KEY": "offline",
                    **(env or {})}
        done = subprocess.run([str(binary), "exec", "--skip-git-repo-check",
                               "--dangerously-bypass-approvals-and-sandbox",
                               "--dangerously-bypass-hook-trust", "--ephemeral", "-C",
                               str(project), "run the commands"],
                              env=full_env, capture_output=True, text=True, timeout=180,
                              stdin=subprocess.DEVNULL, check=False)
        return CodexRun(done.returncode, done.stdout, done.stderr, list(server.requests))
