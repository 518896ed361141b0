"""Integral Fractions: inlined ``+ - *`` can leave ``Fraction(n, 1)`` (e.g. ``(+ 1/3 2/3)``);
every place that observes a number treats one exactly like the int it equals."""

from __future__ import annotations

from fractions import Fraction as Q

import pytest

import harness.scheme.primitives.chars  # noqa: F401  (registers the procedures)
from harness.bridge import dumps, scheme_to_json
from harness.scheme.datatypes import String, Values, Vector, py_to_list
from harness.scheme.numparse import format_number
from harness.scheme.primitives.equivalence import (
    equal_hash,
    equal_key,
    eqv_key,
    is_eq,
    is_equal,
    is_eqv,
)
from harness.scheme.primitives.numbers import as_int

ONE = Q(1, 1)  # what (+ 1/3 2/3) evaluates to when the compiler inlines +
TWO = Q(2, 1)


# -- Python level --------------------------------------------------------------------------

def test_as_int_turns_only_integral_fractions_into_ints():
    assert as_int(TWO) == 2 and type(as_int(TWO)) is int
    assert type(as_int(Q(-7, 1))) is int
    for unchanged in (Q(1, 2), 2.0, 3, True, String("2"), None):
        assert as_int(unchanged) is unchanged


def test_format_number_writes_an_integral_fraction_as_an_integer():
    assert format_number(TWO) == "2"
    assert format_number(Q(-5, 1), 2) == "-101"
    assert format_number(Q(1, 2)) == "1/2"


def test_eqv_int_and_integral_fraction():
    assert is_eqv(ONE, 1) and is_eqv(1, ONE) and is_eqv(ONE, Q(1, 1))
    assert is_eq(TWO, 2)
    assert not is_eqv(ONE, 1.0) and not is_eqv(1.0, ONE)
    assert not is_eqv(ONE, True) and not is_eqv(True, ONE)
    assert not is_eqv(Q(1, 2), 0) and not is_eqv(2, Q(5, 2))


def test_equal_finds_integral_fractions_inside_structure():
    assert is_equal(py_to_list([1, 2]), py_to_list([ONE, 2]))
    assert is_equal(py_to_list([ONE, 2]), py_to_list([1, TWO]))
    assert is_equal(Vector([ONE]), Vector([1]))
    assert not is_equal(py_to_list([1]), py_to_list([1.0]))
    assert not is_equal(py_to_list([1]), py_to_list([True]))
    assert not is_equal(py_to_list([1]), py_to_list([String("1")]))


def test_hash_keys_of_integral_fraction_are_the_int_keys():
    assert eqv_key(TWO) == eqv_key(2) and type(eqv_key(TWO)) is int
    assert equal_key(TWO) == equal_key(2)
    assert equal_key(py_to_list([TWO])) == equal_key(py_to_list([2]))
    assert equal_hash(py_to_list([TWO, ONE])) == equal_hash(py_to_list([2, 1]))
    assert eqv_key(TWO) != eqv_key(2.0)


def test_bridge_emits_an_integer():
    value = scheme_to_json(TWO)
    assert value == 2 and type(value) is int
    nested = scheme_to_json(Vector([TWO, Q(10 ** 30, 1), Q(1, 2)]))
    assert [type(x) for x in nested] == [int, int, float]
    assert dumps(nested) == b"[2,1000000000000000000000000000000,0.5]"


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    # printing
    ("(+ 1/3 2/3)", "1"),
    ("(* 2/3 3/2)", "1"),
    ("(- 5/2 1/2)", "2"),
    ("(list (+ 1/3 2/3) (vector (* 2/3 3/2)))", "(1 #(1))"),
    ("(number->string (+ 1/3 2/3) 2)", '"1"'),
    ("(number->string (* 5/2 2) 2)", '"101"'),
    ("(number->string 255 (* 8/3 6))", '"ff"'),
    ("(string->number \"101\" (* 1/2 4))", "5"),
    # predicates
    ("(exact-integer? (* 2/3 3/2))", "#t"),
    ("(integer? (+ 1/3 2/3))", "#t"),
    ("(rational? (+ 1/3 2/3))", "#t"),
    ("(exact? (+ 1/3 2/3))", "#t"),
    ("(even? (* 4/3 3/2))", "#t"),
    ("(odd? (* 4/3 3/2))", "#f"),
    ("(exact-integer? 1/2)", "#f"),
    # equivalence and dispatch on it
    ("(eqv? (+ 1/2 1/2) 1)", "#t"),
    ("(eqv? 1 (+ 1/2 1/2))", "#t"),
    ("(eqv? (+ 1/2 1/2) 1.0)", "#f"),
    ("(equal? (list 1 2) (list (+ 1/2 1/2) 2))", "#t"),
    ("(case (+ 1/2 1/2) ((1) 'one) (else 'other))", "one"),
    ("(memv 1 (list 0 (+ 1/2 1/2)))", "(1)"),
    ("(assv (+ 1/2 1/2) '((1 . a)))", "(1 . a)"),
    # hash tables
    (("(let ((h (make-hash-table))) (hash-table-set! h 1 'one)"
      " (hash-table-ref h (+ 1/2 1/2)))"), "one"),
    (("(let ((h (make-hash-table eqv?))) (hash-table-set! h (* 2/3 3/2) 'one)"
      " (list (hash-table-ref/default h 1 #f) (hash-table-keys h)))"), "(one (1))"),
    (("(let ((h (make-hash-table equal?))) (hash-table-set! h (list (+ 1/2 1/2)) 5)"
      " (hash-table-ref/default h (list 1) #f))"), "5"),
    ("(= (hash 1) (hash (+ 1/2 1/2)))", "#t"),
    # arithmetic procedures taking exact integers
    ("(exact->inexact (+ 1/3 2/3))", "1.0"),
    ("(exact (+ 1/3 2/3))", "1"),
    ("(exact-integer-sqrt (* 17/2 2))", "4 1"),
    ("(quotient (* 14/3 3) 4)", "3"),
    ("(remainder (* 14/3 3) 4)", "2"),
    ("(modulo -7 (* 4/3 3))", "1"),
    ("(truncate/ (* 7/2 2) 2)", "3 1"),
    ("(floor/ (* 7/2 2) (* 1/2 4))", "3 1"),
    ("(gcd (* 4/3 3) 6)", "2"),
    ("(lcm (* 4/3 3) 6)", "12"),
    ("(expt 2 (* 5/3 3))", "32"),
    ("(expt (* 4/3 3) 1/2)", "2"),
    ("(sqrt (* 16/3 3))", "4"),
    ("(abs (- 1/3 4/3))", "1"),
    ("(max 1/2 (+ 1/2 1/2))", "1"),
    ("(min (* 3/2 2) 4)", "3"),
    ("(apply - (list (+ 1/3 2/3)))", "-1"),
    ("(square (+ 1/2 1/2))", "1"),
    ("(real-part (+ 1/2 1/2))", "1"),
    ("(magnitude (- 1/2 3/2))", "1"),
    ("(make-rectangular (+ 1/2 1/2) 0)", "1"),
    ("(round (* 5/2 2))", "5"),
    ("(numerator (* 5/2 2))", "5"),
    ("(denominator (* 5/2 2))", "1"),
    ("(integer->char (* 65/2 2))", "#\\A"),
]

# Index and size arguments of the list, vector, string and bytevector procedures.
INDEX_CASES = [
    ("(bytevector (* 1/2 4))", "#u8(2)"),
    ("(vector-ref (vector 'a 'b) (* 1/2 2))", "b"),
    ("(list-ref '(a b c) (* 1/2 2))", "b"),
    ("(string-ref \"abc\" (* 1/2 2))", "#\\b"),
    ("(make-vector (* 1/2 4) 0)", "#(0 0)"),
]

ERROR_CASES = [
    ("(exact-integer-sqrt 1/2)", "exact-integer-sqrt: expected a non-negative exact integer"),
    ("(exact-integer-sqrt (- 1/2 5/2))", "expected a non-negative exact integer, got -2"),
    ("(odd? 1/2)", "odd?: expected an integer, got 1/2"),
    ("(quotient 1/2 1)", "quotient: expected an integer, got 1/2"),
    ("(quotient 1 (- 1/2 1/2))", "quotient: division by zero"),
    ("(number->string 1 (* 3/2 2))", "number->string: expected a radix (2, 8, 10 or 16)"),
    ("(integer->char 1/2)", "integer->char: expected an exact integer, got 1/2"),
    ("(integer->char (* 1/2 -2))", "integer->char: not a Unicode scalar value"),
    ("(/ 1 (- 1/2 1/2))", "/: division by zero"),
]



def _written(value: object) -> str:
    from harness.scheme.printer import write_string
    if type(value) is Values:
        return " ".join(write_string(v) for v in value)
    return write_string(value)


@pytest.mark.parametrize(("src", "expected"), CASES)
def test_scheme_level(interp, src, expected):
    assert _written(interp.eval_string(src)) == expected


@pytest.mark.parametrize(("src", "expected"), INDEX_CASES)
def test_scheme_level_index_arguments(interp, src, expected):
    assert _written(interp.eval_string(src)) == expected


@pytest.mark.parametrize(("src", "message"), ERROR_CASES)
def test_scheme_level_errors(interp, src, message):
    from harness.scheme.errors import SchemeError
    with pytest.raises(SchemeError) as info:
        interp.eval_string(src)
    assert message in str(info.value)
