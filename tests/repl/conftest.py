"""Fixtures of the REPL tests: a small home and a session over it."""

from __future__ import annotations

from pathlib import Path

import pytest
from repl_helpers import write_home

from harness.repl.session import ReplSession
from harness.runtime import Runtime


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return write_home(tmp_path / "home")


@pytest.fixture
def repl(home: Path):
    runtime = Runtime(home)
    yield ReplSession(runtime)
    runtime.close()
