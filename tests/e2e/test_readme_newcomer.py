"""The README's "Guard your agent", typed as a newcomer types it in a fresh HOME, guards a
real Claude Code (offline, against a scripted model): ``rm -rf`` is denied with the ready
guard's reason, ``ls`` runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say

README = Path(__file__).resolve().parents[2] / "README.md"


def guard_your_agent_block() -> str:
    """The sh block of the README's "Guard your agent" section."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Guard your agent"):]
    start = section.index("```sh\n") + len("```sh\n")
    return section[start:section.index("```", start)]


def test_the_readme_guards_a_real_claude_code(claude_code):
    home = claude_code.home
    project = home / "src" / "app"  # the README's ~/src/app: the user's project
    (project / "victim").mkdir(parents=True)
    (project / "victim" / "keep.txt").write_text("precious\n")
    claude_code.project = project
    (home / ".claude.json").write_text(json.dumps({
        "hasCompletedOnboarding": True,
        "projects": {str(project): {"hasTrustDialogAccepted": True}}}))
    env = {"HOME": str(home), "LANG": "C.UTF-8",
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    typed = subprocess.run(["bash", "-e", "-c", guard_your_agent_block()], cwd=home, env=env,
                           capture_output=True, text=True, check=False, timeout=120)
    assert typed.returncode == 0, typed.stderr
    assert "host:claude-code (project): ok:" in typed.stdout  # what harness check says
    with ScriptedAnthropicServer([bash("rm -rf victim"), bash("ls"), say("done")]) as server:
        run = claude_code.run("clean up", server)
    assert run.returncode == 0, run.stderr[-2000:]
    denied, listed = run.tool_results()
    assert denied["is_error"] is True
    assert "harness guard destructive-deletes" in json.dumps(denied["content"])
    assert (project / "victim" / "keep.txt").exists()
    assert not listed.get("is_error") and "victim" in json.dumps(listed["content"])
