"""Concurrency (issue 6): many threads firing hooks while files are rewritten and reloaded
with Runtime.load_file; no lost registration, no deadlock (every join has a timeout),
call-tool from a hook re-entering the same file does not dead-lock, and the recursion
window (opened and closed without a lock) leaves the host's limit as it found it."""

from __future__ import annotations

import re
import sys
import threading
import time
from pathlib import Path

from security_helpers import TIME_ONLY_LIMITS, answers_of, hook_on, messages_of, write_home

from harness.runtime import Runtime
from harness.scheme import limits

JOIN = 20.0  # seconds: a join that takes longer is a deadlock


def _spin(seconds: str) -> str:
    """Scheme: busy-wait ``seconds`` (a Scheme number) without sleeping."""
    return (f"(let ((end (+ (current-jiffy) (* {seconds} (jiffies-per-second)))))"
            "  (let loop () (if (< (current-jiffy) end) (loop) 'done)))")


def _run_threads(targets: list, timeout: float = JOIN) -> list[BaseException]:
    """Start every target in a thread, join them all; return what they raised."""
    raised: list[BaseException] = []

    def guarded(fn):
        def run():
            try:
                fn()
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                raised.append(exc)
        return run

    threads = [threading.Thread(target=guarded(fn), daemon=True) for fn in targets]
    for t in threads:
        t.start()
    deadline = time.monotonic() + timeout
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    stuck = [t for t in threads if t.is_alive()]
    assert not stuck, f"{len(stuck)} threads still running after {timeout} s: deadlock?"
    return raised


def _version_file(n: int, version: int) -> str:
    return (hook_on("post_message", f'(list (cons "file" {n}) (cons "version" {version}))')
            + f"(define-tool tool{n} (description \"v{version}\") (parameters '())"
              f"  (execute (lambda (args) \"{version}\")))\n")


def test_fire_while_files_reload_loses_nothing_and_never_deadlocks(tmp_path):
    files = 6
    home = write_home(tmp_path, {f"f{n}.scm": _version_file(n, 0) for n in range(files)})
    rt = Runtime(home)
    stop = threading.Event()
    seen: list[list] = []
    problems: list = []

    def firer():
        while not stop.is_set():
            result = rt.fire("post_message", {"prompt": "p"})
            # a broken save is reported (its last good version runs): never a hook error
            errors = [e for e in result["errors"]
                      if not e["message"].startswith("running last good version of ")]
            if errors:
                problems.append(errors)
            seen.append(answers_of(result))
            time.sleep(0.001)  # let the reloader in: the point is interleaving, not load

    def caller():
        while not stop.is_set():
            result = rt.call_tool(f"tool{len(seen) % files}", {})
            if result.error is not None:
                problems.append(result.error)
            time.sleep(0.001)

    def reloader():
        for version in range(1, 21):
            for n in range(files):
                path = home / "tools" / f"f{n}.scm"
                if version % 10 == 5 and n == 0:  # a broken save keeps the last good one
                    path.write_text("(define oops")
                else:
                    path.write_text(_version_file(n, version))
                rt.load_file(path)
        stop.set()

    raised = _run_threads([firer] * 6 + [caller] * 2 + [reloader])
    assert raised == [] and problems == []
    assert len(seen) > 50
    for answers in seen:  # every dispatch saw every file exactly once, in file order
        assert [a["file"] for a in answers] == list(range(files))
    final = answers_of(rt.fire("post_message", {}))
    assert final == [{"file": n, "version": 20} for n in range(files)]
    assert sorted(t["name"] for t in rt.tools()) == [f"tool{n}" for n in range(files)]
    assert rt.load_errors == {}


def test_call_tool_from_a_hook_that_fires_a_hook_of_the_same_file(tmp_path):
    home = write_home(tmp_path, {"loop.scm": """
        (define-tool inner (description "d") (parameters '())
          (execute (lambda (args) "inner result")))
        ;; pre_tool re-enters call-tool: the nested pre_tool skips Scheme hooks (guard)
        (register-hook 'pre_tool
          (lambda (p) (call-tool "inner" '()) '()))
        (register-hook 'post_message
          (lambda (p) (list (cons "got" (call-tool "inner" '())))))
    """})
    rt = Runtime(home)
    results: list = []
    raised = _run_threads([lambda: results.append(rt.fire("post_message", {}))] * 8)
    assert raised == []
    for result in results:
        assert messages_of(result) == [] and answers_of(result) == [{"got": "inner result"}]


def test_call_tool_while_the_same_file_reloads(tmp_path):
    text = """
        (define-tool echo (description "d") (parameters '())
          (execute (lambda (args) (call-tool "leaf" '()))))
        (define-tool leaf (description "d") (parameters '()) (execute (lambda (args) "leaf")))
        (register-hook 'pre_tool (lambda (p) '()))
    """
    home = write_home(tmp_path, {"same.scm": text})
    rt = Runtime(home)
    outputs: list = []

    def call():
        for _ in range(40):
            outputs.append(rt.call_tool("echo", {}).output)

    def reload():
        for _ in range(40):
            rt.load_file(home / "tools" / "same.scm")

    assert _run_threads([call, call, reload]) == []
    assert set(outputs) == {"leaf"}


def test_a_runaway_on_one_thread_leaves_the_others_their_budget(tmp_path):
    home = write_home(tmp_path, {
        "a_loop.scm": hook_on("on_start", "(let loop () (loop))"),
        "b_quick.scm": hook_on("post_message", "(length (iota 2000))"),
    })
    rt = Runtime(home)
    quick: list = []
    loops: list = []

    def looping():
        loops.append(rt.fire("on_start", {}))

    def quick_ones():
        for _ in range(100):
            quick.append(rt.fire("post_message", {}))

    assert _run_threads([looping, looping, quick_ones, quick_ones]) == []
    for result in loops:
        (message,) = messages_of(result)
        # steps end it on a quiet machine, the wall clock on a busy one
        assert re.search(r"step budget of [\d,]+ steps exhausted|time limit of", message)
    assert all(messages_of(r) == [] and answers_of(r) == [2000] for r in quick)


def test_context_name_is_per_dispatch(tmp_path):
    home = write_home(tmp_path, {"ctx.scm": hook_on(
        "pre_system_prompt",
        f'(let ((before %context-name%)) {_spin("3/10")}'
        '  (list (cons "inject" (string-append before "/" %context-name%))))')},
        toml=TIME_ONLY_LIMITS)
    rt = Runtime(home)
    results: dict = {}

    def fire(name: str, delay: float):
        time.sleep(delay)
        results[name] = rt.fire("pre_system_prompt", {"context_name": name, "summary": "",
                                                     "flock_goals": []})

    assert _run_threads([lambda: fire("alpha", 0), lambda: fire("beta", 0.1)]) == []
    assert messages_of(results["alpha"]) + messages_of(results["beta"]) == []
    assert results["alpha"]["outcome"]["inject"] == "alpha/alpha"
    assert results["beta"]["outcome"]["inject"] == "beta/beta"


def test_continuation_called_from_another_thread(tmp_path):
    home = write_home(tmp_path, {"k.scm": "(define saved #f)\n" + hook_on(
        "post_message", f"(call/cc (lambda (k) (set! saved k) {_spin('3/10')} 'finished))")
        + hook_on("pre_message", "(if saved (saved 'stolen) '())")}, toml=TIME_ONLY_LIMITS)
    rt = Runtime(home)
    results: dict = {}

    def owner():
        results["owner"] = rt.fire("post_message", {})

    def thief():
        time.sleep(0.1)
        results["thief"] = rt.fire("pre_message", {"prompt": "p"})

    assert _run_threads([owner, thief]) == []
    assert answers_of(results["owner"]) == ["finished"]
    (message,) = messages_of(results["thief"])
    assert re.search(r"continuation called (after its extent ended|from another thread)",
                     message), message


def test_reload_of_a_file_never_shows_half_of_it(tmp_path):
    # each version registers two hooks with the same number: a dispatch sees both or none
    def version(v: int) -> str:
        return (hook_on("post_message", f"{v}") + hook_on("post_message", f"{v}"))

    home = write_home(tmp_path, {"pair.scm": version(0)})
    path: Path = home / "tools" / "pair.scm"
    rt = Runtime(home)
    stop = threading.Event()
    bad: list = []

    def firer():
        while not stop.is_set():
            answers = answers_of(rt.fire("post_message", {}))
            if len(answers) != 2 or answers[0] != answers[1]:
                bad.append(answers)
            time.sleep(0.001)

    def reloader():
        for v in range(1, 40):
            path.write_text(version(v))
            rt.load_file(path)
        stop.set()

    assert _run_threads([firer] * 4 + [reloader]) == []
    assert bad == []


def test_threads_dispatching_at_once_leave_the_recursion_limit_restored(tmp_path):
    # the window is opened and closed without a lock: however the threads interleave, the
    # host's limit is back once the last Scheme call is done
    text = "(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n" + hook_on(
        "post_message", '(list (cons "depth" (deep 100)))')
    rt = Runtime(write_home(tmp_path, {"deep.scm": text}))
    limit = sys.getrecursionlimit()
    answers = []

    def dispatch() -> None:
        for _ in range(300):
            answers.extend(answers_of(rt.fire("post_message", {})))

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads change hands as often as they can
    try:
        raised = _run_threads([dispatch] * 4)
    finally:
        sys.setswitchinterval(switch)
    assert raised == [] and answers == [{"depth": 100}] * 1200
    assert sys.getrecursionlimit() == limit and limits._deep_users == []
