"""A real Gemini CLI, driven offline: `run_gemini` runs ``gemini -p PROMPT --yolo`` once
against a scripted Gemini API (gemini_server.py) with the given hooks, in a scratch HOME.

Gemini CLI takes its API from ``GOOGLE_GEMINI_BASE_URL`` (plain http is allowed for
127.0.0.1) with ``GEMINI_API_KEY`` and the ``gemini-api-key`` auth type, and its hooks from
the ``hooks`` object of ``~/.gemini/settings.json`` (user hooks need no trust).
"""

from __future__ import annotations

import json
from pathlib import Path

from gemini_server import GeminiServer
from host_driver import HostRun, run_host
from npm_host import npm_command

__all__ = ["GEMINI_VERSION", "gemini_binary", "run_gemini"]

GEMINI_VERSION = "0.61.0"


def gemini_binary() -> Path:
    """The pinned Gemini CLI (installed on first use)."""
    return npm_command("@google/gemini-cli", GEMINI_VERSION, "gemini")


def run_gemini(binary: Path, root: Path, project: Path, turns: list[list[dict]],
               hooks: dict) -> HostRun:
    """Run ``gemini -p`` in `project` with `hooks` against a server that plays `turns`."""
    home = root / "gemini-home"
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"},
                     "folderTrust": {"enabled": False}},
        "hooks": hooks, "telemetry": {"enabled": False},
        "privacy": {"usageStatisticsEnabled": False}}))
    with GeminiServer(turns) as server:
        return run_host([str(binary), "-p", "run the commands", "--yolo", "--output-format",
                         "json"], server,
                        {"HOME": str(home), "GEMINI_API_KEY": "offline",
                         "GOOGLE_GEMINI_BASE_URL": server.url}, cwd=project)
