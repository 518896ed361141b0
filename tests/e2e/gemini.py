"""A real Gemini CLI, driven offline: `run_gemini` runs ``gemini -p PROMPT --yolo`` once
against a scripted Gemini API (gemini_server.py) with the given hooks, in a scratch HOME.

Gemini CLI takes its API from ``GOOGLE_GEMINI_BASE_URL`` (plain http is allowed for
127.0.0.1) with ``GEMINI_API_KEY`` and the ``gemini-api-key`` auth type, and its hooks from
the ``hooks`` object of ``~/.gemini/settings.json`` (user hooks need no trust).
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from gemini_server import GeminiServer
from npm_host import installed

__all__ = ["GEMINI_VERSION", "GeminiRun", "gemini_binary", "run_gemini"]

GEMINI_VERSION = "0.61.0"


def gemini_binary() -> Path:
    """The pinned Gemini CLI (installed on first use)."""
    return installed("@google/gemini-cli", GEMINI_VERSION) / "node_modules" / ".bin" / "gemini"


@dataclass
class GeminiRun:
    returncode: int
    stdout: str
    stderr: str
    requests: list[dict]

    def tool_outputs(self) -> list[str]:
        """What each function call returned to the model, in order (as JSON text)."""
        seen: list[str] = []
        for request in self.requests:
            for content in request.get("contents", []):
                for part in content.get("parts", []):
                    if "functionResponse" in part:
                        text = json.dumps(part["functionResponse"].get("response"))
                        if text not in seen:
                            seen.append(text)
        return seen


def run_gemini(binary: Path, root: Path, project: Path, turns: list[list[dict]],
               hooks: dict) -> GeminiRun:
    """Run ``gemini -p`` in `project` with `hooks` against a server that plays `turns`."""
    home = root / "gemini-home"
    (home / ".gemini").mkdir(parents=True, exist_ok=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps({
        "security": {"auth": {"selectedType": "gemini-api-key"},
                     "folderTrust": {"enabled": False}},
        "hooks": hooks, "telemetry": {"enabled": False},
        "privacy": {"usageStatisticsEnabled": False}}))
    with GeminiServer(turns) as server:
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "GEMINI_API_KEY": "offline",
               "GOOGLE_GEMINI_BASE_URL": server.url}
        done = subprocess.run([str(binary), "-p", "run the commands", "--yolo",
                               "--output-format", "json"], cwd=project, env=env,
                              capture_output=True, text=True, timeout=180,
                              stdin=subprocess.DEVNULL, check=False)
        return GeminiRun(done.returncode, done.stdout, done.stderr, list(server.requests))
