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
