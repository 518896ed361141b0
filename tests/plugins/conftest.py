"""A fresh, empty plugins directory per test."""

from pathlib import Path

import pytest


@pytest.fixture
def plugins_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "plugins"
    directory.mkdir()
    return directory
