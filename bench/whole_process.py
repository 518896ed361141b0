"""Whole-process runs: ``harness run`` of each program of bench/programs against CPython
running the same algorithm (bench/python_equivalents.py) in a process of its own, side by
side, in turns.

    python bench/whole_process.py [--rounds N] [--chibi PATH] [PROGRAM ...]

For each program: the best wall time and the best CPU time (user + system, of the child)
over the rounds, the peak resident size, and the ratios to CPython. ``harness run`` runs in
the sandboxed tier (step counting on, memory limit on) with a step budget and time limit
too large to stop these programs. ``--chibi`` adds chibi-scheme (``chibi-scheme PROGRAM``)
where one is installed. Start-up is included on every side: this is what a user waits for.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAMES = ["fib", "tak", "loop", "deep", "rewrite", "bytes", "primes", "vectors", "mbrot",
         "interp", "cpstak"]


def _run(cmd: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak RSS MB) of one child process (its own rusage, from wait4)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): "
                             f"{err.read()[-500:].decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024


def commands(name: str, chibi: str | None) -> dict[str, list[str]]:
    program = str(HERE / "programs" / f"{name}.scm")
    out = {
        "python": [sys.executable, str(HERE / "python_equivalents.py"), name],
        "harness": [sys.executable, "-m", "harness.cli", "run", "--steps", str(10**12),
                    "--timeout", "3600", program],
    }
    if chibi:
        out["chibi"] = [chibi, program]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chibi", default=None, help="path of a chibi-scheme binary")
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
          + (f" {'cpu/chibi':>9}" if args.chibi else ""))
    for name in args.programs or NAMES:
        cmds = commands(name, args.chibi)
        best = {s: [float("inf"), float("inf"), 0] for s in sides}
        for _ in range(args.rounds):
            for side in sides:  # in turns: a change of load falls on every side
                wall, cpu, rss = _run(cmds[side])
                b = best[side]
                b[0], b[1], b[2] = min(b[0], wall), min(b[1], cpu), max(b[2], rss)
        line = f"{name:8} " + " ".join(f"{best[s][0]:12.2f} {best[s][1]:11.2f} {best[s][2]:5d}"
                                       for s in sides)
        line += f" {best['harness'][1] / best['python'][1]:7.2f}"
        if args.chibi:
            line += f" {best['harness'][1] / best['chibi'][1]:9.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
