"""``+ - < > <= >= = zero?`` compiled as Python operators (inline.py) fail on non-numbers
like the procedures do, instead of comparing or concatenating pairs (Python lists) — which
also recursed in C on long lists — and evaluate every argument."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter
from harness.scheme.printer import write_string


def run(src: str) -> object:
    return Interpreter(tier="sandboxed").eval_string(src)


@pytest.mark.parametrize("src, message", [
    ("(= 'a 'a)", "=: expected a number, got a symbol"),
    ("(= '(1) '(1))", "=: expected a number, got a pair"),
    ("(let ((x 1) (y '(1))) (= x y))", "=: expected a number, got a pair"),
    ("(< '(1) '(2))", "<: expected a number, got a pair"),
    ("(>= \"b\" \"a\")", ">=: expected a number, got a string"),
    ("(+ '(1) '(2))", "+: expected a number, got a pair"),
    ("(+ (vector 1) (vector 2))", "+: expected a number, got a vector"),
    ("(let ((x '(1)) (y '(2))) (< x y))", "<: expected a number, got a pair"),
    ("(let ((x 1) (y 'b)) (= x y))", "=: expected a number, got a symbol"),
])
def test_non_numbers_are_errors(src, message):
    with pytest.raises(SchemeError) as info:
        run(src)
    assert message in info.value.message


def test_numbers_compute_as_before():
    values = run("(list (+ 1 2) (+ 1.5 2) (- 5 3) (< 1 2 3) (= 2 2.0) (zero? 0.0)"
                 " (> 3 2 1) (<= 1 1 2) (+ 1/2 1/3) (= -0.0 0) (+ -0.0 -0.0))")
    assert write_string(values) == "(3 3.5 2 #t #t #t #t #t 5/6 #t -0.0)"


def test_against_a_number_literal_a_non_number_is_not_equal():
    # the documented deviation: no check beside a literal (no comparison of pairs either)
    assert write_string(run("(list (= 'a 5) (= 5 '(5)) (zero? '()) (zero? 0))")) == \
        "(#f #f #f #t)"


def test_every_argument_of_a_chain_is_evaluated():
    assert write_string(run("(define n 0) (define (f x) (set! n (+ n 1)) x)"
                            " (list (< 2 1 (f 5)) (= 1 2 (f 1) (f 1)) n)")) == "(#f #f 3)"


def test_a_long_list_compared_does_not_recurse():
    src = "(let loop ((i 0) (x '())) (if (= i 200000) (= x x) (loop (+ i 1) (cons 1 x))))"
    with pytest.raises(SchemeError, match="expected a number, got a pair"):
        run(src)


@pytest.mark.parametrize("src, message", [
    ("(let ((v (vector 1 2)) (i 2)) (vector-ref v i))", "vector-ref: index out of range"),
    ("(let ((v (vector 1 2)) (i 0)) (vector-ref v (- i 1)))", "vector-ref: index out of range"),
    ("(let ((v (list 1 2))) (vector-ref v 0))", r"vector-ref: expected a vector, got \(1 2\)"),
    ("(let ((v (vector 1 2)) (i #t)) (vector-ref v i))",
     "vector-ref: expected an exact integer index"),
    ("(let ((v (vector 1 2)) (i 'a)) (vector-ref v (+ i 1)))", r"\+: expected numbers, got a symbol"),
    ("(let ((v \"ab\")) (vector-length v))", "vector-length: expected a vector, got \"ab\""),
])
def test_inlined_vector_access_fails_like_the_procedures(src, message):
    with pytest.raises(SchemeError, match=message):
        run(src)


def test_inlined_vector_access_reads_the_vector():
    assert run("(let ((v (vector 10 20 30)))"
               "  (let loop ((i 0) (acc 0))"
               "    (if (= i (vector-length v)) acc (loop (+ i 1) (+ acc (vector-ref v i))))))"
               ) == 60


def test_a_redefined_vector_ref_is_called_not_inlined():
    assert run("(define (vector-ref v i) 'mine) (let ((v (vector 1))) (vector-ref v 0))"
               ).name == "mine"
