"""The calls' tests run builtin tools in a home made by tests/tools/builtin_helpers.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
