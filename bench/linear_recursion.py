"""What compiling linear self-recursion as a loop gains, side by side, in fresh processes.

    python bench/linear_recursion.py [--rounds N] [PROGRAM ...]

Each program (deep non-tail recursions a user writes: the million-deep ``(sum (build
n))`` of bench/programs/deep.scm, ``length`` and ``append`` written by hand, ``merge`` of
two sorted lists, ``fact`` of 3,000) runs in the sandboxed tier as a hook runs it (step
counting on, inside a Budget) in a child process of its own, compiled with the loops
(``loop``) and without (``frames``: ``linear_recursion.is_candidate`` switched off, so the
procedures are compiled as before, as twins), in turns. Each child reports the CPU time
of the run (definitions not timed) and its peak resident size; printed: the best of each
over the rounds and the ratios loop/frames.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

PROGRAMS = {
    "deep": ((HERE / "programs" / "deep.scm").read_text().rsplit("\n(sum", 1)[0],
             "(sum (build 1000000))"),
    "length": (("(define (len l) (if (null? l) 0 (+ 1 (len (cdr l)))))"
               "(define big (make-list 1000000 'x))"), "(len big)"),
    "append": (("(define (app a b) (if (null? a) b (cons (car a) (app (cdr a) b))))"
               "(define big (iota 1000000))"), "(length (app big '(end)))"),
    "merge": (("(define (merge a b) (cond ((null? a) b) ((null? b) a)"
              " ((< (car a) (car b)) (cons (car a) (merge (cdr a) b)))"
              " (else (cons (car b) (merge a (cdr b))))))"
              "(define evens (iota 500000 0 2)) (define odds (iota 500000 1 2))"),
              "(length (merge evens odds))"),
    "fact": ("(define (fact n) (if (= n 0) 1 (* n (fact (- n 1)))))",
             "(remainder (fact 3000) 1000003)"),
}
MODES = ("loop", "frames")


def child(mode: str, name: str) -> None:
    """Run one program once in this process; print its CPU time, value and peak RSS."""
    sys.path.insert(0, str(ROOT))
    import gc

    from harness.scheme import linear_recursion
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.limits import Budget
    if mode == "frames":
        linear_recursion.is_candidate = lambda *args: False
    sys.setrecursionlimit(1_100_000)
    definitions, expression = PROGRAMS[name]
    interp = Interpreter(tier="sandboxed")
    interp.eval_string(definitions)
    gc.collect()
    gc.freeze()
    t0 = time.process_time()
    with Budget(steps=10**15, seconds=None):
        value = interp.eval_string(expression)
    cpu = time.process_time() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"cpu": cpu, "value": str(value), "rss": rss}))


def run_child(mode: str, name: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, __file__, "--child", mode, name], env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{name} ({mode}) failed: {out.stderr[-500:]}")
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PROGRAM"), help=argparse.SUPPRESS)
    ap.add_argument("programs", nargs="*", metavar="PROGRAM", help=" ".join(PROGRAMS))
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    unknown = set(args.programs) - set(PROGRAMS)
    if unknown:
        ap.error(f"unknown program(s): {', '.join(sorted(unknown))}")
    print(f"Python {sys.version.split()[0]}; sandboxed tier; best of {args.rounds} "
          "fresh processes each, in turns")
    print(f"{'program':8} {'loop ms':>8} {'frames ms':>9} {'ratio':>6}   "
          f"{'loop MB':>7} {'frames MB':>9} {'ratio':>6}")
    for name in args.programs or PROGRAMS:
        best = {m: {"cpu": float("inf"), "rss": float("inf")} for m in MODES}
        values = set()
        for _ in range(args.rounds):
            for mode in MODES:
                r = run_child(mode, name)
                values.add(r["value"])
                best[mode]["cpu"] = min(best[mode]["cpu"], r["cpu"])
                best[mode]["rss"] = min(best[mode]["rss"], r["rss"])
        if len(values) != 1:
            raise SystemExit(f"{name}: the two compilations disagree: {values}")
        lo, fr = best["loop"], best["frames"]
        print(f"{name:8} {lo['cpu'] * 1e3:8.0f} {fr['cpu'] * 1e3:9.0f} "
              f"{lo['cpu'] / fr['cpu']:6.2f}   {lo['rss']:7.0f} {fr['rss']:9.0f} "
              f"{lo['rss'] / fr['rss']:6.2f}", flush=True)


if __name__ == "__main__":
    main()
