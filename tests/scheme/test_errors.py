"""Runtime and syntax errors: Scheme conditions with FILE:LINE:COL and a caret."""

import pytest

from harness.scheme.interpreter import Interpreter, format_error


def error_of(src: str, name: str = "t.scm") -> str:
    interp = Interpreter()
    with pytest.raises(BaseException) as info:
        interp.eval_string(src, name)
    return format_error(info.value)


@pytest.mark.parametrize("src,first_line", [
    ("(car '())", "t.scm:1:1: car: expected a pair, got ()"),
    ("(cdr 5)", "t.scm:1:1: cdr: expected a pair, got an integer"),
    ('(cdr (assoc "x" \'()))', ("t.scm:1:1: cdr: expected a pair, got a boolean (#f or #t; "
                              "assoc and member answer #f when nothing matches)")),
    ("(map cdr '(#f))", "t.scm:1:1: cdr: expected a pair, got #f"),
    ("\n  (+ 1 'a)", "t.scm:2:3: +: expected numbers, got an integer and a symbol"),
    ("(undefined-var)", "t.scm:1:1: unbound variable: undefined-var"),
    ("(define (f x) x)\n(f)", "t.scm:2:1: f: missing 1 argument"),
    ("(define (f x) x)\n(f 1 2 3)", "t.scm:2:1: f: expected 1 argument, got 3"),
    ("(vector-ref (vector 1) 3)", "t.scm:1:1: vector-ref"),
    ('(error "custom failure" 42)', 't.scm:1:1: custom failure 42'),
    ("(raise 'sym)", "t.scm:1:1: uncaught exception: sym"),
    ("(define (g l) (car l))\n(g '())", "t.scm:1:15: car: expected a pair, got ()"),
    ("(letrec ((a b) (b 1)) a)", "t.scm:1:1: variable b used before its definition"),
    ("(1 2)", "t.scm:1:1: attempt to apply non-procedure"),
    ("(string-append \"a\" 5)", "t.scm:1:1: string-append"),
    ("(", "t.scm:1:1: unexpected end of input: '(' is never closed"),
    ("(a))", "t.scm:1:4: unexpected ')'"),
    ('"abc', "t.scm:1:1: unterminated string"),
    ("#\\bogus", "t.scm:1:1: unknown character name #\\bogus"),
    ("(let ((x)) )", "t.scm:1:1: empty body"),
])
def test_error_message_and_position(src, first_line):
    assert error_of(src).splitlines()[0].startswith(first_line)


def test_error_shows_source_line_and_caret():
    msg = error_of("(define x 1)\n(display (car x))\n")
    lines = msg.splitlines()
    assert lines[0] == "t.scm:2:10: car: expected a pair, got an integer"
    assert lines[1] == "(display (car x))"
    assert lines[2] == "         ^"


def test_no_python_traceback_in_messages():
    for src in ["(car '())", "(+ 'a 1)", "(f)", "(vector-ref 1 2)", "((lambda (x) x))"]:
        msg = error_of(src)
        assert "Traceback" not in msg and ".py" not in msg and "s_" not in msg


def test_errors_are_catchable_conditions(scheme):
    assert scheme("(guard (e ((error-object? e) 'caught)) (car '()))") == "caught"
    assert scheme("(guard (e ((error-object? e) 'caught)) (+ 'a 1))") == "caught"
    assert scheme("(guard (e ((error-object? e) 'caught)) (undefined-thing))") == "caught"
    assert scheme("(guard (e ((error-object? e) 'caught)) ((lambda (x) x)))") == "caught"
