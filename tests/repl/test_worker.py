"""Evaluation on a big-stack thread that Ctrl-C (SIGINT) can interrupt."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from harness.repl.worker import RESEND_SECONDS, run_interruptibly


def test_returns_the_value_and_raises_the_exception():
    assert run_interruptibly(lambda: 42) == 42
    with pytest.raises(ZeroDivisionError):
        run_interruptibly(lambda: 1 / 0)


def test_deep_recursion_fits_on_the_worker_stack(repl):
    repl.execute("(define (deep n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))")
    assert run_interruptibly(lambda: repl.execute("(deep 200000)")) == "200000"


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to the own process")
def test_sigint_interrupts_the_evaluation(repl):
    repl.set_tier("unsandboxed")  # no step limit: only Ctrl-C (or 30 s) stops the loop
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        assert run_interruptibly(lambda: repl.execute("(let loop () (loop))")) == "interrupted"
    finally:
        timer.cancel()
    assert repl.execute("(+ 1 2)") == "3"


@pytest.mark.skipif(os.name != "posix", reason="SIGINT to the own process")
def test_an_interrupt_that_is_lost_is_sent_again():
    # the first KeyboardInterrupt lands where it is dropped (as in a weakref callback):
    # one Ctrl-C must still stop the evaluation
    caught = []

    def spin(deadline: float) -> None:
        while time.monotonic() < deadline:
            pass

    def evaluation() -> str:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # the busy loop is a call inside the try: on Python 3.13 an asynchronous
            # exception can land on a loop's backward jump, which lies outside the range
            # of a try written in the loop's own body
            try:
                spin(deadline)
            except KeyboardInterrupt:
                caught.append(time.monotonic())
                if len(caught) == 2:
                    return "stopped"
        return "ran to its end"

    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        assert run_interruptibly(evaluation) == "stopped"
    finally:
        timer.cancel()
    assert caught[1] - caught[0] >= RESEND_SECONDS * 0.9
