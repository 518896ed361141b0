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
from pathlib import Path

from host_driver import HostRun, run_host
from npm_host import npm_command
from responses_server import ResponsesServer

__all__ = ["CODEX_VERSION", "codex_binary", "run_codex"]

CODEX_VERSION = "0.171.0"


def codex_binary() -> Path:
    """The pinned Codex CLI (installed on first use)."""
    return npm_command("@openai/codex", CODEX_VERSION, "codex")


def run_codex(binary: Path, root: Path, project: Path, turns: list[list[dict]],
              hooks: dict, env: dict | None = None) -> HostRun:
    """Run ``codex exec`` in `project` with `hooks` (the ``hooks`` object of hooks.json)
    against a server that plays `turns`."""
    home = root / "codex-home"
    codex_home = home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    with ResponsesServer(turns) as server:
        (codex_home / "config.toml").write_text(
            f'model = "gpt-5"\nmodel_provider = "mock"\n[model_providers.mock]\n'
            f'name = "mock"\nbase_url = "{server.url}"\nwire_api = "responses"\n'
            f'env_key = "MOCK_API_KEY"\n[features]\nhooks = true\n')
        return run_host([str(binary), "exec", "--skip-git-repo-check",
                         "--dangerously-bypass-approvals-and-sandbox",
                         "--dangerously-bypass-hook-trust", "--ephemeral", "-C", str(project),
                         "run the commands"], server,
                        {"HOME": str(home), "CODEX_HOME": str(codex_home),
                         "MOCK_API_KEY": "offline", **(env or {})})
