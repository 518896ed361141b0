"""Fixtures of the CLI tests: temporary homes and an in-process ``harness`` runner."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from cli_helpers import make_home

# the claude-hook tests share claude_helpers with tests/handlers
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "handlers"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "hosts"))

from harness.cli import main


@pytest.fixture(scope="session")
def home(tmp_path_factory) -> Path:
    """A home shared by the tests that only read it (its plugin schemas get cached once)."""
    return make_home(tmp_path_factory.mktemp("shared") / "home")


@pytest.fixture
def fresh_home(tmp_path: Path) -> Path:
    """A home of this test's own, for tests that change it."""
    return make_home(tmp_path / "home")


@pytest.fixture
def harness(capsys, monkeypatch):
    """Run ``harness ARGV...`` in-process: returns (exit status, stdout, stderr)."""
    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run
