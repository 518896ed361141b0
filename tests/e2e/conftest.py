"""Fixtures for end-to-end tests against real agent hosts (installed once, cached)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.claude_code import ClaudeCode, NpmMissing, install_claude_code


@pytest.fixture(scope="session")
def claude_code_binary() -> Path:
    """The pinned real Claude Code binary (installed into ~/.cache/harness-e2e on first use);
    skips only when npm is missing."""
    try:
        return install_claude_code()
    except NpmMissing as exc:
        pytest.skip(str(exc))
    except subprocess.CalledProcessError as exc:
        pytest.fail(f"npm install failed: {exc.stderr}")


@pytest.fixture
def claude_code(claude_code_binary: Path, tmp_path: Path) -> ClaudeCode:
    """A Claude Code with a scratch HOME (onboarded) and a trusted project under tmp_path."""
    return ClaudeCode(claude_code_binary, tmp_path)


@pytest.fixture(scope="session")
def harness_executable() -> str:
    """The absolute path of the ``harness`` command of the running venv (for hook commands)."""
    candidate = Path(sys.executable).parent / "harness"
    if not candidate.exists():
        pytest.skip(f"no harness executable beside {sys.executable}")
    return str(candidate)
