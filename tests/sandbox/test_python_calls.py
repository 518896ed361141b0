"""Python hook and tool functions under a wall-clock limit: what is stopped, and that a
stop never leaks into the host's code."""

from __future__ import annotations

import sys
import time

import pytest

from harness.sandbox.python_calls import PythonTimeout, route_print_output
from harness.sandbox.thread_context import call_slot


def spin(_):
    while True:
        pass


def swallow_timeouts(_):
    stopped = 0
    while stopped < 3:
        try:
            while True:
                pass
        except BaseException:  # noqa: BLE001 - a hook that tries to survive its limit
            stopped += 1
    return "survived"


def test_a_pure_python_loop_is_stopped_at_its_limit():
    with pytest.raises(PythonTimeout, match="time limit of 0.1 s exceeded") as caught:
        call_slot().call(spin, None, 0.1)
    # the traceback still shows where the loop was
    assert any(frame.name == "spin" for frame in _frames(caught.value))


def test_a_function_that_swallows_the_stop_still_counts_as_timed_out():
    with pytest.raises(PythonTimeout):
        call_slot().call(swallow_timeouts, None, 0.1)


def test_a_sleep_runs_to_its_end_and_is_then_reported():
    start = time.monotonic()
    with pytest.raises(PythonTimeout):
        call_slot().call(lambda _: time.sleep(0.3), None, 0.05)
    assert time.monotonic() - start >= 0.3


def test_results_and_exceptions_pass_through_and_no_limit_means_none():
    slot = call_slot()
    assert slot.call(len, "abc", 1.0) == 3
    with pytest.raises(ZeroDivisionError):
        slot.call(lambda x: 1 / x, 0, 1.0)
    assert slot.call(lambda x: x, "free", None) == "free"


def test_calls_that_end_right_at_their_deadline_never_leak_a_stop_into_the_caller():
    slot = call_slot()

    def busy(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass
        return "done"

    outcomes = set()
    for i in range(60):
        try:
            outcomes.add(slot.call(busy, 0.0095 + (i % 4) * 0.0003, 0.01))
        except PythonTimeout:
            outcomes.add("timeout")
        sum(range(1000))  # host code after the call: a leaked stop would land here
    time.sleep(0.05)
    assert outcomes <= {"done", "timeout"}


def _frames(exc: BaseException):
    import traceback
    return traceback.extract_tb(exc.__traceback__)


def test_a_forked_child_gets_its_own_monitor():
    import os
    import signal
    call_slot().call(len, "warm the monitor up", 1.0)
    pid = os.fork()
    if pid == 0:  # the child: stop a loop, then leave without returning into pytest
        signal.alarm(10)  # a child that hangs dies, and the test fails
        try:
            call_slot().call(spin, None, 0.1)
        except PythonTimeout:
            os._exit(0)
        os._exit(1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_call_inside_another_ends_at_the_outer_deadline_if_that_comes_first():
    slot = call_slot()

    def outer(_):
        try:
            slot.call(spin, None, 30.0)  # its own limit is far away; the outer one is not
        except PythonTimeout:
            return "inner stopped"
        return "inner finished"

    start = time.monotonic()
    with pytest.raises(PythonTimeout):
        slot.call(outer, None, 0.2)  # and the outer call is over its limit too
    assert time.monotonic() - start < 5


def test_what_a_call_prints_is_its_own_and_the_rest_goes_where_it_went(capsys):
    route_print_output()
    slot = call_slot()

    def chatty(_):
        print("to the call")
        print("an error", file=sys.stderr)
        slot.call(lambda _: print("to the inner call"), None, 1.0)
        return "done"

    print("to the host")
    assert slot.call(chatty, None, 1.0) == "done"
    assert slot.printed_text() == ("to the call\n", "an error\n")
    assert capsys.readouterr().out == "to the host\n"


def test_the_routed_streams_are_the_real_ones_for_everything_but_writing():
    real = sys.__stdout__
    saved = sys.stdout
    sys.stdout = real
    try:
        route_print_output()
        assert sys.stdout is not real
        assert sys.stdout.encoding == real.encoding
        assert sys.stdout.fileno() == real.fileno()
        assert sys.stdout.isatty() == real.isatty()
    finally:
        sys.stdout = saved
