"""What compiling a tree recursion as twins gains, measured side by side in one process.

    python bench/twins.py [--rounds N]

fib 27, tak 18 12 6 and a 100,000-deep (sum (build n)) are compiled twice in the
sandboxed tier (step counting on, inside a Budget as a hook runs): with twins (a global
procedure that calls itself other than in tail position checks its budget every other
level, compiler.py) and without (``compiler._recursion_kind`` switched off), and timed in
turns with CPython's fib. Prints the best CPU time of each and the ratios. ``build`` and
``sum`` would be loops (linear_recursion.py): that is switched off in both, so they are
compiled as twins or plainly (``python bench/linear_recursion.py`` compares the loops).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.scheme import compiler, linear_recursion
from harness.scheme.interpreter import Interpreter
from harness.scheme.limits import Budget

TAK = ("(define (tak x y z) (if (not (< y x)) z"
       " (tak (tak (- x 1) y z) (tak (- y 1) z x) (tak (- z 1) x y))))")
DEEP = ("(define (build n) (if (= n 0) '() (cons n (build (- n 1)))))"
        "(define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))")
PROGRAMS = {
    "fib": ("(define (fib n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))", "(fib 27)"),
    "tak": (TAK, "(tak 18 12 6)"),
    "deep": (DEEP, "(sum (build 100000))"),
}


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def build(twins: bool) -> dict[str, Interpreter]:
    real, real_linear = compiler._recursion_kind, linear_recursion.is_candidate
    linear_recursion.is_candidate = lambda *args: False
    if not twins:
        compiler._recursion_kind = lambda lam, env: "none"
    try:
        out = {}
        for name, (definitions, _) in PROGRAMS.items():
            interp = Interpreter(tier="sandboxed")
            interp.eval_string(definitions)
            out[name] = interp
        return out
    finally:
        compiler._recursion_kind, linear_recursion.is_candidate = real, real_linear


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    variants = {"plain": build(False), "twins": build(True)}
    best: dict[tuple[str, str], float] = {}

    def keep(key, t):
        best[key] = min(best.get(key, float("inf")), t)

    for _ in range(args.rounds):
        for label, interps in variants.items():
            for name, (_, call) in PROGRAMS.items():
                def run(interp=interps[name], call=call):
                    with Budget(steps=10**15, seconds=None):
                        interp.eval_string(call)
                keep((label, name), cpu(run))
        keep(("python", "fib"), cpu(lambda: fib(27)))
    print(f"best of {args.rounds} (CPU time), ms")
    for name in PROGRAMS:
        plain, twins = best[("plain", name)], best[("twins", name)]
        print(f"{name:5} plain {plain * 1e3:7.1f}  twins {twins * 1e3:7.1f}  "
              f"twins/plain {twins / plain:.3f}")
    py = best[("python", "fib")]
    print(f"fib 27 against CPython ({py * 1e3:.1f} ms): plain {best[('plain', 'fib')] / py:.3f}, "
          f"twins {best[('twins', 'fib')] / py:.3f}")


if __name__ == "__main__":
    threading.stack_size(256 * 1024 * 1024)  # the deep recursion
    worker = threading.Thread(target=main)
    worker.start()
    worker.join()
