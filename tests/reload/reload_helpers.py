"""Helpers for hot-reload tests: a live runtime over a temporary home, hook files whose
answer names their version, and the ways editors save a file."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

from harness.reload import Watcher
from harness.runtime import Runtime

PRE_TOOL = {"tool_name": "shell_exec", "arguments": {"command": "ls"}}


def blocking_hook(message: str) -> str:
    """A tool file whose pre_tool hook blocks every call with `message`."""
    return ("(register-hook 'pre_tool\n"
            f"  (lambda (payload) (list (cons \"block\" #t) (cons \"message\" \"{message}\"))))\n")


def verdict(rt: Runtime) -> str | None:
    """The message of the pre_tool block, or None when nothing blocks."""
    outcome = rt.fire("pre_tool", PRE_TOOL)["outcome"]
    return outcome["message"] if outcome["blocked"] else None


class Live:
    """A runtime over `home` with a started watcher that records every reported event."""

    def __init__(self, home: Path) -> None:
        self.rt = Runtime(home)
        self.watcher = Watcher(self.rt)
        self.events: list[dict] = []
        self.watcher.add_listener(self.events.append)
        self.watcher.start()
        self.settle()
        self.start_events = self.events[:]  # what starting reported (e.g. polling)
        self.events.clear()

    def settle(self) -> None:
        """Wait until every change made so far is live (fails the test on a timeout)."""
        assert self.watcher.wait_idle(10.0), "hot reload did not settle"

    def verdict(self) -> str | None:
        return verdict(self.rt)

    def kinds(self) -> list[tuple[str, str]]:
        """(event, file name) of each recorded event."""
        return [(e["event"], os.path.basename(e["path"])) for e in self.events]

    def stop(self) -> None:
        self.watcher.stop()


def watcher_threads() -> set[threading.Thread]:
    """Threads hot reload may start (worker, observer, emitters, inotify reader)."""
    return {t for t in threading.enumerate()
            if t.name == "harness-reload" or type(t).__module__.startswith("watchdog")}


# -- how editors save ---------------------------------------------------------------------
def save_in_place(path: Path, text: str) -> None:
    """Truncate and write (nano, many IDEs with safe-write off)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def save_atomic(path: Path, text: str) -> None:
    """Write a temporary file beside it, then os.replace (VS Code, JetBrains, atomicwrites)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def save_sed_style(path: Path, text: str) -> None:
    """`sed -i`: a temporary file with a plain name, renamed over the original."""
    tmp = path.parent / "sedAbC123"
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_vim_style(path: Path, text: str) -> None:
    """vim with backupcopy=no: probe with 4913, rename the original to `file~`, write a new
    file, delete the backup."""
    probe = path.parent / "4913"
    probe.write_text("")
    probe.unlink()
    backup = path.with_name(path.name + "~")
    os.rename(path, backup)
    path.write_text(text, encoding="utf-8")
    backup.unlink()


def save_emacs_style(path: Path, text: str) -> None:
    """Emacs: a `.#file` lock link, the original renamed to `file~`, a new file written."""
    lock = path.parent / f".#{path.name}"
    os.symlink("ada@host.1234:1700000000", lock)
    os.rename(path, path.with_name(path.name + "~"))
    path.write_text(text, encoding="utf-8")
    lock.unlink()


SAVE_STYLES = {"in_place": save_in_place, "atomic": save_atomic, "sed": save_sed_style,
               "vim": save_vim_style, "emacs": save_emacs_style}
