"""Deep recursion through every procedure that calls back into Scheme must not grow the C
stack: a hook runs on the host's thread (8 MiB stack), and a C-stack overflow would kill
the host. Each case recurses 100,000 deep *through* one primitive, in a subprocess (a
crash must not take pytest down) on a thread with an 8 MiB stack."""

from __future__ import annotations

import subprocess
import sys
import textwrap

DEPTH = 100_000

# name -> a Scheme expression of n that recurses through the primitive (f is the procedure)
CASES = {
    "trampoline": "(define (f n) (if (= n 0) 0 (+ 1 (g n)))) (define (g n) (f (- n 1)))",
    "apply": "(define (f n) (if (= n 0) 0 (+ 1 (apply f (list (- n 1))))))",
    "apply-rest": "(define (f n . r) (if (= n 0) 0 (+ 1 (apply f (- n 1) 1 2 3 4 5 6 7 8 '(9)))))",
    "call-with-values": "(define (f n) (if (= n 0) 0 (call-with-values (lambda () (f (- n 1))) "
                        "(lambda (x) (+ x 1)))))",
    "call/cc": "(define (f n) (if (= n 0) 0 (+ 1 (call/cc (lambda (k) (f (- n 1)))))))",
    "dynamic-wind": "(define (f n) (if (= n 0) 0 (+ 1 (dynamic-wind (lambda () #f) "
                    "(lambda () (f (- n 1))) (lambda () #f)))))",
    "with-exception-handler": "(define (f n) (if (= n 0) 0 (+ 1 (with-exception-handler "
                              "(lambda (e) 0) (lambda () (f (- n 1)))))))",
    "guard": "(define (f n) (if (= n 0) 0 (+ 1 (guard (e (#t 0)) (f (- n 1))))))",
    "parameterize": "(define p (make-parameter 0)) (define (f n) (if (= n 0) 0 "
                    "(+ 1 (parameterize ((p n)) (f (- n 1))))))",
    "case-lambda": "(define f (case-lambda ((n) (if (= n 0) 0 (+ 1 (f (- n 1) 'x)))) "
                   "((n x) (f n))))",
    "force": "(define (f n) (if (= n 0) 0 (+ 1 (force (delay (f (- n 1)))))))",
    "map": "(define (f n) (if (= n 0) 0 (+ 1 (car (map (lambda (x) (f (- n 1))) '(1))))))",
    "map2": "(define (f n) (if (= n 0) 0 (+ 1 (car (map (lambda (x y) (f (- n 1))) '(1) "
            "'(2))))))",
    "for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (for-each (lambda (x) (set! r "
                "(f (- n 1)))) '(1)) (+ r 1))))",
    "vector-map": "(define (f n) (if (= n 0) 0 (+ 1 (vector-ref (vector-map (lambda (x) "
                  "(f (- n 1))) #(1)) 0))))",
    "vector-for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-for-each (lambda (x) "
                       "(set! r (f (- n 1)))) #(1)) (+ r 1))))",
    "string-for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-for-each (lambda (c) "
                       "(set! r (f (- n 1)))) \"a\") (+ r 1))))",
    "string-map": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-map (lambda (c) "
                  "(set! r (f (- n 1))) c) \"a\") (+ r 1))))",
    "fold": "(define (f n) (if (= n 0) 0 (+ 1 (fold (lambda (x acc) (f (- n 1))) 0 '(1)))))",
    "fold-right": "(define (f n) (if (= n 0) 0 (+ 1 (fold-right (lambda (x acc) (f (- n 1))) "
                  "0 '(1)))))",
    "reduce": "(define (f n) (if (= n 0) 0 (+ 1 (reduce (lambda (x acc) (f (- n 1))) 0 "
              "'(1 2)))))",
    "filter": "(define (f n) (if (= n 0) 0 (let ((r 0)) (filter (lambda (x) (set! r "
              "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "find": "(define (f n) (if (= n 0) 0 (let ((r 0)) (find (lambda (x) (set! r (f (- n 1))) "
            "#t) '(1)) (+ r 1))))",
    "any": "(define (f n) (if (= n 0) 0 (+ 1 (any (lambda (x) (f (- n 1))) '(1)))))",
    "every": "(define (f n) (if (= n 0) 0 (+ 1 (every (lambda (x) (f (- n 1))) '(1)))))",
    "count": "(define (f n) (if (= n 0) 0 (let ((r 0)) (count (lambda (x) (set! r "
             "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "filter-map": "(define (f n) (if (= n 0) 0 (+ 1 (car (filter-map (lambda (x) (f (- n 1))) "
                  "'(1))))))",
    "append-map": "(define (f n) (if (= n 0) 0 (+ 1 (car (append-map (lambda (x) "
                  "(list (f (- n 1)))) '(1))))))",
    "member": "(define (f n) (if (= n 0) 0 (let ((r 0)) (member 1 '(1) (lambda (a b) (set! r "
              "(f (- n 1))) #t)) (+ r 1))))",
    "assoc": "(define (f n) (if (= n 0) 0 (let ((r 0)) (assoc 1 '((1 . 2)) (lambda (a b) "
             "(set! r (f (- n 1))) #t)) (+ r 1))))",
    "list-index": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-index (lambda (x) (set! r "
                  "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "partition": "(define (f n) (if (= n 0) 0 (let ((r 0)) (partition (lambda (x) (set! r "
                 "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "delete-duplicates": "(define (f n) (if (= n 0) 0 (let ((r 0)) (delete-duplicates '(1 2) "
                         "(lambda (a b) (set! r (f (- n 1))) #f)) (+ r 1))))",
    "list-sort": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-sort (lambda (a b) (set! r "
                 "(f (- n 1))) #t) '(1 2)) (+ r 1))))",
    "hash-table-update!": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 (begin "
                          "(hash-table-update!/default h n (lambda (v) (f (- n 1))) 0) "
                          "(+ 1 (hash-table-ref h n)))))",
    "hash-table-ref-thunk": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 "
                            "(+ 1 (hash-table-ref h 'missing (lambda () (f (- n 1)))))))",
    "hash-table-walk": "(define h (make-hash-table)) (hash-table-set! h 1 1) (define (f n) "
                       "(if (= n 0) 0 (let ((r 0)) (hash-table-walk h (lambda (k v) (set! r "
                       "(f (- n 1))))) (+ r 1))))",
    "make-parameter-converter": "(define (f n) (if (= n 0) 0 (+ 1 ((make-parameter n "
                                "(lambda (x) (f (- x 1))))))))",
}

RUNNER = textwrap.dedent("""
    import sys, threading
    from harness.scheme.interpreter import Interpreter
    cases = {cases!r}
    depth = {depth}
    def main():
        for name, src in cases.items():
            print("start", name, flush=True)
            interp = Interpreter()
            try:
                value = interp.eval_string(src + f" (f {{depth}})")
                ok = value == depth
            except BaseException as exc:
                ok = False
                value = f"{{type(exc).__name__}}: {{exc}}"
            print("ok" if ok else "bad", name, str(value)[:200], flush=True)
    threading.stack_size(8 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
""")


def test_deep_recursion_through_primitives_does_not_overflow_the_c_stack():
    script = RUNNER.format(cases=CASES, depth=DEPTH)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    lines = proc.stdout.splitlines()
    started = [line.split()[1] for line in lines if line.startswith("start ")]
    bad = [line for line in lines if line.startswith("bad ")]
    crashed = started[-1] if proc.returncode != 0 and started else None
    assert crashed is None, f"crashed (exit {proc.returncode}) recursing through {crashed}"
    assert not bad, "\n".join(bad)
    assert len(started) == len(CASES)
