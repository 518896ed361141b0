"""The home the ``harness mcp`` tests serve (tests/mcp_server/mcp_helpers.py)."""

from __future__ import annotations

import pytest

from tests.mcp_server.mcp_helpers import make_home


@pytest.fixture
def home(tmp_path):
    return make_home(tmp_path)
