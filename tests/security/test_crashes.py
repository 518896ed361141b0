"""Hostile files that used to kill the host process (issue 11): C-stack recursion through
answers, JSON, call-tool, apply and inlined comparisons, and errors too big to describe.

Each case runs in a forked child (a crash fails one test instead of killing pytest) on a
thread with the default 8 MiB stack, as a host's thread would be. The hostile hook must
fail alone with a clear error, the other hooks answer, the next dispatch works, the host
can ``json.dumps`` the result, and the process's recursion limit is the host's again.
"""

from __future__ import annotations

import io
import json
import re
import sys
import threading
import time
from pathlib import Path

import pytest
from security_helpers import (
    BYSTANDER,
    FAST_LIMITS,
    NEXT_OK,
    OTHER_FILE,
    SECONDS,
    SLACK,
    answers_of,
    fire_timed,
    hook_on,
    load_task,
    messages_of,
    run_forked_batch,
    run_homes,
    the_error_of,
    write_home,
)

from harness.bridge import dumps
from harness.runtime import Runtime

BYSTANDERS = [{"bystander": "same file"}, {"bystander": "other file"}]

DEEP_LIST = "(let loop ((i 0) (x '())) (if (= i 100000) x (loop (+ i 1) (list x))))"
DEEP_PAIRS = "(let loop ((i 0) (x '())) (if (= i 100000) x (loop (+ i 1) (cons 1 x))))"
#: a value whose written form is 2**30 * 8 characters (the printer used to give up with a
#: BaseException that escaped every handler)
HUGE_TO_WRITE = ('(let loop ((i 0) (x "aaaaaa")) (if (= i 30) x (loop (+ i 1) '
                 '(vector x x))))')

#: name -> (tool file text, the error the hostile hook must end with)
CASES = {
    "answer nested 100,000 deep": (
        hook_on("post_message", DEEP_LIST), r"answer(\[0\])+.*nested more than 200 levels"),
    "json-stringify of 100,000 levels": (
        hook_on("post_message", f"(json-stringify {DEEP_LIST})"),
        r"json-stringify: .*nested more than 10000 levels deep"),
    "= on two long lists": (
        hook_on("post_message", f"(= {DEEP_PAIRS} {DEEP_PAIRS})"),
        r"=: expected a number, got a pair"),
    "< on two deep lists": (
        hook_on("post_message", f"(< {DEEP_LIST} {DEEP_LIST})"),
        r"<: expected a number, got a pair"),
    "apply with many arguments, recursing": (
        "(define (f n . r) (if (= n 0) 0 (+ 1 (apply f (- n 1) (make-list 100 0)))))\n"
        + hook_on("post_message", "(f 100000)"),
        # (or its time limit, on a machine so busy that 1,000 levels take 0.5 s)
        (r"recursion too deep: calls with more than 64 arguments nested more than 1000"
         r"|time limit of [\d.]+ s exceeded")),
    "a tool that calls itself": (
        "(define-tool again (description \"\") (parameters '())"
        "  (execute (lambda (args) (call-tool \"again\" '()))))\n"
        + hook_on("post_message", "(call-tool \"again\" '())"),
        r"recursion too deep: tool calls nested more than 32 deep \(call-tool again\)$"),
    "raise of a value too big to write": (
        hook_on("post_message", f"(raise {HUGE_TO_WRITE})"),
        r"uncaught exception: #\(#\(#\(.*\.\.\.$"),
    "error message of a huge string": (
        hook_on("post_message", "(error (make-string 100000 #\\a) (make-string 100000 #\\b))"),
        r"aaaa\.\.\. \"bbbb.*\.\.\.$"),
}


def _crash_task(home: Path):
    def task() -> dict:
        limit = sys.getrecursionlimit()
        rt = Runtime(home)
        first, cpu = fire_timed(rt)
        return {"errors": messages_of(first), "answers": answers_of(first),
                "cpu": cpu, "load_errors": dict(rt.load_errors),
                "host_json": len(json.dumps(first)), "bridge_json": len(dumps(first)),
                "limit_kept": sys.getrecursionlimit() == limit,
                "next_answers": answers_of(rt.fire("pre_message", {"prompt": "p"}))}
    return task


@pytest.fixture(scope="module")
def crash_results(tmp_path_factory) -> dict:
    homes = {name: ({"hostile.scm": text + BYSTANDER, **OTHER_FILE}, FAST_LIMITS)
             for name, (text, _) in CASES.items()}
    return run_homes(tmp_path_factory, "crash", homes, _crash_task, timeout=20,
                     memory_mb=1500)


@pytest.mark.parametrize("case", list(CASES))
def test_a_hostile_hook_fails_alone_and_the_host_lives(crash_results, case):
    run = crash_results[case]
    message = the_error_of(run, "hostile", CASES[case][1])
    assert len(message) < 5000
    value = run.value
    assert value["answers"] == BYSTANDERS
    assert value["next_answers"] == [NEXT_OK]
    assert value["limit_kept"], "the host's recursion limit was not restored"
    assert value["host_json"] > 0 and value["bridge_json"] > 0
    assert value["cpu"] < SECONDS + SLACK, run.describe()


def test_the_recursion_limit_is_raised_only_while_scheme_runs(tmp_path):
    seen = []
    text = "(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))\n" + hook_on(
        "post_message", '(list (cons "depth" (deep 50000)))')
    rt = Runtime(write_home(tmp_path, {"deep.scm": text}))
    limit = sys.getrecursionlimit()
    thread = threading.Thread(target=lambda: seen.append(rt.fire("post_message", {})))
    thread.start()
    thread.join(30)
    assert answers_of(seen[0]) == [{"depth": 50000}]
    assert sys.getrecursionlimit() == limit


# -- errors too big to describe, everywhere a user meets them ------------------------------

RAISE_HUGE = f"(raise {HUGE_TO_WRITE})"


def test_a_huge_error_from_a_tool_is_a_tool_error(tmp_path):
    text = ("(define-tool boom (description \"\") (parameters '())"
            f"  (execute (lambda (args) {RAISE_HUGE})))\n")
    rt = Runtime(write_home(tmp_path, {"boom.scm": text}))
    result = rt.call_tool("boom", {})
    assert result.error is not None and "uncaught exception: #(#(#(" in result.error
    assert len(result.error) < 5000


def test_a_huge_error_at_load_time_is_a_load_error_and_the_others_load(tmp_path):
    home = write_home(tmp_path, {"boom.scm": RAISE_HUGE + "\n", **OTHER_FILE})
    rt = Runtime(home)
    (message,) = rt.load_errors.values()
    assert re.match(r"\S+boom\.scm:1:1: uncaught exception: #\(#\(", message)
    assert answers_of(rt.fire("pre_message", {"prompt": "p"})) == [NEXT_OK]


def test_the_reload_thread_survives_a_huge_error_and_applies_later_edits(tmp_path):
    home = write_home(tmp_path, {"zz_other.scm": hook_on("pre_message",
                                                          '(list (cons "prompt" "v1"))')})
    rt = Runtime(home, watch=True)
    try:
        (home / "tools" / "boom.scm").write_text(RAISE_HUGE + "\n")
        _wait_for(lambda: any("boom.scm" in p for p in rt.load_errors))
        (home / "tools" / "zz_other.scm").write_text(
            hook_on("pre_message", '(list (cons "prompt" "v2"))'))
        _wait_for(lambda: rt.fire("pre_message", {"prompt": "p"})["outcome"]
                  == {"prompt": "v2"})
    finally:
        rt.close()


def test_serve_answers_a_hostile_dispatch_and_goes_on(tmp_path):
    from harness.cli.serve import RpcServer
    home = write_home(tmp_path, {"boom.scm": hook_on("post_message", RAISE_HUGE) + BYSTANDER,
                                 **OTHER_FILE})
    rt = Runtime(home)
    server = RpcServer(rt, io.BytesIO())
    for i in range(2):
        line = json.dumps({"jsonrpc": "2.0", "id": i, "method": "fire",
                           "params": {"hook": "post_message", "payload": {}}}).encode()
        response = server.handle_line(line)
        assert response["id"] == i
        result = response["result"]
        assert [a["answer"] for a in result["answers"]] == BYSTANDERS
        assert "uncaught exception" in result["errors"][0]["message"]


def _wait_for(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("the condition did not hold in time")


def test_a_load_that_escapes_through_dynamic_wind_still_ends(tmp_path):
    """A limit error cannot be cancelled by an after thunk that escapes (budget hole, but
    at load time it hung Runtime() itself)."""
    escape = ("(let loop () (call/cc (lambda (k) (dynamic-wind (lambda () #f)"
              " (lambda () (let l () (l))) (lambda () (k 1))))) (loop))\n")
    home = write_home(tmp_path, {"escape.scm": escape, **OTHER_FILE})
    (run,) = run_forked_batch({"load": load_task(home)}, timeout=20).values()
    assert run.status == "ok", run.describe()
    (message,) = run.value["load_errors"]
    assert re.search(r"escape\.scm:1:\d+: (step budget|time limit)", message), message
    assert run.value["cpu"] < SECONDS + SLACK


def test_the_repl_shows_a_value_too_big_to_write_and_goes_on(tmp_path):
    from harness.repl.session import ReplSession
    rt = Runtime(write_home(tmp_path, {}))
    session = ReplSession(rt)
    dag = "(let loop ((i 0) (x (list 1))) (if (= i 40) x (loop (+ i 1) (list x x))))"
    assert re.fullmatch(r"; the value is not shown: printed representation exceeds "
                        r"10000 characters", session.execute(dag))  # (max_output)
    assert session.execute("(+ 1 2)") == "3"
