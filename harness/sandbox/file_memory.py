"""What a tool file's code keeps in memory from one call to the next (issue 23, item 5).

A tier's ``memory_mb`` bounds how much the process may grow during one call; a file that
keeps 38 MB in a global at each dispatch stayed under it every time and took the host to
4.6 GB after 120 dispatches. So each call that measured its memory (a call that allocates
much, or runs long enough for the memory check: harness.scheme.limits) adds what the
process kept after it to its file's account; a file whose account passes its tier's
``memory_mb`` is unloaded and reported (Runtime.drop_file), and the host goes on. Loading
the file again (an edit, a reload) starts a fresh account.

What it cannot see: growth by small allocations in short calls (no call of them measures
its memory), and memory another thread allocated during a call is counted to it.
"""

from __future__ import annotations

import gc
import threading

from harness.scheme.limits import resident_bytes


class LiveMemory:
    """Bytes each file's calls kept, by file path."""

    def __init__(self) -> None:
        self._kept: dict[str, int] = {}
        self._lock = threading.Lock()

    def note(self, path: str, start: int | None, cap: int | None) -> str | None:
        """Count what a call of ``path`` kept since the process was ``start`` bytes
        resident (None: the call did not measure its memory). Returns why the file must
        be unloaded when its account passes ``cap``, else None."""
        if start is None or cap is None:
            return None
        grown = resident_bytes() - start
        with self._lock:
            kept = self._kept[path] = max(self._kept.get(path, 0) + grown, 0)
        if kept <= cap:
            return None
        before = resident_bytes()  # garbage is not kept memory: collect it, count again
        gc.collect()
        with self._lock:
            kept = self._kept[path] = max(kept - (before - resident_bytes()), 0)
        if kept <= cap:
            return None
        return (f"{path}: its code keeps {kept >> 20} MB from call to call, over the "
                f"memory limit of {cap >> 20} MB; the file is unloaded until it is loaded "
                "again")

    def forget(self, path: str) -> None:
        """``path`` was (re)loaded or removed: a fresh account."""
        with self._lock:
            self._kept.pop(path, None)
