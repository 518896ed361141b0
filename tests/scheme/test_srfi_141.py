"""SRFI 141 integer division, as (scheme division): the six roundings of the quotient, from
the SRFI's definitions (n = d * q + r), exact and inexact, and the errors."""

from __future__ import annotations

import pytest

from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def d() -> LibraryRunner:
    return LibraryRunner("(scheme division)")


@pytest.mark.parametrize("name", ["(srfi 141)", "(scheme division)"])
def test_both_names_import_in_the_sandbox(name):
    assert LibraryRunner(name)("(call-with-values (lambda () (euclidean/ -7 2)) list)") == \
        "(-4 1)"


# (n d) -> (q r) for each operator, on the four sign combinations
ROWS = {
    "floor": {(7, 2): (3, 1), (-7, 2): (-4, 1), (7, -2): (-4, -1), (-7, -2): (3, -1)},
    "truncate": {(7, 2): (3, 1), (-7, 2): (-3, -1), (7, -2): (-3, 1), (-7, -2): (3, -1)},
    "ceiling": {(7, 2): (4, -1), (-7, 2): (-3, -1), (7, -2): (-3, 1), (-7, -2): (4, 1)},
    # ties to even: 7/2 = 3.5 -> 4, 5/2 = 2.5 -> 2
    "round": {(7, 2): (4, -1), (-7, 2): (-4, 1), (7, -2): (-4, -1), (-7, -2): (4, 1),
              (5, 2): (2, 1), (-5, 2): (-2, -1)},
    # the remainder is never negative
    "euclidean": {(7, 2): (3, 1), (-7, 2): (-4, 1), (7, -2): (-3, 1), (-7, -2): (4, 1)},
    # -|d|/2 <= r < |d|/2
    "balanced": {(7, 2): (4, -1), (-7, 2): (-3, -1), (7, -2): (-4, -1), (-7, -2): (3, -1),
                 (5, 4): (1, 1), (3, 4): (1, -1), (6, 4): (2, -2), (-6, 4): (-1, -2)},
}


@pytest.mark.parametrize("op", list(ROWS))
def test_quotient_and_remainder(d, op):
    for (n, dv), (q, r) in ROWS[op].items():
        assert d(f"(call-with-values (lambda () ({op}/ {n} {dv})) list)") == f"({q} {r})", (n, dv)
        assert d(f"(list ({op}-quotient {n} {dv}) ({op}-remainder {n} {dv}))") == f"({q} {r})"
        assert q * dv + r == n


def test_inexact_integers_give_inexact_results(d):
    assert d("(call-with-values (lambda () (ceiling/ 7.0 2)) list)") == "(4.0 -1.0)"
    assert d("(euclidean-remainder -7 2.0)") == "1.0"


def test_big_integers(d):
    assert d("(round-quotient (expt 10 30) 3)") == "333333333333333333333333333333"
    assert d("(balanced-remainder (+ (expt 2 100) 3) 4)") == "-1"


def test_errors(d):
    assert d.error("(ceiling/ 7 0)") == "ceiling/: division by zero"
    assert d.error("(round-quotient 7.5 2)") == "round-quotient: expected an integer, got 7.5"
    assert d.error("(balanced-remainder 'a 2)") == \
        "balanced-remainder: expected an integer, got a"
