"""``async`` handlers: run in the background on a bounded pool; their answers are ignored.

A runtime that lives (a host, ``harness serve``) runs them on up to `limit` threads, and
refuses more than `limit` × 8 waiting ones (the refusal is reported, never silent). A
process that exits right after answering (``harness claude-hook``) cannot wait for them:
there the pool is `defer`-red, and `detach` hands what was deferred to one background
process (``python -m harness.handlers.detached``) that outlives it and runs them with the
home's own configuration. What an async handler answers goes nowhere; its failures are
logged (logger ``harness.handlers``; the detached process appends them to
``HOME/.cache/async-handlers.log``).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable

import orjson

__all__ = ["ASYNC_LIMIT", "AsyncPool"]


#: async handlers running at once, by default (caliban's ADR 0024)
ASYNC_LIMIT = 16
_QUEUE_FACTOR = 8


def logger():
    """The logger of async handler failures (logging is imported by the first message: a
    process whose handlers never fail in the background never needs it)."""
    import logging
    return logging.getLogger("harness.handlers")


class AsyncPool:
    """Background runs of async handlers, at most `limit` at a time."""

    def __init__(self, limit: int = ASYNC_LIMIT) -> None:
        self.limit = max(1, limit)
        self._lock = threading.Lock()
        self._executor = None  # a ThreadPoolExecutor, made (and imported) by the first job
        self._waiting = 0
        self._deferred: list[dict] | None = None

    def submit(self, run: Callable[[], None], job: dict) -> str | None:
        """Start `run` in the background (or keep `job`, its description, when deferred);
        the reason when the pool is full and it was not started."""
        with self._lock:
            if self._deferred is not None:
                self._deferred.append(job)
                return None
            if self._waiting >= self.limit * _QUEUE_FACTOR:
                return f"async handler not run: {self._waiting} are already waiting"
            if self._executor is None:
                from concurrent.futures import ThreadPoolExecutor
                self._executor = ThreadPoolExecutor(self.limit,
                                                    thread_name_prefix="harness-async")
            self._waiting += 1
        self._executor.submit(self._run, run)
        return None

    def _run(self, run: Callable[[], None]) -> None:
        try:
            run()
        except Exception:  # noqa: BLE001 - logged with its traceback, never silent
            logger().exception("async handler failed")
        finally:
            with self._lock:
                self._waiting -= 1

    def defer(self) -> None:
        """Keep async jobs instead of running them, for `detach` (a one-shot process)."""
        with self._lock:
            self._deferred = []

    def detach(self, home: str) -> bool:
        """Start one background process that runs the deferred jobs of `home`; True if
        there were any."""
        with self._lock:
            jobs, self._deferred = self._deferred or [], None
        if not jobs:
            return False
        import subprocess  # here: claude-hook detaches after every event, mostly with no job
        log_dir = os.path.join(home, ".cache")
        try:
            os.makedirs(log_dir, exist_ok=True)
            errors = open(os.path.join(log_dir, "async-handlers.log"), "ab")  # noqa: SIM115
        except OSError:
            errors = subprocess.DEVNULL
        try:
            child = subprocess.Popen(
                [sys.executable, "-m", "harness.handlers.detached"], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
                close_fds=True)
            child.stdin.write(orjson.dumps({"home": home, "jobs": jobs}))
            child.stdin.close()
        except OSError as exc:
            logger().warning("cannot start the background process for async handlers: %s",
                             exc)
            return False
        finally:
            if errors is not subprocess.DEVNULL:
                errors.close()
        child.returncode = 0  # it outlives us on purpose: no "still running" warning
        return True

    def close(self, wait: bool = False) -> None:
        """Stop taking jobs; with `wait`, let the running ones finish."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=not wait)
