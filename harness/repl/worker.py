"""Evaluate on a thread with a large C stack, so that Ctrl-C can stop a runaway evaluation.

Scheme recursion is Python recursion: deep recursion through a C boundary needs more than
the main thread's stack. SIGINT arrives on the main thread, which waits here and forwards
it to the worker as a KeyboardInterrupt (the Scheme call wrappers let it through).
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

STACK_BYTES = 512 * 1024 * 1024  # as `harness run`: deep recursion must not overflow
#: how long the worker may go on after Ctrl-C before it is asked again
RESEND_SECONDS = 1.0


def run_interruptibly(fn: Callable[[], T]) -> T | None:
    """Run ``fn()`` on a big-stack thread and return its value (or raise its exception). On
    Ctrl-C raise KeyboardInterrupt inside the worker and keep waiting until it stops (a
    plugin subprocess still runs to its own timeout)."""
    result: list = []
    failure: list[BaseException] = []
    done = threading.Event()

    def target() -> None:
        try:
            result.append(fn())
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            failure.append(exc)
        finally:
            done.set()

    old = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    try:
        worker = threading.Thread(target=target, name="harness-repl-eval", daemon=True)
        worker.start()
    finally:
        threading.stack_size(old)
    # wait on an Event, not join(): a join interrupted by Ctrl-C can leave the thread
    # marked as stopped while it still runs
    sent_at = None
    # (a worker that ends without setting ``done``: an interrupt landed in its last lines)
    while not done.is_set() and worker.is_alive():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            sent_at = _raise_in(worker, KeyboardInterrupt)
            continue
        if sent_at is not None and time.monotonic() - sent_at > RESEND_SECONDS:
            # an exception that lands in a weakref callback or a __del__ is printed and
            # dropped there: until the worker stops, Ctrl-C is sent again
            sent_at = _raise_in(worker, KeyboardInterrupt)
    if failure:
        raise failure[0]
    return result[0] if result else None


def _raise_in(thread: threading.Thread, exc_type: type[BaseException]) -> float:
    """Have ``thread`` raise ``exc_type`` at its next bytecode; return when it was asked."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(exc_type))
    return time.monotonic()
