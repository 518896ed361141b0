"""Hook runtime costs, side by side in one run.

    python bench/hooks.py [--n N]

1. no-op Scheme hook on a 200-byte pre_tool payload: µs per dispatch (one hook), and per
   callback (dispatch with 10 hooks minus dispatch with none, divided by 10); compared
   with a plain Python hook function called through the same dispatcher, and with pluggy
   calling an equivalent hookimpl (if pluggy is installed; bench only).
2. a 1 MB pre_api_request (200 messages) through one Scheme hook that reads one field and
   returns a small merge: ms per dispatch.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.runtime import Runtime
from harness.scheme.datatypes import NIL
from harness.tools.registry import FileRegistration, SchemeHook

PAYLOAD = {"tool_name": "shell_exec", "arguments": {"command": "ls -la /tmp/project/src",
                                                    "timeout": 30, "cwd": "/tmp/project"},
           "request_id": "a1b2c3d4e5f6a7b8c9d0e1f2"}


def _median_us(fn, n: int, repeat: int = 5) -> float:
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        runs.append((time.perf_counter() - t0) / n * 1e6)
    return statistics.median(runs)


def _home(files: dict[str, str]) -> Path:
    home = Path(tempfile.mkdtemp(prefix="harness-bench-"))
    (home / "tools").mkdir()
    for name, text in files.items():
        (home / "tools" / name).write_text(text)
    return home


def scheme_noop(n: int) -> None:
    one = Runtime(_home({"a.scm": "(register-hook 'pre_tool (lambda (p) '()))"}))
    ten = Runtime(_home({"a.scm": "(register-hook 'pre_tool (lambda (p) '()))\n" * 10}))
    none = Runtime(_home({}))
    py_one = Runtime(_home({}))
    env = None
    py_one.registry.replace(FileRegistration(
        path="py", tier="unsandboxed",
        hooks=(SchemeHook("pre_tool", lambda payload: NIL, "py", 1, _Env()),)))
    t_none = _median_us(lambda: none.fire("pre_tool", PAYLOAD), n)
    t_one = _median_us(lambda: one.fire("pre_tool", PAYLOAD), n)
    t_ten = _median_us(lambda: ten.fire("pre_tool", PAYLOAD), n)
    t_py = _median_us(lambda: py_one.fire("pre_tool", PAYLOAD), n)
    print("1. no-op hook on a 200-byte pre_tool payload (median µs)")
    print(f"   dispatch, no hooks:               {t_none:8.1f}")
    print(f"   dispatch, 1 Scheme hook:          {t_one:8.1f}")
    print(f"   dispatch, 1 Python function hook: {t_py:8.1f}")
    print(f"   per Scheme callback ((10 - 0)/10): {(t_ten - t_none) / 10:8.1f}")
    try:
        import pluggy
    except ImportError:
        print("   pluggy: not installed (pip install pluggy to compare)")
    else:
        spec = pluggy.HookspecMarker("bench")
        impl = pluggy.HookimplMarker("bench")

        class Spec:
            @spec
            def pre_tool(self, payload):
                """a hook"""

        class Plugin:
            @impl
            def pre_tool(self, payload):
                return None

        pm = pluggy.PluginManager("bench")
        pm.add_hookspecs(Spec)
        pm.register(Plugin())
        t_pluggy = _median_us(lambda: pm.hook.pre_tool(payload=PAYLOAD), n)
        print(f"   pluggy, 1 hookimpl:               {t_pluggy:8.1f}  "
              f"(harness/pluggy = {t_one / t_pluggy:.1f}x)")
    del env


class _Env:
    tier = "unsandboxed"
    budget_check = "none"

    def define(self, name, value):
        pass


def big_request(n: int) -> None:
    messages = [{"role": "user" if i % 2 else "assistant", "content": "x" * 5000,
                 "name": f"m{i}"} for i in range(200)]
    body = {"model": "some-model", "temperature": 0.7, "messages": messages}
    payload = {"context_name": "coding", "request_body": body, "fuel_remaining": 10,
               "fuel_total": 20}
    rt = Runtime(_home({"a.scm": """
(register-hook 'pre_api_request
  (lambda (p)
    (if (equal? (cdr (assoc "context_name" p)) "coding")
        (list (cons "request_body" (list (cons "temperature" 0.1))))
        '())))"""}))
    out = rt.fire("pre_api_request", payload)
    assert out["outcome"]["request_body"]["temperature"] == 0.1, out["errors"]
    ms = _median_us(lambda: rt.fire("pre_api_request", payload), max(1, n // 200)) / 1000
    print("2. 1 MB pre_api_request through one Scheme hook")
    print(f"   dispatch: {ms:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    args = ap.parse_args()
    print(f"Python {sys.version.split()[0]}")
    scheme_noop(args.n)
    big_request(args.n)


if __name__ == "__main__":
    main()
