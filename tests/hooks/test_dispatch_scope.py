"""What one dispatch sets up for its Scheme callbacks, made cheap on the fast path: output
capture whose ports exist only when used, the per-thread context, no payload conversion for
callbacks that cannot see it, the deadline monitor. Each must behave as before."""

from __future__ import annotations

import threading

import pytest

from harness.runtime import Runtime
from harness.sandbox.scheme_calls import Limits, OutputCapture
from harness.sandbox.thread_context import (
    current_context_name,
    current_runtime,
    current_tier,
    thread_context,
)
from harness.scheme import limits
from harness.scheme.interpreter import Interpreter
from harness.scheme.parameters import pop_binding, push_binding
from harness.scheme.payload_use import ignores_argument
from harness.scheme.primitives import ports
from tests.hooks.test_dispatcher import answer_hook, make_home


@pytest.mark.parametrize(("src", "ignores"), [
    ("(lambda (p) '())", True),
    ("(lambda (p) (list (cons \"block\" #t)))", True),
    ("(lambda (p) p)", False),
    ("(lambda (p) (assoc \"tool_name\" p))", False),
    ("(lambda (p) (lambda () p))", False),           # captured by an inner closure
    # assigned: set! variables live in boxes (for re-entrant continuations), so the payload
    # goes into one and counts as read
    ("(lambda (p) (set! p 1) '())", False),
    ("(lambda (p) (let loop ((q p)) (if (pair? q) (loop (cdr q)) '())))", False),
    ("(lambda p '())", False),                        # rest argument
    ("(lambda (p q) '())", False),
    ("(case-lambda ((p) '()) ((p q) p))", False),
    ("car", False),                                    # a primitive
])
def test_ignores_argument_only_when_provable(src, ignores):
    proc = Interpreter().eval_string(src)
    assert ignores_argument(proc) is ignores


def test_ignores_argument_refuses_python_functions():
    assert not ignores_argument(lambda p: None)
    assert not ignores_argument(print)


def test_hooks_that_ignore_the_payload_still_answer_and_the_others_still_read_it(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_tool", "(list (cons \"arguments\" (list (cons \"x\" 1))))"),
        "b.scm": answer_hook("pre_tool", "(list (cons \"block\" (equal? (cdr (assoc "
                                         "\"tool_name\" p)) \"rm\")))"),
    })
    rt = Runtime(home)
    assert rt.fire("pre_tool", {"tool_name": "rm", "arguments": {}})["outcome"] == {
        "blocked": True, "message": "Tool call blocked by hook", "arguments": {}}
    assert rt.fire("pre_tool", {"tool_name": "ls", "arguments": {}})["outcome"] == {
        "blocked": False, "message": None, "arguments": {"x": 1}}


def test_hook_output_is_traced_per_callback_and_never_carries_over(tmp_path):
    home = make_home(tmp_path, {"a.scm": """
        (register-hook 'post_message (lambda (p) (display "one") '()))
        (register-hook 'post_message (lambda (p) '()))
        (register-hook 'post_message (lambda (p) (write-string "x" (current-error-port)) '()))
    """})
    rt = Runtime(home)
    rt.dispatcher.trace_enabled = True
    for _ in range(3):  # the pooled capture starts empty every time
        trace = rt.fire("post_message", {})["trace"]
        assert [e.get("output") for e in trace] == ["one", None, "x"]


def test_a_hook_that_closes_its_output_port_does_not_silence_the_next(tmp_path):
    home = make_home(tmp_path, {"a.scm": """
        (register-hook 'post_message (lambda (p) (close-port (current-output-port)) '()))
        (register-hook 'post_message (lambda (p) (display "still here") '()))
    """})
    rt = Runtime(home)
    rt.dispatcher.trace_enabled = True
    result = rt.fire("post_message", {})
    assert result["errors"] == []
    assert result["trace"][1]["output"] == "still here"


def test_setting_a_captured_port_without_parameterize_is_refused(tmp_path):
    home = make_home(tmp_path, {"a.scm": answer_hook(
        "post_message", "(begin (current-output-port (open-output-string)) '())")})
    rt = Runtime(home)
    errors = rt.fire("post_message", {})["errors"]
    assert len(errors) == 1 and "use parameterize" in errors[0]["message"]
    # the console port of every thread is untouched
    assert ports.current_output_port() is ports.CONSOLE_OUTPUT


def test_parameterize_inside_a_hook_wins_over_the_capture(tmp_path):
    home = make_home(tmp_path, {"a.scm": answer_hook(
        "pre_message",
        "(list (cons \"prompt\" (call-with-output-string (lambda (port) "
        "(parameterize ((current-output-port port)) (display \"inner\"))))))")})
    rt = Runtime(home)
    rt.dispatcher.trace_enabled = True
    result = rt.fire("pre_message", {"prompt": "p"})
    assert result["outcome"] == {"prompt": "inner"}
    assert "output" not in result["trace"][0]


def test_a_capture_hides_parameterize_bindings_made_before_it():
    outer = ports.StringOutputPort()
    proc = Interpreter().eval_string("(lambda () (display \"hook\"))")
    push_binding(ports.current_output_port, outer)
    try:
        with OutputCapture(1000) as capture:
            call = capture.call(proc, (), Limits())
        assert call.stdout == "hook" and outer.getvalue() == ""
        assert ports.current_output_port() is outer  # restored on exit
    finally:
        pop_binding(ports.current_output_port)
    assert ports.current_output_port() is ports.CONSOLE_OUTPUT


def test_context_name_is_fresh_for_each_dispatch(tmp_path):
    home = make_home(tmp_path, {"a.scm": answer_hook(
        "pre_message",
        "(let ((c (string-copy %context-name%))) (string-set! c 0 #\\X) "
        "(list (cons \"prompt\" c)))")})
    rt = Runtime(home)
    for _ in range(2):  # a hook that changes its copy does not change the next dispatch's
        assert rt.fire("pre_message", {"prompt": "p", "context_name": "coding"})[
            "outcome"] == {"prompt": "Xoding"}
    assert rt.fire("pre_message", {"prompt": "p"})["outcome"] == {"prompt": "Xefault"}
    assert current_context_name().s == "default"


def test_a_nested_dispatch_restores_the_outer_context(tmp_path):
    rt = Runtime(make_home(tmp_path, {}))
    seen = []

    def outer(payload):
        seen.append(("outer", current_context_name().s, current_runtime() is rt))
        rt.fire("post_tool", {"tool_name": "x", "context_name": "b"})
        seen.append(("outer again", current_context_name().s, current_runtime() is rt,
                     sorted(thread_context().points)))

    def inner(payload):
        seen.append(("inner", current_context_name().s, sorted(thread_context().points)))

    rt.register_hook("pre_tool", outer)
    rt.register_hook("post_tool", inner)
    assert rt.fire("pre_tool", {"tool_name": "x", "context_name": "a"})["errors"] == []
    assert seen == [("outer", "a", True), ("inner", "b", ["post_tool", "pre_tool"]),
                    ("outer again", "a", True, ["pre_tool"])]
    assert current_runtime() is None and current_tier() is None
    assert thread_context().points == set()


def test_the_deadline_monitor_forgets_finished_calls():
    proc = Interpreter().eval_string("(lambda () 1)")
    before = len(limits._monitor.watched)
    for _ in range(500):
        with OutputCapture(1000, watch_deadline=True) as capture:
            assert capture.call(proc, (), Limits(steps=None, seconds=5.0)).value == 1
    assert len(limits._monitor.watched) == before


def test_the_deadline_monitor_still_stops_a_runaway_wall_clock_call(tmp_path):
    home = make_home(tmp_path, {"admin/a.scm": answer_hook(
        "post_message", "(let loop () (loop))")}, toml="""
        [tools.tiers]
        "admin/" = "unsandboxed"
        [limits.unsandboxed]
        seconds = 0.3
        """)
    rt = Runtime(home)
    done = threading.Event()
    result = {}

    def fire():
        result.update(rt.fire("post_message", {}))
        done.set()

    threading.Thread(target=fire, daemon=True).start()
    assert done.wait(10), "the runaway hook was never stopped"
    assert "time limit" in result["errors"][0]["message"]


def test_payload_keys_cannot_be_changed_but_their_copies_and_values_can(tmp_path):
    home = make_home(tmp_path, {"a.scm": """
        (register-hook 'pre_message
          (lambda (p)
            (let ((key (car (car p))) (value (cdr (car p))))
              (string-set! value 0 #\\P)
              (let ((copy (string-copy key)))
                (string-set! copy 0 #\\P)
                (list (cons "prompt" (string-append copy " " value)))))))
        (register-hook 'pre_message (lambda (p) (string-set! (car (car p)) 0 #\\X) '()))
        (register-hook 'pre_message (lambda (p) (string-fill! (car (car p)) #\\X) '()))
    """})
    rt = Runtime(home)
    for _ in range(2):  # the shared key is intact for the next dispatch
        result = rt.fire("pre_message", {"prompt": "hi"})
        assert result["outcome"] == {"prompt": "Prompt Pi"}
        messages = [e["message"] for e in result["errors"]]
        assert len(messages) == 2
        assert all("this string is shared and cannot be changed" in m for m in messages)
