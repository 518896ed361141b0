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


# R7RS 4.3.2 checked clause by clause: escapes, custom ellipses, literals, depth, shapes.
_M = "(define-syntax m (syntax-rules "
R7RS_SYNTAX_RULES = [
    # (... ...) and (... template): the ellipsis written out as a symbol
    (_M + "() ((_ a) '(a (... ...))))) (m 1)", "(1 ...)"),
    (_M + "() ((_ a ...) '((a (... ...)) ...)))) (m 1 2)", "((1 ...) (2 ...))"),
    (_M + "() ((_) '(... (a ... b))))) (m)", "(a ... b)"),
    # a custom ellipsis; `...` is then an ordinary identifier
    (_M + "::: () ((_ (a b :::) :::) '((b ::: a) :::)))) (m (1 2 3) (4 5))",
     "((2 3 1) (5 4))"),
    (_M + "::: () ((_ a ...) '(a ...)))) (m 1 ...)", "(1 ...)"),
    (("(define-syntax def-lister (syntax-rules () ((_ name) (define-syntax name (syntax-rules "
     "::: () ((_ x :::) '(x :::))))))) (def-lister ls) (ls a b)"), "(a b)"),
    (("(define-syntax with-ellipsis (syntax-rules () ((_ e name) (define-syntax name "
     "(syntax-rules e () ((_ x e) '(x e))))))) (with-ellipsis *** grab) (grab 1 2 3)"),
     "(1 2 3)"),
    # the ellipsis among the literals is a literal
    (_M + "::: (...) ((_ ... x) 'lit) ((_ y x) 'other))) (list (m ... 1) (m 2 1))",
     "(lit other)"),
    (_M + "(...) ((_ a ...) 'lit) ((_ a b) 'two))) (list (m 1 ...) (m 1 2))", "(lit two)"),
    # literals match an identifier with the same binding, not the same name
    (_M + "(else) ((_ else) 'is-else) ((_ x) 'not-else))) "
     "(list (m else) (let ((else 1)) (m else)))", "(is-else not-else)"),
    (_M + "(foo) ((_ foo) 'is-foo) ((_ x) 'not-foo))) (list (m foo) (m bar))",
     "(is-foo not-foo)"),
    (_M + "(foo) ((_ foo) 'is-foo) ((_ x) 'not-foo))) (let ((foo 1)) (m foo))", "not-foo"),
    (_M + "(=>) ((_ =>) 'arrow) ((_ x) 'other))) (let ((=> 1)) (m =>))", "other"),
    (_M + "(:) ((_ a : b ...) '(a (b ...))))) (m 1 : 2 3)", "(1 (2 3))"),
    # _ matches anything and binds nothing, unless it is a literal
    (_M + "() ((_ _ _ a) 'a))) (m 1 2 3)", "3"),
    (_M + "() ((_ . _) 'any))) (list (m) (m 1 2))", "(any any)"),
    (_M + "(_) ((m _) 'underscore) ((m x) 'other))) (list (m _) (m 1))", "(underscore other)"),
    # nested ellipsis depth; variables of different depths under one ellipsis
    (_M + "() ((_ (a b ...) ...) '((a ...) (b ... ...))))) (m (1 2 3) (4 5))",
     "((1 4) (2 3 5))"),
    (_M + "() ((_ ((a ...) ...) ...) '(a ... ... ...)))) (m ((1 2) (3)) ((4)))", "(1 2 3 4)"),
    (_M + "() ((_ (a ...) (b ...)) '((a b) ...)))) (m (1 2) (3 4))", "((1 3) (2 4))"),
    (_M + "() ((_ a (b ...)) '((a b) ...)))) (m 0 (1 2))", "((0 1) (0 2))"),
    (_M + "() ((_ (k v) ...) '(k ... v ...)))) (m (a 1) (b 2))", "(a b 1 2)"),
    # vector patterns
    (_M + "() ((_ #(a b ... c)) '(a c (b ...))))) (m #(1 2 3 4))", "(1 4 (2 3))"),
    (_M + "() ((_ #(a ...) ...) '#(a ... ...)))) (m #(1 2) #(3))", "#(1 2 3)"),
    (_M + "() ((_ #(a b)) 'two) ((_ x) 'other))) (list (m #(1 2)) (m #(1 2 3)) (m (1 2)))",
     "(two other other)"),
    (_M + "() ((_ #(1 x)) 'x))) (m #(1 9))", "9"),
    # dotted patterns and templates
    (_M + "() ((_ a ... . r) '(r a ...)))) (m 1 2 . 3)", "(3 1 2)"),
    (_M + "() ((_ (a . b)) '(a b)))) (m (1 2 3))", "(1 (2 3))"),
    (_M + "() ((_ (a b ... . c)) '(c b ...)))) (m (1 2 3 . 4))", "(4 2 3)"),
    (_M + "() ((_ (a b ... . c)) 'c))) (m (1 2 3))", "()"),
    (_M + "() ((_ a ... z . r) '(z r)))) (m 1 2 3)", "(3 ())"),
    (_M + "() ((_ a ...) '(0 a ... . 9)))) (m 1 2)", "(0 1 2 . 9)"),
    # data in patterns match by equal?
    (_M + "() ((_ 1) 'one) ((_ \"s\") 'str) ((_ #\\c) 'chr) ((_ x) 'other))) "
     "(list (m 1) (m \"s\") (m #\\c) (m 2))", "(one str chr other)"),
    # hygiene: the template's if, let and + are the ones of the macro's definition
    (("(define-syntax my-or2 (syntax-rules () ((_ a b) (let ((t a)) (if t t b))))) "
     "(let ((if list)) (my-or2 #f 5))"), "5"),
    (_M + "() ((_ e) (if e 'yes 'no)))) (let ((if (lambda args 'shadowed))) (m #t))", "yes"),
    (_M + "() ((_ e) (let ((x 1)) (+ x e))))) (let ((x 10) (+ *)) (m x))", "11"),
    (_M + "() ((_ body) (let ((x 1)) body)))) (let ((x 2)) (m x))", "2"),
    (_M + "() ((_) 'macro))) (let ((m (lambda () 'proc))) (m))", "proc"),
    (("(define-syntax rev (syntax-rules () ((_ () acc) 'acc) ((_ (x r ...) (a ...)) "
     "(rev (r ...) (x a ...))))) (rev (1 2 3) ())"), "(3 2 1)"),
    (("(let ((else 1)) (define-syntax m (syntax-rules (else) ((_ else) 'lit) ((_ x) 'var))) "
      "(list (m else) (let ((else 2)) (m else))))"), "(lit var)"),
    (("(define-syntax m (syntax-rules () ((_) (let loop ((i 0)) (if (= i 3) i "
      "(loop (+ i 1))))))) (let ((loop 'user)) (m))"), "3"),
    (("(define-syntax ten (syntax-rules () ((_) 10))) (define-syntax m (syntax-rules () "
      "((_) (ten)))) (let ((ten (lambda () 'shadow))) (m))"), "10"),
    (_M + "() ((_ a ...) '#(a ... 0)))) (m 1 2)", "#(1 2 0)"),
    (_M + "() ((_ (a ...) ...) '((a ... 0) ...)))) (m (1) (2 3))", "((1 0) (2 3 0))"),
    (_M + "() ((_ a ...) '((... ...) a ...)))) (m 1 2)", "(... 1 2)"),
    (_M + "::: () ((_ a :::) '(... a :::)))) (m 1 2)", "(... 1 2)"),
    # let-syntax and letrec-syntax bodies are bodies: definitions, global at top level
    ("(let-syntax ((m (syntax-rules () ((_) 1)))) (define x (m)) (define (f) (+ x (m)))) (f)",
     "2"),
    (("(let-syntax ((m (syntax-rules () ((_) 1)))) (define-syntax n (syntax-rules () "
     "((_) (m))))) (n)"), "1"),
    ("(letrec-syntax () (define y 3)) y", "3"),
    ("(define (g) (let-syntax () (define y 3) y)) (g)", "3"),
    ("(let ((z 1)) (let-syntax () (define-syntax q (syntax-rules () ((_) z))) (q)))", "1"),
]


@pytest.mark.parametrize("src,expected", R7RS_SYNTAX_RULES)
def test_r7rs_syntax_rules(scheme, src, expected):
    assert scheme(src) == expected


@pytest.mark.parametrize("src,message", [
    (_M + "() ((_ a a) 'a)))", "m: pattern variable a appears more than once in a pattern"),
    (_M + "() ((_ a (b a)) 'a)))", "pattern variable a appears more than once"),
    (_M + "() ((_ #(a ... a)) 'a)))", "pattern variable a appears more than once"),
    (_M + "() ((_ ... a) 'a)))", "m: an ellipsis in a pattern must follow a pattern"),
    (_M + "() ((_ a ... b ...) 'a)))", "more than one ellipsis in the same list or vector"),
    (_M + "() ((_ #(a ... b ...)) 'a)))", "more than one ellipsis"),
    (_M + "() ((_ . ...) 'a)))", "m: an ellipsis cannot end a dotted pattern"),
    (_M + "() ((_ a . ...) 'a)))", "an ellipsis cannot end a dotted pattern"),
    (_M + "() ((_ (a ...) (b ...)) '((a b) ...)))) (m (1 2) (3))", "different lengths"),
    (_M + "() ((_ (a ...) ...) '(a ...)))) (m (1))", "used without an ellipsis"),
    # (... template) quotes the ellipsis, not the pattern variables
    (_M + "() ((_ a ...) (... '(a ...))))) (m 1 2)", "used without an ellipsis"),
    ("(let ((x 1)) (let-syntax () (define-syntax q (syntax-rules () ((_) 2))) 0) (q))",
     "unbound variable: q"),
])
def test_r7rs_syntax_rules_errors(scheme, src, message):
    assert message in scheme.error(src)
