"""R7RS 4.1: variable references, literals, calls, lambda, if, set!, include."""

import pytest

CASES = [
    ("'a", "a"),
    ("(quote #(a b))", "#(a b)"),
    ("'()", "()"),
    ("'(1 . 2)", "(1 . 2)"),
    ("''a", "(quote a)"),
    ('"abc"', '"abc"'),
    ("#\\a", "#\\a"),
    ("145932", "145932"),
    ("#t", "#t"),
    ("(+ 3 4)", "7"),
    ("((if #f + *) 3 4)", "12"),
    ("((lambda (x) (+ x x)) 4)", "8"),
    ("(define reverse-subtract (lambda (x y) (- y x))) (reverse-subtract 7 10)", "3"),
    ("(define add4 (let ((x 4)) (lambda (y) (+ x y)))) (add4 6)", "10"),
    ("((lambda x x) 3 4 5 6)", "(3 4 5 6)"),
    ("((lambda (x y . z) z) 3 4 5 6)", "(5 6)"),
    ("((lambda (x y . z) z) 3 4)", "()"),
    ("(if (> 3 2) 'yes 'no)", "yes"),
    ("(if (> 2 3) 'yes 'no)", "no"),
    ("(if (> 3 2) (- 3 2) (+ 3 2))", "1"),
    ("(if 0 'zero-is-true 'no)", "zero-is-true"),
    ("(if '() 'empty-is-true 'no)", "empty-is-true"),
    ("(define x 2) (+ x 1)", "3"),
    ("(define x 2) (set! x 4) (+ x 1)", "5"),
    ("(let ((n 0)) (define (inc!) (set! n (+ n 1)) n) (inc!) (inc!))", "2"),
    (("(define (make-counter) (let ((n 0)) (lambda () (set! n (+ n 1)) n))) "
     "(define c (make-counter)) (c) (c) (c)"), "3"),
    ("(define (f) (define a 1) (define (g) (set! a (+ a 10)) a) (g) (g)) (f)", "21"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_expression(scheme, src, expected):
    assert scheme(src) == expected


def test_include_reads_a_file_relative_to_the_source(tmp_path, scheme):
    (tmp_path / "inc.scm").write_text("(define included 42)")
    main = tmp_path / "main.scm"
    main.write_text('(include "inc.scm") (+ included 1)')
    assert scheme.interp.load_file(main) == 43


def test_include_is_refused_in_the_sandbox(sandboxed):
    assert "not allowed in the sandboxed tier" in sandboxed.error('(include "x.scm")')


@pytest.mark.parametrize("src,message", [
    ("(if)", "bad syntax"),
    ("(lambda (x x) x)", "duplicate parameter x"),
    ("(lambda (1) 1)", "parameters must be identifiers"),
    ("(set! 1 2)", "set!: expected a variable"),
    ("(quote)", "bad syntax"),
    ("()", "empty combination"),
    ("(let ((x 1)) (define y 2))", "body has no expression"),
])
def test_syntax_errors(scheme, src, message):
    assert message in scheme.error(src)
