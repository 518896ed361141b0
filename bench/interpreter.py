"""Interpreter speed: each program of bench/programs in harness and in CPython, side by side.

    python bench/interpreter.py [--repeat N] [--calysto] [PROGRAM ...]

For each program: the best CPU time of the last expression (definitions are loaded first,
not timed) in harness with each budget-check mode, the same algorithm in plain Python, and
the ratio. ``none`` and ``flag`` run in the unsandboxed tier with that check; ``steps`` is
the sandboxed tier as a hook runs it: its environment, step counting, inside a Budget (a
step limit too high to reach and no deadline, so the budget is charged but never stops
the program). The modes take turns in each round, so a change in the machine's load
falls on all of them; what earlier programs left alive is frozen out of the garbage
collector's reach before each program. ``--calysto`` also runs calysto_scheme 2.1.9 if
installed (pip install --no-deps calysto_scheme; bench only) on the programs it can run.
"""

from __future__ import annotations

import argparse
import gc
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from python_equivalents import PROGRAMS

from harness.scheme.interpreter import Interpreter, eval_form
from harness.scheme.limits import Budget
from harness.scheme.reader import read_all

NAMES = ["fib", "tak", "loop", "queens", "split", "deep",
         "rewrite", "bytes", "primes", "vectors", "mbrot", "interp", "cpstak"]
MODES = ("none", "flag", "steps")
#: programs calysto_scheme cannot run (no bytevectors, string-split or filter)
CALYSTO_CANNOT = {"split", "bytes", "primes"}


def _time_once(fn) -> tuple[float, object]:
    t0 = time.process_time()  # CPU time: other engineers' jobs share the 2 cores
    value = fn()
    return time.process_time() - t0, value


def harness_runner(name: str, mode: str):
    text = (HERE / "programs" / f"{name}.scm").read_text()
    if mode == "steps":
        interp = Interpreter(tier="sandboxed")
    else:
        interp = Interpreter(tier="unsandboxed", budget_check=mode)
    forms, smap = read_all(text, f"{name}.scm")
    for form in forms[:-1]:
        eval_form(interp.env, form, smap)
    last = forms[-1]
    # compile once, time only the run
    from harness.scheme.compiler import Compiler
    from harness.scheme.expander import Expander
    from harness.scheme.syntax import Scope
    node = Expander(interp.env, smap).expand_toplevel(last, Scope(None, interp.env))
    code, consts = Compiler(interp.env, smap.name, mode).compile(node)
    ns: dict = {}
    exec(code, interp.env.table, ns)  # noqa: S102 - code the compiler generated
    run = ns["h_make"](*consts)
    if mode != "steps":
        return run

    def in_budget():
        with Budget(steps=10**15, seconds=None):
            return run()
    return in_budget


def calysto_runner(name: str):
    if name in CALYSTO_CANNOT:
        return None
    try:
        from calysto_scheme import scheme as cs
    except ImportError:
        return None
    text = (HERE / "programs" / f"{name}.scm").read_text()
    forms = text.strip().split("\n(")
    setup = "\n(".join(forms[:-1])
    last = "(" + forms[-1] if len(forms) > 1 else forms[0]
    if "iota" in text:
        cs.execute_string_rm("(define (iota n . s) (let loop ((i (- n 1)) (acc '())) "
                             "(if (< i 0) acc (loop (- i 1) (cons (+ i (if (null? s) 0 (car s)))"
                             " acc)))))")
    if setup:
        cs.execute_string_rm(setup)
    return lambda: cs.execute_string_rm(last)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calysto", action="store_true")
    ap.add_argument("programs", nargs="*", metavar="PROGRAM", help=" ".join(NAMES))
    args = ap.parse_args()
    unknown = set(args.programs) - set(NAMES)
    if unknown:
        ap.error(f"unknown program(s): {', '.join(sorted(unknown))}")
    args.programs = args.programs or NAMES
    print(f"Python {sys.version.split()[0]}; best of {args.repeat} (CPU time); times in ms")
    header = f"{'program':8} {'python':>9} {'none':>9} {'flag':>9} {'steps':>9}  " \
             f"{'none/py':>7} {'flag/py':>7} {'steps/py':>8}"
    if args.calysto:
        header += f" {'calysto':>9} {'cal/py':>7}"
    print(header)
    for name in args.programs:
        runners = {"python": PROGRAMS[name]}
        runners.update((mode, harness_runner(name, mode)) for mode in MODES)
        # what earlier programs (and calysto) left alive is put out of the collector's
        # reach: else a full collection walks it, at a time that falls on one side
        gc.collect()
        gc.freeze()
        best = dict.fromkeys(runners, float("inf"))
        for _ in range(args.repeat):
            for key, run in runners.items():
                t, v = _time_once(run)
                if key == "python":
                    expected = v
                elif v != expected:
                    raise SystemExit(f"{name}: harness ({key}) gave {v!r}, python {expected!r}")
                best[key] = min(best[key], t)
        py_t = best["python"]
        line = (f"{name:8} {py_t*1e3:9.1f} {best['none']*1e3:9.1f} {best['flag']*1e3:9.1f} "
                f"{best['steps']*1e3:9.1f}  {best['none']/py_t:7.2f} {best['flag']/py_t:7.2f} "
                f"{best['steps']/py_t:8.2f}")
        if args.calysto:
            line += _calysto_column(name, args.repeat, py_t, expected)
        print(line, flush=True)


def _calysto_column(name: str, repeat: int, py_t: float, expected: object) -> str:
    runner = calysto_runner(name)
    if runner is None:
        return f" {'n/a':>9} {'':>7}"
    try:
        runs = [_time_once(runner) for _ in range(max(1, repeat // 2))]
    except Exception as exc:  # noqa: BLE001 - calysto fails on some programs
        return f" {'fail:' + type(exc).__name__[:4]:>9} {'':>7}"
    if runs[0][1] != expected:  # calysto answers an error as a value
        return f" {'wrong':>9} {'':>7}"
    ct = min(t for t, _ in runs)
    return f" {ct*1e3:9.1f} {ct/py_t:7.2f}"


if __name__ == "__main__":
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
