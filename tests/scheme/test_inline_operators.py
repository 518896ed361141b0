"""``+ - < > <= >= = zero?`` compiled as Python operators (inline.py) fail on non-numbers
like the procedures do, instead of comparing or concatenating pairs (Python lists) — which
also recursed in C on long lists — and evaluate every argument."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter
from harness.scheme.names import global_name
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
    # a computed index (kept in a temporary by the inlined vector-ref)
    ("(let ((v (vector 1 2)) (i 1)) (vector-ref v (+ i 1)))", "vector-ref: index out of range"),
    ("(let ((v (vector 1 2)) (i 0.0)) (vector-ref v (+ i 1)))", "vector-ref: expected an exact"),
    ("(let ((v (list 1 2)) (i 0)) (vector-ref v (+ i 1)))", "vector-ref: expected a vector"),
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
    # a computed index is kept in a temporary: two in one expression
    assert write_string(run(
        "(let ((v (vector 1 2 3)) (i 1))"
        "  (list (+ (vector-ref v (- i 1)) (vector-ref v (+ i 1))) (vector-ref v (- (* i 3) 1))))"
    )) == "(4 3)"


def test_a_redefined_vector_ref_is_called_not_inlined():
    assert run("(define (vector-ref v i) 'mine) (let ((v (vector 1))) (vector-ref v 0))"
               ).name == "mine"


# -- `*` of floats, quotient/remainder/modulo of small integers, vector-set! as a statement

def test_inlined_multiplication_computes_like_the_procedure():
    assert write_string(run(
        "(let ((x 1.5) (y 2.0) (i 3) (j 4))"
        "  (list (* x y) (* 2 x) (* x y 2.0) (* x x) (* i j) (* 2.0 i) (* i 1/2)))")) == \
        "(3.0 3.0 6.0 2.25 12 6.0 3/2)"


@pytest.mark.parametrize("src", [
    "(let ((x '(1)) (n 3)) (* x n))",  # Python would repeat the list
    "(let ((x '(1))) (* x x))",
    "(let ((x 2.0) (n '(1))) (* x n))",
])
def test_inlined_multiplication_refuses_non_numbers(src):
    with pytest.raises(SchemeError, match=r"\*: expected a number"):
        run(src)


def test_inlined_multiplication_keeps_the_exact_size_cap():
    from harness.scheme.errors import SizeLimitExceeded
    with pytest.raises(SizeLimitExceeded, match="exceed"):
        run("(let loop ((i 0) (x (expt 10 200))) (if (= i 30) x (loop (+ i 1) (* x x))))")


def test_inlined_division_agrees_with_the_procedures_on_every_sign():
    got = run("(map (lambda (a b) (list (quotient a b) (remainder a b) (modulo a b)))"
              "     '(7 -7 7 -7 7.0 12345678901234567890123 7 -7)"
              "     '(2 2 -2 -2 2 10 12345678901234567890123 12345678901234567890123))")
    assert write_string(got) == ("((3 1 1) (-3 -1 1) (-3 1 -1) (3 -1 -1) (3.0 1.0 1.0)"
                                 " (1234567890123456789012 3 3) (0 7 7)"
                                 " (0 -7 12345678901234567890116))")


def test_inlined_division_of_big_numbers_agrees_with_the_procedures():
    # a divisor below 2**30 is inlined whatever the dividend (one pass over it); a bigger
    # one goes to the procedure, and a bigger literal one inlines a dividend below 2**62
    n, d, e = 2 ** 70 + 12345, 1000003, 2 ** 40

    def scheme_division(a, b):
        q = abs(a) // b * (1 if a >= 0 else -1)
        return [q, a - q * b, a % b]
    expected = [scheme_division(a, b) for a in (n, -n, 2 ** 61 + 5)
                for b in (d, e)]
    got = run(f"(define (all a b) (list (quotient a b) (remainder a b) (modulo a b)))"
              f"(define (literals a) (list (list (quotient a {d}) (remainder a {d})"
              f"                               (modulo a {d}))"
              f"                         (list (quotient a {e}) (remainder a {e})"
              f"                               (modulo a {e}))))"
              f"(append (list (all {n} {d}) (all {n} {e})) (literals {-n})"
              f"        (literals {2 ** 61 + 5}))")
    assert write_string(got) == "(" + " ".join(
        "(" + " ".join(map(str, x)) + ")" for x in expected) + ")"


@pytest.mark.parametrize("src, message", [
    ("(let ((a 7) (b 0)) (remainder a b))", "remainder: division by zero"),
    ("(let ((a 'x)) (remainder (car (list a)) 2))", "remainder: expected an integer"),
    ("(let ((a 1.5)) (modulo a 2))", "modulo: expected an integer"),
])
def test_inlined_division_fails_like_the_procedures(src, message):
    with pytest.raises(SchemeError, match=message):
        run(src)


def test_an_inlined_dividend_is_evaluated_once():
    assert write_string(run("(define n 0) (define (f) (set! n (+ n 1)) 7)"
                            " (list (remainder (f) 3) (quotient (f) 2) n)")) == "(1 3 2)"


def test_a_continuation_reentered_in_an_inlined_dividend_resumes_the_division():
    assert write_string(run(
        "(define (t)"
        "  (let ((again #f) (results '()))"
        "    (let ((r (remainder (call/cc (lambda (k) (set! again k) 7)) 3)))"
        "      (set! results (cons r results))"
        "      (if (= (length results) 1) (again 8) results))))"
        "(t)")) == "(2 1)"


@pytest.mark.parametrize("src", [
    # past the end: Python's IndexError of the inlined access, reported as the procedure's
    "(let ((v (vector 1 2)) (i 5)) (+ 1 (vector-ref v i)))",
    "(let ((v (vector 1 2)) (i (expt 10 30))) (vector-ref v i))",
    "(let loop ((v (make-vector 3 0)) (i 0) (s 0)) (loop v (+ i 1) (+ s (vector-ref v i))))",
])
def test_an_inlined_index_past_the_end_is_the_procedures_error(src):
    with pytest.raises(SchemeError, match="^vector-ref: index out of range"):
        run(src)


def test_an_inlined_index_past_the_end_is_a_catchable_condition():
    assert write_string(run(
        "(guard (e ((error-object? e) (error-object-message e)))"
        "  (let ((v (vector 1)) (i 1)) (vector-set! v i 'x) 'stored))")) == \
        '"vector-set!: index out of range"'


@pytest.mark.parametrize("src, expected", [
    ("(procedure? car)", "#t"), ("(procedure? (lambda (x) x))", "#t"),
    ("(let ((f (make-parameter 1))) (procedure? f))", "#t"),
    ("(call/cc (lambda (k) (let ((g k)) (procedure? g))))", "#t"),
    ("(let ((f '(closure x))) (procedure? f))", "#f"), ("(let ((f 3)) (procedure? f))", "#f"),
    ("(let ((f (vector))) (procedure? f))", "#f"),
])
def test_inlined_procedure_p(src, expected):
    assert write_string(run(src)) == expected


def test_inlined_vector_set_stores_and_evaluates_its_value_once():
    assert write_string(run(
        "(define n 0) (define (f) (set! n (+ n 1)) n)"
        "(let ((v (vector 1 2 3)) (i 1)) (vector-set! v i (f)) (vector-set! v (+ i 1) 'x)"
        "  (list v n))")) == "(#(1 1 x) 1)"


@pytest.mark.parametrize("src, message", [
    ("(let ((v (vector 1 2 3)) (i 3)) (vector-set! v i 'x))", "vector-set!: index out of range"),
    ("(let ((v (vector 1 2 3)) (i (* 4 (expt 2 70)))) (vector-set! v i 'x))",
     "vector-set!: index out of range"),
    ("(let ((v (list 1 2 3)) (i 0)) (vector-set! v i 'x))", "vector-set!: expected a vector"),
    ("(let ((v (vector 1)) (i 0.0)) (vector-set! v i 'x))", "vector-set!: expected an exact"),
])
def test_inlined_vector_set_fails_like_the_procedure(src, message):
    with pytest.raises(SchemeError, match=message):
        run(src)


def test_redefined_multiplication_and_division_are_called_not_inlined():
    assert write_string(run("(define (* a b) 'mul) (define (remainder a b) 'rem)"
                            " (let ((x 1.0) (i 7)) (list (* x x) (remainder i 2)))")) == \
        "(mul rem)"


def test_inlined_type_predicates_and_lengths():
    assert write_string(run(
        "(let ((s \"ab\") (v (vector 1)) (b (bytevector 1 2 3)) (y 'a) (c #\\a))"
        "  (list (symbol? y) (symbol? s) (string? s) (string? y) (vector? v) (vector? '(1))"
        "        (char? c) (char? s) (bytevector? b) (bytevector? v)"
        "        (string-length s) (bytevector-length b) (cadddr '(1 2 3 4))))")) == \
        "(#t #f #t #f #t #f #t #f #t #f 2 3 4)"


@pytest.mark.parametrize("src, message", [
    ("(let ((s 'ab)) (string-length s))", "string-length: expected a string"),
    ("(let ((b (vector 1))) (bytevector-length b))", "bytevector-length: expected a bytevector"),
])
def test_inlined_lengths_fail_like_the_procedures(src, message):
    with pytest.raises(SchemeError, match=message):
        run(src)


def test_a_type_test_runs_nothing_and_is_read_again_after_a_call():
    # `(pair? x)` is `type(x) is list`: a call of `type` that runs no Scheme code, so a
    # procedure of type tests needs no budget check, and a test evaluated before a call in
    # the same expression is computed again after it (as a variable is), not kept
    interp = Interpreter(tier="sandboxed")
    interp.eval_string(
        "(define (g) 1) (define (f x) (list (pair? x) (symbol? x) (string? x) (g)))"
        "(define (kind x) (cond ((pair? x) 'pair) ((symbol? x) 'symbol)"
        "                       ((procedure? x) 'procedure) (else 'other)))")
    f = interp.env.table[global_name("f")].__code__
    kind = interp.env.table[global_name("kind")].__code__
    assert "h_type" in f.co_names and "h_type" in kind.co_names
    assert not [v for v in f.co_varnames if v.startswith("t")]
    assert "h_step" not in kind.co_names
    assert write_string(interp.eval_string(
        "(list (f '(1)) (f 'a) (kind '(1)) (kind 'a) (kind car) (kind kind) (kind 1))")) == \
        "((#t #f #f 1) (#f #t #f 1) pair symbol procedure procedure other)"
