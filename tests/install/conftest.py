"""Fixtures of the installer tests: a harness home, a project and a user HOME, all under
tmp_path (never the real ~)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "harness-home"
    (home / "tools").mkdir(parents=True)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch) -> Path:
    """$HOME for --user installs; CODEX_HOME unset so Codex's files go under it."""
    user = tmp_path / "user"
    user.mkdir()
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return user
