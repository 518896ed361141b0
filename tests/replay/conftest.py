"""Shared fixtures of the replay tests: the recorded session and its guard home."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


@pytest.fixture
def guard_home(tmp_path: Path) -> Path:
    """A copy of the home whose guard ran live in the recorded session (without [record],
    so that replaying writes nothing)."""
    home = tmp_path / "home"
    shutil.copytree(TRANSCRIPTS / "home" / "tools", home / "tools")
    return home


@pytest.fixture
def session_file() -> Path:
    """A real Claude Code 2.1.328 transcript (tests/e2e/record_session.py made it)."""
    return TRANSCRIPTS / "claude-code" / "session.jsonl"


@pytest.fixture
def audit_log() -> Path:
    """The audit log the guard home wrote during that same session."""
    return TRANSCRIPTS / "recording" / "audit.jsonl"
