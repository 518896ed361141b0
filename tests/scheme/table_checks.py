"""Helpers of the table-driven tests of primitives: look a procedure up by its Scheme name,
run a check on every row of a table, read the message a call fails with."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.primitives import LIBRARIES


def primitive_named(name: str, libraries: Iterable[tuple[str, ...]]) -> Callable:
    """The procedure ``name`` of the first of ``libraries`` that exports it."""
    for lib in libraries:
        if name in LIBRARIES.get(lib, {}):
            return LIBRARIES[lib][name]
    raise KeyError(name)


def each(rows, check, single: bool = False) -> None:
    """Run ``check`` on every row of a table and report all failing rows at once."""
    failures = []
    for row in rows:
        try:
            check(row) if single else check(*row)
        except AssertionError as exc:
            failures.append(f"{row!r}: {exc}")
    assert not failures, "\n".join(failures)


def failure_message(fn: Callable, *args) -> str:
    """The message of the SchemeError ``fn(*args)`` raises."""
    with pytest.raises(SchemeError) as info:
        fn(*args)
    return info.value.payload.message
