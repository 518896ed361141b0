"""Hook runtime costs, side by side in one run.

    python bench/hooks.py [--n N] [--profile]

1. no-op Scheme hook on a 200-byte pre_tool payload: µs per dispatch (one hook), and per
   callback (dispatch with 10 hooks minus dispatch with none, divided by 10); compared
   with a hook that reads one field (straight-line, so it runs without a budget: see
   harness/scheme/hook_bounds.py; the same with a ``let``, straight-line too, and with its
   variable read twice, a leaf hook that runs under a bare budget; through a procedure of
   the file, a leaf hook too; with ``member``, straight-line; through a procedure with a
   loop, under the whole budget), a
   no-op Python hook (one the host registered with
   ``Runtime.register_hook``, and one ``@hook`` in a ``.py`` tool file), and pluggy
   calling an equivalent hookimpl (pluggy comes with pytest). The goal for a no-op Python
   hook is at most 1.5x pluggy per dispatch. Per callback: (dispatch with 10 hooks minus
   dispatch with none) / 10, for Scheme and for host Python hooks. The variants take turns
   in every round, so load slows them alike.
2. a 1 MB pre_api_request (200 messages) through one Scheme hook that reads one field and
   returns a small merge: ms per dispatch.
3. a Scheme tool called through the whole hook stack with no hooks: µs per call.
"""

from __future__ import annotations

import argparse
import atexit
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.runtime import Runtime

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


def _side_by_side(fns: dict, n: int, rounds: int = 21) -> dict[str, float]:
    """µs per call of each function: the best of ``rounds`` rounds of ``n // 5`` calls, the
    functions taking turns in every round. The best round is the one other processes
    disturbed least (as timeit advises); on this noisy machine medians of the ratio move
    by a third between runs, best rounds by a few percent."""
    runs: dict[str, list[float]] = {name: [] for name in fns}
    calls = max(1, n // 5)
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            runs[name].append((time.perf_counter() - t0) / calls * 1e6)
    return {name: min(times) for name, times in runs.items()}


def _home(files: dict[str, str], toml: str = "") -> Path:
    home = Path(tempfile.mkdtemp(prefix="harness-bench-"))
    atexit.register(shutil.rmtree, home, True)  # (ignore_errors) no home left in /tmp
    (home / "tools").mkdir()
    for name, text in files.items():
        (home / "tools" / name).write_text(text)
    (home / "harness.toml").write_text(toml)
    return home


PY_NOOP = """
from harness.api import hook

@hook("pre_tool")
def noop(payload):
    return None
"""
UNSANDBOXED = '[tools.tiers]\n"" = "unsandboxed"\n'

#: the same guard with a local variable read once: straight-line (hook_bounds.py)
READS_WITH_LET = """
(register-hook 'pre_tool
  (lambda (p)
    (let ((tool (cdr (assoc "tool_name" p))))
      (if (equal? tool "rm")
          (list (cons "block" #t) (cons "message" "no rm"))
          '()))))"""
#: the same with the variable read twice: not straight-line but a leaf hook, so it runs
#: under a bare budget (no output capture, prompt or recursion window)
READS_WITH_LET_TWICE = """
(register-hook 'pre_tool
  (lambda (p)
    (let ((tool (cdr (assoc "tool_name" p))))
      (if (or (equal? tool "rm") (equal? tool "dd"))
          (list (cons "block" #t) (cons "message" "no rm"))
          '()))))"""
#: the same guard through a procedure of the file, itself leaf code: a leaf hook (bare
#: budget), its payload cut to the one entry the procedure looks up
READS_THROUGH_HELPER = """
(define (tool-of p) (cdr (assoc "tool_name" p)))
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (tool-of p) "rm")
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))"""
#: the guard with member of a constant list: straight-line too (no budget)
READS_WITH_MEMBER = """
(register-hook 'pre_tool
  (lambda (p)
    (if (member (cdr (assoc "tool_name" p)) '("rm" "dd" "mkfs"))
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))"""
#: the guard through a procedure with a loop: the whole budget machinery (output
#: capture, continuation prompt, recursion window, thread context)
READS_THROUGH_LOOP = """
(define blocked '("rm" "dd" "mkfs"))
(define (blocked? tool)
  (let loop ((l blocked))
    (cond ((null? l) #f)
          ((equal? (car l) tool) #t)
          (else (loop (cdr l))))))
(register-hook 'pre_tool
  (lambda (p)
    (if (blocked? (cdr (assoc "tool_name" p)))
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))"""
READS_ONE_FIELD = """
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (cdr (assoc "tool_name" p)) "rm")
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))"""


def scheme_noop(n: int) -> None:
    one = Runtime(_home({"a.scm": "(register-hook 'pre_tool (lambda (p) '()))"}))
    ten = Runtime(_home({"a.scm": "(register-hook 'pre_tool (lambda (p) '()))\n" * 10}))
    reads = Runtime(_home({"a.scm": READS_ONE_FIELD}))
    reads_let = Runtime(_home({"a.scm": READS_WITH_LET}))
    reads_let2 = Runtime(_home({"a.scm": READS_WITH_LET_TWICE}))
    reads_helper = Runtime(_home({"a.scm": READS_THROUGH_HELPER}))
    reads_member = Runtime(_home({"a.scm": READS_WITH_MEMBER}))
    reads_loop = Runtime(_home({"a.scm": READS_THROUGH_LOOP}))
    # each variant takes the path its line names (hook_bounds.py)
    for rt, leaf, straight in ((reads, True, True), (reads_let, True, True),
                               (reads_let2, True, False),
                               (reads_helper, True, False), (reads_member, True, True),
                               (reads_loop, False, False)):
        [run] = rt.registry.runs_for("pre_tool")
        assert (run.leaf is not None, run.straight) == (leaf, straight), rt.load_errors
    none = Runtime(_home({}))
    host = Runtime(_home({}))
    host.register_hook("pre_tool", lambda payload: None)
    host_ten = Runtime(_home({}))
    for _ in range(10):
        host_ten.register_hook("pre_tool", lambda payload: None)
    py_file = Runtime(_home({"a.py": PY_NOOP}, UNSANDBOXED))
    assert py_file.hooks() and not py_file.load_errors, py_file.load_errors
    fns = {"none": lambda: none.fire("pre_tool", PAYLOAD),
           "one": lambda: one.fire("pre_tool", PAYLOAD),
           "reads": lambda: reads.fire("pre_tool", PAYLOAD),
           "reads_let": lambda: reads_let.fire("pre_tool", PAYLOAD),
           "reads_let2": lambda: reads_let2.fire("pre_tool", PAYLOAD),
           "reads_helper": lambda: reads_helper.fire("pre_tool", PAYLOAD),
           "reads_member": lambda: reads_member.fire("pre_tool", PAYLOAD),
           "reads_loop": lambda: reads_loop.fire("pre_tool", PAYLOAD),
           "ten": lambda: ten.fire("pre_tool", PAYLOAD),
           "host": lambda: host.fire("pre_tool", PAYLOAD),
           "host_ten": lambda: host_ten.fire("pre_tool", PAYLOAD),
           "py_file": lambda: py_file.fire("pre_tool", PAYLOAD)}
    pluggy_hook = _pluggy_hook()
    if pluggy_hook is not None:
        fns["pluggy"] = lambda: pluggy_hook(payload=PAYLOAD)
    t = _side_by_side(fns, n)
    ratio = (lambda us: f"  ({us / t['pluggy']:.2f}x pluggy)") if "pluggy" in t else \
        (lambda us: "")
    print("1. no-op hook on a 200-byte pre_tool payload (µs, best of 21 rounds taken in turns)")
    print(f"   dispatch, no hooks:                     {t['none']:7.1f}{ratio(t['none'])}")
    print(f"   dispatch, 1 no-op Scheme hook:          {t['one']:7.1f}{ratio(t['one'])}")
    print(f"   dispatch, 1 Scheme hook reading a field: {t['reads']:6.1f}{ratio(t['reads'])}")
    print(f"   the same with a let (no budget):        {t['reads_let']:7.1f}"
          f"{ratio(t['reads_let'])}")
    print(f"   the let read twice (bare budget):       {t['reads_let2']:7.1f}"
          f"{ratio(t['reads_let2'])}")
    print(f"   the same through a helper (bare budget): {t['reads_helper']:6.1f}"
          f"{ratio(t['reads_helper'])}")
    print(f"   the same with member (no budget):       {t['reads_member']:7.1f}"
          f"{ratio(t['reads_member'])}")
    print(f"   through a loop (whole budget):          {t['reads_loop']:7.1f}"
          f"{ratio(t['reads_loop'])}")
    print(f"   dispatch, 1 no-op host Python hook:     {t['host']:7.1f}{ratio(t['host'])}")
    print(f"   dispatch, 1 no-op @hook in a .py file:  {t['py_file']:7.1f}"
          f"{ratio(t['py_file'])}")
    print(f"   per no-op Scheme callback ((10 - 0)/10): {(t['ten'] - t['none']) / 10:6.1f}")
    print(f"   per no-op Python callback ((10 - 0)/10): {(t['host_ten'] - t['none']) / 10:6.1f}")
    if "pluggy" in t:
        print(f"   pluggy, 1 hookimpl:                     {t['pluggy']:7.1f}")
    else:
        print("   pluggy: not installed (pip install pluggy to compare)")


def _pluggy_hook():
    """pluggy calling one hookimpl equivalent to the no-op hook (None without pluggy)."""
    try:
        import pluggy
    except ImportError:
        return None
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
    return pm.hook.pre_tool


def tool_call(n: int) -> None:
    """A Scheme tool through the whole hook stack (pre_tool, the tool, pre_tool_output,
    post_tool_output, post_tool) with no hooks, against one no-hook dispatch."""
    greet = (Path(__file__).resolve().parent.parent / "examples" / "scheme_hooks" /
             "greet.scm").read_text()
    rt = Runtime(_home({"greet.scm": greet}))
    assert rt.call_tool("greet", {"name": "Ada"}).output == "Hello, Ada!", rt.load_errors
    t = _side_by_side({"call": lambda: rt.call_tool("greet", {"name": "Ada"}),
                       "fire": lambda: rt.fire("pre_tool", PAYLOAD)}, n)
    print("3. a Scheme tool call through the hook stack (no hooks), µs")
    print(f"   call_tool:  {t['call']:7.1f}  (= {t['call'] / t['fire']:.1f} dispatches "
          f"with no hooks, {t['fire']:.1f} µs each)")


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


def profile(n: int) -> None:
    """cProfile of n dispatches to the hook that reads a field: where the time goes."""
    import cProfile
    import pstats
    rt = Runtime(_home({"a.scm": READS_ONE_FIELD}))
    for _ in range(100):
        rt.fire("pre_tool", PAYLOAD)
    profiler = cProfile.Profile()
    profiler.runcall(lambda: [rt.fire("pre_tool", PAYLOAD) for _ in range(n)])
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--profile", action="store_true",
                    help="profile dispatches to one Scheme hook instead of timing")
    args = ap.parse_args()
    if args.profile:
        profile(args.n)
        return
    print(f"Python {sys.version.split()[0]}")
    scheme_noop(args.n)
    big_request(args.n)
    tool_call(args.n)


if __name__ == "__main__":
    main()
