"""Hot reload: watch a home's ``tools/``, ``plugins/`` and ``harness.toml``; apply changes live.

Three steps, each on its own thread:

- **watch** (the watchdog observer thread): directories are watched, never single files —
  HOME (for ``harness.toml`` and for ``tools/`` or ``plugins/`` appearing or going away),
  HOME/tools/ (recursive) and HOME/plugins/. The handler only turns an event into a pending
  key (``("file", path)``, ``("tree", dir)``, ``("plugins", dir)``, ``("config", path)``);
  both ends of a move count, so a rename into ``X.scm`` touches X and a rename away too.
- **debounce**: a key waits until no event touched it for DEBOUNCE seconds (at most
  MAX_DELAY after its first event), so the several events of one editor save make one reload.
- **apply** (the worker thread): looks at the file system *now*, not at the events, and makes
  the runtime agree: a tool file that exists is loaded (unless its content is unchanged), one
  that is gone is unloaded; a directory is re-synchronised as a whole; a plugins change
  re-reads the plugins; a ``harness.toml`` change re-reads the config and reloads the tool
  files whose tier changed. ``Runtime.load_file`` swaps a file's registrations in one step
  and keeps the last good version when the new one fails.

Every change is logged (logger ``harness.reload``) and sent to listeners as a
JSON-serialisable dict: ``{"event": "reloaded"|"unloaded"|"failed"|"plugins"|"config"|
"polling", "path", "error", "tools", "hooks"}`` where ``tools``/``hooks`` are what is live for
that path after the event. Where inotify is unavailable or its limits are hit, the watcher
falls back to polling and says so once.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

from harness.config import ConfigError, load_config

__all__ = ["Watcher", "is_editor_dropping"]

log = logging.getLogger("harness.reload")

DEBOUNCE = 0.025  # seconds of quiet per path before it reloads: one editor save = one reload
MAX_DELAY = 0.25  # a path edited non-stop still reloads this often
POLL_INTERVAL = 0.5  # seconds between scans when inotify is unavailable
#: the events that can change what a home means (opened/closed-without-write never do)
WATCHED_EVENTS = [FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent,
                  FileClosedEvent, FileAttribEvent, DirCreatedEvent, DirDeletedEvent,
                  DirMovedEvent]
_BARRIER = ".harness-reload-barrier-"  # wait_idle's marker files (dot files: never loaded)
_APPLY_ORDER = {"config": 0, "plugins": 1, "tree": 2, "file": 3}  # tiers before tool files

Listener = Callable[[dict], None]
Key = tuple[str, str]


def is_editor_dropping(name: str) -> bool:
    """True for names editors leave beside real files: backups (``x~``), lock and dot files
    (``.#x``, ``.x.swp``), vim's write test ``4913``, ``*.swp`` and ``*.tmp``."""
    return (name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp"))
            or name == "4913")


def content_digest(path: str) -> str | None:
    """The digest the loader records for ``path`` (sha256 of its text); None if it is gone."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except OSError as exc:  # unreadable: let the loader try and report why
        return f"unreadable:{exc.errno}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def tool_files_under(directory: str) -> list[str]:
    """The ``.scm`` files under ``directory``, editor droppings and dot directories skipped."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not is_editor_dropping(d))
        found.extend(os.path.join(root, f) for f in sorted(files)
                     if f.endswith(".scm") and not is_editor_dropping(f))
    return found


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


class _EventRouter(FileSystemEventHandler):
    """Runs on the observer thread: hands both paths of each event to the watcher."""

    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.watcher.note(os.fsdecode(event.src_path), event.is_directory)
        if event.event_type == "moved" and event.dest_path:
            self.watcher.note(os.fsdecode(event.dest_path), event.is_directory)


class Watcher:
    """Hot reload for one runtime: ``start()``, ``stop()``, ``add_listener(callback)``,
    ``wait_idle(timeout)``. Not restartable: make a new one after ``stop()``."""

    def __init__(self, runtime) -> None:
        self.runtime = runtime
        self.home = str(runtime.home)
        self.tools_dir = str(runtime.tools_dir)
        self.plugins_dir = str(runtime.plugins.plugins_dir)
        self.config_file = os.path.join(self.home, "harness.toml")
        self.polling = False
        self._listeners: list[Listener] = []
        self._cond = threading.Condition()
        self._pending: dict[Key, list[float]] = {}  # key -> [due time, latest due time]
        self._busy = False
        self._stopping = False
        self._barriers: dict[str, bool] = {}  # wait_idle token -> seen
        self._applied: dict[str, str] = {}  # tool file -> digest of the content last loaded
        self._router = _EventRouter(self)
        self._observer = None
        self._watches: dict[str, tuple[object, int | None]] = {}  # dir -> (watch, inode)
        self._worker = threading.Thread(target=self._run, name="harness-reload", daemon=True)

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> None:
        """Start watching (polling if inotify fails) and applying changes. Changes made since
        the runtime loaded its files are picked up by an initial re-synchronisation."""
        registry = self.runtime.registry
        self._applied = {f.path: f.digest for f in registry.files}
        for path in self.runtime.load_errors:  # failed at start-up: no need to say it twice
            self._applied[path] = content_digest(path) or ""
        try:
            self._observer = Observer()
            self._sync_watches()
            self._observer.start()
        except OSError as exc:  # no inotify, or its watch / instance limit is reached
            self._fall_back_to_polling(exc)
        self._worker.start()
        self._enqueue(("tree", self.tools_dir), delay=0.0)

    def stop(self) -> None:
        """Stop applying and watching; joins the worker and the observer threads (a load in
        progress finishes first). Pending changes are dropped."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._worker.is_alive():
            self._worker.join()
        if self._observer is not None:
            self._dispose(self._observer)
            self._observer = None
        self._watches.clear()

    def add_listener(self, callback: Listener) -> None:
        """Call ``callback(event_dict)`` (on the worker thread) for every reported change."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(callback)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every change made before this call has been applied; False on timeout.

        It drops a marker dot file into each watched directory, twice, and waits to see them
        come through the observer (the second round proves every event queued with the first
        was handed over: a polling scan queues its events in any order), then waits until no
        key is pending and the worker is idle."""
        deadline = time.monotonic() + timeout
        for _round in range(2):
            if not self._barrier_round(deadline):
                return False
        with self._cond:
            while self._pending or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    # -- watching (observer thread, and the worker when directories come and go) ------------
    def note(self, path: str, is_directory: bool) -> None:
        """Record one event path (called by the observer thread; never loads anything)."""
        name = os.path.basename(path)
        if name.startswith(_BARRIER):
            with self._cond:
                token = name[len(_BARRIER):]
                if token in self._barriers:
                    self._barriers[token] = True
                    self._cond.notify_all()
            return
        key = self._key_for(path, is_directory)
        if key is not None:
            self._enqueue(key)

    def _key_for(self, path: str, is_directory: bool) -> Key | None:
        if path == self.config_file:
            return ("config", path)
        if path == self.tools_dir:
            return ("tree", path)
        if path == self.plugins_dir:
            return ("plugins", path)
        for root in (self.tools_dir, self.plugins_dir):
            if path.startswith(root + os.sep):
                parts = path[len(root) + 1:].split(os.sep)
                if any(is_editor_dropping(part) for part in parts):
                    return None
                if root == self.plugins_dir:
                    return ("plugins", root)
                if is_directory:
                    return ("tree", path)
                return ("file", path) if path.endswith(".scm") else None
        return None

    def _sync_watches(self) -> None:
        """Watch exactly the directories that exist now; a directory replaced by another one
        (same path, new inode) is watched afresh (inotify follows the moved-away one)."""
        wanted = [(self.home, False), (self.tools_dir, True), (self.plugins_dir, True)]
        wanted = [(path, recursive) for path, recursive in wanted if os.path.isdir(path)]
        inodes = {path: _inode(path) for path, _ in wanted}
        for path, (watch, inode) in list(self._watches.items()):
            if inodes.get(path, -1) != inode:
                with contextlib.suppress(KeyError):
                    self._observer.unschedule(watch)
                del self._watches[path]
        for path, recursive in wanted:
            if path not in self._watches:
                watch = self._observer.schedule(self._router, path, recursive=recursive,
                                                event_filter=WATCHED_EVENTS)
                self._watches[path] = (watch, inodes[path])

    def _fall_back_to_polling(self, exc: OSError) -> None:
        if self._observer is not None:
            self._dispose(self._observer)
        self._watches.clear()
        self._observer = PollingObserver(timeout=POLL_INTERVAL)
        self.polling = True
        self._sync_watches()
        self._observer.start()
        self._report("polling", self.home, error=f"inotify unavailable ({exc}); polling "
                                                 f"every {POLL_INTERVAL:g} s")

    @staticmethod
    def _dispose(observer) -> None:
        observer.stop()  # also stops and joins its emitters, even if start() failed half-way
        if observer.is_alive():
            observer.join()

    # -- debouncing ----------------------------------------------------------------------------
    def _enqueue(self, key: Key, delay: float = DEBOUNCE) -> None:
        now = time.monotonic()
        with self._cond:
            entry = self._pending.get(key)
            if entry is None:
                self._pending[key] = [now + delay, now + max(delay, MAX_DELAY)]
            else:
                entry[0] = min(now + delay, entry[1])
            self._cond.notify_all()

    def _take_due(self) -> list[Key] | None:
        """Block until some keys are due and return them (None when stopping)."""
        with self._cond:
            self._busy = False
            self._cond.notify_all()
            while not self._stopping:
                now = time.monotonic()
                due = [key for key, (when, _) in self._pending.items() if when <= now]
                if due:
                    for key in due:
                        del self._pending[key]
                    self._busy = True
                    return due
                soonest = min((when for when, _ in self._pending.values()), default=None)
                self._cond.wait(None if soonest is None else soonest - now)
            return None

    def _barrier_round(self, deadline: float) -> bool:
        markers = {}
        for directory in list(self._watches):
            token = uuid.uuid4().hex
            path = os.path.join(directory, _BARRIER + token)
            with self._cond:
                self._barriers[token] = False
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                markers[token] = path
            except OSError:  # read-only or vanished directory: nothing to wait for there
                with self._cond:
                    del self._barriers[token]
        try:
            with self._cond:
                while not all(self._barriers[t] for t in markers):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    self._cond.wait(remaining)
            return True
        finally:
            for token, path in markers.items():
                with contextlib.suppress(OSError):
                    os.unlink(path)
                with self._cond:
                    self._barriers.pop(token, None)

    # -- applying (worker thread) --------------------------------------------------------------
    def _run(self) -> None:
        while (due := self._take_due()) is not None:
            for kind, path in sorted(due, key=lambda key: (_APPLY_ORDER[key[0]], key[1])):
                try:
                    {"config": self._reload_config, "plugins": self._reload_plugins,
                     "tree": self._resync_tree, "file": self._reload_file}[kind](path)
                except OSError as exc:
                    if kind in ("tree", "plugins") and not self.polling:
                        self._fall_back_to_polling(exc)  # e.g. the watch limit, on a new dir
                    else:
                        self._report("failed", path, error=str(exc))
                except Exception as exc:  # noqa: BLE001 - the worker must outlive any bug
                    log.exception("hot reload of %s failed", path)
                    self._report("failed", path, error=f"{type(exc).__name__}: {exc}")

    def _reload_file(self, path: str, force: bool = False) -> None:
        digest = content_digest(path)
        if digest is None:
            self._applied.pop(path, None)
            had_error = path in self.runtime.load_errors
            if self.runtime.unload_file(path) or had_error:
                self._report("unloaded", path)
            return
        if not force and self._applied.get(path) == digest:
            return  # touched, or saved without a change
        self._applied[path] = digest
        error = self.runtime.load_file(path)
        self._report("failed" if error else "reloaded", path, error=error)

    def _resync_tree(self, directory: str) -> None:
        if directory == self.tools_dir:
            self._sync_watches()
        inside = directory + os.sep
        known = set(self._applied) | set(self.runtime.load_errors)
        known.update(f.path for f in self.runtime.registry.files)
        known = {p for p in known if p.startswith(inside)
                 and not any(is_editor_dropping(part) for part in p[len(inside):].split(os.sep))}
        for path in sorted(known | set(tool_files_under(directory))):
            if self._stopping:
                return
            self._reload_file(path)

    def _reload_plugins(self, directory: str) -> None:
        self._sync_watches()
        plugins = self.runtime.plugins
        plugins.reload()
        problems = "; ".join(f"{p['source']}: {p['message']}" for p in plugins.problems)
        self._report("plugins", directory, error=problems or None,
                     tools=[schema["name"] for schema in plugins.tools()],
                     hooks=sorted({point for p in plugins.plugins for point in p.hooks}))

    def _reload_config(self, path: str) -> None:
        try:
            config = load_config(Path(path))
        except ConfigError as exc:
            self._report("failed", path, error=f"{exc} (keeping the previous configuration)")
            return
        runtime = self.runtime
        if config == runtime.config:
            return
        runtime.config = config
        runtime.plugins.hook_timeout = config.hook_timeout
        runtime.plugins.tool_timeout = config.tool_timeout
        runtime.plugins.cache.timeout = config.schema_timeout
        self._report("config", path)
        for file in tool_files_under(self.tools_dir):  # limits apply per call; tiers per load
            reg = runtime.registry.get(file)
            if (reg is None or file in runtime.load_errors
                    or reg.tier != runtime.tier_of(Path(file))):
                self._reload_file(file, force=True)

    # -- reporting ---------------------------------------------------------------------------------
    def _report(self, event: str, path: str, error: str | None = None,
                tools: list[str] | None = None, hooks: list[str] | None = None) -> None:
        if event in ("reloaded", "unloaded", "failed") and tools is None:
            reg = self.runtime.registry.get(path)
            tools = [t.name for t in reg.tools] if reg else []
            hooks = [h.point for h in reg.hooks] if reg else []
        message = {"event": event, "path": path, "error": error, "tools": list(tools or ()),
                   "hooks": list(hooks or ())}
        if error is not None:
            log.warning("%s %s: %s", event, path, error)
        else:
            log.info("%s %s (tools: %s; hooks: %s)", event, path,
                     ", ".join(message["tools"]) or "-", ", ".join(message["hooks"]) or "-")
        for listener in list(self._listeners):
            try:
                listener(message)
            except Exception:  # noqa: BLE001 - a broken listener must not stop reloading
                log.exception("hot reload listener %r failed", listener)
