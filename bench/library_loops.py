"""Where the time of the Scheme library's loops goes: the programs of
bench/resumable_primitives.py in two trees side by side, as they are and in three variants.

    python bench/library_loops.py OLD_TREE [NEW_TREE] [--rounds N] [--only a,b]

Each (tree, variant) runs in its own process, taking turns for ``--rounds`` rounds; the
ratio new/old of the best CPU times is printed for each variant, both trees run alike:

* ``as is``: as bench/resumable_primitives.py runs them;
* ``no steps``: the .sld libraries compiled with no budget check (what counting costs);
* ``no gc``: ``gc.disable()`` after the setup (what collecting the pairs a loop builds
  costs: the old primitives built Python lists);
* ``cli gc``: the collector as ``harness run`` and ``eval`` set it (the heap alive after
  the setup frozen, the young generation at cli/scheme_commands.GC_YOUNG).

Measured 2026-11-29, old = 7931fac (the Python primitives), new = the Scheme library,
best of 3 rounds, new/old: "as is" against "no steps" once loops took their steps in a
``for`` (compiler._counted_loop): lset-intersection 1.47/1.43, lset-union 1.32/1.32,
alist-delete 1.46/1.45 (before it, with ``h_step()`` in every iteration: 1.57/1.36 for
lset-intersection); "no gc": char-set-unfold 1.69 -> 1.07, bitwise-unfold 2.39 -> 1.90.
What is left of the lset gap is the loop itself: a Python ``while`` over pairs against
the old primitives' ``for`` over a Python list (35-40 ns an iteration against ~10).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from resumable_primitives import PROGRAMS, SETUP

RUNNER = """
import gc, sys, time
sys.path.insert(0, sys.argv[1])
variant = sys.argv[3]
if variant == "no steps":
    from harness.scheme import compiler
    checked = compiler.Compiler._budget
    def _budget(self, twins=False):
        return [] if self.filename.endswith(".sld") else checked(self, twins)
    compiler.Compiler._budget = _budget
from harness.scheme.interpreter import Interpreter
interp = Interpreter()
interp.eval_string(sys.argv[2])
if variant == "no gc":
    gc.disable()
if variant == "cli gc":
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
for line in sys.stdin:
    name, _, src = line.rstrip("\\n").partition(" ")
    t0 = time.process_time()
    interp.eval_string(src)
    print(name, time.process_time() - t0, flush=True)
"""

VARIANTS = ("as is", "no steps", "no gc", "cli gc")


def run(tree: str, variant: str, names: list[str]) -> dict[str, float]:
    """One round of ``names`` (each run 100 times in a loop) in ``tree`` as ``variant``."""
    lines = "".join(f"{name} (let loop ((n 0)) (if (< n 100) (begin {PROGRAMS[name]} "
                    f"(loop (+ n 1)))))\n" for name in names)
    out = subprocess.run([sys.executable, "-c", RUNNER, tree, SETUP, variant], input=lines,
                         capture_output=True, text=True, check=True).stdout
    return {name: float(t) for name, t in (row.split() for row in out.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default=str(HERE.parent))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated name prefixes to run")
    args = parser.parse_args()
    prefixes = tuple(p for p in args.only.split(",") if p)
    names = [n for n in PROGRAMS if not prefixes or n.startswith(prefixes)]
    runs = [(tree, v) for v in VARIANTS for tree in (args.old, args.new)]
    best: dict[tuple[str, str], dict[str, float]] = {r: {} for r in runs}
    for _ in range(args.rounds):
        for tree, variant in runs:
            for name, t in run(tree, variant, names).items():
                best[tree, variant][name] = min(t, best[tree, variant].get(name, t))
    print(f"best of {args.rounds}: new/old in each variant (CPU ms of the old tree as is)")
    print(f"{'program':18} {'old ms':>8}" + "".join(f" {v:>9}" for v in VARIANTS))
    for name in names:
        ratios = "".join(f" {best[args.new, v][name] / best[args.old, v][name]:9.2f}"
                         for v in VARIANTS)
        print(f"{name:18} {best[args.old, 'as is'][name] * 1000:8.1f}{ratios}")


if __name__ == "__main__":
    main()
