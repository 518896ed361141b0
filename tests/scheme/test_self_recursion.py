"""Procedures that call themselves by name, not in tail position: results, errors,
continuations re-entered inside the recursion, and a redefined name (R7RS: each call looks
the name up)."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.printer import write_string


def run(src: str) -> str:
    return write_string(Interpreter(tier="sandboxed").eval_string(src))


def test_tree_and_linear_recursions_compute_as_written():
    assert run("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))"
               "(define (build n) (if (= n 0) '() (cons n (build (- n 1)))))"
               "(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))"
               "(list (fib 20) (sum (build 1000)) (map fib '(0 1 2 3 10)))") == \
        "(6765 500500 (0 1 1 2 55))"


def test_a_continuation_reentered_inside_a_recursion_resumes_every_level():
    assert run("""
        (define k #f)
        (define log '())
        (define (f n)
          (if (= n 0) (call/cc (lambda (c) (set! k c) 0)) (+ n (f (- n 1)) (* 10 n))))
        (define (go)
          (let ((r (f 4)))
            (set! log (cons r log))
            (if (< (length log) 3) (k (length log)) (reverse log))))
        (go)""") == "(110 111 112)"


def test_an_error_deep_in_a_recursion_names_the_place_in_the_source():
    with pytest.raises(SchemeError) as info:
        Interpreter(tier="sandboxed").eval_string(
            "(define (f n)\n  (if (= n 0) (car n) (+ 1 (f (- n 1)))))\n(f 5)", "rec.scm")
    assert format_error(info.value).startswith("rec.scm:2:15: car: expected a pair")


def test_a_redefined_name_is_what_the_old_procedure_calls():
    assert run("(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
               "(define old h) (define (h n) 100) (list (old 5) (h 5))") == "(101 100)"
