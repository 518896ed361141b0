"""(scheme time) and (scheme process-context).

``exit`` does not end the Python process: it raises ``SchemeExit``, which the runtime
catches. Unwinding through Python ``finally`` blocks runs the after thunks of the
``dynamic-wind`` forms it leaves, as R7RS asks of ``exit``; ``emergency-exit`` raises it
marked ``emergency`` so that dynamic-wind can skip them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from harness.scheme.datatypes import DEFAULT, String, py_to_list
from harness.scheme.errors import wrong_type
from harness.scheme.primitives import primitive
from harness.scheme.primitives.numbers import as_int

#: the program's command line as (command-line) reports it; the CLI sets this
COMMAND_LINE: Sequence[str] = ("harness",)

JIFFIES_PER_SECOND = 1_000_000


class SchemeExit(BaseException):
    """A Scheme program asked to exit with ``code`` (a BaseException: ``guard`` and
    ``except Exception`` handlers must not stop it)."""

    def __init__(self, code: int, emergency: bool = False) -> None:
        super().__init__(code)
        self.code = code
        self.emergency = emergency


def exit_code(obj: object) -> int:
    """R7RS exit status: no argument or #t is success (0), #f failure (1), an exact
    integer itself; anything else counts as failure."""
    if obj is DEFAULT or obj is True:
        return 0
    if type(as_int(obj)) is int:
        return as_int(obj)
    return 1


# -- (scheme time) -------------------------------------------------------------------------

@primitive("scheme time")
def current_second() -> float:
    return time.time()


@primitive("scheme time")
def current_jiffy() -> int:
    return time.perf_counter_ns() // (1_000_000_000 // JIFFIES_PER_SECOND)


@primitive("scheme time")
def jiffies_per_second() -> int:
    return JIFFIES_PER_SECOND


# -- (scheme process-context) --------------------------------------------------------------

@primitive("scheme process-context")
def command_line() -> object:
    return py_to_list(String(arg) for arg in COMMAND_LINE)


@primitive("scheme process-context", name="exit")
def exit_(obj: object = DEFAULT) -> None:
    raise SchemeExit(exit_code(obj))


@primitive("scheme process-context")
def emergency_exit(obj: object = DEFAULT) -> None:
    raise SchemeExit(exit_code(obj), emergency=True)


@primitive("scheme process-context")
def get_environment_variable(name: object) -> object:
    if name.__class__ is not String:
        raise wrong_type("get-environment-variable", "a string", name)
    value = os.environ.get(name.s)
    return False if value is None else String(value)


@primitive("scheme process-context")
def get_environment_variables() -> object:
    return py_to_list([String(k), String(v)] for k, v in os.environ.items())
