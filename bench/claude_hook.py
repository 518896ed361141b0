"""End-to-end cost of one Claude Code hook event through ``harness claude-hook``, side by side.

    python bench/claude_hook.py [--n N]

What Claude Code pays per event is a process start plus whatever that process does. Each
round runs, interleaved so machine noise hits all alike, with the same PreToolUse event on
stdin:

1. ``python3 -c pass``: the floor, a bare interpreter start;
2. ``harness claude-hook`` answering in its own process (a runtime started per event), for
   a home with one Scheme ``pre_tool`` guard, and for the same home plus one ``command``
   handler (``/bin/true``);
3. ``harness claude-hook --socket PATH`` handing the event to a running
   ``harness serve --socket PATH`` (same two homes).

It prints median and p90 milliseconds per event and each one's ratio to the bare
interpreter. Every answer is checked (the guard must deny ``git push --force``). The
children run as an installed ``harness`` would: with byte-code caching on (a
``PYTHONDONTWRITEBYTECODE`` in our environment is not passed on), after a warm-up round.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((entry (assoc "command" (cdr (assoc "arguments" payload)))))
      (if (and entry (string-contains (cdr entry) "--force"))
          (list (cons "block" #t) (cons "message" "force push refused"))
          '()))))
"""
HANDLER = '[[PreToolUse]]\nmatcher = "Bash"\n[[PreToolUse.hooks]]\ntype = "command"\n' \
          'command = "/bin/true"\n'
EVENT = json.dumps({"session_id": "bench", "transcript_path": "/tmp/bench.jsonl",
                    "cwd": "/tmp", "permission_mode": "default",
                    "hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "git push --force origin main",
                                   "description": "push"}, "tool_use_id": "toolu_1"})


def harness_command() -> list[str]:
    """The ``harness`` console script next to this interpreter (what a settings.json line
    names), else ``python -m harness.cli``."""
    script = Path(sys.executable).with_name("harness")
    return [str(script)] if script.exists() else [sys.executable, "-m", "harness.cli"]


def make_home(root: Path, name: str, handler: bool) -> Path:
    home = root / name
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD)
    if handler:
        (home / "hooks.toml").write_text(HANDLER)
    return home


#: the children's environment: byte-code is cached, as in any normal installation
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], check: bool) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, input=EVENT.encode(), capture_output=True, check=False,
                          env=ENV)
    elapsed = (time.perf_counter() - start) * 1000
    if check and (done.returncode != 2 or done.stderr != b"force push refused\n"):
        raise SystemExit(f"unexpected answer from {' '.join(argv)}: {done.returncode} "
                         f"{done.stdout!r} {done.stderr!r}")
    return elapsed


def start_server(home: Path, socket_path: Path) -> subprocess.Popen:
    server = subprocess.Popen([*harness_command(), "serve", "--home", str(home),
                               "--socket", str(socket_path)], stderr=subprocess.PIPE, env=ENV)
    deadline = time.monotonic() + 30
    while not socket_path.exists():
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit(f"the server did not start: {server.stderr.read().decode()}")
        time.sleep(0.05)
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="events per case (default 30)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="harness-bench-claude-"))
    harness = harness_command()
    servers = []
    try:
        cases = {"python3 -c pass": ([sys.executable, "-c", "pass"], False)}
        for name, handler in (("scheme guard", False), ("guard + command handler", True)):
            home = make_home(root, name.replace(" ", "-"), handler)
            socket_path = root / f"{home.name}.sock"
            servers.append(start_server(home, socket_path))
            cases[f"claude-hook, own process ({name})"] = (
                [*harness, "claude-hook", "--home", str(home)], True)
            cases[f"claude-hook --socket ({name})"] = (
                [*harness, "claude-hook", "--home", str(home), "--socket", str(socket_path)],
                True)
        for argv, check in cases.values():  # warm caches (parse cache, page cache)
            timed(argv, check)
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.n):
            for name, (argv, check) in cases.items():
                times[name].append(timed(argv, check))
        floor = statistics.median(times["python3 -c pass"])
        print(f"{'case':<52} {'median ms':>10} {'p90 ms':>8} {'x python':>9}")
        for name, samples in times.items():
            samples.sort()
            median = statistics.median(samples)
            p90 = samples[int(len(samples) * 0.9) - 1]
            print(f"{name:<52} {median:>10.1f} {p90:>8.1f} {median / floor:>9.2f}")
        print(f"({args.n} events per case, interleaved; {os.cpu_count()} cores)")
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
            server.wait(10)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
