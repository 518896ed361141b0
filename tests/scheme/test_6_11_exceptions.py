"""R7RS 6.11: with-exception-handler, raise, raise-continuable, error objects, guard."""

import pytest

CASES = [
    (("(call/cc (lambda (k) (with-exception-handler (lambda (x) (k (list 'condition x))) "
     "(lambda () (+ 1 (raise 'an-error))))))"), "(condition an-error)"),
    (("(with-exception-handler (lambda (con) (cond ((string? con) 'noted) (else 'other)) 42) "
     "(lambda () (+ (raise-continuable \"should be a number\") 23)))"), "65"),
    (("(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e))))"
     " (error \"Something went wrong:\" 'x 1))"), '("Something went wrong:" (x 1))'),
    ("(guard (e ((symbol? e) (list 'sym e)) ((string? e) (list 'str e))) (raise \"s\"))",
     '(str "s")'),
    ("(guard (e (#t (error-object? e))) (vector-ref (vector) 0))", "#t"),
    (("(guard (e ((read-error? e) 'read) ((file-error? e) 'file) (else 'other)) "
     "(read (open-input-string \"(1 2\")))"), "read"),
    ("(guard (e ((file-error? e) 'file)) (open-input-file \"/no/such/file\"))", "file"),
    ("(with-exception-handler (lambda (e) 'ignored) (lambda () (raise-continuable 1)))",
     "ignored"),
    (("(guard (e (#t (list 'outer e))) (with-exception-handler (lambda (e) (raise (list 'wrapped "
     "e))) (lambda () (raise 'inner))))"), "(outer (wrapped inner))"),
    ("(guard (e (#t (list 'caught e))) (guard (e2 ((number? e2) 'num)) (raise 'not-a-number)))",
     "(caught not-a-number)"),
    ("(guard (e (#t 'handled)) (guard (e2 (#f 'never)) (car '())))", "handled"),
    (("(guard (e ((string? e) e)) (with-exception-handler (lambda (e) (raise \"second\")) "
     "(lambda () (car '()))))"), '"second"'),
    ("(error-object-message (guard (e (#t e)) (error \"msg\")))", '"msg"'),
    (("(guard (e (#t (error-object-message e))) (with-exception-handler (lambda (e) 'returned) "
     "(lambda () (raise 'x))))"), '"exception handler returned from a non-continuable raise"'),
    ("(guard (e (#t (error-object-message e))) (assert (= 1 2)))",
     '"assertion failed: (= 1 2)"'),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_exceptions(scheme, src, expected):
    assert scheme(src) == expected


def test_uncaught_raise_of_a_non_condition(scheme):
    assert "uncaught exception: oops" in scheme.error("(raise 'oops)")


def test_uncaught_error_with_irritants(scheme):
    assert 'bad thing 1 "x"' in scheme.error('(error "bad thing" 1 "x")')


# -- a guard with no clause that applies raises again in the raise's dynamic environment --

OUTER_10 = "(with-exception-handler (lambda (e) 10) (lambda () {}))"

REENTRY_CASES = [
    # the value of the outer handler is the value of the raise-continuable (R7RS 4.2.7)
    (OUTER_10.format("(guard (e ((string? e) 'no)) (+ 1 (raise-continuable 'c)))"), "11"),
    (OUTER_10.format("(guard (e ((eq? e 'd) 'caught)) (+ 1 (raise-continuable 'c) "
                     "(raise-continuable 'd)))"), "caught"),  # the guard catches again
    (OUTER_10.format("(guard (e ((string? e) 'no)) (+ 1 (raise-continuable 'c) "
                     "(raise-continuable 'd)))"), "21"),
    (OUTER_10.format("(guard (e ((string? e) 'no)) (map (lambda (x) (+ x (raise-continuable "
                     "'c))) '(1 2)))"), "(11 12)"),
    # a guard with else never raises again
    (OUTER_10.format("(guard (e ((string? e) 'no) (else 'else)) (+ 1 (raise-continuable 'c)))"),
     "else"),
    # the outer handler sees the parameterization of the raise
    (("(let ((p (make-parameter 'outside))) (with-exception-handler (lambda (e) (p)) (lambda () "
     "(guard (e ((string? e) 'no)) (parameterize ((p 'inside)) (raise-continuable 'c))))))"),
     "inside"),
    # an outer guard gets the condition raised again
    ("(guard (e (#t (list 'outer e))) (guard (e ((string? e) 'no)) (+ 1 (raise 'c))))",
     "(outer c)"),
    # an error in the outer handler goes to the handlers outside it, not back to the guard
    (("(guard (e ((error-object? e) (error-object-message e))) (guard (e ((string? e) 'no)) "
     "(with-exception-handler (lambda (e) (car '())) (lambda () (raise-continuable 1)))))"),
     '"car: expected a pair, got ()"'),
    # a continuation captured in a clause, re-entered: the clause runs again
    (("(let ((k #f) (n 0)) (let ((r (with-exception-handler (lambda (e) 'outer) (lambda () "
     "(guard (e ((call/cc (lambda (c) (set! k c) #f)) 'matched)) (raise-continuable 'x)))))) "
     "(set! n (+ n 1)) (if (< n 3) (k (= n 2)) (list r n))))"), "(matched 3)"),
    # ... captured in the outer handler while the guard raises again
    (("(let ((k #f) (n 0)) (let ((r (with-exception-handler (lambda (e) (call/cc (lambda (c) "
     "(set! k c) 1))) (lambda () (guard (e ((string? e) 'no)) (+ 100 (raise-continuable "
     "'c))))))) (set! n (+ n 1)) (if (< n 3) (k n) (list r n))))"), "(102 3)"),
    # ... captured in the body before the raise
    (("(let ((k #f) (n 0)) (let ((r (with-exception-handler (lambda (e) 0) (lambda () (guard (e "
     "((string? e) 'no)) (+ 100 (call/cc (lambda (c) (set! k c) 1)) (raise-continuable "
     "'c))))))) (set! n (+ n 1)) (if (< n 3) (k (* 10 n)) (list r n))))"), "(120 3)"),
]


@pytest.mark.parametrize("src,expected", REENTRY_CASES)
def test_guard_without_a_matching_clause_raises_in_the_raise_environment(scheme, src, expected):
    assert scheme(src) == expected


def test_guard_reraise_runs_the_dynamic_wind_thunks_again(scheme):
    src = ("(let ((log '())) (define (note x) (set! log (cons x log))) "
           "(list (with-exception-handler (lambda (e) (note (list 'handler e)) 5) (lambda () "
           "(guard (e ((string? e) 'no)) (dynamic-wind (lambda () (note 'in)) "
           "(lambda () (+ 1 (raise-continuable 'c))) (lambda () (note 'out)))))) "
           "(reverse log)))")
    # out to the guard for its clauses, back in for the raise again, out with the value
    assert scheme(src) == "(6 (in out in (handler c) out))"


@pytest.mark.parametrize("body", ["(raise 'c)", "(error \"boom\")", "(car '())"])
def test_guard_reraise_of_a_non_continuable_raise_is_still_non_continuable(scheme, body):
    src = OUTER_10.format(f"(guard (e ((string? e) 'no)) (+ 1 {body}))")
    assert "exception handler returned from a non-continuable raise" in scheme.error(src)


# R7RS 4.2.7 holds for the errors primitives signal too: raised again in their dynamic
# environment (the parameterization and the dynamic-wind extents of the raise)
ESCAPING_OUTER = """
(define (reraised body)
  (let* ((log '()) (p (make-parameter 'outside)))
    (define (note x) (set! log (cons x log)))
    (let ((r (call/cc (lambda (k)
               (with-exception-handler
                 (lambda (e) (note (list 'handler (p))) (k 'escaped))
                 (lambda ()
                   (guard (e ((string? e) 'no))
                     (dynamic-wind (lambda () (note 'in))
                                   (lambda () (parameterize ((p 'inside)) (body)))
                                   (lambda () (note 'out))))))))))
      (list r (reverse log)))))
"""


@pytest.mark.parametrize("body", [
    "(lambda () (car '()))",                         # a primitive's error
    "(lambda () (vector-ref (vector) 0))",
    "(lambda () (+ 1 (string->symbol 5)))",
    "(lambda () (raise 'c))",                        # Scheme raise, for comparison
    # a raise inside a procedure that cannot resume a continuation (non-continuable)
    "(lambda () (string-count \"ab\" (lambda (c) (raise 'c))))",
    "(lambda () (string-count \"ab\" (lambda (c) (car c))))",
])
def test_guard_reraises_a_primitive_error_in_its_dynamic_environment(scheme, body):
    scheme(ESCAPING_OUTER)
    assert scheme(f"(reraised {body})") == "(escaped (in out in (handler inside) out))"


def test_guard_reraise_of_a_primitive_error_to_an_outer_guard(scheme):
    # the outer guard's clauses run in its own environment; the inner extent is entered
    # again for the raise, then left
    assert scheme("(let ((log '()) (p (make-parameter 'outside))) "
                  "(list (guard (e (#t (list (p) (error-object-message e)))) "
                  "(guard (e ((string? e) 'no)) (dynamic-wind "
                  "(lambda () (set! log (cons 'in log))) "
                  "(lambda () (parameterize ((p 'inside)) (car '()))) "
                  "(lambda () (set! log (cons 'out log)))))) (reverse log)))") == \
        '((outside "car: expected a pair, got ()") (in out in out))'


def test_guard_reraise_of_a_primitive_error_sees_a_parameter_set_inside(scheme):
    assert scheme("(let ((p (make-parameter 1))) (call/cc (lambda (k) "
                  "(with-exception-handler (lambda (e) (k (p))) (lambda () "
                  "(guard (e (#f 'no)) (parameterize ((p 2)) (p 3) (car '()))))))))") == "3"


def _steps_used(run, expected) -> int:
    """The steps ``run()`` used, exactly (its budget is charged by the chunk), checking
    that it returns ``expected``."""
    from harness.scheme.limits import Budget, pending_steps
    before = pending_steps()
    with Budget(steps=10_000_000, seconds=5) as budget:
        assert run() == expected
    return budget.max_steps - budget.steps - (pending_steps() - before)


def test_reading_a_deep_primitive_error_for_a_guard_is_charged_to_the_step_budget():
    from harness.scheme.interpreter import Interpreter
    interp = Interpreter(tier="sandboxed")
    # (one): each level is a Python frame (a recursion doing only primitive work would be
    # a loop with no frames to read: linear_recursion.py)
    interp.eval_string("(define (one) 1)"
                       "(define (deep n) (if (= n 0) (car '()) (+ (one) (deep (- n 1)))))")

    def steps(src: str) -> int:
        return _steps_used(lambda: str(interp.eval_string(src)), "outer")

    with_else = steps("(guard (e (#t 'outer)) (guard (e (#f 0) (else 'outer)) (deep 3000)))")
    reraising = steps("(guard (e (#t 'outer)) (guard (e (#f 0)) (deep 3000)))")
    # the 3,000 frames between the error and the guard are read once
    assert reraising - with_else >= 3000


def test_guard_reraise_with_no_outer_handler_is_the_uncaught_condition(scheme):
    assert "uncaught exception: c" in scheme.error(
        "(guard (e ((string? e) 'no)) (raise-continuable 'c))")


def test_reading_a_deep_raise_for_a_guard_is_charged_to_the_step_budget():
    from harness.scheme.interpreter import Interpreter
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (deep n) (if (= n 0) (raise-continuable 'bottom) "
                       "(+ 1 (deep (- n 1)))))")

    def steps(src: str) -> int:
        return _steps_used(lambda: interp.eval_string(src), 3010)

    with_else = steps(OUTER_10.format("(guard (e (#f 0) (else (+ 10 3000))) (deep 3000))"))
    reraising = steps(OUTER_10.format("(guard (e (#f 0)) (deep 3000))"))
    # the raise's 3,000 frames read once and rebuilt once
    assert reraising - with_else >= 2 * 3000
