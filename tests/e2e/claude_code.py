"""Install and run a real Claude Code, offline, against a scripted model server.

``install_claude_code()`` puts the pinned ``@anthropic-ai/claude-code`` into the shared cache
``~/.cache/harness-e2e/@anthropic-ai+claude-code@VERSION`` once (an ``fcntl`` lock beside the
folder keeps two processes from installing at once) and returns the native binary.
``ClaudeCode(binary, tmp).run(prompt, server, settings=...)`` runs ``claude -p`` with HOME
set to a scratch folder (onboarding done, the project trusted), the project's
``.claude/settings.json`` written from ``settings``, and ``ANTHROPIC_BASE_URL`` pointing at
the server; it returns a :class:`ClaudeRun` with the JSON result, the requests the server
recorded and the session transcript.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.anthropic_server import RecordedRequest, ScriptedAnthropicServer

PACKAGE = "@anthropic-ai/claude-code"
VERSION = "2.1.328"
NATIVE = Path("node_modules/@anthropic-ai/claude-code-linux-x64/claude")
LAUNCHER = Path("node_modules/.bin/claude")


class NpmMissing(RuntimeError):
    """npm is not on PATH (the only reason the end-to-end tests skip)."""


def cache_root() -> Path:
    """``~/.cache/harness-e2e`` of the real user (the suite's XDG_CACHE_HOME is not used:
    the host is big and shared between runs and worktrees)."""
    return Path.home() / ".cache" / "harness-e2e"


def install_claude_code(version: str = VERSION) -> Path:
    """The path of a runnable ``claude`` of ``version``, installing it into the cache first
    if needed. Raises :class:`NpmMissing` without npm, ``CalledProcessError`` if npm fails."""
    folder = cache_root() / f"{PACKAGE.replace('/', '+')}@{version}"
    found = _binary_in(folder)
    if found is not None:
        return found
    if shutil.which("npm") is None:
        raise NpmMissing("npm is not installed; a real Claude Code cannot be installed")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = _binary_in(folder)
        if found is None:
            partial = folder.with_name(folder.name + ".partial")
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir()
            subprocess.run(
                ["npm", "install", "--prefix", str(partial), "--no-audit", "--no-fund",
                 "--loglevel=error", f"{PACKAGE}@{version}"],
                check=True, capture_output=True, text=True, timeout=900)
            shutil.rmtree(folder, ignore_errors=True)
            partial.rename(folder)
            found = _binary_in(folder)
        if found is None:
            raise RuntimeError(f"{PACKAGE}@{version} installed into {folder} but has no binary")
        return found


def _binary_in(folder: Path) -> Path | None:
    for relative in (NATIVE, LAUNCHER):
        candidate = folder / relative
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def command_hook(command: str, matcher: str = "Bash", event: str = "PreToolUse",
                 timeout: int = 60) -> dict[str, Any]:
    """A settings ``hooks`` section that runs ``command`` on ``event`` for ``matcher``."""
    return {event: [{"matcher": matcher,
                     "hooks": [{"type": "command", "command": command, "timeout": timeout}]}]}


@dataclass
class ClaudeRun:
    """What one ``claude -p`` run left behind."""

    returncode: int
    stdout: str
    stderr: str
    result: dict[str, Any]
    """The ``--output-format json`` result (``result``, ``permission_denials``, ...); ``{}``
    if stdout was not JSON."""
    requests: list[RecordedRequest]
    """Every request the model server got during this run."""
    transcripts: list[Path] = field(default_factory=list)
    """The session transcripts (``$HOME/.claude/projects/<dir>/<session>.jsonl``)."""

    def tool_results(self) -> list[dict[str, Any]]:
        """The ``tool_result`` blocks Claude Code sent back to the model, in order."""
        return [b for r in self.requests if r.body.get("tools") for b in r.tool_results]

    def transcript_entries(self) -> list[dict[str, Any]]:
        """The JSON lines of every transcript, in file order."""
        return [json.loads(line) for path in self.transcripts
                for line in path.read_text().splitlines() if line.strip()]


@dataclass
class ClaudeCode:
    """A Claude Code binary plus a scratch HOME and project folder under ``root``."""

    binary: Path
    root: Path
    project: Path = field(init=False)
    home: Path = field(init=False)

    def __post_init__(self) -> None:
        self.project = (self.root / "project").resolve()
        self.home = (self.root / "home").resolve()
        self.project.mkdir(parents=True, exist_ok=True)
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / ".claude.json").write_text(json.dumps({
            "hasCompletedOnboarding": True,
            "projects": {str(self.project): {"hasTrustDialogAccepted": True}},
        }))

    def write_settings(self, settings: dict[str, Any]) -> Path:
        """Write the project's ``.claude/settings.json`` (replacing what was there)."""
        path = self.project / ".claude" / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2))
        return path

    def run(self, prompt: str, server: ScriptedAnthropicServer, *,
            settings: dict[str, Any] | None = None, allowed_tools: str = "Bash",
            extra_args: list[str] | None = None, env: dict[str, str] | None = None,
            timeout: float = 180) -> ClaudeRun:
        """Run ``claude -p prompt`` in the project against ``server`` and collect the run.

        ``settings`` (if given) becomes the project's settings file, e.g.
        ``{"hooks": command_hook("/abs/harness claude-hook --home H")}``; ``env`` adds to
        (or overrides) the child's environment."""
        if settings is not None:
            self.write_settings(settings)
        first_request = len(server.requests)
        before = set(self._transcript_paths())
        child_env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "ANTHROPIC_BASE_URL": server.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-offline-test",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "LANG": "C.UTF-8",
        }
        child_env.update(env or {})
        argv = [str(self.binary), "-p", prompt, "--output-format", "json",
                "--allowedTools", allowed_tools, *(extra_args or [])]
        done = subprocess.run(argv, check=False, cwd=self.project, env=child_env, capture_output=True,
                              text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        try:
            result = json.loads(done.stdout)
        except ValueError:
            result = {}
        new = [p for p in self._transcript_paths() if p not in before]
        return ClaudeRun(done.returncode, done.stdout, done.stderr,
                         result if isinstance(result, dict) else {},
                         list(server.requests[first_request:]), new)

    def _transcript_paths(self) -> list[Path]:
        return sorted((self.home / ".claude" / "projects").glob("*/*.jsonl"))
