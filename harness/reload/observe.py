"""The watchdog side of hot reload: which directories of a home are watched, what an event
means (a key for the debouncer), and the fallback to polling."""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from collections.abc import Callable

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

from harness.reload.files import is_editor_dropping, is_skipped_name, is_tool_path

DEBOUNCE = 0.025  # seconds of quiet per path before it reloads: one editor save = one reload
SETTLE = 0.005  # the shorter wait after an event that ends a save (closed, renamed onto)
POLL_INTERVAL = 0.5  # seconds between scans when inotify is unavailable
#: the events that can change what a home means (opened/closed-without-write never do)
WATCHED_EVENTS = [FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent,
                  FileClosedEvent, FileAttribEvent, DirCreatedEvent, DirDeletedEvent,
                  DirMovedEvent]
_MARKER = ".harness-reload-marker-"  # flush()'s marker files (dot files: never loaded)

Key = tuple[str, str]  # ("file" | "tree" | "plugins" | "config" | "handlers", path)


class _EventRouter(FileSystemEventHandler):
    """Runs on the observer thread: hands both paths of each event of one watch to the
    HomeObserver, under the directory's own name (``real`` is where a symlink leads)."""

    def __init__(self, observer: HomeObserver, real: str, logical: str) -> None:
        self.observer, self.real, self.logical = observer, real, logical

    def on_any_event(self, event: FileSystemEvent) -> None:
        # a closed writer or a rename onto the path ends a save: no need to wait for more
        finished = event.event_type == "closed"
        self.observer.note(self._logical(event.src_path), event.is_directory, finished)
        if event.event_type == "moved" and event.dest_path:
            self.observer.note(self._logical(event.dest_path), event.is_directory, True)

    def _logical(self, path: bytes | str) -> str:
        path = os.fsdecode(path)
        if path == self.real or path.startswith(self.real + os.sep):
            return self.logical + path[len(self.real):]
        return path


class HomeObserver:
    """Watches HOME (not recursive), HOME/tools/ and the plugins directory (recursive), and
    the directories of the declared handlers' source files (``handler_files()``: hooks.toml
    and Claude Code settings files, which may live anywhere), and calls
    ``on_key(key, delay)`` for each event that matters. ``on_polling(message)`` is called
    once if inotify fails and polling takes over."""

    def __init__(self, home: str, tools_dir: str, plugins_dir: str,
                 on_key: Callable[[Key, float], None],
                 on_polling: Callable[[str], None],
                 handler_files: Callable[[], list[str]] = list) -> None:
        self.home, self.tools_dir, self.plugins_dir = home, tools_dir, plugins_dir
        self.config_file = os.path.join(home, "harness.toml")
        self.handler_files = handler_files
        self.on_key, self.on_polling = on_key, on_polling
        self.polling = False
        self._observer = None
        self._watches: dict[str, tuple] = {}  # dir -> (watch, inode, real path)
        self._markers: dict[str, bool] = {}  # flush() token -> seen
        self._markers_seen = threading.Condition()

    def start(self) -> None:
        """Start watching; falls back to polling when inotify is unavailable or full."""
        try:
            self._observer = Observer()
            self._sync()
            self._observer.start()
        except OSError as exc:  # no inotify, or its watch / instance limit is reached
            self._fall_back_to_polling(exc)

    def stop(self) -> None:
        """Stop watching; the observer thread and its emitters are joined."""
        if self._observer is not None:
            self._dispose(self._observer)
            self._observer = None
        self._watches.clear()

    def sync(self) -> None:
        """Watch exactly the directories that exist now (call when tools/ or plugins/ may have
        come or gone); falls back to polling if a new watch hits the inotify limit."""
        try:
            self._sync()
        except FileNotFoundError:
            pass  # it vanished meanwhile: the event saying so follows
        except OSError as exc:
            if self.polling:
                raise
            self._fall_back_to_polling(exc)

    # -- events (observer thread) -----------------------------------------------------------
    def note(self, path: str, is_directory: bool, finished: bool = False) -> None:
        """Record one event path; ``finished``: the event ends a save (a writer closed the
        file, or a rename landed on it). Never loads anything."""
        name = os.path.basename(path)
        if name.startswith(_MARKER):
            with self._markers_seen:
                token = name[len(_MARKER):]
                if token in self._markers:
                    self._markers[token] = True
                    self._markers_seen.notify_all()
            return
        key = self.key_for(path, is_directory)
        if key is not None:
            self.on_key(key, SETTLE if finished else DEBOUNCE)

    def key_for(self, path: str, is_directory: bool) -> Key | None:
        """What an event on ``path`` asks for, or None when it does not matter."""
        if path == self.config_file:
            return ("config", path)
        if not is_directory and path in self.handler_files():
            return ("handlers", path)
        if path == self.tools_dir:
            return ("tree", path)
        if path == self.plugins_dir:
            return ("plugins", path)
        if path.startswith(self.plugins_dir + os.sep):
            relative = path[len(self.plugins_dir) + 1:]
            dropping = any(is_editor_dropping(p) for p in relative.split(os.sep))
            return None if dropping else ("plugins", self.plugins_dir)
        if path.startswith(self.tools_dir + os.sep):
            relative = path[len(self.tools_dir) + 1:]
            if is_directory:
                skipped = any(is_skipped_name(p) for p in relative.split(os.sep))
                return None if skipped else ("tree", path)
            return ("file", path) if is_tool_path(relative) else None
        return None

    # -- flushing ----------------------------------------------------------------------------
    def flush(self, deadline: float) -> bool:
        """Return once every event that happened before the call has been noted (False at the
        monotonic ``deadline``). Drops a marker dot file into each watched directory, twice,
        and waits to see them come through: the second round proves every event queued with
        the first was handed over (a polling scan queues its events in any order)."""
        return self._marker_round(deadline) and self._marker_round(deadline)

    def _marker_round(self, deadline: float) -> bool:
        markers = {}  # token -> (marker path, the watch that should report it)
        for watch, _ino, directory in list(self._watches.values()):  # where events come from
            token = uuid.uuid4().hex
            path = os.path.join(directory, _MARKER + token)
            with self._markers_seen:
                self._markers[token] = False
            try:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                markers[token] = (path, watch)
            except OSError:  # read-only or vanished directory: nothing to wait for there
                with self._markers_seen:
                    del self._markers[token]
        try:
            with self._markers_seen:
                # a watch dropped meanwhile (directory replaced) never reports its marker; the
                # re-synchronisation that dropped it is itself pending work
                while not all(self._markers[t] or not self._is_watching(watch)
                              for t, (_path, watch) in markers.items()):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        return False
                    self._markers_seen.wait(remaining)
            return True
        finally:
            for token, (path, _watch) in markers.items():
                with contextlib.suppress(OSError):
                    os.unlink(path)
                with self._markers_seen:
                    self._markers.pop(token, None)

    # -- watches -------------------------------------------------------------------------------
    def _is_watching(self, watch: object) -> bool:
        return any(w is watch for w, _ino, _real in list(self._watches.values()))

    def _sync(self) -> None:
        # a directory replaced by another one (same path, new inode, or a symlink pointed
        # elsewhere) is watched afresh: inotify keeps following the moved-away one. A symlinked
        # directory is watched where it leads (inotify would watch the link itself).
        wanted = [(self.home, False), (self.tools_dir, True), (self.plugins_dir, True)]
        wanted += [(folder, False) for folder in sorted({os.path.dirname(f) for f in
                                                         self.handler_files()})
                   if folder not in (self.home, self.tools_dir, self.plugins_dir)]
        wanted = [(path, recursive) for path, recursive in wanted if os.path.isdir(path)]
        inodes = {path: _inode(path) for path, _ in wanted}
        for path, (watch, inode, _real) in list(self._watches.items()):
            if inodes.get(path, -1) != inode:
                with contextlib.suppress(KeyError):
                    self._observer.unschedule(watch)
                del self._watches[path]
        for path, recursive in wanted:
            if path not in self._watches:
                real = os.path.realpath(path)
                watch = self._observer.schedule(_EventRouter(self, real, path), real,
                                                recursive=recursive,
                                                event_filter=WATCHED_EVENTS)
                self._watches[path] = (watch, inodes[path], real)
        with self._markers_seen:
            self._markers_seen.notify_all()  # flush() may be waiting on a dropped watch

    def _fall_back_to_polling(self, exc: OSError) -> None:
        if self._observer is not None:
            self._dispose(self._observer)
        self._watches.clear()
        self._observer = PollingObserver(timeout=POLL_INTERVAL)
        self.polling = True
        self._sync()
        self._observer.start()
        self.on_polling(f"inotify unavailable ({exc}); polling every {POLL_INTERVAL:g} s")

    @staticmethod
    def _dispose(observer) -> None:
        observer.stop()  # also stops and joins its emitters, even if start() failed half-way
        if observer.is_alive():
            observer.join()


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None
