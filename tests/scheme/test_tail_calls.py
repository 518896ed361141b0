"""Proper tail calls in every tail position, and deep non-tail recursion (R7RS 3.5)."""

import pytest

N = 300_000  # far beyond any Python stack without proper tail calls

TAIL_POSITIONS = [
    ("self loop", f"(let loop ((i 0)) (if (< i {N}) (loop (+ i 1)) i))"),
    ("mutual recursion", (f"(define (ev? n) (if (= n 0) #t (od? (- n 1)))) "
                         f"(define (od? n) (if (= n 0) #f (ev? (- n 1)))) (ev? {N})")),
    ("apply", f"(define (f n) (if (= n 0) 'done (apply f (list (- n 1))))) (f {N})"),
    ("cond =>", f"(define (f n) (cond ((= n 0) 'done) ((- n 1) => f))) (f {N})"),
    ("case", f"(define (f n) (case n ((0) 'done) (else (g n)))) (define (g n) (f (- n 1))) (f {N})"),
    ("when", (f"(define (f n) (when (>= n 0) (if (= n 0) 'done (g n)))) (define (g n) (f (- n 1)))"
             f" (f {N})")),
    ("unless", (f"(define (f n) (unless (< n 0) (if (= n 0) 'done (g n)))) "
               f"(define (g n) (f (- n 1))) (f {N})")),
    ("and", f"(define (f n) (and #t (if (= n 0) 'done (g n)))) (define (g n) (f (- n 1))) (f {N})"),
    ("or", f"(define (f n) (or #f (if (= n 0) 'done (g n)))) (define (g n) (f (- n 1))) (f {N})"),
    ("do result", (f"(define (f n) (do ((i 0 (+ i 1))) ((= i 1) (if (= n 0) 'done (g n))))) "
                  f"(define (g n) (f (- n 1))) (f {N})")),
    ("let body", (f"(define (f n) (let ((m (- n 1))) (if (< m 0) 'done (g m)))) "
                 f"(define (g n) (f n)) (f {N})")),
    ("let* body", (f"(define (f n) (let* ((m (- n 1))) (if (< m 0) 'done (g m)))) "
                  f"(define (g n) (f n)) (f {N})")),
    ("letrec body", (f"(define (f n) (letrec ((m (- n 1))) (if (< m 0) 'done (g m)))) "
                    f"(define (g n) (f n)) (f {N})")),
    ("closure argument", (f"(define (f n k) (if (= n 0) (k 'done) (f (- n 1) k))) "
                         f"(f {N} (lambda (x) x))")),
    ("lambda stored in a variable", (f"(define g #f) (define (f n) (if (= n 0) 'done (g (- n 1))))"
                                    f" (set! g f) (f {N})")),
    ("closure loop capturing", (f"(define (f n acc) (if (= n 0) (length acc) "
                               f"(f (- n 1) (if (< n 3) (cons (lambda () n) acc) acc)))) (f {N} '())")),
]


@pytest.mark.parametrize("name,src", TAIL_POSITIONS, ids=[t[0] for t in TAIL_POSITIONS])
def test_tail_call_runs_in_constant_stack(scheme, name, src):
    assert scheme(src) in ("done", str(N), "#t", "#f", "2")


def test_loop_closures_capture_each_iteration(scheme):
    src = ("(let loop ((i 0) (fs '())) (if (= i 3) (map (lambda (f) (f)) fs) "
           "(loop (+ i 1) (cons (lambda () i) fs))))")
    assert scheme(src) == "(2 1 0)"


def test_do_loop_closures_capture_each_iteration(scheme):
    src = "(do ((i 0 (+ i 1)) (fs '() (cons (lambda () i) fs))) ((= i 3) (map (lambda (f) (f)) fs)))"
    assert scheme(src) == "(2 1 0)"


def test_one_million_deep_non_tail_recursion(scheme):
    src = ("(define (build n) (if (= n 0) '() (cons n (build (- n 1))))) "
           "(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l))))) (sum (build 1000000))")
    assert scheme(src) == "500000500000"


def test_tail_calls_through_the_trampoline_with_any_number_of_arguments():
    # the trampoline calls bodies of 1-3 arguments itself and the others through a caller
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.printer import write_string
    src = """
    (define (count0) (set! n (- n 1)) (if (= n 0) 'zero (f0)))
    (define (f0) (count0))
    (define (a1 i) (if (= i 0) 1 (b1 (- i 1))))  (define (b1 i) (a1 i))
    (define (a3 i x y) (if (= i 0) (+ x y) (b3 (- i 1) y x)))  (define (b3 i x y) (a3 i x y))
    (define (a5 i p q r s) (if (= i 0) (list p q r s) (b5 (- i 1) q r s p)))
    (define (b5 i p q r s) (a5 i p q r s))
    (define n 100000)
    (list (f0) (a1 100000) (a3 100001 1 2) (a5 100003 1 2 3 4) (b1 0))
    """
    assert write_string(Interpreter(tier="sandboxed").eval_string(src)) == \
        "(zero 1 3 (4 1 2 3) 1)"


def test_a_tail_call_of_a_non_procedure_names_it():
    from harness.scheme.errors import SchemeError
    from harness.scheme.interpreter import Interpreter
    with pytest.raises(SchemeError, match="attempt to apply non-procedure 5"):
        Interpreter(tier="sandboxed").eval_string(
            "(define (g x) x) (define (f h) (h 1)) (g 1) (f 5)")
