"""What a builtin tool costs through chibi's whole pipeline, side by side in one run.

    python bench/builtins.py [--n N]

For two builtins on a 20-line VFS file, µs per call:

* ``file_grep`` (a Python builtin): ``Runtime.call_tool`` (pre_tool, argument check,
  permission gate, run, pre_tool_output, cache check, post_tool_output, post_tool: four
  dispatches with no hooks registered) against calling its Python function directly;
* ``file_head`` (a builtin written in Scheme, ``tools/fs_read.scm``): ``Runtime.call_tool``
  against a Python function that does the same work (read the file from the VFS, split
  lines, join the first ten).

The overhead is the difference; the variants take turns in every round, so load slows
them alike (compare the ratios, not the absolute times).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.runtime import Runtime
from harness.sandbox.thread_context import tool_call_scope, using_runtime

TEXT = "".join(f"line {n}: the quick brown fox jumps over the lazy dog\n" for n in range(20))


def side_by_side(fns: dict, n: int, rounds: int = 15) -> dict[str, float]:
    """µs per call of each function: the best of ``rounds`` rounds of ``n`` calls, the
    functions taking turns in every round (the best round is the least disturbed one)."""
    import time
    best = {name: float("inf") for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best[name] = min(best[name], (time.perf_counter() - t0) / n * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400, help="calls per round")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        (home / "tools").mkdir(parents=True)
        rt = Runtime(home, load_plugins=False)
        rt.vfs.write("system", "/shared/f.txt", TEXT.encode())
        grep_args = {"path": "vfs:///shared/f.txt", "pattern": "fox", "context_before": 0,
                     "context_after": 0}
        head_args = {"path": "vfs:///shared/f.txt", "lines": 10}
        grep_fn = rt.registry.builtins["file_grep"].fn

        def grep_direct():
            with using_runtime(rt), tool_call_scope("default"):
                return grep_fn(grep_args)

        def head_direct():
            lines = rt.vfs.read_text("/shared/f.txt").split("\n")
            return "\n".join(lines[:10])

        assert rt.call_tool("file_grep", grep_args).output == grep_direct()
        assert rt.call_tool("file_head", head_args).output == head_direct()
        times = side_by_side({
            "file_grep pipeline": lambda: rt.call_tool("file_grep", grep_args),
            "file_grep direct": grep_direct,
            "file_head pipeline": lambda: rt.call_tool("file_head", head_args),
            "file_head python": head_direct,
        }, args.n)
        rt.close()
    for name, us in times.items():
        print(f"{name:<22} {us:8.1f} µs")
    for tool, base in (("file_grep", "direct"), ("file_head", "python")):
        through, alone = times[f"{tool} pipeline"], times[f"{tool} {base}"]
        print(f"{tool}: pipeline overhead {through - alone:.1f} µs per call "
              f"({through / alone:.1f}x the {base} function)")


if __name__ == "__main__":
    main()
