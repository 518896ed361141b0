"""Shared test helpers: evaluate Scheme text and compare written results."""

from __future__ import annotations

import pytest

from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.printer import write_string


class SchemeRunner:
    """Evaluate Scheme source in one environment; results as written text."""

    def __init__(self, tier: str = "unsandboxed") -> None:
        self.interp = Interpreter(tier=tier)

    def value(self, src: str):
        return self.interp.eval_string(src)

    def __call__(self, src: str) -> str:
        return write_string(self.interp.eval_string(src))

    def error(self, src: str) -> str:
        """The formatted error ``src`` raises (fails the test if it raises none)."""
        try:
            value = self.interp.eval_string(src)
        except BaseException as exc:  # noqa: BLE001 - the error is what we test
            return format_error(exc)
        pytest.fail(f"expected an error, got {write_string(value)}")


@pytest.fixture
def scheme() -> SchemeRunner:
    return SchemeRunner()


@pytest.fixture
def sandboxed() -> SchemeRunner:
    return SchemeRunner("sandboxed")


@pytest.fixture(scope="module")
def interp() -> Interpreter:
    """One unsandboxed interpreter shared by a test module's Scheme-level cases."""
    return Interpreter()


@pytest.fixture
def expect_written(interp):
    """Check that Scheme ``src`` evaluates to a value written as ``expected``."""
    def check(src: str, expected: str) -> None:
        assert write_string(interp.eval_string(src)) == expected
    return check


@pytest.fixture
def expect_error(interp):
    """Check that Scheme ``src`` raises a SchemeError whose message contains ``message``."""
    from harness.scheme.errors import SchemeError

    def check(src: str, message: str) -> None:
        with pytest.raises(SchemeError) as info:
            interp.eval_string(src)
        assert message in info.value.message
    return check
