"""Budgets that stop runaway Scheme code: steps, wall-clock time, memory, recursion, sizes.

Compiled code checks the budget at every procedure entry and loop iteration, in one of
three ways chosen per environment (``budget_check``):

* ``"steps"``: ``h_step()`` pops one item off a shared list (a C call, no Python
  arithmetic: ~1.4x on call-heavy code, measured in bench/); when the list runs dry
  ``refill`` charges a chunk of steps to the running thread's budgets and checks their
  deadlines and memory. A recursive procedure compiled as twins (compiler.py) checks
  one level of its recursion in TWIN_LEVELS with ``h_step_twin()``, whose items count
  TWIN_LEVELS steps each. A loop (a self tail call compiled as ``while True``) takes
  each iteration's step in a ``for`` over ``h_limits.loop_steps``, an iterator over a
  third list, which costs no call (``refill_loop``; measured 8 -> 3 ns an iteration).
* ``"flag"``: ``if h_limits.stop`` (~1.1x); a monitor thread raises the flag when some
  thread's deadline passes or the process outgrows a budget's memory.
* ``"none"``: no check (trusted code, benchmarks).

Primitives that walk or build big data call ``charge`` with its size, so their work and
their allocations count like the loop they stand for.

**Nesting.** A budget entered while another is running on the same thread (a ``call-tool``
inside a hook, a dispatch fired from a tool) does not start afresh: every charge is made
against every budget on the thread's stack, so the caller pays for what its callees do and
a callee stops at the caller's deadline or memory limit if that comes first.

**Limit errors stick.** Once a budget has run out, every later check of it fails again, and
``dynamic-wind`` re-raises the limit error even when an after thunk escapes through a
continuation (run_support.py): Scheme code cannot catch or cancel a limit.

**Recursion (the decision, measured on CPython 3.11.7).** A Scheme procedure is a Python
function and a non-tail call a Python frame; Python-to-Python calls use no C stack, so a
million-deep Scheme recursion is only a matter of the recursion limit, which is
interpreter-wide. Raising it for good (as before) let every C-recursive operation in the
process — the host's ``json.dumps`` or ``==`` on deep data included — run past the C stack
and die with SIGSEGV (``f(*args)`` recursion: ~20,000 levels on an 8 MiB stack, list
comparison ~20,000, ``json.dumps`` ~50,000, all far below 1,100,000). So:

* the limit is raised to ``DEFAULT_DEPTH`` only while Scheme code runs (``deep_recursion``:
  entered by every ``Budget`` and every top-level form, counted across threads so that one
  thread's exit does not lower it under another that still runs Scheme, without a lock:
  see "the recursion window" below) and restored when the last one leaves: ~0.1 µs per
  dispatch, no thread hand-off;
* every C-recursive path reachable from Scheme is iterative or bounded: the primitives
  call procedures with Python-level calls (tests/scheme/test_c_stack_safety.py), a call
  with too many arguments for a generated caller counts its C nesting
  (``MAX_C_NESTING``), inlined comparisons refuse non-numbers before Python compares
  lists, and the bridge and printer walk data with explicit stacks and depth caps;
* ``harness run``, ``harness eval`` and the REPL run Scheme on threads with large stacks
  as a second line of defence.

Running every call on a big-stack thread instead was rejected: a hand-off costs more than a
whole no-op dispatch (5-9 µs). The price of the choice: host code running *on another
thread* at the moment a Scheme call runs sees the raised limit.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from operator import length_hint as _length_hint

# typing is for type checkers only: importing it costs ~2 ms of every harness
# process's start-up (tests/cli/test_startup_imports.py keeps it out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Self

from harness.scheme.errors import (
    ResourceLimitExceeded,
    SizeLimitExceeded,
    StepLimitExceeded,
    TimeLimitExceeded,
)

CHUNK = 1000
MAX_ALLOC = 10_000_000  # largest string/vector/list a single primitive call may allocate
DEFAULT_STEPS = 10_000_000
DEFAULT_SECONDS = 5.0
DEFAULT_DEPTH = 1_100_000  # Python frames while Scheme runs: a 1,000,000-deep recursion works
#: C-level calls into Scheme one thread may nest (each costs a few hundred bytes of C stack;
#: CPython's own default recursion limit is 1,000)
MAX_C_NESTING = 1000
#: how often a budget with a memory limit reads the resident size (seconds), unless a
#: primitive is about to allocate a lot
MEMORY_CHECK_INTERVAL = 0.001
#: a charge of at least this many units reads the resident size at once
BIG_CHARGE = 100_000
#: how often the monitor thread reads the resident size for budgets that do not count steps
MEMORY_POLL = 0.05
#: how long the monitor goes on polling after the last budget with a memory limit it saw
POLLING_GRACE = 1.0

_CHUNK_ITEMS = [None] * CHUNK
#: what a refill adds: the step that found the list empty is one of the chunk it charges
_REFILL_ITEMS = [None] * (CHUNK - 1)
_step_items: list = list(_CHUNK_ITEMS)
step = _step_items.pop  # h_step in compiled code
#: levels of a tree recursion per budget check (compiler.py: twins)
TWIN_LEVELS = 3
#: the same for the checked one of a set of twins (compiler.py), whose every entry stands
#: for TWIN_LEVELS levels of its recursion: each item is that many steps
_twin_items: list = list(_CHUNK_ITEMS)
twin_step = _twin_items.pop  # h_step_twin in compiled code


#: the steps of loops (compiler.py): an iteration of a loop that counts steps takes the
#: next item of ``flags.loop_steps``, an iterator over this list, in its ``for``
#: statement: no call at all (8 -> 3 ns an iteration; see ``refill_loop``)
_loop_items: list = list(_CHUNK_ITEMS)


class _Flags:
    __slots__ = ("loop_steps", "stop")

    def __init__(self) -> None:
        self.stop = False
        self.loop_steps = iter(_loop_items)


flags = _Flags()  # h_limits in compiled code
_local = threading.local()


class Budget:
    """The limits of one call: ``steps`` left (None = unlimited), a ``deadline`` and
    ``max_memory`` bytes the process may grow by (None = unlimited).

    Entering it (``with``) pushes it on the thread's budget stack (see the module
    docstring: nested budgets are all charged) and lets Scheme recursion run deep.
    """

    __slots__ = ("active", "deadline", "exceeded", "expired", "max_memory", "max_steps",
                 "memory_checked", "memory_start", "seconds", "steps", "watch", "watched")

    def __init__(self, steps: int | None = DEFAULT_STEPS,
                 seconds: float | None = DEFAULT_SECONDS, watch: bool = True,
                 max_memory: int | None = None) -> None:
        self.active = False
        self.expired = False  # the monitor saw it run out (its flag is up)
        # Code that counts steps checks the deadline itself (refill); only "flag" code
        # needs the monitor thread to raise the stop flag.
        self.watch = watch
        self.reset(steps, seconds, max_memory)

    def reset(self, steps: int | None, seconds: float | None,
              max_memory: int | None = None) -> None:
        """Start a new call with fresh limits (one Budget can serve consecutive calls)."""
        self.max_steps = self.steps = steps
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.max_memory = max_memory
        # the baseline is read at the first check: short calls never touch /proc
        self.memory_start: int | None = None
        self.memory_checked = 0.0
        # the limit this budget ran out of, raised again at every later check
        self.exceeded: ResourceLimitExceeded | None = None
        # registered with the monitor (code that counts steps registers at its first
        # refill: most calls end before, and never pay for it)
        self.watched = False
        if self.expired:
            _monitor.forget(self)
            self.expired = False
        if self.active and self.watch and (self.deadline is not None
                                           or max_memory is not None):
            self.watched = True
            _monitor.watch(self)

    def __enter__(self) -> Self:
        try:  # _stack() inline: a budget is entered on every hook dispatch
            _local.stack.append(self)
        except AttributeError:
            _local.stack = [self]
        self.active = True
        # enter_deep_recursion() inline: Python calls cost on every dispatch
        _deep_users.append(None)
        limit = _getrecursionlimit()
        if limit < DEFAULT_DEPTH:
            _setrecursionlimit(DEFAULT_DEPTH)
            _host_limits.append(limit)  # after the raise (see "the recursion window")
        if self.watch and (self.deadline is not None or self.max_memory is not None):
            self.watched = True
            _monitor.watch(self)
        return self

    def __exit__(self, *exc) -> None:
        self.active = False
        _local.stack.remove(self)
        _monitor.watched.pop(self, None)  # one dict operation: atomic under the GIL
        if self.expired:
            _monitor.forget(self)
        # leave_deep_recursion() inline
        _deep_users.pop()
        if not _deep_users:
            _restore_limit()

    def enter_shallow(self) -> None:
        """Start charging this budget for code that cannot recurse (the leaf hooks of
        harness/scheme/hook_bounds.py): as ``with budget``, but the recursion window stays
        shut, so the host's recursion limit bounds it. ``reset`` it for each call (that
        starts the monitor's watch); pair with ``exit_shallow``."""
        try:
            _local.stack.append(self)
        except AttributeError:
            _local.stack = [self]
        self.active = True

    def exit_shallow(self) -> None:
        self.active = False
        _local.stack.remove(self)
        _monitor.watched.pop(self, None)
        if self.expired:
            _monitor.forget(self)

    def fail(self, error: ResourceLimitExceeded) -> ResourceLimitExceeded:
        """Remember that this budget ran out (``error``); return the error to raise."""
        self.exceeded = error
        return error

    def failure(self) -> ResourceLimitExceeded | None:
        """A fresh copy of the error this budget ran out with, or None."""
        done = self.exceeded
        return None if done is None else type(done)(done.message)


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
    """The step list ran dry: charge this thread's budgets and check their limits."""
    _step_items.extend(_REFILL_ITEMS)
    charge(CHUNK)


def refill_loop() -> None:
    """A loop's ``for`` over ``flags.loop_steps`` ran out: go on with the iterator there if
    a loop it called has put a fresh one there already, else charge a chunk (checking the
    limits) and put a fresh one there. The monitor ends every running ``for`` at its next
    iteration by emptying the list."""
    if _length_hint(flags.loop_steps):
        return
    charge(CHUNK)
    if not _loop_items:
        _loop_items.extend(_CHUNK_ITEMS)
    flags.loop_steps = iter(_loop_items)


def pending_steps() -> int:
    """Steps already charged (by the chunk) that compiled code has not used yet: a
    budget's count minus the change of this over a run is what the run used, exactly."""
    return (len(_step_items) + TWIN_LEVELS * len(_twin_items)
            + _length_hint(flags.loop_steps))


def refill_twin() -> None:
    """The twins' step list ran dry: as ``refill``, each item TWIN_LEVELS steps."""
    _twin_items.extend(_REFILL_ITEMS)
    charge(TWIN_LEVELS * CHUNK)


def charge(steps: int, nbytes: int = 0) -> None:
    """Count ``steps`` against every budget of this thread and check their deadlines and
    memory; ``nbytes`` is what the caller is about to allocate (checked before it is).

    Primitives that walk or build big data call it with the size of the data, so a
    runaway ``(map car huge-list)`` or a loop of ``vector-copy`` is counted like the loop
    it is."""
    try:
        stack = _local.stack
    except AttributeError:
        return
    if not stack:
        return
    now = time.monotonic()
    resident = None
    for budget in stack:
        if budget.exceeded is not None:
            raise budget.failure()
        if not budget.watched and budget.deadline is not None:
            # a call that runs this long gets the monitor too: it empties the step list
            # when the deadline passes, so one slow step after another cannot run on
            # for a whole chunk of steps
            budget.watched = True
            _monitor.watch(budget)
        if budget.steps is not None:
            budget.steps -= steps
            if budget.steps < 0:
                raise budget.fail(StepLimitExceeded(
                    f"step budget of {budget.max_steps:,} steps exhausted"))
        if budget.deadline is not None and now > budget.deadline:
            raise budget.fail(_time_error(budget))
        if budget.max_memory is not None and (
                nbytes or steps >= BIG_CHARGE
                or now - budget.memory_checked >= MEMORY_CHECK_INTERVAL):
            if resident is None:
                resident = resident_bytes()
            budget.memory_checked = now
            if _over_memory(budget, resident, nbytes):
                raise budget.fail(_memory_error(budget))


def charge_alloc(n: int, item_bytes: int = 8) -> None:
    """A primitive is about to build ``n`` elements of about ``item_bytes`` each: count
    the work (when it is more than a chunk) and refuse it if the memory would not fit."""
    if n > CHUNK:
        charge(n, n * item_bytes)


#: elements (characters, bytes, vector slots) a primitive handles at C speed for one step
BULK_ITEMS_PER_STEP = 16


#: about how long one step takes (for refusing work that would overrun the deadline)
STEP_SECONDS = 50e-9


def charge_work(steps: int) -> None:
    """Count ``steps`` of work a primitive is about to do in one piece (a bignum
    division, say: it cannot be interrupted once started), refusing it if it would end
    past a deadline even when the step budget is unlimited."""
    charge(steps)
    seconds = steps * STEP_SECONDS
    if seconds < 0.01:
        return
    now = time.monotonic()
    for budget in _stack():
        if budget.deadline is not None and now + seconds > budget.deadline:
            raise budget.fail(TimeLimitExceeded(
                f"time limit of {budget.seconds:g} s exceeded (the next operation alone "
                f"would take about {seconds:.2g} s)"))


def charge_bulk(n: int, nbytes: int = 0) -> None:
    """A primitive copies, scans or converts ``n`` elements at C speed (allocating about
    ``nbytes``): count it as n/16 steps, so that big data cannot be walked over and over
    for free, while a hook may still scan a megabyte prompt a few times."""
    if n > CHUNK:
        charge(n // BULK_ITEMS_PER_STEP, nbytes)


def _over_memory(budget: Budget, resident: int, coming: int = 0) -> bool:
    """Has the process grown (or would it grow, by ``coming`` bytes) past the budget's
    memory limit since the budget's first check?"""
    start = budget.memory_start
    if start is None:
        start = budget.memory_start = resident
    return resident + coming - start > budget.max_memory


def _time_error(budget: Budget) -> TimeLimitExceeded:
    return TimeLimitExceeded(f"time limit of {budget.seconds:g} s exceeded")


def _memory_error(budget: Budget) -> SizeLimitExceeded:
    return SizeLimitExceeded(f"memory limit of {budget.max_memory >> 20} MB exceeded")


# -- resident memory -------------------------------------------------------------------------

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_statm: int | None = None  # an open /proc/self/statm (pread on it: ~1 µs, open+read ~10 µs)


def _reopen_statm() -> None:
    global _statm
    if _statm is not None:
        try:
            os.close(_statm)
        except OSError:
            pass
    try:
        _statm = os.open("/proc/self/statm", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        _statm = -1


if hasattr(os, "register_at_fork"):  # /proc/self was resolved at open: a child reopens it
    os.register_at_fork(after_in_child=lambda: _reopen_statm() if _statm is not None
                        else None)


def resident_bytes() -> int:
    """The process's resident memory (Linux: /proc/self/statm; elsewhere peak RSS)."""
    if _statm is None:
        _reopen_statm()
    if _statm >= 0:
        try:
            return int(os.pread(_statm, 64, 0).split()[1]) * _PAGE
        except (OSError, IndexError, ValueError):
            pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def raise_if_exceeded() -> None:
    """Raise again the limit error of a budget of this thread that ran out (inside a
    nested call whose failure its caller would otherwise see as an ordinary error)."""
    for budget in _stack():
        failed = budget.failure()
        if failed is not None:
            raise failed


def interrupt() -> None:
    """The stop flag is up: stop this thread if one of its budgets ran out."""
    for budget in _stack():
        failed = budget.failure()
        if failed is not None:
            raise failed
        if budget.expired:
            raise budget.fail(_time_error(budget))
    if not _monitor.any_expired():
        flags.stop = False


class _Monitor:
    """One daemon thread that raises ``flags.stop`` when a watched deadline passes or the
    process grows past a watched budget's memory limit.

    Budgets in a call are kept in a dict (adding and dropping one is O(1), no heap of stale
    deadlines); the thread sleeps until the earliest deadline (or the next memory poll) and
    is woken only when a new deadline comes before the time it sleeps towards. Once it has
    seen a budget with a memory limit it polls every MEMORY_POLL for POLLING_GRACE more
    seconds: calls that come one after the other then never have to wake it (a wake costs
    a GIL hand-off, more than a whole dispatch).
    """

    def __init__(self) -> None:
        self.watched: dict[Budget, None] = {}  # budgets in a call, until Budget.__exit__
        self._fired: set[Budget] = set()
        self._cond = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None
        self._wake_at: float | None = None  # when the thread wakes next (None: not planned)
        self._polling_until = 0.0  # memory polls go on until then

    def watch(self, budget: Budget) -> None:
        """Watch ``budget`` (again, after its limits changed) until its call ends."""
        wake = budget.deadline
        now = time.monotonic()
        if budget.max_memory is not None:
            wake = now + MEMORY_POLL if wake is None else min(wake, now + MEMORY_POLL)
        with self._cond:
            self.watched[budget] = None
            if budget.max_memory is not None:
                self._polling_until = now + POLLING_GRACE
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="harness-limits",
                                                daemon=True)
                self._thread.start()
            # Waking the monitor costs a GIL hand-off: only when it must wake earlier (a
            # memory poll planned within the next one will do).
            if self._wake_at is None or wake < self._wake_at - MEMORY_POLL:
                self._wake_at = wake
                self._cond.notify()

    def forget(self, budget: Budget) -> None:
        with self._cond:
            self._fired.discard(budget)

    def any_expired(self) -> bool:
        with self._cond:
            return bool(self._fired)

    def _expire(self, budget: Budget, error: ResourceLimitExceeded | None) -> None:
        if budget.active and not budget.expired:
            if error is not None:
                budget.fail(error)
            budget.expired = True
            self._fired.add(budget)
            flags.stop = True  # code that checks the flag stops at its next check
            _step_items.clear()  # code that counts steps refills (and checks) at its next
            _twin_items.clear()
            _loop_items.clear()

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                earliest = now + MEMORY_POLL if now < self._polling_until else None
                resident = None
                for budget in list(self.watched):
                    deadline = budget.deadline
                    if deadline is not None and deadline <= now:
                        self._expire(budget, None)
                        self.watched.pop(budget, None)
                        continue
                    if budget.max_memory is not None and budget.active:
                        if resident is None:
                            resident = resident_bytes()
                        if _over_memory(budget, resident):
                            self._expire(budget, _memory_error(budget))
                            self.watched.pop(budget, None)
                            continue
                        deadline = now + MEMORY_POLL if deadline is None \
                            else min(deadline, now + MEMORY_POLL)
                    if deadline is not None and (earliest is None or deadline < earliest):
                        earliest = deadline
                self._wake_at = earliest
                self._cond.wait(None if earliest is None else earliest - now)


_monitor = _Monitor()


# -- the recursion window --------------------------------------------------------------------
#
# Opening and closing it takes no lock (a lock pair was half of its cost). The Scheme calls
# running (all threads) are counted by a list they append to and pop from, and the host's
# limit waits on another list: pushed after the limit was raised, popped (each push at most
# once) by a call that leaves the count empty, which restores it. Each of these is one C
# call, atomic under the GIL. Whatever the interleaving, the limit is never left raised
# once no Scheme code runs: a raise is followed by its push, the push by its thread's exit,
# and the last exit after it finds a pushed limit (that one or a later one) and restores
# it. What the missing lock costs: a thread that enters just as another leaves may run
# under the host's limit (a deep recursion there fails with the recursion-depth error, as
# it would without the window), never the other way round; and a race of two first
# entries leaves one extra copy of the host's limit on the list (the newest is restored).

_getrecursionlimit = sys.getrecursionlimit
_setrecursionlimit = sys.setrecursionlimit
_deep_users: list = []  # one item per Scheme call running (all threads)
_host_limits: list[int] = []  # the host's recursion limit, pushed after each raise of it


def enter_deep_recursion() -> None:
    """Scheme code starts running on this thread: let it recurse ``DEFAULT_DEPTH`` frames
    deep (see the module docstring). Pair with ``leave_deep_recursion``. (Budget does the
    same inline.)"""
    _deep_users.append(None)
    limit = _getrecursionlimit()
    if limit < DEFAULT_DEPTH:
        _setrecursionlimit(DEFAULT_DEPTH)
        _host_limits.append(limit)  # after the raise: see above


def leave_deep_recursion() -> None:
    """The Scheme code of ``enter_deep_recursion`` is done; the last one out restores the
    host's recursion limit."""
    _deep_users.pop()
    if not _deep_users:
        _restore_limit()


def _restore_limit() -> None:
    """(no Scheme call was running a moment ago) Give the host its limit back, unless
    another exit did."""
    try:
        limit = _host_limits.pop()
    except IndexError:
        return
    try:
        _setrecursionlimit(limit)
    except RecursionError:  # this thread is deeper than that: the next exit does it
        _host_limits.append(limit)


class DeepRecursion:
    """``with DeepRecursion():`` runs Scheme code outside a Budget (an embedder's
    ``Interpreter.eval_string``) with the recursion window open."""

    __slots__ = ()

    def __enter__(self) -> None:
        enter_deep_recursion()

    def __exit__(self, *exc) -> None:
        leave_deep_recursion()


deep_recursion = DeepRecursion()
