"""Budgets that stop runaway Scheme code: steps, wall-clock time, recursion depth, sizes.

Compiled code checks the budget at every procedure entry and loop iteration, in one of
three ways chosen per environment (``budget_check``):

* ``"steps"``: ``h_step()`` pops one item off a shared list (a C call, no Python
  arithmetic: ~1.4x on call-heavy code, measured in bench/); when the list runs dry
  ``refill`` charges a chunk of steps to the running thread's ``Budget`` and checks its
  deadline.
* ``"flag"``: ``if h_limits.stop`` (~1.1x); a monitor thread raises the flag when some
  thread's deadline passes. Time limits only.
* ``"none"``: no check (trusted code, benchmarks).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Self

from harness.scheme.errors import SizeLimitExceeded, StepLimitExceeded, TimeLimitExceeded

CHUNK = 1000
MAX_ALLOC = 10_000_000  # largest string/vector/list a single primitive call may allocate
DEFAULT_STEPS = 10_000_000
DEFAULT_SECONDS = 5.0
DEFAULT_DEPTH = 1_100_000  # Python frames: a 1,000,000-deep Scheme recursion must work

_CHUNK_ITEMS = [None] * CHUNK
_step_items: list = list(_CHUNK_ITEMS)
step = _step_items.pop  # h_step in compiled code


class _Flags:
    __slots__ = ("stop",)

    def __init__(self) -> None:
        self.stop = False


flags = _Flags()  # h_limits in compiled code
_local = threading.local()


class Budget:
    """The limits of one call: ``steps`` left (None = unlimited) and a ``deadline``."""

    __slots__ = ("active", "deadline", "expired", "max_memory", "max_steps",
                 "memory_start", "seconds", "steps", "watch")

    def __init__(self, steps: int | None = DEFAULT_STEPS,
                 seconds: float | None = DEFAULT_SECONDS, watch: bool = True) -> None:
        self.max_steps = steps
        self.steps = steps
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.expired = False
        self.active = False
        # Code that counts steps checks the deadline itself (refill); only "flag" code
        # needs the monitor thread to raise the stop flag.
        self.watch = watch
        # bytes the process may grow by during the call (None: unlimited); checked with the
        # step budget, against the resident size when the call started
        self.max_memory: int | None = None
        self.memory_start: int | None = None

    def reset(self, steps: int | None, seconds: float | None,
              max_memory: int | None = None) -> None:
        """Start a new call with fresh limits (one Budget can serve consecutive calls)."""
        self.max_memory = max_memory
        # the baseline is read at the first charge: short calls never touch /proc
        self.memory_start = None
        self.max_steps = self.steps = steps
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        if self.expired:
            _monitor.forget(self)
            self.expired = False
        if self.active and self.deadline is not None and self.watch:
            _monitor.watch(self)

    def __enter__(self) -> Self:
        try:  # _stack() inline: a budget is entered on every hook dispatch
            _local.stack.append(self)
        except AttributeError:
            _local.stack = [self]
        self.active = True
        if self.deadline is not None and self.watch:
            _monitor.watch(self)
        return self

    def __exit__(self, *exc) -> None:
        self.active = False
        _local.stack.remove(self)
        _monitor.watched.pop(self, None)  # one dict operation: atomic under the GIL
        if self.expired:
            _monitor.forget(self)


def _stack() -> list:
    try:
        return _local.stack
    except AttributeError:
        _local.stack = []
        return _local.stack


def current() -> Budget | None:
    stack = _stack()
    return stack[-1] if stack else None


def refill() -> None:
    """The step list ran dry: charge this thread's budget and check its deadline."""
    _step_items.extend(_CHUNK_ITEMS)
    charge(CHUNK)


def charge(steps: int) -> None:
    """Count ``steps`` against this thread's budget and check its deadline and memory.

    Primitives that walk big data call it with the size of the data, so a runaway
    ``(map car huge-list)`` is counted like the loop it is."""
    budget = current()
    if budget is None:
        return
    if budget.steps is not None:
        budget.steps -= steps
        if budget.steps < 0:
            raise StepLimitExceeded(f"step budget of {budget.max_steps:,} steps exhausted")
    if budget.deadline is not None and time.monotonic() > budget.deadline:
        raise TimeLimitExceeded(f"time limit of {budget.seconds:g} s exceeded")
    if budget.max_memory is not None:
        resident = resident_bytes()
        if budget.memory_start is None:
            budget.memory_start = resident
        elif resident - budget.memory_start > budget.max_memory:
            raise SizeLimitExceeded(f"memory limit of {budget.max_memory >> 20} MB exceeded")


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """The process's resident memory (Linux: /proc/self/statm; elsewhere peak RSS)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def interrupt() -> None:
    """The stop flag is up: stop this thread if its own deadline passed."""
    budget = current()
    if budget is not None and budget.expired:
        raise TimeLimitExceeded(f"time limit of {budget.seconds:g} s exceeded")
    if not _monitor.any_expired():
        flags.stop = False


class _Monitor:
    """One daemon thread that raises ``flags.stop`` when a watched deadline passes.

    Budgets in a call are kept in a dict (adding and dropping one is O(1), no heap of stale
    deadlines); the thread sleeps until the earliest of them and is woken only when a new
    deadline comes before the one it sleeps towards.
    """

    def __init__(self) -> None:
        self.watched: dict[Budget, None] = {}  # budgets in a call, until Budget.__exit__
        self._fired: set[Budget] = set()
        self._cond = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None
        self._wake_at: float | None = None  # when the thread wakes next (None: not planned)

    def watch(self, budget: Budget) -> None:
        """Watch ``budget`` (again, after its deadline changed) until its call ends."""
        with self._cond:
            self.watched[budget] = None
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="harness-limits",
                                                daemon=True)
                self._thread.start()
            # Waking the monitor costs a GIL hand-off: only when it must wake earlier.
            if self._wake_at is None or budget.deadline < self._wake_at:
                self._wake_at = budget.deadline
                self._cond.notify()

    def forget(self, budget: Budget) -> None:
        with self._cond:
            self._fired.discard(budget)

    def any_expired(self) -> bool:
        with self._cond:
            return bool(self._fired)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                earliest = None
                for budget in list(self.watched):
                    deadline = budget.deadline
                    if deadline is None:
                        continue
                    if deadline <= now:
                        if budget.active and not budget.expired:
                            budget.expired = True
                            self._fired.add(budget)
                            flags.stop = True
                        self.watched.pop(budget, None)
                    elif earliest is None or deadline < earliest:
                        earliest = deadline
                self._wake_at = earliest
                self._cond.wait(None if earliest is None else earliest - now)


_monitor = _Monitor()


def ensure_recursion_limit(depth: int = DEFAULT_DEPTH) -> None:
    """Let Scheme recursion go ``depth`` Python frames deep (compiled calls use no C stack)."""
    if sys.getrecursionlimit() < depth:
        sys.setrecursionlimit(depth)
