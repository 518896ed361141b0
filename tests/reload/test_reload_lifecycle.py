"""Starting and stopping hot reload, the polling fallback, and what listeners receive."""

from __future__ import annotations

import errno
import json
import time
from pathlib import Path

import pytest
from reload_helpers import blocking_hook, save_atomic, verdict, watcher_threads
from watchdog.observers import Observer

import harness.reload.observe
from harness.reload import Watcher
from harness.runtime import Runtime


class NoInotify(Observer):
    """An observer that fails to start like inotify at its instance limit."""

    def start(self) -> None:
        raise OSError(errno.EMFILE, "inotify instance limit reached")


class WatchLimitOnNewDirectories(Observer):
    """An observer that hits the watch limit when a directory is added while it runs."""

    def schedule(self, handler, path, **kwargs):
        if self.is_alive():
            raise OSError(errno.ENOSPC, "inotify watch limit reached")
        return super().schedule(handler, path, **kwargs)


def wait_until(predicate, timeout: float = 10.0) -> bool:
    """Poll `predicate` until it holds (for code paths without a watcher handle)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_runtime_watch_and_close(home: Path) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("v1"))
    before = watcher_threads()
    rt = Runtime(home, watch=True)
    assert len(watcher_threads() - before) >= 2  # the worker and the observer at least
    hook.write_text(blocking_hook("v2"))
    assert wait_until(lambda: verdict(rt) == "v2")
    rt.close()
    assert watcher_threads() <= before
    hook.write_text(blocking_hook("v3"))
    assert verdict(rt) == "v2"  # no longer watching


def test_falls_back_to_polling_when_inotify_is_unavailable(home: Path, live, monkeypatch
                                                           ) -> None:
    monkeypatch.setattr(harness.reload.observe, "Observer", NoInotify)
    monkeypatch.setattr(harness.reload.observe, "POLL_INTERVAL", 0.05)
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("v1"))
    lv = live()
    assert lv.watcher.polling
    (polling,) = lv.start_events
    assert polling["event"] == "polling" and "instance limit" in polling["error"]
    hook.write_text(blocking_hook("v2"))
    lv.settle()
    assert lv.verdict() == "v2"
    save_atomic(hook, blocking_hook("v3"))  # polling sees a rename-save as deleted + created
    lv.settle()
    assert lv.verdict() == "v3"
    hook.unlink()
    lv.settle()
    assert lv.verdict() is None
    assert [e["event"] for e in lv.events] == ["reloaded", "reloaded", "unloaded"]


def test_falls_back_to_polling_when_a_new_directory_hits_the_watch_limit(
        home: Path, live, monkeypatch) -> None:
    monkeypatch.setattr(harness.reload.observe, "Observer", WatchLimitOnNewDirectories)
    monkeypatch.setattr(harness.reload.observe, "POLL_INTERVAL", 0.05)
    (home / "tools").rmdir()
    lv = live()
    assert not lv.watcher.polling
    (home / "tools").mkdir()
    lv.settle()
    assert lv.watcher.polling and [e["event"] for e in lv.events] == ["polling"]
    (home / "tools" / "guard.scm").write_text(blocking_hook("polled"))
    lv.settle()
    assert lv.verdict() == "polled"


def test_events_are_json_and_a_failing_listener_does_not_stop_reloading(
        home: Path, live, caplog) -> None:
    lv = live()

    def broken(event: dict) -> None:
        raise RuntimeError("listener bug")

    lv.watcher.add_listener(broken)
    hook = home / "tools" / "guard.scm"
    with caplog.at_level("INFO", logger="harness.reload"):
        hook.write_text(blocking_hook("v1"))
        lv.settle()
        hook.write_text("(oops")
        lv.settle()
    assert lv.verdict() == "v1"
    assert [e["event"] for e in lv.events] == ["reloaded", "failed"]
    for event in lv.events:
        assert set(event) == {"event", "path", "error", "tools", "hooks"}
        assert json.loads(json.dumps(event)) == event
    messages = [r.getMessage() for r in caplog.records if r.name == "harness.reload"]
    assert any(m.startswith("reloaded ") for m in messages)
    assert any(m.startswith("failed ") and ":1:1:" in m for m in messages)
    assert any("listener" in m for m in messages)
    lv.watcher.remove_listener(broken)


def test_changes_made_before_start_are_picked_up(home: Path) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("loaded"))
    rt = Runtime(home)
    hook.write_text(blocking_hook("edited before watching"))
    watcher = Watcher(rt)
    watcher.start()
    try:
        assert watcher.wait_idle(10.0)
        assert verdict(rt) == "edited before watching"
    finally:
        watcher.stop()


@pytest.fixture(autouse=True)
def _no_leaked_threads():
    before = watcher_threads()
    yield
    assert watcher_threads() <= before
