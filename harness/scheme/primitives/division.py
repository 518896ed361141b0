"""Integer division (SRFI 141, R7RS-large's ``(scheme division)``).

Six ways to divide integers, each as ``OP/`` (quotient and remainder, two values),
``OP-quotient`` and ``OP-remainder``; ``n = d * q + r`` always, and they differ in how the
quotient is rounded: ``floor`` (toward -inf) and ``truncate`` (toward 0) are R7RS-small's
(``(scheme base)``), ``ceiling`` rounds toward +inf, ``round`` to the nearest integer
(ties to even), ``euclidean`` so that the remainder is never negative, ``balanced`` so that
``-|d|/2 <= r < |d|/2``. Arguments are integers, exact or inexact (an inexact argument
makes the results inexact); a zero divisor is an error.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from harness.scheme.datatypes import Values
from harness.scheme.primitives import LIBRARIES, define, library_name
from harness.scheme.primitives.numbers import division_args, division_result

LIB = "srfi 141"


def _ceiling(n: int, d: int) -> int:
    return -(-n // d)


def _round(n: int, d: int) -> int:
    return round(Fraction(n, d))  # a Fraction rounds its ties to even


def _euclidean(n: int, d: int) -> int:
    return n // d if d > 0 else _ceiling(n, d)


def _balanced(n: int, d: int) -> int:
    q = _euclidean(n, d)
    if 2 * (n - d * q) >= abs(d):  # the remainder in [|d|/2, |d|): one divisor less
        q += 1 if d > 0 else -1
    return q


def _operators(name: str, quotient_of: Callable[[int, int], int]) -> None:
    """Register ``NAME/``, ``NAME-quotient`` and ``NAME-remainder``."""
    def divide(n: object, d: object) -> Values:
        a, b, inexact = division_args(f"{name}/", n, d)
        q = quotient_of(a, b)
        return Values((division_result(q, inexact), division_result(a - b * q, inexact)))

    def quotient(n: object, d: object) -> object:
        a, b, inexact = division_args(f"{name}-quotient", n, d)
        return division_result(quotient_of(a, b), inexact)

    def remainder(n: object, d: object) -> object:
        a, b, inexact = division_args(f"{name}-remainder", n, d)
        return division_result(a - b * quotient_of(a, b), inexact)

    for suffix, fn in (("/", divide), ("-quotient", quotient), ("-remainder", remainder)):
        fn.__doc__ = (f"SRFI 141 ``{name}{suffix}``: n = d * q + r, q = {name} of n / d.")
        define(LIB, name + suffix, fn)


for _name, _quotient in (("ceiling", _ceiling), ("round", _round),
                         ("euclidean", _euclidean), ("balanced", _balanced)):
    _operators(_name, _quotient)

# floor and truncate are (scheme base)'s own procedures
for _name in ("floor/", "floor-quotient", "floor-remainder",
              "truncate/", "truncate-quotient", "truncate-remainder"):
    define(LIB, _name, LIBRARIES[library_name("scheme base")][_name])
