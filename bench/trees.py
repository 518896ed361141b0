"""Two source trees side by side on the interpreter programs (bench/programs), in turns.

    python bench/trees.py OLD_TREE [--new TREE] [--rounds N] [--mode MODE] [PROGRAM ...]

OLD_TREE is a checkout of an older commit (``git archive COMMIT | tar -x -C DIR``); the
new tree is this one unless ``--new`` names another. Each round runs every program once in each tree, in a fresh
process per tree, old and new alternating, so a change in the machine's load falls on
both; a process times its best of three runs of the program's last expression with
``bench/interpreter.py``'s ``harness_runner`` (MODE ``steps`` by default: the sandboxed
tier as a hook runs it). Prints the best CPU time over the rounds and new/old.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# run in the child: import the tree's own bench/interpreter.py and time one program
# (on a thread with a big stack, as bench/interpreter.py runs them: the deep recursion)
CHILD = """
import gc, sys, threading, time
sys.path.insert(0, sys.argv[1] + "/bench")
sys.path.insert(0, sys.argv[1])
from interpreter import harness_runner

def main():
    run = harness_runner(sys.argv[2], sys.argv[3])
    best = None
    for _ in range(3):
        gc.collect()
        t = time.process_time()
        run()
        t = time.process_time() - t
        best = t if best is None else min(best, t)
    print(best)

threading.stack_size(512 * 1024 * 1024)
thread = threading.Thread(target=main)
thread.start()
thread.join()
"""


def _time(tree: Path, name: str, mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), name, mode],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("--new", type=Path, default=HERE.parent)
    ap.add_argument("programs", nargs="*", default=["fib", "tak", "loop", "cpstak"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--mode", default="steps", choices=["none", "flag", "steps"])
    args = ap.parse_intermixed_args()
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for name in args.programs:
            for side, tree in (("old", args.old), ("new", args.new)):
                t = _time(tree, name, args.mode)
                key = (name, side)
                best[key] = min(best.get(key, t), t)
    print(f"best of {args.rounds} rounds x 3 runs, CPU ms, mode {args.mode}")
    print(f"{'program':10s} {'old':>9s} {'new':>9s} {'new/old':>8s}")
    for name in args.programs:
        old, new = best[(name, "old")], best[(name, "new")]
        print(f"{name:10s} {old * 1000:9.1f} {new * 1000:9.1f} {new / old:8.3f}")


if __name__ == "__main__":
    main()
