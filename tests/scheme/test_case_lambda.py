"""case-lambda: its dispatcher is made once per form, when the form is compiled; each
evaluation of the form only closes over its environment (issue 28: it used to generate and
compile the dispatcher on every evaluation, ~80x a lambda in a loop: bench/case_lambda.py)."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter
from harness.scheme.printer import write_string

MAKER = """
(define (make-counter start)
  (let ((n start))
    (case-lambda
      (() n)
      ((step) (set! n (+ n step)) n)
      ((step times . notes) (set! n (+ n (* step times))) (list n notes)))))
"""


@pytest.fixture
def interp() -> Interpreter:
    interp = Interpreter()
    interp.eval_string(MAKER)
    return interp


def test_each_evaluation_closes_over_its_own_environment(interp):
    interp.eval_string("(define a (make-counter 0)) (define b (make-counter 100))")
    assert interp.eval_string("(a 5)") == 5
    assert interp.eval_string("(a 5)") == 10
    assert interp.eval_string("(b)") == 100  # a's steps left b alone
    assert interp.eval_string("(b 1)") == 101
    assert interp.eval_string("(a)") == 10
    assert interp.eval_string("(eq? a b)") is False


def test_evaluations_share_one_dispatcher_made_at_compile_time(interp):
    procs = [interp.eval_string(f"(make-counter {i})") for i in range(5)]
    assert len({id(p) for p in procs}) == 5              # fresh procedures...
    assert len({id(p.__code__) for p in procs}) == 1     # ...of one compiled dispatcher
    assert [p() for p in procs] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(("call", "written"), [
    ("(c)", "7"),
    ("(c 1)", "8"),
    ("(c 2 3)", "(13 ())"),                # the rest clause, with nothing left over
    ("(c 1 1 'x 'y)", "(8 (x y))"),        # the rest clause collects the extra arguments
])
def test_arity_picks_the_first_clause_that_accepts(interp, call, written):
    interp.eval_string("(define c (make-counter 7))")
    assert write_string(interp.eval_string(call)) == written


def test_no_clause_for_the_count_is_an_error_that_names_it(interp):
    interp.eval_string("(define two (case-lambda ((a b) a)))")
    with pytest.raises(SchemeError, match="case-lambda: no clause accepts 1 argument$"):
        interp.eval_string("(two 1)")
    with pytest.raises(SchemeError, match="no clause accepts 0 arguments"):
        interp.eval_string("(two)")
    assert interp.eval_string("(two 1 2)") == 1  # and the procedure still works


def test_clauses_of_the_same_arities_in_another_order_dispatch_their_own_way(interp):
    interp.eval_string("(define f (case-lambda ((a . r) 'rest) ((a) 'one)))"
                       "(define g (case-lambda ((a) 'one) ((a . r) 'rest)))")
    assert write_string(interp.eval_string("(list (f 1) (g 1) (g 1 2))")) == \
        "(rest one rest)"
