"""Each example of examples/frameworks runs offline and its guard holds: the scripted
``rm -rf /`` never runs and the model hears why; ``ls`` runs."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "frameworks"
REFUSED = "harness: destructive delete refused: rm -rf /"
EXAMPLES = {"pydantic_ai_agent.py": "pydantic_ai", "langchain_agent.py": "langchain.agents",
            "openai_agents_agent.py": "agents.testing",
            "claude_agent_sdk_hooks.py": "claude_agent_sdk"}


def test_every_example_is_listed_here():
    assert {p.name for p in FOLDER.glob("*.py")} == set(EXAMPLES)


@pytest.mark.parametrize("script", sorted(EXAMPLES))
def test_the_example_runs_and_its_guard_holds(script, tmp_path):
    if importlib.util.find_spec(EXAMPLES[script].split(".")[0]) is None:
        pytest.skip(f"{EXAMPLES[script]} is not installed (its harness extra)")
    copy = tmp_path / "frameworks"
    shutil.copytree(FOLDER, copy, ignore=shutil.ignore_patterns(".cache"))
    done = subprocess.run([sys.executable, str(copy / script)], capture_output=True, check=False,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert REFUSED in done.stdout
    assert "tool ran: rm -rf /" not in done.stdout
    if script != "claude_agent_sdk_hooks.py":  # that one only asks the callbacks
        assert "tool ran: ls" in done.stdout
