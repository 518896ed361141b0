"""Per-thread context of running Scheme code: which runtime, which file is loading, which
hook points are running (the re-entrancy guard).

The context managers are small classes rather than @contextmanager generators: they sit
on every dispatch, and a generator-based one costs several times more.
"""

from __future__ import annotations

import threading

_local = threading.local()


def current_runtime():
    return getattr(_local, "runtime", None)


def current_tier() -> str | None:
    """The tier of the Scheme code running on this thread (None outside Scheme calls)."""
    return getattr(_local, "tier", None)


def current_context_name():
    """The context of the running dispatch or tool call (Scheme's ``%context-name%``)."""
    name = getattr(_local, "context_name", None)
    if name is None:
        from harness.scheme.datatypes import String
        name = _local.context_name = String("default")
    return name


def current_load():
    """The ``LoadCollector`` of the file being loaded on this thread, or None."""
    return getattr(_local, "load", None)


class _Rebind:
    """Set a thread-local attribute for the extent of a ``with``; restore it after."""

    __slots__ = ("name", "previous", "value")

    def __init__(self, name: str, value) -> None:
        self.name = name
        self.value = value

    def __enter__(self):
        self.previous = getattr(_local, self.name, None)
        setattr(_local, self.name, self.value)
        return self.value

    def __exit__(self, *exc) -> None:
        setattr(_local, self.name, self.previous)


def using_runtime(runtime) -> _Rebind:
    return _Rebind("runtime", runtime)


def loading(collector) -> _Rebind:
    return _Rebind("load", collector)


def in_tier(tier: str) -> _Rebind:
    return _Rebind("tier", tier)


def in_context(name) -> _Rebind:
    """Set %context-name% (a Scheme String) for the extent of a ``with``."""
    return _Rebind("context_name", name)


def running_points() -> set:
    try:
        return _local.points
    except AttributeError:
        _local.points = set()
        return _local.points


class running_point:
    """Mark ``point``'s Scheme callbacks as running on this thread."""

    __slots__ = ("point", "points")

    def __init__(self, point: str) -> None:
        self.point = point

    def __enter__(self) -> None:
        self.points = running_points()
        self.points.add(self.point)

    def __exit__(self, *exc) -> None:
        self.points.discard(self.point)
