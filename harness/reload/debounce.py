"""Per-key debouncing: keys wait for quiet, then a single worker takes the due ones."""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable

MAX_DELAY = 0.25  # a key touched non-stop is still taken this often


class PendingKeys:
    """Keys waiting for quiet. ``add`` (any thread) on every event; ``take_due`` (the one
    worker) blocks until some keys are due; ``wait_idle`` until none is pending and the
    worker has finished what it took."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._due: dict[Hashable, list[float]] = {}  # key -> [due time, latest due time]
        self._busy = False
        self._closed = False

    def add(self, key: Hashable, delay: float) -> None:
        """Make ``key`` due ``delay`` seconds from now (never later than MAX_DELAY after the
        first add since it was last taken)."""
        now = time.monotonic()
        with self._cond:
            entry = self._due.get(key)
            if entry is None:
                self._due[key] = [now + delay, now + max(delay, MAX_DELAY)]
            else:
                entry[0] = min(now + delay, entry[1])
            self._cond.notify_all()

    def take_due(self) -> list | None:
        """Block until some keys are due and return them; None once closed. Calling it again
        says the keys taken before are done."""
        with self._cond:
            self._busy = False
            self._cond.notify_all()
            while not self._closed:
                now = time.monotonic()
                due = [key for key, (when, _) in self._due.items() if when <= now]
                if due:
                    for key in due:
                        del self._due[key]
                    self._busy = True
                    return due
                soonest = min((when for when, _ in self._due.values()), default=None)
                self._cond.wait(None if soonest is None else soonest - now)
            return None

    def wait_idle(self, deadline: float) -> bool:
        """Wait (until the monotonic ``deadline``) for no key pending and the worker idle."""
        with self._cond:
            while self._due or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def close(self) -> None:
        """Drop what is pending and make ``take_due`` return None."""
        with self._cond:
            self._closed = True
            self._due.clear()
            self._cond.notify_all()
