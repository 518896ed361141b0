"""How hostile hooks end under the *default* limits (issues 11 and 23): the figures of
docs/security.md and the README's "Security and limits" table.

    python bench/hostile.py [--parallel N] [NAME-SUBSTRING ...]

The cases of issue 23 ("round 3: ...") are whole scenarios (many dispatches, a start-up,
a tool call); each prints the limit it must end inside beside its figures.

Each case of tests/security/test_crashes.py and test_budget_holes.py runs in a forked
child with the default sandboxed limits (10,000,000 steps, 5 s, 512 MB; the unsandboxed
tier for the cases that need "no step budget": 30 s, 2048 MB), as a host would: one
dispatch on a thread with the default stack. Printed per case: how it ended (the first
words of the hook's error), the wall and CPU time of the dispatch, and how much the
child's peak resident size grew during it (the memory_mb limit counts growth from the
call's start).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests" / "security"))

from round3_cases import ROUND3
from security_helpers import (
    BYSTANDER,
    OTHER_FILE,
    fire_timed,
    hook_on,
    messages_of,
    run_forked_batch,
    write_home,
)
from test_budget_holes import CASES as HOLES
from test_crashes import CASES as CRASHES

from harness.runtime import Runtime

UNSANDBOXED = """
[tools.tiers]
"admin/" = "unsandboxed"
"""


def _task(home: Path):
    def task() -> dict:
        rt = Runtime(home)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.monotonic()
        result, cpu = fire_timed(rt)
        wall = time.monotonic() - start
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        errors = messages_of(result)
        first = errors[0].split(": ", 2)[-1].splitlines()[0] if errors else "(no error)"
        return {"wall": wall, "cpu": cpu, "grown_mb": grown / 1024, "ended": first[:70],
                "bystanders": len(result["answers"])}
    return task


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--parallel", type=int, default=1)
    ap.add_argument("only", nargs="*")
    args = ap.parse_args()
    import tempfile
    root = Path(tempfile.mkdtemp(prefix="hostile-"))
    tasks = {}
    cases = {name: (UNSANDBOXED if "steps = false" in toml else "", prelude, body)
             for name, (toml, prelude, body, _) in HOLES.items()}
    cases.update({name: ("", text, None) for name, (text, _) in CRASHES.items()})
    for i, (name, (toml, text, body)) in enumerate(cases.items()):
        if args.only and not any(s in name for s in args.only):
            continue
        source = text + (hook_on("post_message", body) if body is not None else "")
        where = "admin/hostile.scm" if toml else "hostile.scm"
        home = write_home(root / f"h{i}", {where: source + BYSTANDER, **OTHER_FILE},
                          toml=toml)
        tasks[name] = _task(home)
    for i, (name, make) in enumerate(ROUND3.items()):
        if not args.only or any(s in name for s in args.only):
            tasks[name] = make(root / f"r{i}")
    start = time.monotonic()
    results = run_forked_batch(tasks, timeout=120, memory_mb=6000, parallel=args.parallel)
    print("default limits: sandboxed 10,000,000 steps, 5 s, 512 MB a call; "
          "unsandboxed 30 s, 2048 MB")
    print(f"{'case':52} {'wall s':>6} {'CPU s':>6} {'MB':>6}  ended with")
    for name, run in results.items():
        if run.status != "ok":
            print(f"{name:52} {run.wall:6.2f} {'':>6} {'':>6}  {run.status.upper()}")
            continue
        v = run.value
        print(f"{name:52} {v['wall']:6.2f} {v['cpu']:6.2f} {v['grown_mb']:6.0f}  {v['ended']}"
              + ("" if v["bystanders"] == 2 else f"  (bystanders: {v['bystanders']})")
              + (f"  [limit: {v['limit']}]" if "limit" in v else ""))
    print(f"{len(results)} cases in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    main()
