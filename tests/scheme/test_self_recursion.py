"""Procedures that call themselves by name, not in tail position: results, errors,
continuations re-entered inside the recursion, and a redefined name (R7RS: each call looks
the name up)."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.limits import TWIN_LEVELS
from harness.scheme.names import global_name, twin_name
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


# A tree recursion in code that counts steps is compiled as a pair of twins: the procedure,
# checked, and an unchecked twin its self calls go to (compiler.py). What a program sees
# must not change: every self call still reaches the name's current value.

def test_a_tree_recursion_is_checked_once_in_twin_levels():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))")
    py = global_name("fib")
    checked = interp.env.table[py]
    assert "h_step_twin" in checked.__code__.co_names  # counts one step per level
    calls = twin_name(py)
    for level in range(1, TWIN_LEVELS):
        assert calls in interp.env.table[py if level == 1 else twin_name(py, level - 1)] \
            .__code__.co_names
        twin = interp.env.table[calls].__code__
        assert "h_step" not in twin.co_names and "h_step_twin" not in twin.co_names
        calls = twin_name(py, level + 1) if level + 1 < TWIN_LEVELS else py
    assert calls in twin.co_names  # the last twin calls the global again
    assert interp.eval_string("(fib 20)") == 6765


def test_a_wrapper_set_after_the_definition_sees_every_self_call():
    assert run("(define calls 0)"
               "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))"
               "(define plain fib)"
               "(set! fib (lambda (n) (set! calls (+ calls 1)) (plain n)))"
               "(list (fib 10) calls)") == "(55 177)"


def test_a_set_compiled_before_the_definition_is_seen_too():
    assert run("(define (install!) (set! h (lambda (n) 100)))"
               "(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
               "(define old h) (install!) (list (old 5) (h 5))") == "(101 100)"


def test_a_redefinition_in_the_same_form_is_seen():
    assert run("(begin (define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
               "       (define old h)"
               "       (define h (lambda (n) 100)))"
               "(old 5)") == "101"


def test_a_value_defined_from_python_is_what_the_old_procedure_calls():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1))))) (define old h)")
    interp.env.define("h", lambda n: 100)
    assert interp.eval_string("(old 5)") == 101


def test_a_wrong_self_call_names_the_procedure():
    with pytest.raises(SchemeError) as info:
        Interpreter(tier="sandboxed").eval_string(
            "(define (f n) (if (= n 0) 0 (+ (f (- n 1)) (f))))\n(f 3)", "arity.scm")
    message = format_error(info.value)
    assert "f: missing 1 argument" in message and "twin" not in message


def test_a_continuation_reentered_through_both_twins_keeps_the_operands_before_it():
    # (id n) is evaluated before the recursive call, so each level keeps it in a temporary
    assert run("""
        (define k #f)
        (define log '())
        (define (id x) x)
        (define (f n)
          (if (= n 0) (call/cc (lambda (c) (set! k c) 0)) (+ (id n) (f (- n 1)))))
        (define (go)
          (let ((r (f 5)))
            (set! log (cons r log))
            (if (< (length log) 3) (k (length log)) (reverse log))))
        (go)""") == "(15 16 17)"
