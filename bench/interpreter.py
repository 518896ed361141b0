"""Interpreter speed: each program of bench/programs in harness and in CPython, side by side.

    python bench/interpreter.py [--repeat N] [--calysto]

For each program: the best time of the last expression (definitions are loaded first,
not timed) in harness with each budget-check mode, the same algorithm in plain Python, and
the ratio. ``--calysto`` also runs calysto_scheme 2.1.9 if installed (pip install
--no-deps calysto_scheme; bench only).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from python_equivalents import PROGRAMS

from harness.scheme.interpreter import Interpreter, eval_form
from harness.scheme.reader import read_all

NAMES = ["fib", "tak", "loop", "queens", "split", "deep"]


def _time(fn, repeat: int) -> tuple[float, object]:
    times = []
    value = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return min(times), value  # the run other processes disturbed least (as timeit advises)


def harness_runner(name: str, mode: str):
    text = (HERE / "programs" / f"{name}.scm").read_text()
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
    return ns["h_make"](*consts)


def calysto_runner(name: str):
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
    if "string-split" in text:
        return None
    if setup:
        cs.execute_string_rm(setup)
    return lambda: cs.execute_string_rm(last)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--calysto", action="store_true")
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}; best of {args.repeat}; times in ms")
    header = f"{'program':8} {'python':>9} {'none':>9} {'flag':>9} {'steps':>9}  " \
             f"{'none/py':>7} {'flag/py':>7} {'steps/py':>8}"
    if args.calysto:
        header += f" {'calysto':>9}"
    print(header)
    for name in NAMES:
        py_t, py_v = _time(PROGRAMS[name], args.repeat)
        row = {}
        for mode in ("none", "flag", "steps"):
            run = harness_runner(name, mode)
            t, v = _time(run, args.repeat)
            if v != py_v:
                raise SystemExit(f"{name}: harness gave {v!r}, python {py_v!r}")
            row[mode] = t
        line = (f"{name:8} {py_t*1e3:9.1f} {row['none']*1e3:9.1f} {row['flag']*1e3:9.1f} "
                f"{row['steps']*1e3:9.1f}  {row['none']/py_t:7.2f} {row['flag']/py_t:7.2f} "
                f"{row['steps']/py_t:8.2f}")
        if args.calysto:
            runner = calysto_runner(name)
            if runner is None:
                line += f" {'n/a':>9}"
            else:
                try:
                    ct, _ = _time(runner, max(1, args.repeat // 2))
                    line += f" {ct*1e3:9.1f}"
                except Exception as exc:  # noqa: BLE001 - calysto fails on some programs
                    line += f" {'fail:' + type(exc).__name__[:4]:>9}"
        print(line, flush=True)


if __name__ == "__main__":
    threading.stack_size(512 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
