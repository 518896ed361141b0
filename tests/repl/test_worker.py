"""Evaluation on a big-stack thread that Ctrl-C (SIGINT) can interrupt."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from harness.repl.worker import run_interruptibly


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
