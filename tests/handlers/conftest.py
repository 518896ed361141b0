"""The declared-handler tests share claude_helpers (tests/fixtures/handlers)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "handlers"))
