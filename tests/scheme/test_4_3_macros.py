"""R7RS 4.3: syntax-rules, hygiene, let-syntax, letrec-syntax."""

import pytest

CASES = [
    # introduced bindings do not capture user variables
    (("(define-syntax my-or (syntax-rules () ((_) #f) ((_ e) e) ((_ e r ...) "
     "(let ((temp e)) (if temp temp (my-or r ...)))))) "
     "(let ((x #f) (y 7) (temp 8) (let odd?) (if even?)) (my-or x (let temp) (if y) y))"), "7"),
    # free identifiers of the template mean what they meant at the definition
    ("(let ((=> #f)) (cond (#t => 'ok)))", "ok"),
    (("(define-syntax swap! (syntax-rules () ((_ a b) (let ((tmp a)) (set! a b) (set! b tmp))))) "
     "(define tmp 1) (define other 2) (swap! tmp other) (list tmp other)"), "(2 1)"),
    (("(define-syntax my-if (syntax-rules () ((_ c t e) (cond (c t) (else e))))) "
     "(let ((else #f)) (my-if #f 'then 'else-branch))"), "else-branch"),
    (("(let-syntax ((given-that (syntax-rules () ((_ test stmt1 stmt2 ...) (if test (begin "
     "stmt1 stmt2 ...)))))) (let ((if #t)) (given-that if (set! if 'now)) if))"), "now"),
    ("(let ((x 'outer)) (let-syntax ((m (syntax-rules () ((m) x)))) (let ((x 'inner)) (m))))",
     "outer"),
    (("(letrec-syntax ((my-or (syntax-rules () ((my-or) #f) ((my-or e) e) ((my-or e1 e2 ...) "
     "(let ((temp e1)) (if temp temp (my-or e2 ...))))))) (let ((x #f) (y 7) (temp 8) "
     "(let odd?) (if even?)) (my-or x (let temp) (if y) y)))"), "7"),
    # nested ellipses
    (("(define-syntax my-let* (syntax-rules () ((_ () body ...) (let () body ...)) "
     "((_ ((x v) rest ...) body ...) (let ((x v)) (my-let* (rest ...) body ...))))) "
     "(my-let* ((a 1) (b (+ a 1))) (* a b))"), "2"),
    ("(define-syntax flat (syntax-rules () ((_ (a ...) ...) '(a ... ...)))) (flat (1 2) (3) ())",
     "(1 2 3)"),
    (("(define-syntax pairs (syntax-rules () ((_ (k v ...) ...) '((k . (v ...)) ...)))) "
     "(pairs (a 1 2) (b))"), "((a 1 2) (b))"),
    # ellipsis followed by more patterns; dotted patterns; vector patterns
    ("(define-syntax last-of (syntax-rules () ((_ x ... y) 'y))) (last-of 1 2 3)", "3"),
    ("(define-syntax tail-of (syntax-rules () ((_ a . rest) 'rest))) (tail-of 1 2 3)", "(2 3)"),
    ("(define-syntax vec (syntax-rules () ((_ #(a ...)) (+ a ...)))) (vec #(1 2 3))", "6"),
    # custom ellipsis and (... ...)
    ("(define-syntax my-list (syntax-rules ::: () ((_ x :::) (list x :::)))) (my-list 1 2 3)",
     "(1 2 3)"),
    (("(define-syntax be-like-begin (syntax-rules () ((be-like-begin name) (define-syntax name "
     "(syntax-rules () ((name expr (... ...)) (begin expr (... ...)))))))) "
     "(be-like-begin sequence) (sequence 1 2 3 4)"), "4"),
    # literals
    (("(define-syntax arrow (syntax-rules (=>) ((_ a => b) (list a b)) ((_ a b) 'no-arrow))) "
     "(list (arrow 1 => 2) (arrow 1 2))"), "((1 2) no-arrow)"),
    ("(define-syntax ten (syntax-rules () ((_) 10))) (ten)", "10"),
    (("(define-syntax while (syntax-rules () ((_ c body ...) (let lp () (when c body ... "
     "(lp)))))) (define i 0) (while (< i 5) (set! i (+ i 1))) i"), "5"),
    # a macro that defines at top level defines the name the user wrote
    ("(define-syntax def-const (syntax-rules () ((_ n v) (define n v)))) (def-const k 5) k",
     "5"),
    # internal define-syntax
    ("(define (f x) (define-syntax twice (syntax-rules () ((_ e) (* 2 e)))) (twice x)) (f 21)",
     "42"),
    (("(define-syntax kons (syntax-rules () ((_ a b) (cons a b)))) (let ((cons list)) "
     "(kons 1 2))"), "(1 . 2)"),
    ("(define-syntax m (syntax-rules () ((_ x) (let ((y 1)) (+ x y))))) (let ((y 10)) (m y))",
     "11"),
    ("(define-syntax q (syntax-rules () ((_ x) 'x))) (q (a b))", "(a b)"),
    ("(define-syntax underscore (syntax-rules () ((_ _ x) x))) (underscore 1 2)", "2"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_macro(scheme, src, expected):
    assert scheme(src) == expected


@pytest.mark.parametrize("src,message", [
    ("(define-syntax m (syntax-rules () ((_ a) a))) (m 1 2)", "no syntax-rules pattern matches"),
    ("(define-syntax m 5)", "expected a syntax-rules transformer"),
    ("(define-syntax m (syntax-rules () (x)))", "each rule must be (pattern template)"),
    ("(syntax-rules () ((_) 1))", "only valid as a macro transformer"),
    ("(define-syntax bad (syntax-rules () ((_ a ...) (list a)))) (bad 1 2)",
     "used without an ellipsis"),
    ('(define-syntax e (syntax-rules () ((_) (syntax-error "nope" 1)))) (e)', "nope 1"),
    ("(if 1 2 3 4)", "bad syntax"),
])
def test_macro_errors(scheme, src, message):
    assert message in scheme.error(src)
