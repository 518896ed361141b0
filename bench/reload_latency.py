"""Save-to-live latency of hot reload: the time from an editor's save to the first
``fire()`` that sees the new answer, over 100 saves per save style (goal: p95 <= 50 ms).

    python3 bench/reload_latency.py [--saves 100]

Each save writes a hook file whose pre_tool answer names its version; the bench then fires
pre_tool every millisecond (as a busy host would) until the new version answers, and waits for
the watcher to go idle before the next save so saves never coalesce.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness.reload import Watcher
from harness.reload.observe import DEBOUNCE
from harness.runtime import Runtime

PAYLOAD = {"tool_name": "shell_exec", "arguments": {"command": "ls"}}
POLL = 0.001  # seconds between fires while waiting (a host firing ~1,000 times a second)


def hook_source(version: int) -> str:
    return ("(register-hook 'pre_tool\n  (lambda (payload)\n"
            f"    (list (cons \"block\" #t) (cons \"message\" \"v{version}\"))))\n")


def save_in_place(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def save_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_vim_style(path: Path, text: str) -> None:
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)
    path.write_text(text, encoding="utf-8")
    backup.unlink()


STYLES = {"in-place": save_in_place, "atomic rename": save_atomic, "vim backup": save_vim_style}


def measure(rt: Runtime, watcher: Watcher, save, path: Path, saves: int, first: int
            ) -> list[float]:
    """Latencies in ms of `saves` saves with `save`, versions from `first` on."""
    latencies = []
    for version in range(first, first + saves):
        wanted = f"v{version}"
        start = time.perf_counter()
        save(path, hook_source(version))
        while rt.fire("pre_tool", PAYLOAD)["outcome"]["message"] != wanted:
            if time.perf_counter() - start > 10:
                sys.exit(f"version {version} never went live")
            time.sleep(POLL)
        latencies.append((time.perf_counter() - start) * 1000)
        if not watcher.wait_idle(10):
            sys.exit("the watcher did not go idle")
    return latencies


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        (home / "tools").mkdir()
        path = home / "tools" / "guard.scm"
        path.write_text(hook_source(0))
        rt = Runtime(home, load_plugins=False)
        watcher = Watcher(rt)
        watcher.start()
        watcher.wait_idle(10)
        print(f"save-to-live latency over {args.saves} saves (debounce {DEBOUNCE * 1000:g} ms, "
              f"{'polling' if watcher.polling else 'inotify'})")
        first = 1
        for name, save in STYLES.items():
            ms = measure(rt, watcher, save, path, args.saves, first)
            first += args.saves
            print(f"  {name:14} p50 {statistics.median(ms):6.1f} ms   p95 "
                  f"{percentile(ms, 95):6.1f} ms   max {max(ms):6.1f} ms")
        watcher.stop()


if __name__ == "__main__":
    main()
