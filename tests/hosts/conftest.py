"""The host adapter tests share tests/fixtures/hosts/guard_home.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "hosts"))
