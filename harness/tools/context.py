"""Per-thread context of running Scheme code: which runtime, which file is loading, which
hook points are running (the re-entrancy guard)."""

from __future__ import annotations

import threading
from contextlib import contextmanager

_local = threading.local()


def current_runtime():
    return getattr(_local, "runtime", None)


def current_load():
    """The ``LoadCollector`` of the file being loaded on this thread, or None."""
    return getattr(_local, "load", None)


@contextmanager
def using_runtime(runtime):
    previous = getattr(_local, "runtime", None)
    _local.runtime = runtime
    try:
        yield
    finally:
        _local.runtime = previous


@contextmanager
def loading(collector):
    previous = getattr(_local, "load", None)
    _local.load = collector
    try:
        yield
    finally:
        _local.load = previous


def running_points() -> set:
    try:
        return _local.points
    except AttributeError:
        _local.points = set()
        return _local.points


@contextmanager
def running_point(point: str):
    """Mark ``point``'s Scheme callbacks as running on this thread."""
    points = running_points()
    points.add(point)
    try:
        yield
    finally:
        points.discard(point)
