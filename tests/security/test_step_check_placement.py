"""Where compiled code checks its budget (compiler._place_budget_check): only on the paths
of a procedure that call something or loop, before the first call. A path that does
neither (the base case of a recursion) does bounded work and skips the check; every shape
of runaway code still meets a check on each call or iteration and stops at the step
budget."""

from __future__ import annotations

import pytest

from harness.scheme.errors import StepLimitExceeded
from harness.scheme.interpreter import Interpreter
from harness.scheme.limits import Budget, pending_steps
from harness.scheme.names import global_name

RUNAWAYS = {
    "self loop": "(let loop ((i 0)) (loop (+ i 1)))",
    "loop whose test is pure": "(let loop ((i 0)) (if (< i 0) 'never (loop (+ i 1))))",
    "mutual tail calls": "(define (f) (g)) (define (g) (f)) (f)",
    "mutual tail calls behind pure tests":
        "(define (f n) (if (< n 0) 0 (g n))) (define (g n) (if (< n 0) 0 (f n))) (f 1)",
    "non-tail recursion in a branch": "(define (f n) (if (< n 0) 0 (+ 1 (f n)))) (f 1)",
    "tree recursion (checked every other level)": "(define (f n) (+ (f n) (f n))) (f 1)",
    "tree recursion whose name now holds another procedure":
        "(define (f n) (+ (f n) (f n))) (define old f) (define (f n) (old n)) (f 1)",
    "closures passed on (CPS)":
        "(define (f k) (f (lambda (v) (k v)))) (f (lambda (v) v))",
    "continuations of a local procedure (its body called directly)":
        "(define (g) (define (f k) (f (lambda (v) (k v)))) (f (lambda (v) v))) (g)",
    "local procedures bouncing through continuations":
        "(define (spin) (define (ping k) (pong (lambda () (ping k)))) (define (pong k) (k)) "
        "(ping (lambda () 0))) (spin)",
    "a procedure applying itself": "(define (f g) (g g)) (f f)",
    "through apply": "(define (f . xs) (apply f xs)) (f 1 2)",
    "through map": "(define (f xs) (map (lambda (x) (f xs)) xs)) (f '(1))",
    "a long leaf chain in a loop":
        "(define (leaf x) (if (pair? x) (car x) x)) (let loop () (leaf 1) (loop))",
}


@pytest.mark.parametrize("src", RUNAWAYS.values(), ids=RUNAWAYS.keys())
def test_every_runaway_shape_stops_at_the_step_budget(src):
    interp = Interpreter(tier="sandboxed")
    with Budget(steps=20_000, seconds=10), pytest.raises(StepLimitExceeded):
        interp.eval_string(src)


def _checks(interp: Interpreter, name: str) -> bool:
    """Whether the compiled procedure ``name`` checks the step budget anywhere."""
    code = interp.env.table[global_name(name)].__code__
    return "h_step" in code.co_names or "h_step_twin" in code.co_names


def test_a_leaf_procedure_has_no_check_and_a_recursive_one_has():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (square x) (* x x))"
                       "(define (first-or x) (if (pair? x) (car x) x))"
                       "(define (multiple? x p) (= 0 (remainder x p)))"
                       "(define (size x) (length x))"
                       "(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))")
    assert not _checks(interp, "first-or")
    # an inlined `*` or `remainder` calls its primitive only for operands the Python
    # operator does not take: that runs no Scheme code and charges its own big work
    assert not _checks(interp, "square") and not _checks(interp, "multiple?")
    assert _checks(interp, "size")  # a call of a primitive that is not inlined: checked
    assert _checks(interp, "fib")


def test_a_leaf_whose_inlined_primitive_does_big_work_is_charged_for_it():
    # no check of its own, but the primitive it falls back to charges the big products:
    # a map of it over a few huge numbers stops at the step budget
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (square x) (* x x)) (define big (expt 7 400000))")
    assert not _checks(interp, "square")
    with Budget(steps=20_000, seconds=10), pytest.raises(StepLimitExceeded):
        interp.eval_string("(map square (list big big big big big big big big))")


def test_the_base_case_of_a_recursion_skips_the_check():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))")
    # (fib 20): 21,891 calls, of which 10,945 recurse. fib is compiled as twins: one level
    # in TWIN_LEVELS checks, counting that many steps, so about one step per level that
    # recurses (the levels do not recurse equally often). Steps are charged by the chunk:
    # what the step lists hold unused is taken off.
    pending = pending_steps()
    with Budget(steps=10**9, seconds=10) as budget:
        assert interp.eval_string("(fib 20)") == 6765
    used = 10**9 - budget.steps - (pending_steps() - pending)
    assert 10_945 * 0.95 <= used <= 10_945 * 1.05
    with Budget(steps=5_000, seconds=10), pytest.raises(StepLimitExceeded):
        interp.eval_string("(fib 20)")


def test_a_runaway_tree_recursion_stops_at_the_step_budget_and_the_deadline():
    from harness.scheme.errors import TimeLimitExceeded
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (f n) (if (< n 0) 0 (+ (f (+ n 1)) (f (- n 1)))))")
    with Budget(steps=20_000, seconds=10), pytest.raises(StepLimitExceeded):
        interp.eval_string("(f 5)")
    with Budget(steps=None, seconds=0.2), pytest.raises(TimeLimitExceeded):
        interp.eval_string("(define (g n) (if (< n 0) 0 (+ (g (- n 1)) (g (- n 1))))) (g 60)")


def test_a_loop_of_filters_with_a_leaf_predicate_stops_at_the_deadline():
    # the predicate counts no step (a leaf: only an inlined `remainder`), a filter of a
    # chunk-long list none either; the loop's own check still meets the deadline
    from harness.scheme.errors import TimeLimitExceeded
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define l (iota 1000)) (define (keep? x) (= 0 (remainder x 7)))")
    assert not _checks(interp, "keep?")
    with Budget(steps=10**12, seconds=0.3), pytest.raises(TimeLimitExceeded):
        interp.eval_string("(let loop () (filter keep? l) (loop))")


def test_a_step_budget_allows_as_many_steps_as_it_says():
    # a refill charges a chunk and serves the step that found the list empty: a step per
    # chunk was once free (a budget of N ran N + N/1000 iterations)
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define n 0)")

    def iterations(steps: int) -> int:
        interp.eval_string("(set! n 0)")
        with Budget(steps=steps, seconds=30), pytest.raises(StepLimitExceeded):
            interp.eval_string("(let loop () (set! n (+ n 1)) (loop))")
        return interp.eval_string("n")

    # the difference takes off the steps already in the list when a budget starts
    assert abs(iterations(200_000) - iterations(50_000) - 150_000) <= 2


def test_nested_loops_count_each_iteration_once():
    # loops take their steps from one shared iterator (limits.refill_loop): an inner loop
    # that runs it out puts a fresh one there, and the outer loop goes on with that one
    # (charging a chunk of its own there would count the same steps twice)
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (inner n) (let loop ((i 0)) (if (< i n) (loop (+ i 1)) i)))")
    pending = pending_steps()
    with Budget(steps=10**9, seconds=30) as budget:
        interp.eval_string("(let outer ((j 0)) (if (< j 2000) (begin (inner 700) "
                           "(outer (+ j 1))) j))")
    used = 10**9 - budget.steps - (pending_steps() - pending)
    # each iteration of a loop is a step, the last one (which returns) too: 2,001 of the
    # outer loop; 2,000 calls of inner, each a step and 701 iterations of its loop
    assert used == 2001 + 2000 * (1 + 701)


def test_a_loop_stops_at_the_step_budget_inside_a_library_procedure_it_calls():
    # the library's own loops (scheme_lib) take their steps from the same iterator
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(import (srfi 1)) (define l (iota 1000))")
    with Budget(steps=200_000, seconds=30), pytest.raises(StepLimitExceeded):
        interp.eval_string("(let loop () (lset-union (lambda (a b) #f) l l) (loop))")
