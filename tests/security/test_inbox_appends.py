"""An inbox append is all or nothing (issue 23, item 12): with the disk full, a failed
``send_message`` leaves no part of its record, and the next message is read whole."""

from __future__ import annotations

import resource
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime
from security_helpers import run_forked

from harness.builtins.messages import inbox_messages


def test_a_message_that_does_not_fit_leaves_nothing_behind(tmp_path):
    home = make_home(tmp_path)

    def task() -> dict:
        rt = runtime(home)
        first = rt.call_tool("send_message", {"to": "bob", "content": "hello"})
        inbox = home / "vfs" / "home" / "bob" / "inbox.jsonl"
        size = inbox.stat().st_size
        # the disk is full 40 bytes on: a write past it fails (EFBIG) after writing some
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, resource.RLIM_INFINITY))
        failed = rt.call_tool("send_message", {"to": "bob", "content": "x" * 500})
        size_after_failure = inbox.stat().st_size
        resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        rt.call_tool("send_message", {"to": "bob", "content": "after"})
        return {"first": first.output, "failed": failed.output, "size": size,
                "size_after_failure": size_after_failure,
                "contents": [m["content"] for m in inbox_messages(rt.vfs, "bob")]}

    run = run_forked(task, timeout=30)
    assert run.status == "ok", run.describe()
    value = run.value
    assert value["failed"].startswith("Error delivering message:"), value["failed"]
    assert value["size_after_failure"] == value["size"]
    assert value["contents"] == ["hello", "after"]


def test_a_record_left_unfinished_by_a_crash_does_not_swallow_the_next(tmp_path):
    home = make_home(tmp_path)
    rt = runtime(home)
    rt.call_tool("send_message", {"to": "bob", "content": "hello"})
    inbox = home / "vfs" / "home" / "bob" / "inbox.jsonl"
    with inbox.open("ab") as f:
        f.write(b'{"from": "default", "to": "bob", "cont')  # a crash mid-append
    rt.call_tool("send_message", {"to": "bob", "content": "after"})
    assert [m["content"] for m in inbox_messages(rt.vfs, "bob")] == ["hello", "after"]
