"""Fixtures of the declared-handler tests: claude-hook in this process (the local HTTP
server for http handlers and model endpoints is tests/conftest.py's ``local_server``).
They share claude_helpers (tests/fixtures/handlers) with tests/cli."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "handlers"))

from claude_helpers import run_claude_hook


@pytest.fixture
def claude_hook(capsys, monkeypatch):
    """``harness claude-hook --home HOME`` in this process: (status, stdout, stderr)."""
    def run(home, payload, *extra):
        return run_claude_hook(home, payload, capsys, monkeypatch, *extra)
    return run
