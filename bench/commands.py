"""What every harness process pays: start-up time, peak memory and modules imported per
command, in fresh processes, side by side with a bare interpreter.

    python bench/commands.py [--rounds N] [--old TREE]

Each round runs every case once, in turns (a change of machine load falls on all alike):

- ``python -c pass``: the floor, a bare interpreter start;
- ``harness run`` of a one-line program (``(display "hi")``) and ``harness eval "(+ 1 2)"``;
- ``harness claude-hook`` answering a PreToolUse event in its own process, for a home with
  one Scheme ``pre_tool`` guard (the guard must deny the event);
- ``harness fire pre_tool`` and ``harness check`` on that home;
- ``harness run bench/programs/deep.scm`` (1,000,000-deep non-tail recursion), whose peak
  resident size is the figure that matters.

It prints the median wall time in ms, its ratio to ``python -c pass``, the peak resident
size in MB (the child's own ``ru_maxrss``, from ``wait4``) and the number of modules the
command imports (one more run with ``-X importtime``). With ``--old TREE`` (a checkout of
an older commit, e.g. ``git worktree add /tmp/old main~5``) every harness case also runs
from that tree (``PYTHONPATH=TREE``), in the same turns, and the table gains the old/new
ratios. Children keep byte code in a private ``PYTHONPYCACHEPREFIX`` and ``harness run``'s
parse cache in a private ``XDG_CACHE_HOME``, both primed by an untimed round, as an
installed package has its ``.pyc`` files and a program run before has its cache entry.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the guard and the PreToolUse event of bench/claude_hook.py (the guard denies the event)
from child_env import child_environment
from claude_hook import EVENT, GUARD

HERE = Path(__file__).resolve().parent


def cases(root: Path) -> dict[str, tuple[list[str], int]]:
    """Name -> (argv after ``python``, the exit status the command must end with)."""
    home = root / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD)
    one = root / "one.scm"
    one.write_text('(display "hi")\n')
    harness = ["-m", "harness.cli"]
    return {
        "python -c pass": (["-c", "pass"], 0),
        "run (one line)": ([*harness, "run", str(one)], 0),
        "eval (+ 1 2)": ([*harness, "eval", "(+ 1 2)"], 0),
        "claude-hook (own process)": ([*harness, "claude-hook", "--home", str(home)], 2),
        "fire pre_tool": ([*harness, "fire", "pre_tool", "--home", str(home)], 0),
        "check (home)": ([*harness, "check", "--home", str(home)], 0),
        "run deep.scm": ([*harness, "run", str(HERE / "programs" / "deep.scm")], 0),
    }


def timed(argv: list[str], expect: int, env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, peak RSS MB) of one child process."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, *argv], stdin=subprocess.PIPE, stdout=out,
                                stderr=out, env=env, cwd=env["HOME_OF_RUN"])
        proc.stdin.write(EVENT.encode())
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - start) * 1000
        if os.waitstatus_to_exitcode(status) != expect:
            out.seek(0)
            raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}, "
                             f"not {expect}: {out.read()[-500:].decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024


def module_count(argv: list[str], env: dict[str, str]) -> int:
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], input=EVENT.encode(),
                          capture_output=True, env=env, check=False,
                          cwd=env["HOME_OF_RUN"])  # a status checked above
    return sum(line.startswith(b"import time:") for line in done.stderr.splitlines()) - 1


def environments(root: Path, old: str | None) -> dict[str, dict[str, str]]:
    """The children's environments, by side. They run in ``root`` (HOME_OF_RUN), so that
    ``python -m`` finds harness on PYTHONPATH, not in the working directory."""
    trees = {"new": HERE.parent, **({"old": Path(old).resolve()} if old else {})}
    return {side: {**child_environment(root, tree), "HOME_OF_RUN": str(root)}
            for side, tree in trees.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds (default 10)")
    parser.add_argument("--old", default=None, metavar="TREE",
                        help="also run every harness case from this source tree")
    args = parser.parse_args()
    if args.old and not (Path(args.old) / "harness" / "cli").is_dir():
        parser.error(f"{args.old}: not a harness source tree")
    root = Path(tempfile.mkdtemp(prefix="harness-bench-commands-"))
    try:
        table = cases(root)
        envs = environments(root, args.old)
        runs = [(name, side) for name in table for side in envs
                if not (name == "python -c pass" and side == "old")]
        for name, side in runs:  # prime byte code and the home's parse cache
            timed(*table[name], envs[side])
        walls: dict[tuple[str, str], list[float]] = {run: [] for run in runs}
        peaks: dict[tuple[str, str], float] = {run: 0.0 for run in runs}
        for _ in range(args.rounds):
            for run in runs:
                wall, rss = timed(*table[run[0]], envs[run[1]])
                walls[run].append(wall)
                peaks[run] = max(peaks[run], rss)
        floor = statistics.median(walls[("python -c pass", "new")])
        header = f"{'command':27} {'side':4} {'ms':>7} {'x py':>6} {'MB':>6} {'modules':>8}"
        print(header + ("   old/new ms   old/new MB" if args.old else ""))
        for name, side in runs:
            ms = statistics.median(walls[(name, side)])
            line = (f"{name:27} {side:4} {ms:7.1f} {ms / floor:6.2f} "
                    f"{peaks[(name, side)]:6.1f} "
                    f"{module_count(table[name][0], envs[side]):8d}")
            if side == "new" and ("old" in envs) and (name, "old") in walls:
                old_ms = statistics.median(walls[(name, "old")])
                line += f"   {old_ms / ms:10.2f}   {peaks[(name, 'old')] / peaks[(name, side)]:10.2f}"
            print(line)
        print(f"(median of {args.rounds} rounds in turns; peak RSS is the largest of them; "
              f"{os.cpu_count()} cores)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
