"""Start-up: a home with 50 .scm files and 20 plugins, time to the first dispatch.

    python bench/startup.py [--guards-only] [--base TREE]...

Runs each measurement in a fresh Python process (so nothing is cached in memory):
cold = nothing in the home's .cache/ (every plugin runs --schema, every file is read by
lark); warm = second start (plugin schemas and read data cached). The children keep
Python bytecode in a private PYTHONPYCACHEPREFIX, primed by an untimed run, as an
installed package has its .pyc files; the last row has bytecode off
(PYTHONDONTWRITEBYTECODE=1, as some shells here set it), so every harness module is
compiled from source at each start. Prints the median of 5 runs of each.

A second table is a home of the shipped guards (tools/guards/*.scm, which call any, every,
find and fold of SRFI 1, written in Scheme): warm starts of this tree and, with each
``--base TREE`` (a checkout of another commit, e.g. ``git worktree add /tmp/startup-base
7931fac``), of that tree on PYTHONPATH, in turns, each run once untimed first (so its
parse cache holds the files read and the scheme_lib procedures compiled); with the
child's CPU time (user + system), steadier than wall time on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "scheme_hooks"

PLUGIN = """#!/usr/bin/env python3
import json, sys
if len(sys.argv) > 1 and sys.argv[1] == "--schema":
    print(json.dumps({"name": "p%02d", "description": "d", "parameters": {"type": "object",
                      "properties": {}}, "hooks": ["post_message"]}))
    sys.exit(0)
print("{}")
"""

CHILD = """
import time, sys
t0 = time.perf_counter()
from harness.runtime import Runtime
t1 = time.perf_counter()
rt = Runtime(sys.argv[1])
t2 = time.perf_counter()
rt.fire("pre_tool", {"tool_name": "ls", "arguments": {}})
t3 = time.perf_counter()
assert not rt.load_errors, rt.load_errors
print(f"{(t1-t0)*1000:.1f} {(t2-t1)*1000:.1f} {(t3-t2)*1000:.1f} {(t3-t0)*1000:.1f}")
"""


def make_home() -> Path:
    home = Path(tempfile.mkdtemp(prefix="harness-startup-"))
    tools = home / "tools"
    tools.mkdir()
    sandboxed = [p for p in sorted(EXAMPLES.glob("*.scm")) if "harness io" not in p.read_text()]
    for i in range(50):
        src = sandboxed[i % len(sandboxed)].read_text()
        # distinct tool names per copy
        src = src.replace("define-tool greet", f"define-tool greet{i}")
        (tools / f"f{i:02d}.scm").write_text(src)
    plugins = home / "plugins"
    plugins.mkdir()
    for i in range(20):
        p = plugins / f"p{i:02d}"
        p.write_text(PLUGIN % i)
        p.chmod(0o755)
    return home


def run(home: Path, env: dict[str, str]) -> list[float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(home)], capture_output=True,
                         text=True, check=True, cwd=ROOT, env=env)
    return [float(x) for x in out.stdout.split()]


def make_guards_home() -> Path:
    """A home whose tool files are the shipped guards."""
    home = Path(tempfile.mkdtemp(prefix="harness-startup-guards-"))
    (home / "tools").mkdir()
    (home / "work").mkdir()
    for guard in sorted((ROOT / "tools" / "guards").glob("*.scm")):
        shutil.copy(guard, home / "tools" / guard.name)
    return home


def run_with_cpu(home: Path, env: dict[str, str]) -> list[float]:
    """``run``'s four times (ms) and the child's CPU time (ms), with harness imported from
    the tree on the PYTHONPATH of ``env`` (the child runs in an empty folder: ``-c`` puts
    its working directory first on sys.path, and a project's tools/ would load too)."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(home)], stdout=out,
                                stderr=subprocess.DEVNULL, cwd=home / "work", env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"a start of {home} failed (PYTHONPATH={env.get('PYTHONPATH')})")
        out.seek(0)
        times = [float(x) for x in out.read().split()]
    return times + [(usage.ru_utime + usage.ru_stime) * 1000]


def guards_table(with_pyc: dict[str, str], bases: list[Path]) -> None:
    """Warm starts of a home of the shipped guards: this tree, and each of ``bases``, in
    turns."""
    home = make_guards_home()
    trees = {"this tree": ROOT} | {f"base {base.name}": base for base in bases}
    envs = {name: {**with_pyc, "PYTHONPATH": str(tree)} for name, tree in trees.items()}
    try:
        for env in envs.values():
            run_with_cpu(home, env)  # bytecode and parse cache, untimed
        rows: dict[str, list[list[float]]] = {name: [] for name in envs}
        for _ in range(5):
            for name, env in envs.items():
                rows[name].append(run_with_cpu(home, env))
        print("\nguards home (any/every/fold), warm, ms (median of 5)")
        print("                   import   Runtime()   first fire   total   child CPU")
        medians = {}
        for name, runs in rows.items():
            cols = medians[name] = [statistics.median(c) for c in zip(*runs)]
            print(f"{name:18} {cols[0]:7.1f} {cols[1]:10.1f} {cols[2]:11.1f} {cols[3]:8.1f}"
                  f" {cols[4]:10.1f}")
        for base in bases:
            this, other = medians["this tree"], medians[f"base {base.name}"]
            label = f"this/{base.name}"[:18]
            print(f"{label:18} {this[0] / other[0]:7.2f} {this[1] / other[1]:10.2f}"
                  f" {'':11} {this[3] / other[3]:8.2f} {this[4] / other[4]:10.2f}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def child_environments(pycache: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(with bytecode kept in ``pycache``, with bytecode off)."""
    with_pyc = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with_pyc["PYTHONPYCACHEPREFIX"] = str(pycache)
    without_pyc = {k: v for k, v in with_pyc.items() if k != "PYTHONPYCACHEPREFIX"}
    without_pyc["PYTHONDONTWRITEBYTECODE"] = "1"
    return with_pyc, without_pyc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, action="append", default=[],
                        help="another harness source tree to compare (may be repeated)")
    parser.add_argument("--guards-only", action="store_true", help="only the guards table")
    args = parser.parse_args()
    home = make_home()
    pycache = Path(tempfile.mkdtemp(prefix="harness-startup-pyc-"))
    with_pyc, without_pyc = child_environments(pycache)
    try:
        run(home, with_pyc)  # writes the bytecode, untimed
        if args.guards_only:
            guards_table(with_pyc, args.base)
            return
        rows: dict[str, list[list[float]]] = {"cold": [], "warm": [], "warm, no .pyc": []}
        for _ in range(5):
            shutil.rmtree(home / ".cache", ignore_errors=True)
            rows["cold"].append(run(home, with_pyc))
            rows["warm"].append(run(home, with_pyc))
            rows["warm, no .pyc"].append(run(home, without_pyc))
        print("ms (median of 5)   import   Runtime()   first fire   total")
        for name, runs in rows.items():
            cols = [statistics.median(c) for c in zip(*runs)]
            print(f"{name:18} {cols[0]:7.1f} {cols[1]:10.1f} {cols[2]:11.1f} {cols[3]:8.1f}")
        guards_table(with_pyc, args.base)
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(pycache, ignore_errors=True)


if __name__ == "__main__":
    main()
