"""Start-up: a home with 50 .scm files and 20 plugins, time to the first dispatch.

    python bench/startup.py

Runs each measurement in a fresh Python process (so nothing is cached in memory):
cold = no plugin schema cache on disk yet; warm = second start (schema cache present).
Prints the median of 3 runs of each.
"""

from __future__ import annotations

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


def run(home: Path) -> list[float]:
    out = subprocess.run([sys.executable, "-c", CHILD, str(home)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return [float(x) for x in out.stdout.split()]


def main() -> None:
    home = make_home()
    try:
        cold, warm = [], []
        for _ in range(3):
            shutil.rmtree(home / ".cache", ignore_errors=True)
            cold.append(run(home))
            warm.append(run(home))
        print("ms (median of 3)   import   Runtime()   first fire   total")
        for name, rows in (("cold", cold), ("warm", warm)):
            cols = [statistics.median(c) for c in zip(*rows)]
            print(f"{name:18} {cols[0]:7.1f} {cols[1]:10.1f} {cols[2]:11.1f} {cols[3]:8.1f}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
