"""What re-entrant continuations cost, measured side by side in one process.

    python bench/continuations.py [--rounds N]

1. The cost every program pays so that any frame can be resumed: a value computed before
   a call in the same expression is kept in a temporary. fib, tak and a 100,000-deep
   (sum list) are compiled twice in this process, with and without those temporaries
   (the compiler's ``_may_call`` switched off for the second), and timed in turns; the
   loops a linear recursion such as ``sum`` would be (linear_recursion.py) are switched off
   on both sides, so each level is a frame as the comparison needs.
2. call/cc that only escapes (the continuation is not kept): µs per call.
3. A generator written with call/cc (each element: one capture and one re-entry), with
   the generator called from 1, 100 and 1,000 frames deep: µs per element.

CPU time (time.process_time), best of the rounds.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.scheme import compiler, linear_recursion
from harness.scheme.interpreter import Interpreter

PROGRAMS = """
(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(define (tak x y z) (if (not (< y x)) z (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))
(define (build n) (if (= n 0) '() (cons n (build (- n 1)))))
(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))
(define big (build 100000))
(define (escape-loop n)
  (let loop ((i 0) (acc 0))
    (if (= i n) acc (loop (+ i 1) (+ acc (call/cc (lambda (k) (k i))))))))
(define (make-generator lst)
  (define return #f)
  (define resume #f)
  (lambda ()
    (call/cc (lambda (r)
      (set! return r)
      (if resume
          (resume #f)
          (begin (for-each (lambda (x) (call/cc (lambda (k) (set! resume k) (return x)))) lst)
                 (return 'done)))))))
(define (drain depth n)
  (if (> depth 0)
      (+ 0 (drain (- depth 1) n))
      (let ((g (make-generator (iota n))))
        (let loop ((count 0))
          (if (eq? (g) 'done) count (loop (+ count 1)))))))
"""


def build(with_temporaries: bool) -> Interpreter:
    real, real_linear = compiler._may_call, linear_recursion.is_candidate
    linear_recursion.is_candidate = lambda *args: False
    if not with_temporaries:
        compiler._may_call = lambda e: False
    try:
        interp = Interpreter(tier="unsandboxed", budget_check="steps")
        interp.eval_string(PROGRAMS)
    finally:
        compiler._may_call, linear_recursion.is_candidate = real, real_linear
    return interp


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    with_t, without_t = build(True), build(False)
    cases = [("fib 25", "(fib 25)"), ("tak 18 12 6", "(tak 18 12 6)"),
             ("(sum big), 100,000 deep", "(sum big)")]
    print(f"Python {sys.version.split()[0]}; CPU time, best of {args.rounds} rounds in turns")
    print(f"{'program':26} {'without':>9} {'with':>9} {'ratio':>6}   (temporaries before calls)")
    for label, src in cases:
        results = {}
        pair = [("without", without_t), ("with", with_t)]
        for _ in range(args.rounds):  # in turns (first one, then the other first)
            pair.reverse()
            for name, interp in pair:
                t = best(lambda interp=interp, src=src: interp.eval_string(src), 1)
                results[name] = min(results.get(name, t), t)
        print(f"{label:26} {results['without'] * 1e3:8.1f}ms {results['with'] * 1e3:8.1f}ms "
              f"{results['with'] / results['without']:6.3f}")
    n = 20_000
    t = best(lambda: with_t.eval_string(f"(escape-loop {n})"), args.rounds)
    print(f"call/cc that escapes (k not kept): {t / n * 1e6:.2f} µs per call")
    for depth in (1, 100, 1000):
        n = 2000
        t = best(lambda depth=depth, n=n: with_t.eval_string(f"(drain {depth} {n})"), 3)
        print(f"generator element (capture + re-entry), {depth:>5} frames deep: "
              f"{t / n * 1e6:8.1f} µs")


if __name__ == "__main__":
    main()
