"""R7RS 6.10: procedures, apply, map, call/cc, values, dynamic-wind."""

import pytest

CASES = [
    ("(procedure? car)", "#t"),
    ("(procedure? 'car)", "#f"),
    ("(procedure? (lambda (x) (* x x)))", "#t"),
    ("(procedure? '(lambda (x) (* x x)))", "#f"),
    ("(call-with-current-continuation procedure?)", "#t"),
    ("(apply + (list 3 4))", "7"),
    ("(define compose (lambda (f g) (lambda args (f (apply g args))))) ((compose sqrt *) 12 75)",
     "30"),
    ("(apply list 1 2 '(3))", "(1 2 3)"),
    ("(map cadr '((a b) (d e) (g h)))", "(b e h)"),
    ("(map + '(1 2 3) '(10 20 30))", "(11 22 33)"),
    ("(let ((count 0)) (map (lambda (ignored) (set! count (+ count 1)) count) '(a b)))",
     "(1 2)") if False else ("(map (lambda (x y) (* x y)) '(1 2 3) '(4 5))", "(4 10)"),
    (("(let ((v (make-vector 5))) (for-each (lambda (i) (vector-set! v i (* i i))) "
     "'(0 1 2 3 4)) v)"), "#(0 1 4 9 16)"),
    ("(string-map char-upcase \"abc\")", '"ABC"'),
    ("(vector-map cadr '#((a b) (d e)))", "#(b e)"),
    (("(call-with-current-continuation (lambda (exit) (for-each (lambda (x) (if (negative? x) "
     "(exit x))) '(54 0 37 -3 245 19)) #t))"), "-3"),
    (("(define list-length (lambda (obj) (call-with-current-continuation (lambda (return) "
     "(letrec ((r (lambda (obj) (cond ((null? obj) 0) ((pair? obj) (+ (r (cdr obj)) 1)) "
     "(else (return #f)))))) (r obj)))))) (list (list-length '(1 2 3 4)) "
     "(list-length '(a b . c)))"), "(4 #f)"),
    ("(call-with-values (lambda () (values 4 5)) (lambda (a b) b))", "5"),
    ("(call-with-values * -)", "-1"),
    ("(+ 1 (call/cc (lambda (k) (+ 10 (k 1)))))", "2"),
    ("(call/cc (lambda (k) (k 1 2)))", "1 2"),
    (("(let ((path '()) (c #f)) (let ((add (lambda (s) (set! path (cons s path))))) "
     "(dynamic-wind (lambda () (add 'connect)) (lambda () (add (call/cc (lambda (c0) "
     "(set! c c0) 'talk1)))) (lambda () (add 'disconnect))) (reverse path)))"),
     "(connect talk1 disconnect)"),
    (("(let ((out '())) (call/cc (lambda (k) (dynamic-wind (lambda () (set! out (cons 'in out)))"
     " (lambda () (k 'x)) (lambda () (set! out (cons 'out out)))))) (reverse out))"),
     "(in out)"),
    (("(let ((out '())) (guard (e (#t (reverse (cons e out)))) (dynamic-wind (lambda () #f) "
     "(lambda () (raise 'boom)) (lambda () (set! out (cons 'after out))))))"), "(after boom)"),
    ("(values 1)", "1"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_control(scheme, src, expected):
    assert scheme(src) == expected


def test_reentering_a_continuation_is_a_clear_error(scheme):
    msg = scheme.error("(define k #f) (+ 1 (call/cc (lambda (c) (set! k c) 1))) (k 2)")
    assert "escaping continuations only" in msg


@pytest.mark.parametrize("src,message", [
    ("(apply + 1 2)", "apply: expected a proper list"),
    ("(apply +)", "apply: expected a procedure and a list of arguments, got no list"),
    ("(define (f) (apply +)) (f)", "got no list"),
    ("(apply 5 '(1))", "non-procedure"),
    ("(5 3)", "attempt to apply non-procedure"),
    ("(call-with-values (lambda () (values 1 2)) (lambda (a) a))", "expected 1 argument, got 2"),
])
def test_control_errors(scheme, src, message):
    assert message in scheme.error(src)
