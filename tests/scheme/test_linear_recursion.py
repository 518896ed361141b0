"""Linear self-recursions (one self call other than in tail position, nothing else that
can run Scheme code) run as a loop with an explicit stack (linear_recursion.py): a deep
recursion takes a list slot per level instead of a Python frame. Nothing else may show:
the same values, the same errors at the same places, the same answer to a redefined name.
Each program here also runs with the loop switched off, as every procedure ran before."""

from __future__ import annotations

import pytest

from harness.scheme import linear_recursion
from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.names import global_name
from harness.scheme.printer import write_string

LIBRARY = """
(define (len l) (if (null? l) 0 (+ 1 (len (cdr l)))))
(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))
(define (build n) (if (= n 0) '() (cons n (build (- n 1)))))
(define (fact n) (if (= n 0) 1 (* n (fact (- n 1)))))
(define (append2 a b) (if (null? a) b (cons (car a) (append2 (cdr a) b))))
(define (double l) (if (pair? l) (cons (* 2 (car l)) (double (cdr l))) '()))
(define (positives l)
  (cond ((null? l) '())
        ((> (car l) 0) (cons (car l) (positives (cdr l))))
        (else (positives (cdr l)))))
(define (range a b) (if (>= a b) '() (cons a (range (+ a 1) b))))
(define (last-first l) (if (null? (cdr l)) (list (car l)) (append (last-first (cdr l)) (list (car l)))))
(define (squares l)
  (if (null? l) '() (let ((x (car l))) (cons (* x x) (squares (cdr l))))))
(define (sum-after l) (if (null? l) 0 (- (sum-after (cdr l)) (car l))))
(define (tag-all l) (if (null? l) '() (cons (list 'n (car l) (vector-length (vector 1 2))) (tag-all (cdr l)))))
(define (merge a b)
  (cond ((null? a) b)
        ((null? b) a)
        ((< (car a) (car b)) (cons (car a) (merge (cdr a) b)))
        (else (cons (car b) (merge a (cdr b))))))
(define (insert x l)
  (cond ((null? l) (list x)) ((< x (car l)) (cons x l)) (else (cons (car l) (insert x (cdr l))))))
(define (odd-even-sums l)
  (if (null? l)
      (cons 0 0)
      (let ((sums (odd-even-sums (cdr l))))
        (if (odd? (car l))
            (cons (+ (car l) (car sums)) (cdr sums))
            (cons (car sums) (+ (car l) (cdr sums)))))))
(define (signs l)
  (cond ((null? l) '())
        ((< (car l) 0) (cons 'neg (signs (cdr l))))
        ((= (car l) 0) (signs (cdr l)))
        (else (cons (* 10 (car l)) (signs (cdr l))))))
(define (countdown) (if (null? pool) '() (let ((x (car pool))) (set! pool (cdr pool)) (cons x (countdown)))))
(define pool '(3 2 1))
(define (weave a b c d e) (if (= a 0) (list b c d e) (cons a (weave (- a 1) c d e b))))
(define (bad-arity n) (if (= n 0) 0 (+ 1 (bad-arity))))
"""

LOOPS = ["len", "sum", "build", "fact", "append2", "double", "positives", "range",
         "last-first", "squares", "sum-after", "tag-all", "merge", "insert", "odd-even-sums",
         "signs", "countdown", "weave"]


def interpreter(loops: bool, monkeypatch=None, tier: str = "sandboxed") -> Interpreter:
    """An interpreter with LIBRARY defined, compiled with or without the loops."""
    if not loops:
        monkeypatch.setattr(linear_recursion, "is_candidate", lambda *args: False)
    interp = Interpreter(tier=tier)
    interp.eval_string(LIBRARY, "lib.scm")
    if not loops:
        monkeypatch.undo()
    return interp


def is_loop(interp: Interpreter, name: str) -> bool:
    return linear_recursion.LEVELS in interp.env.table[global_name(name)].__code__.co_varnames


@pytest.mark.parametrize("tier", ["sandboxed", "unsandboxed"])
def test_the_usual_linear_recursions_are_loops(tier):
    interp = interpreter(True, tier=tier)
    assert [n for n in LOOPS if not is_loop(interp, n)] == []


CASES = {
    "(len (build 10))": "10",
    "(sum (build 100))": "5050",
    "(fact 30)": "265252859812191058636308480000000",
    "(append2 '(1 2) '(3 4))": "(1 2 3 4)",
    "(double '(1 2 3))": "(2 4 6)",
    "(positives '(1 -2 3 -4 5))": "(1 3 5)",
    "(range 3 7)": "(3 4 5 6)",
    "(last-first '(1 2 3))": "(3 2 1)",
    "(squares '(1 2 3))": "(1 4 9)",
    "(sum-after '(1 2 3))": "-6",
    "(tag-all '(1 2))": "((n 1 2) (n 2 2))",
    "(list (len '()) (sum '()) (build 0) (fact 0))": "(0 0 () 1)",
    "(merge '(1 4 5 9) '(2 3 10))": "(1 2 3 4 5 9 10)",
    "(insert 5 '(1 3 7 9))": "(1 3 5 7 9)",
    "(odd-even-sums '(1 2 3 4 5))": "(9 . 6)",
    "(signs '(3 -1 0 2 -5))": "(30 neg 20 neg)",
    "(countdown)": "(3 2 1)",
    "(weave 3 'b 'c 'd 'e)": "(3 2 1 e b c d)",
}


@pytest.mark.parametrize("expr", CASES)
def test_values_are_those_of_the_recursion(expr, monkeypatch):
    assert write_string(interpreter(True).eval_string(expr)) == CASES[expr]
    assert write_string(interpreter(False, monkeypatch).eval_string(expr)) == CASES[expr]


def test_deep_recursions():
    interp = interpreter(True)
    assert interp.eval_string("(sum (build 200000))") == 20000100000
    assert interp.eval_string("(len (range 0 200000))") == 200000
    assert interp.eval_string("(len (merge (range 0 100000) (range 50000 150000)))") == 200000


ERRORS = {
    "a wrong type deep in the list, found going down": "(sum (append (build 50) '(x 1)))",
    "an improper list, found going down": "(sum (cons 1 (cons 2 3)))",
    "a wrong type found on the way up": "(sum-after '(1 2 three 4))",
    "a wrong type for a called primitive, on the way up": "(fact 'x)",
    "the base case on a non-list": "(last-first 5)",
    "a wrong type in a let": "(squares '(1 2 \"3\"))",
    "a wrong argument count": "(build 1 2)",
    "a self call with a wrong argument count": "(bad-arity 3)",
    "a wrong type in the second of two self calls": "(merge '(1 2 3) '(2 x 4))",
    "a wrong type after a let of the self call's value": "(odd-even-sums '(1 2 x 4))",
}


@pytest.mark.parametrize("expr", ERRORS.values(), ids=ERRORS.keys())
def test_errors_are_those_of_the_recursion(expr, monkeypatch):
    messages = []
    for loops in (True, False):
        interp = interpreter(loops, monkeypatch)
        with pytest.raises(SchemeError) as info:
            interp.eval_string(expr, "use.scm")
        messages.append(format_error(info.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith(("lib.scm:", "use.scm:"))


@pytest.mark.parametrize("expr", ERRORS.values(), ids=ERRORS.keys())
def test_a_guard_sees_the_same_condition(expr, monkeypatch):
    caught = "(guard (e ((error-object? e) (list (error-object-message e) (error-object-irritants e)))) {})"
    answers = [write_string(interpreter(loops, monkeypatch).eval_string(caught.format(expr)))
               for loops in (True, False)]
    assert answers[0] == answers[1]


# The name's current value is what every self call reaches (R7RS: each call looks the
# name up), as with the twins of a tree recursion.

def test_a_redefined_name_is_what_the_old_procedure_calls():
    interp = Interpreter(tier="sandboxed")
    assert write_string(interp.eval_string(
        "(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
        "(define old h) (define (h n) 100) (list (old 5) (h 5))")) == "(101 100)"


def test_a_redefinition_as_another_loop_keeps_both_right():
    interp = Interpreter(tier="sandboxed")
    assert write_string(interp.eval_string(
        "(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
        "(define old h) (define (h n) (if (= n 0) 0 (+ 10 (h (- n 1)))))"
        "(list (old 3) (h 3))")) == "(21 30)"  # old: 1 + the new h of 2


def test_two_loops_of_one_name_in_one_form_keep_both_right():
    assert write_string(Interpreter(tier="sandboxed").eval_string(
        "(begin (define (h n) (if (= n 0) 0 (+ 1 (h (- n 1)))))"
        "       (define old h)"
        "       (define (h n) (if (= n 0) 0 (+ 10 (h (- n 1))))))"
        "(list (old 3) (h 3))")) == "(21 30)"


def test_a_wrapper_set_after_the_definition_sees_every_self_call():
    assert write_string(Interpreter(tier="sandboxed").eval_string(
        "(define calls 0)"
        "(define (len l) (if (null? l) 0 (+ 1 (len (cdr l)))))"
        "(define plain len)"
        "(set! len (lambda (l) (set! calls (+ calls 1)) (plain l)))"
        "(list (len '(a b c)) calls)")) == "(3 4)"


def test_a_value_defined_from_python_is_what_the_old_procedure_calls():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (h n) (if (= n 0) 0 (+ 1 (h (- n 1))))) (define old h)")
    interp.env.define("h", lambda n: 100)
    assert interp.eval_string("(old 5)") == 101


def test_a_name_set_to_a_non_procedure_fails_as_a_call_would(monkeypatch):
    messages = []
    for loops in (True, False):
        interp = interpreter(loops, monkeypatch)
        with pytest.raises(SchemeError) as info:
            interp.eval_string("(define old len) (set! len 5) (old '(1 2))", "use.scm")
        messages.append(format_error(info.value))
    assert messages[0] == messages[1]
    assert "attempt to apply non-procedure" in messages[0]


# What is not a loop: anything that may run Scheme code inside the recursion (and so
# capture a continuation there), two self calls, a closure that could keep a level.

NOT_LOOPS = {
    "calls a procedure it is given": "(define (f g l) (if (null? l) '() (cons (g (car l)) (f g (cdr l)))))",
    "calls a procedure of the program": "(define (id x) x) (define (f n) (if (= n 0) 0 (+ (id n) (f (- n 1)))))",
    "captures a continuation": "(define (f n) (if (= n 0) (call/cc (lambda (k) 0)) (+ 1 (f (- n 1)))))",
    "a tree recursion": "(define (f n) (if (< n 2) n (+ (f (- n 1)) (f (- n 2)))))",
    "makes a closure": "(define (f n) (if (= n 0) '() (cons (lambda () n) (f (- n 1)))))",
    "assigns its parameter": "(define (f n) (if (= n 0) 0 (begin (set! n (- n 1)) (+ 1 (f n)))))",
    "takes a rest list": "(define (f . l) (if (null? l) 0 (+ 1 (apply f (cdr l)))))",
    "calls itself in tail position after its value": (
        "(define (f n) (if (< n 1) 0 (let ((r (f (- n 1)))) (if (> r 5) r (f (- n 2))))))"),
    "a name a set! compiled earlier assigns":
        "(define (install!) (set! f (lambda (n) 0))) (define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))",
    "applies a member with a procedure":
        "(define (f l) (if (null? l) 0 (+ (length (member 1 l =)) (f (cdr l)))))",
}


@pytest.mark.parametrize("src", NOT_LOOPS.values(), ids=NOT_LOOPS.keys())
def test_recursions_that_may_run_other_code_stay_procedures(src):
    interp = Interpreter(tier="sandboxed")
    interp.eval_string(src)
    assert not is_loop(interp, "f")


def test_a_continuation_reentered_in_the_base_case_still_resumes_every_level():
    assert write_string(Interpreter(tier="sandboxed").eval_string("""
        (define k #f)
        (define log '())
        (define (f n)
          (if (= n 0) (call/cc (lambda (c) (set! k c) 0)) (+ n (f (- n 1)))))
        (define (go)
          (let ((r (f 4)))
            (set! log (cons r log))
            (if (< (length log) 3) (k (length log)) (reverse log))))
        (go)""")) == "(10 11 12)"


def test_a_continuation_reentered_around_a_loop():
    # the loop itself is an ordinary call of the frame that captured the continuation
    assert write_string(Interpreter(tier="sandboxed").eval_string("""
        (define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))
        (define k #f)
        (define runs 0)
        (define (go)
          (let ((r (+ (call/cc (lambda (c) (set! k c) 1)) (sum '(1 2 3)))))
            (set! runs (+ runs 1))
            (if (< runs 3) (k (* 10 runs)) r)))
        (go)""")) == "26"


# Shapes whose self call sits inside an expression that compiles to statements: the
# statements after it are the level's work on the way up.

MORE_SHAPES = {
    "the call's value in an if expression":
        "(define (f n) (if (= n 0) 0 (+ 1 (if (odd? n) (f (- n 1)) (* 2 (f (- n 1)))))))",
    "an operand after the call that needs statements":
        "(define (f n) (if (= n 0) 0 (+ (f (- n 1)) (let ((x n)) (* x 2)))))",
    "the call for its effect":
        "(define c 0) (define (f n) (if (= n 0) c (begin (f (- n 1)) (set! c (+ c n)) c)))",
    "the call in a let of two":
        "(define (f n) (if (= n 0) '() (let ((a n) (r (f (- n 1)))) (cons a r))))",
}


@pytest.mark.parametrize("src", MORE_SHAPES.values(), ids=MORE_SHAPES.keys())
def test_other_shapes_give_the_values_of_the_recursion(src, monkeypatch):
    answers = []
    for loops in (True, False):
        if not loops:
            monkeypatch.setattr(linear_recursion, "is_candidate", lambda *args: False)
        answers.append(write_string(Interpreter(tier="sandboxed").eval_string(
            src + " (list (f 0) (f 1) (f 7))")))
        monkeypatch.undo()
    assert answers[0] == answers[1]


def test_the_primitives_a_loop_may_call():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("""
        (define (keys alist) (if (null? alist) '() (cons (car (assoc (caar alist) alist)) (keys (cdr alist)))))
        (define (shout l) (if (null? l) '() (cons (string-upcase (car l)) (shout (cdr l)))))
        (define (zero! v i) (if (= i (vector-length v)) v (begin (vector-set! v i 0) (zero! v (+ i 1)) v)))
        (define (f l) (if (null? l) 0 (+ (length (member (car l) l string=?)) (f (cdr l)))))""")
    assert [name for name in ("keys", "shout", "zero!", "f") if is_loop(interp, name)] == \
        ["keys", "shout", "zero!"]  # member with a third argument calls it
    assert write_string(interp.eval_string(
        "(list (keys '((a . 1) (b . 2))) (shout '(\"a\" \"b\")) (zero! (vector 1 2) 0)"
        "      (f '(\"x\" \"y\")))")) == '((a b) ("A" "B") #(0 0) 3)'
