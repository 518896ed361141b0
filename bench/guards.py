"""What the ready guards cost a dispatch: ``pre_shell_exec`` on a few commands with every
guard of tools/guards/ enabled, against the same dispatch on a home with one hand-written
guard (``string-contains`` of "rm -rf", the docs' first example), taking turns in each
round; the median µs and the ratio. The commands: a short one, a pipeline
with a substitution, and a 78 KB heredoc written to a file (the largest thing an agent
commonly runs; the guards must read it well inside the sandbox's 5 s).

    python bench/guards.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from harness.runtime import Runtime

COMMANDS = {
    "ls -la src": "ls -la src",
    "pipeline": "git status && git diff $(git merge-base HEAD main) | head -50",
    "78 KB heredoc": "cat > notes.md <<'EOF'\n" + "a line of text with words\n" * 3000 + "EOF",
}

ONE_GUARD = """(register-hook 'pre_shell_exec
  (lambda (payload)
    (let ((command (assoc "command" payload)))
      (if (and command (string-contains (cdr command) "rm -rf"))
          '(("denied" . #t) ("reason" . "rm -rf is not allowed here"))
          '()))))
"""


def per_dispatch(runtime: Runtime, command: str, n: int) -> float:
    payload = {"tool_name": "Bash", "command": command}
    start = time.perf_counter()
    for _ in range(n):
        runtime.fire("pre_shell_exec", payload)
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        homes = {}
        for name, toml in (("one guard", ""), ("all guards", '[guards]\nenable = "all"\n')):
            home = Path(tmp) / name.replace(" ", "-")
            (home / "tools").mkdir(parents=True)
            (home / "harness.toml").write_text(toml)
            if not toml:
                (home / "tools" / "no_rm_rf.scm").write_text(ONE_GUARD)
            homes[name] = Runtime(home)
        print(f"{'command':16} {'one guard µs':>13} {'all 7 guards µs':>16} {'ratio':>7}")
        for label, command in COMMANDS.items():
            n = 20 if len(command) > 1000 else 300
            times = {name: [] for name in homes}
            for runtime in homes.values():
                per_dispatch(runtime, command, 3)  # warm
            for _ in range(args.rounds):
                for name, runtime in homes.items():
                    times[name].append(per_dispatch(runtime, command, n))
            bare, guarded = (statistics.median(times[name]) for name in homes)
            print(f"{label:16} {bare:13.1f} {guarded:16.1f} {guarded / bare:7.1f}")
        for runtime in homes.values():
            runtime.close()


if __name__ == "__main__":
    main()
