"""What the drivers of the npm hosts share (codex.py, gemini.py, copilot.py): a host's
command run once, offline against a started scripted model server (scripted_server.py),
and what came of it (`HostRun`)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from scripted_server import ScriptedServer

__all__ = ["HostRun", "run_host"]


@dataclass
class HostRun:
    """One run of a host: how it ended and the requests its model server kept."""

    returncode: int
    stdout: str
    stderr: str
    requests: list[dict]
    server: type[ScriptedServer]  # the API the requests speak

    def tool_outputs(self) -> list[str]:
        """What each tool call returned to the model, in order."""
        return self.server.tool_outputs(self.requests)


def run_host(argv: list[str], server: ScriptedServer, env: dict[str, str],
             cwd: Path | None = None) -> HostRun:
    """Run `argv` in `cwd` with no standard input, 180 s at most, in an environment of
    only ``PATH`` and `env` (which names the scratch HOME and points the host at
    `server`)."""
    done = subprocess.run(argv, cwd=cwd, env={"PATH": os.environ["PATH"], **env},
                          capture_output=True, text=True, timeout=180,
                          stdin=subprocess.DEVNULL, check=False)
    return HostRun(done.returncode, done.stdout, done.stderr, list(server.requests),
                   type(server))
