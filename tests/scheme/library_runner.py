"""The runner of the library tests (SRFI 14, 125, 128): a sandboxed environment that
imported the library under test, with results as written text."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter
from harness.scheme.printer import write_string


class LibraryRunner:
    """A sandboxed environment after ``(import IMPORTS)``."""

    def __init__(self, imports: str) -> None:
        self.interp = Interpreter(tier="sandboxed")
        self.interp.eval_string(f"(import {imports})")

    def __call__(self, src: str) -> str:
        return write_string(self.interp.eval_string(src))

    def error(self, src: str) -> str:
        """The message of the SchemeError ``src`` raises (fails the test if none)."""
        with pytest.raises(SchemeError) as info:
            self.interp.eval_string(src)
        return info.value.message
