"""Calls of procedures the compiler knows (known_calls.py): local procedures go straight to
their bodies, continuation lambdas passed where only bodies go are one Python function, and
everything still runs in constant stack, re-enters continuations and reports errors."""

import pytest

from harness.scheme.ast_nodes import Call, Lambda, Let, LocalRef
from harness.scheme.compiler import Compiler
from harness.scheme.expander import Expander
from harness.scheme.interpreter import Interpreter
from harness.scheme.names import global_name
from harness.scheme.printer import write_string
from harness.scheme.reader import read_all
from harness.scheme.syntax import Scope

CPSTAK = """
(define (cpstak x y z)
  (define (tak x y z k)
    (if (not (< y x))
        (k z)
        (tak (- x 1) y z
             (lambda (v1)
               (tak (- y 1) z x
                    (lambda (v2)
                      (tak (- z 1) x y
                           (lambda (v3) (tak v1 v2 v3 k)))))))))
  (tak x y z (lambda (a) a)))
"""


def _compiled_tree(src: str):
    """The core tree of the one form ``src``, after compiling it (the findings on it)."""
    interp = Interpreter(tier="sandboxed")
    forms, smap = read_all(src, "known.scm")
    node = Expander(interp.env, smap).expand_toplevel(forms[0], Scope(None, interp.env))
    Compiler(interp.env, "known.scm", "steps").compile(node)
    return node


def _nodes(root, cls):
    stack, out = [root], []
    while stack:
        n = stack.pop()
        if isinstance(n, cls):
            out.append(n)
        for slot in ("value", "body", "test", "then", "else_", "fn"):
            child = getattr(n, slot, None)
            if isinstance(child, list):
                stack.extend(child)
            elif child is not None and hasattr(child, "pos"):
                stack.append(child)
        stack.extend(getattr(n, "args", None) or [])
        stack.extend(getattr(n, "inits", None) or [])
    return out


def test_continuation_passing_code_is_compiled_as_bodies_and_direct_calls():
    tree = _compiled_tree(CPSTAK)
    let = next(n for n in _nodes(tree, Let) if n.vars[0].name == "tak")
    tak_var, tak = let.vars[0], let.inits[0]
    assert tak_var.known is tak and tak.private and tak.only_body
    k = tak.params[3]
    assert k.raw  # the continuation parameter only ever holds bodies
    continuations = _nodes(tak.body, Lambda)
    assert len(continuations) == 3 and all(c.only_body for c in continuations)
    calls = [c for c in _nodes(tree, Call)
             if isinstance(c.fn, LocalRef) and c.fn.var is tak_var]
    # the continuations' calls of tak are Python calls; tak's own call of itself bounces
    own = [c for c in calls if c in _nodes(tak.body, Call) and c not in
           [x for lam in continuations for x in _nodes(lam.body, Call)]]
    assert own and not any(c.direct for c in own)
    assert all(c.direct for c in calls if c not in own)


def test_continuations_take_their_variables_by_value_and_the_procedure_loops():
    tree = _compiled_tree(CPSTAK)
    tak = next(n for n in _nodes(tree, Let) if n.vars[0].name == "tak").inits[0]
    first = next(lam for lam in _nodes(tak.body, Lambda) if lam.params[0].name == "v1")
    assert {v.name for v in first.captures} == {"x", "y", "z", "k"}
    assert not any(p.captured for p in tak.params)  # no cell: tak's self call loops


NAMED = ("(define (g) (define (walk n k) (if (= n 0) (k 0) (walk (- n 1) (lambda (v) "
         "(k (+ v n)))))) (define (done v) (twice v)) (define (twice v) (* v 2)) {}) (g)")


def test_a_named_continuation_is_its_body_alone_unless_used_as_a_value():
    def done(src):
        return next(init for let in _nodes(_compiled_tree(src), Let)
                    for var, init in zip(let.vars, let.inits) if var.name == "done")
    assert done(NAMED.format("(walk 3 done)")).only_body
    assert not done(NAMED.format("(list (walk 3 done) (procedure? done))")).only_body


def test_a_local_procedure_used_as_a_value_stays_public():
    tree = _compiled_tree("(define (g) (define (f x) (h x)) (define (h x) x) (list f (f 1)))")
    f = next(n for n in _nodes(tree, Let)).inits[0]
    assert not f.private and not f.only_body


CASES = [
    ("cpstak", CPSTAK + "(cpstak 18 12 6)", "7"),
    # 100,000 continuations each calling the next: constant stack
    ("deep continuation chain",
     ("(define (cps-sum n) (define (walk i k) (if (= i 0) (k 0) "
      "(walk (- i 1) (lambda (v) (k (+ v i)))))) (walk n (lambda (v) v))) (cps-sum 100000)"),
     "5000050000"),
    # local mutual recursion: one of the two calls stays a bounce (no cycle of direct calls)
    ("local mutual recursion",
     ("(define (g) (define (ev? n) (if (= n 0) #t (od? (- n 1)))) "
      "(define (od? n) (if (= n 0) #f (ev? (- n 1)))) (ev? 300001)) (g)"), "#f"),
    ("named let in tail position",
     ("(define (f n) (let loop ((i n) (acc 0)) (if (= i 0) acc (loop (- i 1) (+ acc i))))) "
      "(list (f 10) (procedure? f))"), "(55 #t)"),
    # a primitive where a continuation goes: that parameter keeps public procedures
    ("a primitive passed as the continuation",
     "(define (g) (define (f n k) (if (= n 0) (k n) (f (- n 1) k))) (f 10 list)) (g)", "(0)"),
    ("a local procedure called in and out of tail position and passed to map",
     ("(define (g) (define (f x) (* x 2)) (define (h x) (f x)) "
      "(list (h 3) (map f '(1 2)) (map h '(4)))) (g)"), "(6 (2 4) (8))"),
    ("a local procedure called before and after a tail call",
     ("(define (g n) (define (f k) (k (+ 1 n))) (+ (f (lambda (v) (* v 2))) "
      "(f (lambda (v) v)))) (g 1)"), "6"),
    # the continuations take i and k by value, so walk's self call is a loop: each
    # continuation still sees the values of its own iteration
    ("continuations made in a loop",
     ("(define (g) (define (walk i k) (if (= i 0) (k '()) (walk (- i 1) (lambda (v) "
      "(k (cons i v)))))) (walk 3 (lambda (v) v))) (g)"), "(3 2 1)"),
    ("a continuation assigning a variable it took by value (its box)",
     ("(define (g) (define (walk i k) (if (= i 0) (k '()) (walk (- i 1) (lambda (v) "
      "(set! i (* i 10)) (k (cons i v)))))) (walk 3 (lambda (v) v))) (g)"), "(30 20 10)"),
    # a continuation passed on through a call out of tail position, or called from a
    # closure that escapes: the body is run by that call's (or closure's) trampoline
    ("a continuation passed through a non-tail call",
     ("(define (g) (define (f k) (k 1)) (define (h k) (+ 1 (f k))) (h (lambda (v) v))) "
      "(g)"), "2"),
    ("a continuation called from an escaping closure",
     ("(define (g) (define (f k) (list (lambda () (k 1)))) "
      "((car (f (lambda (x) (* x 7)))))) (g)"), "7"),
    # tail calls of primitives: one that calls procedures, one through apply
    ("a tail call of a primitive that calls procedures",
     "(define (f lst) (map car lst)) (define (g) (let loop () (f '((1) (2))))) (g)",
     "(1 2)"),
    ("a continuation given to apply",
     "(define (g) (define (f k) (apply k '(1))) (f (lambda (x) (+ x 1)))) (g)", "2"),
    # a named continuation (an internal define passed where only bodies go)
    ("a named continuation", NAMED.format("(walk 100000 done)"), "10000100000"),
    ("a named continuation also used as a value",
     NAMED.format("(list (walk 3 done) (procedure? done))"), "(12 #t)"),
    # a letrec variable may not be set when the continuation is made: it stays a cell
    ("a continuation using a later internal define",
     ("(define (g) (define (f k) (k 1)) (define a (f (lambda (v) (lambda () later)))) "
      "(define later 5) (a)) (g)"), "5"),
]


@pytest.mark.parametrize("src,expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_known_calls_run_as_before(scheme, sandboxed, src, expected):
    assert scheme(src) == expected
    assert sandboxed(src) == expected


REENTRY = [
    # captured in the last continuation (a body called by the trampoline), re-entered twice
    (("(define saved #f) (define runs 0) (define (run) (define (walk n k) (if (= n 0) (k 0) "
      "(walk (- n 1) (lambda (v) (k (+ v 1)))))) (walk 3 (lambda (v) (+ v (call/cc "
      "(lambda (c) (set! saved c) 0)))))) (let ((r (run))) (set! runs (+ runs 1)) "
      "(if (< runs 3) (saved (* 10 runs)) (list r runs)))"), "(23 3)"),
    # captured in a local procedure that another calls directly
    # captured in a continuation that took its variables by value, in a loop
    (("(define saved #f) (define runs 0) (define (run) (define (walk n k) (if (= n 0) (k 0) "
      "(walk (- n 1) (lambda (v) (k (+ v n (if (= n 2) (call/cc (lambda (c) (set! saved c) "
      "0)) 0))))))) (walk 3 (lambda (v) v))) (let ((r (run))) (set! runs (+ runs 1)) "
      "(if (< runs 3) (saved (* 100 runs)) (list r runs)))"), "(206 3)"),
    # captured in a known procedure whose self call is a loop (its continuations took n
    # and k by value): the loop resumes at the level it was captured in
    (("(define saved #f) (define runs 0) (define log '()) (define (run) (define (walk n k) "
      "(if (= n 0) (k 0) (begin (set! log (cons n log)) (if (= n 2) (call/cc (lambda (c) "
      "(set! saved c)))) (walk (- n 1) (lambda (v) (k (+ v n))))))) (walk 4 (lambda (v) v))) "
      "(let ((r (run))) (set! runs (+ runs 1)) (if (< runs 3) (saved #f) "
      "(list r runs (reverse log))))"), "(10 3 (4 3 2 1 1 1))"),
    # captured in a known procedure about to bounce to a named continuation
    (("(define saved #f) (define runs 0) (define (run) (define (walk n k) (if (= n 0) "
      "(k (call/cc (lambda (c) (set! saved c) 0))) (walk (- n 1) k))) (define (done v) "
      "(* v 10)) (walk 3 done)) (let ((r (run))) (set! runs (+ runs 1)) (if (< runs 3) "
      "(saved runs) (list r runs)))"), "(20 3)"),
    (("(define saved #f) (define runs 0) (define (run) (define (inner k) (k (call/cc "
      "(lambda (c) (set! saved c) 1)))) (define (outer n) (if (= n 0) (inner (lambda (v) "
      "(* v 100))) (outer (- n 1)))) (outer 2)) (let ((r (run))) (set! runs (+ runs 1)) "
      "(if (< runs 3) (saved (+ runs 1)) (list r runs)))"), "(300 3)"),
]


@pytest.mark.parametrize("src,expected", REENTRY)
def test_continuations_captured_in_known_calls_are_reentered(scheme, src, expected):
    assert scheme(src) == expected


def test_a_procedure_ending_in_a_named_let_needs_no_trampoline():
    interp = Interpreter()
    interp.eval_string("(define (f n) (let loop ((i n)) (if (= i 0) 'done (loop (- i 1)))))")
    f = interp.env.table[global_name("f")]
    assert not hasattr(f, "h_body")  # its tail call of `loop` is a Python call
    assert write_string(interp.eval_string("(f 5)")) == "done"


def test_a_continuation_called_with_the_wrong_number_of_arguments_is_an_error(scheme):
    src = "(define (g) (define (f k) (k 1 2)) (f (lambda (x) x))) (g)"
    assert "expected 1 argument, got 2" in scheme.error(src)
    # one that uses y: called with two arguments somewhere, it keeps y in a cell (a hidden
    # parameter would take the second argument)
    src = "(define (g y) (define (f k) (k 1 2)) (f (lambda (x) (+ x y)))) (g 1)"
    assert "expected 1 argument, got 2" in scheme.error(src)
    # a named continuation too
    src = ("(define (g) (define (walk n k) (if (= n 0) (k 0 1) (walk (- n 1) k))) "
           "(define (done v) (+ v 1)) (walk 5 done)) (g)")
    assert "done: expected 1 argument, got 2" in scheme.error(src)
    # a local procedure called with the wrong count is named
    src = "(define (g) (define (f a) a) (define (h) (f 1 2)) (h)) (g)"
    assert "f: expected 1 argument, got 2" in scheme.error(src)

