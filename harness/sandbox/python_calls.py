"""Calling Python hook and tool functions for the host: on the caller's thread, under the
tier's wall-clock limit, with what they print captured.

A call that overruns its deadline is stopped by raising ``PythonTimeout`` in its thread
(``PyThreadState_SetAsyncExc``). Python delivers such an exception only between bytecodes,
so a pure-Python loop stops within a tick of the deadline, while a ``time.sleep``, a
blocking read or a long C call (a huge regex, ``sum(range(10**12))``) runs to its end
first; the call is then reported as timed out and whatever it returned is dropped.
Memory is not limited. Running on the caller's thread keeps a call as cheap as a plain
function call (a thread hand-off would cost more than the whole dispatch). A call made
inside another (a hook calling a tool) ends at its own deadline or the outer one,
whichever comes first.

Per call the caller only writes its deadline into its thread's ``CallSlot.running`` (0.0:
not running); one monitor thread looks at the running slots every tick (a tenth of the
smallest limit seen, 5–250 ms) and goes idle when no call has run for a while. The
hand-over is race-free: the monitor writes the deadline it fires for into ``fired`` before
it looks at ``running`` again and injects under the slot's lock; the caller clears
``running`` before it looks at ``fired`` and, when that is its own deadline, takes the
lock and withdraws an exception not yet delivered, so a late one never surfaces in the
host's code.

Output: ``route_print_output()`` puts a router in place of sys.stdout and sys.stderr;
what is written on a thread while a call runs there goes to that call
(``CallSlot.printed_text()`` afterwards), everything else where it went before.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import weakref
from collections.abc import Callable

_monotonic = time.monotonic

IDLE_AFTER = 2.0  # seconds without a running call before the monitor sleeps until woken
MAX_TICK = 0.25
MIN_TICK = 0.005


class PythonTimeout(BaseException):
    """Raised inside a Python hook or tool that ran past its time limit. A BaseException,
    so ``except Exception`` in the hook does not swallow it."""


_INFINITY = float("inf")
_current = threading.local()  # .slot: this thread's CallSlot (for routed output)
MAX_PRINTED = 1 << 20  # characters of output kept per call and stream


def _overran(seconds: float | None) -> str:
    if seconds is None:
        return "the time limit of the call it ran in was exceeded"
    return f"time limit of {seconds:g} s exceeded"


class CallSlot:
    """One thread's running call, as the monitor sees it, and what the call printed. Each
    thread has one, as ``harness.sandbox.thread_context.thread_context().calls``."""

    __slots__ = ("__weakref__", "fired", "lock", "output", "printed", "running",
                 "thread_id")

    def __init__(self) -> None:
        """The slot of the calling thread (one per thread: ThreadContext.calls)."""
        self.thread_id = threading.get_ident()
        self.running = 0.0  # the deadline of the running call (inf: none); 0.0: no call
        self.fired = 0.0  # the deadline the monitor last stopped a call for
        self.lock = threading.Lock()
        self.printed: tuple[list, list] | None = None  # the running call's output so far
        self.output: tuple[list, list] | None = None  # what the last call printed
        _monitor.slots.add(self)
        _current.slot = self

    def call(self, fn: Callable, arg: object, seconds: float | None) -> object:
        """``fn(arg)`` stopped ``seconds`` after it started (None: no limit of its own), or
        at the deadline of the call it runs inside if that comes first. Raises what ``fn``
        raises, or PythonTimeout when it overran (even if it then returned). What it
        printed is in ``printed_text()`` afterwards."""
        outer, outer_printed = self.running, self.printed
        deadline = _INFINITY if seconds is None else _monotonic() + seconds
        if outer and outer < deadline:
            deadline = outer
        self.running = deadline
        self.printed = None
        # after running is set: a monitor going idle looks at the slots once more
        if seconds is not None and seconds < _monitor.wake_below:  # it sleeps, or ticks too
            _monitor.wake(seconds)                                  # slowly for this limit
        try:
            value = fn(arg)
        except BaseException as exc:  # noqa: BLE001 - re-raised (or its timeout)
            self.running = outer
            self.output, self.printed = self.printed, outer_printed
            raise self._failure(exc, deadline, seconds) from None
        # Until this loop is left, an exception the monitor injected before it saw the
        # call end may still arrive (it is delivered at any call or jump): everything
        # here stays inside the try, and one not delivered yet is taken back.
        while True:
            try:
                self.running = outer
                self.output, self.printed = self.printed, outer_printed
                if self.fired != deadline:
                    return value
                self._withdraw()
                break
            except PythonTimeout:
                continue
        raise PythonTimeout(_overran(seconds))

    def printed_text(self) -> tuple[str, str]:
        """(stdout, stderr) of the last call that ended on this thread."""
        output = self.output
        if output is None:
            return "", ""
        return "".join(output[0]), "".join(output[1])

    def _failure(self, exc: BaseException, deadline: float,
                 seconds: float | None) -> BaseException:
        """What a call that raised ``exc`` raises: ``exc``, or a PythonTimeout (with the
        traceback of where it was stopped) when it overran."""
        while True:
            try:
                if self.fired != deadline and type(exc) is not PythonTimeout:
                    return exc
                self._withdraw()
                where = exc.__traceback__ if type(exc) is PythonTimeout else None
                return PythonTimeout(_overran(seconds)).with_traceback(where)
            except PythonTimeout:
                continue

    def _withdraw(self) -> None:
        """Take back an exception the monitor injected and Python has not delivered yet."""
        with self.lock:  # the monitor injects under it: it has finished now
            _set_async_exc(self.thread_id, None)  # NULL: withdraw


class _Monitor:
    """The one thread that stops overrunning calls (see the module docstring)."""

    def __init__(self) -> None:
        self.slots: weakref.WeakSet[CallSlot] = weakref.WeakSet()
        self.idle = True
        self.smallest = MAX_TICK * 10  # the smallest limit seen: sets the tick
        # a call with a limit below this wakes the monitor: any, while it sleeps
        self.wake_below = float("inf")
        self.quiet_since = 0.0  # when the monitor last saw a call running (or was woken)
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def tick(self) -> float:
        return min(MAX_TICK, max(MIN_TICK, self.smallest / 10))

    def wake(self, seconds: float) -> None:
        with self._cond:
            self.smallest = self.wake_below = min(self.smallest, seconds)
            self.idle = False
            self.quiet_since = _monotonic()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="harness-python-limits",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        import ctypes  # noqa: F401 - for _set_async_exc, imported before any lock is held
        with self._cond:
            while True:
                self._cond.wait(None if self.idle else self.tick())
                now = _monotonic()
                if self._stop_overdue(now):
                    self.quiet_since = now
                elif now - self.quiet_since > IDLE_AFTER:
                    # wake_below first, then one more look: a call that started meanwhile
                    # either saw it and woke us, or is seen running here
                    self.wake_below = float("inf")
                    self.idle = True
                    if self._stop_overdue(_monotonic()):
                        self.idle = False
                        self.wake_below = self.smallest

    def _stop_overdue(self, now: float) -> bool:
        """Stop the calls past their deadline; True if any call is running."""
        busy = False
        for slot in list(self.slots):
            deadline = slot.running
            if deadline:
                busy = True
                if now >= deadline:
                    self._stop(slot, deadline)
        return busy

    @staticmethod
    def _stop(slot: CallSlot, deadline: float) -> None:
        slot.fired = deadline  # before looking at running again: see the module docstring
        with slot.lock:
            if slot.running == deadline:
                _set_async_exc(slot.thread_id, PythonTimeout)


_monitor = _Monitor()


def _set_async_exc(thread_id: int, exception: type[BaseException] | None) -> None:
    """Raise ``exception`` in the thread ``thread_id`` at its next bytecode (None: take back
    one not raised yet). Only the monitor's thread gets here first (it imported ctypes when
    it started): a process with no Python call under a time limit never imports ctypes."""
    import ctypes
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), None if exception is None else ctypes.py_object(exception))


class _RoutedStream:
    """Stands for sys.stdout or sys.stderr: what a Python hook or tool writes while it runs
    goes to its call's output; everything else to the stream it replaced. Anything but
    writing (encoding, fileno, isatty, buffer, ...) is the replaced stream's."""

    def __init__(self, target, index: int) -> None:
        self.target = target
        self.index = index  # 0: stdout, 1: stderr

    def write(self, text: str) -> int:
        slot = getattr(_current, "slot", None)
        if slot is None or not slot.running:
            return self.target.write(text)
        printed = slot.printed
        if printed is None:
            printed = slot.printed = ([], [])
        parts = printed[self.index]
        kept = sum(map(len, parts))
        if kept < MAX_PRINTED:
            parts.append(text[:MAX_PRINTED - kept])
            if kept + len(text) > MAX_PRINTED:
                parts.append("\n[output truncated]\n")
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.target, name)  # encoding, fileno, isatty, buffer, ...


def route_print_output() -> None:
    """Make sure what Python hooks and tools print is captured per call (see
    _RoutedStream): wraps the current sys.stdout / sys.stderr unless they already are."""
    if not isinstance(sys.stdout, _RoutedStream):
        sys.stdout = _RoutedStream(sys.stdout, 0)
    if not isinstance(sys.stderr, _RoutedStream):
        sys.stderr = _RoutedStream(sys.stderr, 1)


def _after_fork_in_child() -> None:
    # Only the forking thread lives on in a child, and the monitor's thread and locks may
    # have been caught mid-use: start afresh, keeping this thread's slot.
    global _monitor
    inherited, _monitor = _monitor, _Monitor()
    me = threading.get_ident()
    for slot in list(inherited.slots):
        if slot.thread_id == me:
            slot.lock = threading.Lock()
            slot.running = 0.0
            slot.thread_id = me
            _monitor.slots.add(slot)


os.register_at_fork(after_in_child=_after_fork_in_child)
