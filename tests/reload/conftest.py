"""A temporary home with tools/ and plugins/, and a live (watched) runtime over it."""

from __future__ import annotations

from pathlib import Path

import pytest
from reload_helpers import Live, watcher_threads


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "plugins").mkdir()
    return tmp_path


@pytest.fixture
def live(home: Path):
    """Start watching after the test has written its initial files: call live(home)."""
    started: list[Live] = []

    def start() -> Live:
        started.append(Live(home))
        return started[-1]

    before = watcher_threads()
    yield start
    for each in started:
        each.stop()
    assert watcher_threads() <= before, "hot reload left threads running"
