"""SRFI 144 flonums, as (scheme flonum): IEEE 754 doubles with C's answers at the edges
(NaN for a domain error, infinities for overflows and poles), and the errors."""

from __future__ import annotations

import pytest

from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def fl() -> LibraryRunner:
    return LibraryRunner("(scheme flonum)")


@pytest.mark.parametrize("name", ["(srfi 144)", "(scheme flonum)"])
def test_both_names_import_in_the_sandbox(name):
    assert LibraryRunner(name)("(fl+ 1.0 2.0)") == "3.0"


CASES = [
    ("(list fl-pi fl-e (fl<? 2.2e-16 fl-epsilon 2.3e-16) fl-least (flfinite? fl-greatest))",
     "(3.141592653589793 2.718281828459045 #t 5e-324 #t)"),
    ("(list (flonum 1/2) (flonum 3) (flonum? 1.0) (flonum? 1))", "(0.5 3.0 #t #f)"),
    (("(list (fl+) (fl+ 1.0 2.0 3.0) (fl*) (fl* 2.0 3.0) (fl- 5.0) (fl- 5.0 1.0 1.0) "
     "(fl/ 4.0) (fl/ 8.0 2.0 2.0))"), "(0.0 6.0 1.0 6.0 -5.0 3.0 0.25 2.0)"),
    (("(list (fl=? 1.0 1.0 1.0) (fl<? 1.0 2.0 3.0) (fl>? 3.0 1.0) (fl<=? 1.0 1.0) "
     "(fl>=? 1.0 2.0) (fl=? +nan.0 +nan.0) (flunordered? 1.0 +nan.0))"),
     "(#t #t #t #t #f #f #t)"),
    ("(list (flmax 1.0 3.0 2.0) (flmin 1.0 -2.0) (flmax) (flmin))", "(3.0 -2.0 -inf.0 +inf.0)"),
    (("(list (flfloor -1.5) (flceiling -1.5) (flround 2.5) (flround -2.5) (fltruncate -1.9) "
     "(flfloor +inf.0))"), "(-2.0 -1.0 2.0 -2.0 -1.0 +inf.0)"),
    (("(list (flabs -2.0) (flabsdiff 1.0 4.0) (flposdiff 4.0 1.0) (flposdiff 1.0 4.0) "
     "(flsgn -3.0) (flnumerator 0.75) (fldenominator 0.75))"), "(2.0 3.0 3.0 0.0 -1.0 3.0 4.0)"),
    (("(list (flinteger? 2.0) (flinteger? 2.5) (flodd? 3.0) (fleven? -4.0) (flzero? -0.0) "
     "(flnormalized? 1.0) (fldenormalized? 5e-324) (flsign-bit -0.0))"),
     "(#t #f #t #t #t #t #t 1)"),
    (("(list (flsqrt 4.0) (flcbrt 27.0) (flcbrt -8.0) (flexp 0.0) (flexp2 10.0) (flsquare 3.0) "
     "(flhypot 3.0 4.0) (flexpt 2.0 0.5))"),
     "(2.0 3.0 -2.0 1.0 1024.0 9.0 5.0 1.4142135623730951)"),
    (("(list (fllog 1.0) (fllog2 8.0) (fllog10 1000.0) ((make-fllog-base 2.0) 8.0) "
     "(flexp-1 0.0) (fllog1+ 0.0))"), "(0.0 3.0 3.0 3.0 0.0 0.0)"),
    ("(list (flsin 0.0) (flcos 0.0) (flatan 1.0 -1.0) (flasinh 0.0) (fltanh 0.0))",
     "(0.0 1.0 2.356194490192345 0.0 0.0)"),
    (("(list (flquotient 7.0 2.0) (flremainder -7.0 2.0) "
     "(call-with-values (lambda () (flremquo 7.0 2.0)) list))"), "(3.0 -1.0 (-1.0 4))"),
    (("(list (call-with-values (lambda () (flinteger-fraction -3.5)) list) "
     "(call-with-values (lambda () (flnormalized-fraction-exponent 8.0)) list) "
     "(flexponent 8.0) (flinteger-exponent 8.0) (make-flonum 1.5 3) (fladjacent 1.0 2.0))"),
     "((-3.0 -0.5) (0.5 4) 3.0 3 12.0 1.0000000000000002)"),
    (("(list (flgamma 5.0) (call-with-values (lambda () (flloggamma -0.5)) list) "
     "(flerf 0.0) (flerfc 0.0))"), "(24.0 (1.265512123484645 -1.0) 0.0 1.0)"),
    (("(list (flfirst-bessel 0 0.0) (flfirst-bessel 1 0.0) (fl<? 0.765 (flfirst-bessel 0 1.0) 0.766) "
     "(fl<? 0.1459 (flsecond-bessel 1 2.5) 0.146))"), "(1.0 0.0 #t #t)"),
    # C's answers at the edges: NaNs, infinities, signed zeros
    ("(list (flsqrt -1.0) (fl/ 1.0 0.0) (fl/ -1.0 0.0) (fl/ 0.0 0.0) (fllog 0.0) (fllog -1.0))",
     "(+nan.0 +inf.0 -inf.0 +nan.0 -inf.0 +nan.0)"),
    (("(list (flexp 1000.0) (flsinh -1000.0) (flatanh 1.0) (flexpt 0.0 -1.0) (flexpt -0.0 -3.0) "
     "(flgamma 0.0) (flgamma -1.0) (flinteger-exponent 0.0))"),
     "(+inf.0 -inf.0 +inf.0 +inf.0 -inf.0 +inf.0 +nan.0 -2147483648)"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_operations(fl, src, expected):
    assert fl(src) == expected


def test_fused_multiply_add_rounds_once(fl):
    # 0.1 * 10 is exactly 1 + 2^-54 before rounding: fl+* keeps the tail, * then + loses it
    assert fl("(list (fl+* 0.1 10.0 -1.0) (fl+ (fl* 0.1 10.0) -1.0))") == \
        "(5.551115123125783e-17 0.0)"


def test_errors(fl):
    assert fl.error("(fl+ 1.0 1)") == "fl+: expected a flonum, got 1"
    assert fl.error("(flsqrt 4)") == "flsqrt: expected a flonum, got 4"
    assert fl.error("(flodd? 1.5)") == "flodd?: expected an integral flonum, got 1.5"
    assert fl.error("(flonum 'x)") == "flonum: expected a real number, got x"
    assert fl.error("(make-fllog-base 1.0)") == \
        "make-fllog-base: expected a flonum above 1.0, got 1.0"
    assert fl.error("(flfirst-bessel 1.5 1.0)") == \
        "flfirst-bessel: expected an exact integer order, got 1.5"


def test_an_overflow_keeps_its_sign_and_rounding_keeps_a_negative_zero(fl):
    # (C's answers: -inf.0 for a negative overflow; round, floor... of -0.4 is -0.0)
    assert fl("(list (flonum (- (expt 10 400))) (make-flonum -1.0 5000) "
              "(fl+* -1e308 10.0 0.0))") == "(-inf.0 -inf.0 -inf.0)"
    assert fl("(list (flround -0.4) (flceiling -0.5) (fltruncate -0.5) (flfloor -0.0) "
              "(flround 0.4))") == "(-0.0 -0.0 -0.0 -0.0 0.0)"
