"""Fixtures of the ``harness test`` tests: a home with a guard hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooktest_helpers import GUARD


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD, encoding="utf-8")
    return home
