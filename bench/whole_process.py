"""Whole-process runs: ``harness run`` of each program of bench/programs against CPython
running the same algorithm (bench/python_equivalents.py) in a process of its own, side by
side, in turns.

    python bench/whole_process.py [--rounds N] [--chibi PATH] [PROGRAM ...]

A first row, ``start-up``, runs nothing on each side (``python -c pass``, bench/empty.scm,
``chibi -e '#t'``); ``net/chibi`` is the harness/chibi ratio of CPU time less each side's
start-up. For each program: the best wall time and the best CPU time (user + system, of the child)
over the rounds, the peak resident size, and the ratios to CPython. ``harness run`` runs in
the sandboxed tier (step counting on, memory limit on) with a step budget and time limit
too large to stop these programs. ``--chibi PATH`` adds a chibi-scheme binary: the programs
carry no ``import`` line (``harness run`` needs none), so chibi evaluates ``(%load PRELUDE)``
then ``(%load PROGRAM)`` in its default environment; the prelude (``--chibi-prelude``, default
bench/chibi_prelude.scm) defines the few names that environment lacks, and ``--chibi-prelude
''`` loads none (for a chibi whose default environment has them). A side that fails (chibi
runs out of stack on the 1,000,000-deep recursion) is reported as failed, not fatal. Start-up
is included on every side: this is what a user waits for. The Python children start as an
installed harness does, with byte code written (bench/child_env.py) and `harness run`'s parse
cache warm: each command runs once before the timed rounds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from child_env import child_environment

HERE = Path(__file__).resolve().parent
NAMES = ["fib", "tak", "loop", "deep", "rewrite", "bytes", "primes", "vectors", "mbrot",
         "interp", "cpstak"]


class Failed(Exception):
    """A child exited non-zero; the message is the end of its stderr."""


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS MB) of one child process (its own rusage, from wait4)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines()
            raise Failed(lines[0] if lines else f"exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def _scheme_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: the start-up row: each side starting and running nothing
EMPTY = "start-up"


def commands(name: str, chibi: str | None, prelude: str = "") -> dict[str, list[str]]:
    if name == EMPTY:
        out = {"python": [sys.executable, "-c", "pass"],
               "harness": [sys.executable, "-m", "harness.cli", "run", str(HERE / "empty.scm")]}
        if chibi:
            out["chibi"] = [chibi, "-e", "#t"]
        return out
    program = str(HERE / "programs" / f"{name}.scm")
    out = {
        "python": [sys.executable, str(HERE / "python_equivalents.py"), name],
        "harness": [sys.executable, "-m", "harness.cli", "run", "--steps", str(10**12),
                    "--timeout", "3600", program],
    }
    if chibi:
        loads = [f"(%load {_scheme_string(path)})" for path in (prelude, program) if path]
        out["chibi"] = [chibi, "-e", f"(begin {' '.join(loads)})"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chibi", default=None, help="path of a chibi-scheme binary")
    ap.add_argument("--chibi-prelude", default=str(HERE / "chibi_prelude.scm"),
                    help="file chibi loads before each program ('' for none)")
    ap.add_argument("programs", nargs="*", metavar="PROGRAM", help=" ".join(NAMES))
    args = ap.parse_args()
    unknown = set(args.programs) - set(NAMES)
    if unknown:
        ap.error(f"unknown program(s): {', '.join(sorted(unknown))}")
    if args.chibi and not os.access(args.chibi, os.X_OK):
        ap.error(f"{args.chibi}: not an executable")
    print(f"best of {args.rounds}; wall and CPU in s, peak RSS in MB (max over rounds)")
    sides = ["python", "harness"] + (["chibi"] if args.chibi else [])
    print(f"{'program':8} " + " ".join(f"{s + ' wall':>12} {s + ' cpu':>11} {'MB':>5}"
                                       for s in sides) + f" {'cpu/py':>7}"
          + (f" {'cpu/chibi':>9} {'net/chibi':>9}" if args.chibi else ""))
    root = Path(tempfile.mkdtemp(prefix="harness-bench-whole-"))
    try:
        env = child_environment(root, HERE.parent)
        startup: dict[str, float] = {}
        for name in [EMPTY, *(args.programs or NAMES)]:
            _measure(name, commands(name, args.chibi, args.chibi_prelude), sides, env,
                     args.rounds, startup, bool(args.chibi))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _measure(name: str, cmds: dict[str, list[str]], sides: list[str], env: dict[str, str],
             rounds: int, startup: dict[str, float], chibi: bool) -> None:
    """Run ``name`` on every side, in turns, and print its row (the start-up row fills
    ``startup``)."""
    best = {s: [float("inf"), float("inf"), 0] for s in sides}
    failed: dict[str, str] = {}
    for round_ in range(rounds + 1):  # round 0 writes byte code and the parse cache
        for side in sides:  # in turns: a change of load falls on every side
            if side in failed:
                continue
            try:
                wall, cpu, rss = _run(cmds[side], env)
            except Failed as exc:
                failed[side] = str(exc)
                continue
            if round_:
                b = best[side]
                b[0], b[1], b[2] = min(b[0], wall), min(b[1], cpu), max(b[2], rss)
    if name == EMPTY:
        startup.update({s: best[s][1] for s in sides if s not in failed})
    print(f"{name:8} " + " ".join(_cells(best[s], failed.get(s)) for s in sides)
          + _ratio(best, failed, "python")
          + (_ratio(best, failed, "chibi", 10) + _net_ratio(best, failed, startup)
             if chibi else ""), flush=True)
    for side, message in failed.items():
        print(f"         {side} failed: {message}", flush=True)


def _cells(best: list, failure: str | None) -> str:
    if failure is not None:
        return f"{'failed':>12} {'-':>11} {'-':>5}"
    return f"{best[0]:12.2f} {best[1]:11.2f} {best[2]:5d}"


def _net_ratio(best: dict, failed: dict, startup: dict) -> str:
    """harness/chibi CPU time less each side's own start-up (the start-up row): the
    program's share, which is what a longer run of the same kind would show."""
    if "harness" in failed or "chibi" in failed or len(startup) < len(best):
        return f"{'-':>10}"
    chibi = best["chibi"][1] - startup["chibi"]
    if chibi < 0.005:  # below the clock's resolution: no ratio
        return f"{'-':>10}"
    return f"{(best['harness'][1] - startup['harness']) / chibi:10.2f}"


def _ratio(best: dict, failed: dict, against: str, width: int = 8) -> str:
    if "harness" in failed or against in failed:
        return f"{'-':>{width}}"
    return f"{best['harness'][1] / best[against][1]:{width}.2f}"


if __name__ == "__main__":
    main()
