"""Per-thread context of running Scheme code: which runtime, which file is loading, which
tier, which context name, which hook points are running (the re-entrancy guard).

It all lives in one slotted object per thread: one thread-local lookup, then plain slot
reads. The context managers are small classes rather than @contextmanager generators:
they sit on every dispatch, and a generator-based one costs several times more.
"""

from __future__ import annotations

import threading
from typing import Self

from harness.scheme.datatypes import String


class _ThreadContext:
    __slots__ = ("context_name", "load", "points", "runtime", "tier")

    def __init__(self) -> None:
        self.runtime = None
        self.tier: str | None = None
        # a Python str until Scheme reads it (most dispatches never do), then its String
        self.context_name: str | String = "default"
        self.load = None
        self.points: set[str] = set()


_local = threading.local()


def _context() -> _ThreadContext:
    try:
        return _local.context
    except AttributeError:
        _local.context = _ThreadContext()
        return _local.context


def current_runtime():
    return _context().runtime


def current_tier() -> str | None:
    """The tier of the Scheme code running on this thread (None outside Scheme calls)."""
    return _context().tier


def current_context_name() -> String:
    """The context of the running dispatch or tool call (Scheme's ``%context-name%``): one
    String for the whole dispatch, made when Scheme first asks for it."""
    context = _context()
    name = context.context_name
    if type(name) is str:
        name = context.context_name = String(name)
    return name


def current_load():
    """The ``LoadCollector`` of the file being loaded on this thread, or None."""
    return _context().load


class _Rebind:
    """Set an attribute of this thread's context for the extent of a ``with``; restore it
    after."""

    __slots__ = ("name", "previous", "value")

    def __init__(self, name: str, value) -> None:
        self.name = name
        self.value = value

    def __enter__(self):
        context = _context()
        self.previous = getattr(context, self.name)
        setattr(context, self.name, self.value)
        return self.value

    def __exit__(self, *exc) -> None:
        setattr(_context(), self.name, self.previous)


def using_runtime(runtime) -> _Rebind:
    return _Rebind("runtime", runtime)


def loading(collector) -> _Rebind:
    return _Rebind("load", collector)


def in_tier(tier: str) -> _Rebind:
    return _Rebind("tier", tier)


def running_points() -> set:
    """The hook points whose Scheme callbacks run on this thread (the re-entrancy guard)."""
    return _context().points


class dispatching:
    """The extent of one dispatch's Scheme callbacks on this thread: the runtime, the
    context name (a Python str) and ``point`` marked as running, set and restored together.
    Use ``set_tier`` on the object for each callback; the tier is restored on exit."""

    __slots__ = ("context", "context_name", "point", "previous", "runtime")

    def __init__(self, runtime, point: str, context_name: str) -> None:
        self.runtime = runtime
        self.point = point
        self.context_name = context_name

    def __enter__(self) -> Self:
        context = self.context = _context()
        self.previous = (context.runtime, context.context_name, context.tier)
        context.runtime = self.runtime
        context.context_name = self.context_name
        context.points.add(self.point)
        return self

    def set_tier(self, tier: str) -> None:
        self.context.tier = tier

    def __exit__(self, *exc) -> None:
        context = self.context
        context.runtime, context.context_name, context.tier = self.previous
        context.points.discard(self.point)
