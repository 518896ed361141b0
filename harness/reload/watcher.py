"""``Watcher``: hot reload for one runtime — observer, debouncer and worker wired together."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TYPE_CHECKING

from harness.reload.apply import Listener, Reloader
from harness.reload.debounce import PendingKeys
from harness.reload.observe import HomeObserver

if TYPE_CHECKING:
    from harness.runtime import Runtime

# tiers before tool files; [hooks] before the handler sources it names
_APPLY_ORDER = {"config": 0, "handlers": 1, "plugins": 2, "tree": 3, "file": 4}


class Watcher:
    """Hot reload for one runtime: ``start()``, ``stop()``, ``add_listener(callback)``,
    ``wait_idle(timeout)``. Not restartable: make a new one after ``stop()``."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.home = str(runtime.home)
        self.tools_dir = str(runtime.tools_dir)
        self.pending = PendingKeys()
        self.observer = HomeObserver(self.home, self.tools_dir,
                                     str(runtime.plugins.plugins_dir),
                                     on_key=self.pending.add, on_polling=self._polling,
                                     handler_files=runtime.handlers.source_paths)
        self.reloader = Reloader(runtime, sync_watches=self.observer.sync)
        self._worker = threading.Thread(target=self._run, name="harness-reload", daemon=True)

    @property
    def polling(self) -> bool:
        """True when inotify was unavailable and the home is polled instead."""
        return self.observer.polling

    def start(self) -> None:
        """Start watching and applying. Changes made since the runtime loaded its files are
        picked up by an initial re-synchronisation of tools/."""
        self.reloader.seed()
        self.observer.start()
        self._worker.start()
        self.pending.add(("tree", self.tools_dir), 0.0)

    def stop(self) -> None:
        """Stop applying and watching; joins the worker and the observer threads (a load in
        progress finishes first). Pending changes are dropped."""
        self.reloader.stopping = True
        self.pending.close()
        if self._worker.is_alive():
            self._worker.join()
        self.observer.stop()

    def add_listener(self, callback: Listener) -> None:
        """Call ``callback(event_dict)`` on the worker thread for every reported change."""
        self.reloader.listeners.append(callback)

    def remove_listener(self, callback: Listener) -> None:
        with contextlib.suppress(ValueError):
            self.reloader.listeners.remove(callback)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every change made before this call has been applied; False on timeout.
        (It drops and removes marker dot files in the watched directories; see
        HomeObserver.flush.)"""
        deadline = time.monotonic() + timeout
        return self.observer.flush(deadline) and self.pending.wait_idle(deadline)

    def _polling(self, message: str) -> None:
        self.reloader.report("polling", self.home, error=message)

    def _run(self) -> None:
        while (due := self.pending.take_due()) is not None:
            for kind, path in sorted(due, key=lambda key: (_APPLY_ORDER[key[0]], key[1])):
                if not self.reloader.stopping:
                    self.reloader.apply(kind, path)
