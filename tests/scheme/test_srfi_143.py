"""SRFI 143 fixnums, as (scheme fixnum): 62-bit two's complement integers whose every
result is checked (an overflow is an error, never a wrap-around)."""

from __future__ import annotations

import pytest

from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def fx() -> LibraryRunner:
    return LibraryRunner("(scheme fixnum)")


@pytest.mark.parametrize("name", ["(srfi 143)", "(scheme fixnum)"])
def test_both_names_import_in_the_sandbox(name):
    assert LibraryRunner(name)("(fx+ 2 3)") == "5"


CASES = [
    ("(list fx-width fx-greatest fx-least (= fx-greatest (- (expt 2 61) 1)))",
     "(62 2305843009213693951 -2305843009213693952 #t)"),
    ("(list (fixnum? 5) (fixnum? fx-least) (fixnum? (+ fx-greatest 1)) (fixnum? 1.0))",
     "(#t #t #f #f)"),
    ("(list (fx=? 1 1 1) (fx<? 1 2 3) (fx<? 1 3 2) (fx>? 3 2) (fx<=? 2 2 3) (fx>=? 3 3 1))",
     "(#t #t #f #t #t #t)"),
    ("(list (fxzero? 0) (fxpositive? -1) (fxnegative? -1) (fxodd? 3) (fxeven? -4))",
     "(#t #f #t #t #t)"),
    ("(list (fxmax 1 5 3) (fxmin 4 -2) (fx+ 2 3) (fx- 7 2) (fx- 3) (fxneg -4) (fx* -3 4))",
     "(5 -2 5 5 -3 4 -12)"),
    ("(list (fxquotient -7 2) (fxremainder -7 2) (fxabs -7) (fxsquare 9))", "(-3 -1 7 81)"),
    ("(call-with-values (lambda () (fxsqrt 17)) list)", "(4 1)"),
    ("(call-with-values (lambda () (fx+/carry fx-greatest 1 0)) list)",
     "(-2305843009213693952 1)"),
    ("(call-with-values (lambda () (fx-/carry 5 2 1)) list)", "(2 0)"),
    ("(call-with-values (lambda () (fx*/carry fx-greatest 2 0)) list)", "(-2 1)"),
    ("(list (fxnot 6) (fxand 6 3) (fxior 6 3) (fxxor 6 3) (fxand) (fxior))",
     "(-7 2 7 5 -1 0)"),
    (("(list (fxarithmetic-shift 3 2) (fxarithmetic-shift 4 -2) (fxarithmetic-shift-left 1 3) "
     "(fxarithmetic-shift-right -8 1))"), "(12 1 8 -4)"),
    ("(list (fxbit-count 7) (fxbit-count -8) (fxlength 8) (fxlength -8) (fxfirst-set-bit 40))",
     "(3 3 4 3 3)"),
    ("(list (fxif 3 1 8) (fxbit-set? 2 7) (fxbit-set? 3 7) (fxcopy-bit 2 0 #t))",
     "(9 #t #f 4)"),
    (("(list (fxbit-field #b1101101010 3 9) (fxbit-field-rotate #b110 1 2 4) "
     "(fxbit-field-reverse 6 1 4))"), "(45 10 12)"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_operations(fx, src, expected):
    assert fx(src) == expected


def test_overflow_is_an_error(fx):
    assert fx.error("(fx+ fx-greatest 1)").startswith("fx+: the result is not a fixnum")
    assert fx.error("(fx* fx-greatest 2)").startswith("fx*: the result is not a fixnum")
    assert fx.error("(fxneg fx-least)").startswith("fxneg: the result is not a fixnum")
    assert fx.error("(fxarithmetic-shift-left 1 61)").startswith(
        "fxarithmetic-shift-left: the result is not a fixnum")


def test_arguments_must_be_fixnums(fx):
    assert fx.error("(fx+ 1 (expt 2 62))") == \
        "fx+: expected a fixnum, got 4611686018427387904"
    assert fx.error("(fx<? 1 2.0)") == "fx<?: expected a fixnum, got 2.0"
    assert fx.error("(fxquotient 1 0)") == "fxquotient: division by zero"
    assert fx.error("(fxbit-set? 62 1)") == "fxbit-set?: expected a bit index from 0 to 61, got 62"
    assert fx.error("(fxarithmetic-shift 1 100)") == \
        "fxarithmetic-shift: expected a shift count below 62 in size, got 100"
