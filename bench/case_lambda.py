"""Making a ``case-lambda`` procedure against making a ``lambda``, side by side in one run.

    python bench/case_lambda.py [--n N] [--tree PATH]

Each loop makes N procedures (one per iteration, closing over the loop variable) and
calls each once; it prints µs per iteration and the ratio case-lambda / lambda. Before
issue 28 a case-lambda form generated and compiled its dispatcher on every evaluation
(~80x a lambda); the compiler now makes it once per form. ``--tree`` measures another
checkout of harness (e.g. a worktree of an older commit) with this same script, for a
before/after comparison.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

PROGRAM = """
(define (make-lambda k) (lambda (a) (+ a k)))
(define (make-case k) (case-lambda ((a) (+ a k)) ((a b) (+ a b k)) ((a . rest) a)))
(define (lambdas n acc) (if (= n 0) acc (lambdas (- n 1) ((make-lambda n) acc))))
(define (cases n acc) (if (= n 0) acc (cases (- n 1) ((make-case n) acc))))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--tree", default=str(Path(__file__).resolve().parent.parent),
                    help="the harness checkout to measure (default: this one)")
    args = ap.parse_args()
    sys.path.insert(0, args.tree)
    import harness
    from harness.scheme.interpreter import Interpreter

    interp = Interpreter()
    interp.eval_string(PROGRAM)
    forms = {"lambda": f"(lambdas {args.n} 0)", "case-lambda": f"(cases {args.n} 0)"}
    expected = args.n * (args.n + 1) // 2
    best = {name: float("inf") for name in forms}
    for _ in range(7):  # the two take turns: a change in load falls on both
        for name, form in forms.items():
            t0 = time.process_time()
            assert interp.eval_string(form) == expected
            best[name] = min(best[name], (time.process_time() - t0) / args.n * 1e6)
    print(f"harness from {Path(harness.__file__).parent}")
    print(f"   make and call a lambda:       {best['lambda']:8.2f} µs")
    print(f"   make and call a case-lambda:  {best['case-lambda']:8.2f} µs"
          f"  ({best['case-lambda'] / best['lambda']:.1f}x lambda)")


if __name__ == "__main__":
    main()
