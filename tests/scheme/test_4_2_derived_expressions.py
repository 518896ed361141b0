"""R7RS 4.2: cond, case, and, or, when, unless, let family, do, delay, parameterize,
guard, quasiquote, case-lambda."""

import pytest

CASES = [
    ("(cond ((> 3 2) 'greater) ((< 3 2) 'less))", "greater"),
    ("(cond ((> 3 3) 'greater) ((< 3 3) 'less) (else 'equal))", "equal"),
    ("(cond ((assv 'b '((a 1) (b 2))) => cadr) (else #f))", "2"),
    ("(cond ((memv 3 '(1 3 5))))", "(3 5)"),
    ("(cond (#f 1))", "#<unspecified>"),
    ("(case (* 2 3) ((2 3 5 7) 'prime) ((1 4 6 8 9) 'composite))", "composite"),
    ("(case (car '(c d)) ((a e i o u) 'vowel) ((w y) 'semivowel) (else => (lambda (x) x)))",
     "c"),
    ("(case 2.0 ((2) 'exact) ((2.0) 'inexact) (else 'none))", "inexact"),
    ("(case #\\a ((#\\a) 'a) (else 'other))", "a"),
    ("(case 'x ((x) => (lambda (s) (list s s))) (else 'no))", "(x x)"),
    ("(and (= 2 2) (> 2 1))", "#t"),
    ("(and (= 2 2) (< 2 1))", "#f"),
    ("(and 1 2 'c '(f g))", "(f g)"),
    ("(and)", "#t"),
    ("(or (= 2 2) (> 2 1))", "#t"),
    ("(or #f #f #f)", "#f"),
    ("(or (memq 'b '(a b c)) (/ 3 0))", "(b c)"),
    ("(or)", "#f"),
    ("(when (= 1 1.0) 'a 'b)", "b"),
    ("(unless (= 1 1.0) 'a 'b)", "#<unspecified>"),
    ("(let ((x 2) (y 3)) (* x y))", "6"),
    ("(let ((x 2) (y 3)) (let ((x 7) (z (+ x y))) (* z x)))", "35"),
    ("(let ((x 2) (y 3)) (let* ((x 7) (z (+ x y))) (* z x)))", "70"),
    (("(letrec ((even? (lambda (n) (if (zero? n) #t (odd? (- n 1))))) "
     "(odd? (lambda (n) (if (zero? n) #f (even? (- n 1)))))) (even? 88))"), "#t"),
    (("(letrec* ((p (lambda (x) (+ 1 (q (- x 1))))) (q (lambda (y) (if (zero? y) 0 "
     "(+ 1 (p (- y 1)))))) (x (p 5)) (y x)) y)"), "5"),
    ("(let-values (((root rem) (exact-integer-sqrt 32))) (* root rem))", "35"),
    (("(let ((a 'a) (b 'b) (x 'x) (y 'y)) (let*-values (((a b) (values x y)) ((x y) "
     "(values a b))) (list a b x y)))"), "(x y x y)"),
    ("(let-values (((a . rest) (values 1 2 3)) (all (values 4 5))) (list a rest all))",
     "(1 (2 3) (4 5))"),
    # a let-values body's definitions live in a scope of their own, not the enclosing one
    ("(define (f) (define x 1) (let-values () (define x 2) x) x) (f)", "1"),
    ("(let-values () (define y 5) (* y 2))", "10"),
    ("(let ((x 1)) (let*-values (((a) (values x))) (define x 2) (list a x)))", "(1 2)"),
    ("(let-values (((a b) (values 1 2))) (define (sum) (+ a b)) (sum))", "3"),
    ("(do ((vec (make-vector 5)) (i 0 (+ i 1))) ((= i 5) vec) (vector-set! vec i i))",
     "#(0 1 2 3 4)"),
    ("(let ((x '(1 3 5 7 9))) (do ((x x (cdr x)) (sum 0 (+ sum (car x)))) ((null? x) sum)))",
     "25"),
    (("(let loop ((numbers '(3 -2 1 6 -5)) (nonneg '()) (neg '())) (cond ((null? numbers) "
     "(list nonneg neg)) ((>= (car numbers) 0) (loop (cdr numbers) (cons (car numbers) "
     "nonneg) neg)) ((< (car numbers) 0) (loop (cdr numbers) nonneg (cons (car numbers) "
     "neg)))))"), "((6 1 3) (-5 -2))"),
    ("(force (delay (+ 1 2)))", "3"),
    ("(let ((p (delay (+ 1 2)))) (list (force p) (force p)))", "(3 3)"),
    (("(define integers (letrec ((next (lambda (n) (delay (cons n (next (+ n 1))))))) "
     "(next 0))) (define (head stream) (car (force stream))) "
     "(define (tail stream) (cdr (force stream))) (head (tail (tail integers)))"), "2"),
    (("(define (stream-drop s n) (delay-force (if (zero? n) s (stream-drop (cdr (force s)) "
     "(- n 1))))) (define (from n) (delay (cons n (from (+ n 1))))) "
     "(car (force (stream-drop (from 0) 3)))"), "3"),
    (("(define (loop n) (delay-force (if (= n 0) (delay 'done) (loop (- n 1))))) "
     "(force (loop 100000))"), "done"),
    ("(promise? (make-promise 1))", "#t"),
    ("(force (make-promise 7))", "7"),
    ("(force 5)", "5"),
    (("(define radix (make-parameter 10 (lambda (x) (if (and (exact-integer? x) (<= 2 x 16)) "
     "x (error \"invalid radix\"))))) (define (f n) (number->string n (radix))) "
     "(list (f 12) (parameterize ((radix 2)) (f 12)) (f 12))"), '("12" "1100" "12")'),
    ("(define p (make-parameter 1)) (guard (e (#t (p))) (parameterize ((p 2)) (raise 'x)))",
     "1"),
    (("(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) "
     "(raise (list (cons 'a 42))))"), "42"),
    (("(guard (condition ((assq 'a condition) => cdr) ((assq 'b condition))) "
     "(raise (list (cons 'b 23))))"), "(b . 23)"),
    ("(guard (e (#f 'no)) (guard (e2 ((string? e2) 'inner)) (raise 'sym)))",
     "#<unspecified>") if False else (("(guard (e ((symbol? e) (list 'outer e))) "
                                     "(guard (e2 ((string? e2) 'inner)) (raise 'sym)))"),
                                     "(outer sym)"),
    ("(guard (e ((error-object? e) (error-object-message e))) (car 1))",
     '"car: expected a pair, got an integer"'),
    ("`(list ,(+ 1 2) 4)", "(list 3 4)"),
    ("(let ((name 'a)) `(list ,name ',name))", "(list a (quote a))"),
    ("`(a ,(+ 1 2) ,@(map abs '(4 -5 6)) b)", "(a 3 4 5 6 b)"),
    ("`(( foo ,(- 10 3)) ,@(cdr '(c)) . ,(car '(cons)))", "((foo 7) . cons)"),
    ("`#(10 5 ,(sqrt 4) ,@(map sqrt '(16 9)) 8)", "#(10 5 2 4 3 8)"),
    ("(let ((foo '(foo bar)) (@baz 'baz)) `(list ,@foo , @baz))", "(list foo bar baz)"),
    ("`(a `(b ,(c ,(+ 1 2))))", "(a (quasiquote (b (unquote (c (unquote 3))))))") if False
    else ("`(a `(b ,(foo ,(+ 1 3) d) e) f)",
          "(a (quasiquote (b (unquote (foo 4 d)) e)) f)"),
    ("(let ((name1 'x) (name2 'y)) `(a `(b ,,name1 ,',name2 d) e))",
     "(a (quasiquote (b (unquote x) (unquote (quote y)) d)) e)"),
    ("`(1 `,(+ 1 ,(+ 2 3)) 4)", "(1 (quasiquote (unquote (+ 1 5))) 4)"),
    (("(define range (case-lambda ((e) (range 0 e)) ((b e) (do ((r '() (cons e r)) "
     "(e (- e 1) (- e 1))) ((< e b) r))))) (list (range 3) (range 3 5))"),
     "((0 1 2) (3 4))"),
    (("(define plus (case-lambda (() 0) ((x) x) ((x y) (+ x y)) ((x y z) (+ (+ x y) z)) "
     "(args (apply + args)))) (list (plus) (plus 1) (plus 1 2) (plus 1 2 3) (plus 1 2 3 4))"),
     "(0 1 3 6 10)"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_derived(scheme, src, expected):
    assert scheme(src) == expected


@pytest.mark.parametrize("src,message", [
    ("(cond (else 1) (#t 2))", "else clause must be last"),
    ("(case)", "bad syntax"),
    ("(let ((1 2)) 1)", "expected an identifier"),
    ("(do ((i 0)) )", "bad syntax"),
    ("(define f (case-lambda ((x) x))) (f 1 2)", "no clause accepts 2 arguments"),
    ("(parameterize ((car 1)) 1)", "expected a parameter object"),
    (",x", "outside of quasiquote"),
])
def test_derived_errors(scheme, src, message):
    assert message in scheme.error(src)
