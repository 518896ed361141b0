"""Editing tool files while the runtime runs: every way of saving, creating, deleting and
renaming makes the change live once; broken edits keep the last good version."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from reload_helpers import SAVE_STYLES, blocking_hook


@pytest.mark.parametrize("style", sorted(SAVE_STYLES))
def test_each_save_style_reloads_once(home: Path, live, style: str) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("v1"))
    lv = live()
    assert lv.verdict() == "v1"
    SAVE_STYLES[style](hook, blocking_hook("v2"))
    lv.settle()
    assert lv.verdict() == "v2"
    assert lv.kinds() == [("reloaded", "guard.scm")]
    assert lv.events[0]["hooks"] == ["pre_tool"] and lv.events[0]["error"] is None


def test_create_and_delete(home: Path, live) -> None:
    lv = live()
    assert lv.verdict() is None
    hook = home / "tools" / "new.scm"
    hook.write_text(blocking_hook("created"))
    lv.settle()
    assert lv.verdict() == "created"
    hook.unlink()
    lv.settle()
    assert lv.verdict() is None
    assert lv.kinds() == [("reloaded", "new.scm"), ("unloaded", "new.scm")]
    assert lv.rt.hooks() == []


def test_rename_away_and_back(home: Path, live) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("here"))
    lv = live()
    parked = hook.with_name("guard.scm.off")
    os.rename(hook, parked)  # a rename away from .scm is a delete
    lv.settle()
    assert lv.verdict() is None
    os.rename(parked, hook)  # and a rename into .scm is a create
    lv.settle()
    assert lv.verdict() == "here"
    outside = home / "guard.scm"
    os.rename(hook, outside)  # out of the watched tree altogether
    lv.settle()
    assert lv.verdict() is None
    os.rename(outside, hook)
    lv.settle()
    assert lv.verdict() == "here"
    assert lv.kinds() == [("unloaded", "guard.scm"), ("reloaded", "guard.scm")] * 2


def test_rename_to_another_name_moves_the_registration(home: Path, live) -> None:
    old = home / "tools" / "a.scm"
    old.write_text(blocking_hook("moved"))
    lv = live()
    os.rename(old, home / "tools" / "b.scm")
    lv.settle()
    assert lv.verdict() == "moved"
    assert [h["source"].split(":")[1] for h in lv.rt.hooks()] == ["tools/b.scm"]


def test_broken_edit_keeps_the_last_good_version_until_fixed(home: Path, live) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("good"))
    lv = live()
    hook.write_text(blocking_hook("broken") + "(define (oops)\n")
    lv.settle()
    assert lv.verdict() == "good"  # the old hook keeps answering
    (failed,) = lv.events
    assert failed["event"] == "failed" and failed["hooks"] == ["pre_tool"]
    assert re.match(re.escape(str(hook)) + r":\d+:\d+: ", failed["error"])
    assert str(hook) in lv.rt.load_errors
    hook.write_text(blocking_hook("fixed"))
    lv.settle()
    assert lv.verdict() == "fixed"
    assert lv.kinds()[-1] == ("reloaded", "guard.scm") and not lv.rt.load_errors


def test_runtime_error_while_loading_reports_its_place(home: Path, live) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("good"))
    lv = live()
    hook.write_text(blocking_hook("bad") + "(car '())\n")
    lv.settle()
    assert lv.verdict() == "good"
    assert re.match(re.escape(str(hook)) + r":3:\d+: ", lv.events[0]["error"])


def test_unchanged_content_and_touch_do_not_reload(home: Path, live) -> None:
    hook = home / "tools" / "guard.scm"
    hook.write_text(blocking_hook("same"))
    lv = live()
    hook.write_text(blocking_hook("same"))
    os.utime(hook)
    lv.settle()
    assert lv.events == [] and lv.verdict() == "same"


def test_editor_droppings_are_ignored(home: Path, live) -> None:
    lv = live()
    tools = home / "tools"
    for name in (".#guard.scm", "guard.scm~", "4913", "guard.scm.swp", ".guard.scm.swp",
                 "guard.scm.tmp", ".hidden.scm"):
        (tools / name).write_text(blocking_hook(name))
    (tools / ".git").mkdir()
    (tools / ".git" / "x.scm").write_text(blocking_hook("git"))
    lv.settle()
    assert lv.events == [] and lv.verdict() is None


# watchdog warns when a directory it still tracks by inode comes back under another path
@pytest.mark.filterwarnings("ignore:Callback with id:RuntimeWarning")
def test_directory_move_and_delete(home: Path, live) -> None:
    sub = home / "tools" / "team"
    sub.mkdir()
    (sub / "guard.scm").write_text(blocking_hook("team"))
    (sub / "nested").mkdir()
    (sub / "nested" / "watch.scm").write_text("(register-hook 'post_tool (lambda (p) '()))\n")
    lv = live()
    assert lv.verdict() == "team" and len(lv.rt.hooks()) == 2
    renamed = home / "tools" / "crew"
    os.rename(sub, renamed)
    lv.settle()
    assert lv.verdict() == "team"
    assert all(":tools/crew/" in h["source"] for h in lv.rt.hooks())
    assert len(lv.rt.hooks()) == 2
    os.rename(renamed, home / "attic")  # out of the tree: everything under it goes
    lv.settle()
    assert lv.verdict() is None and lv.rt.hooks() == []
    os.rename(home / "attic", sub)  # back in: everything under it loads
    lv.settle()
    assert lv.verdict() == "team" and len(lv.rt.hooks()) == 2
    shutil.rmtree(sub)
    lv.settle()
    assert lv.verdict() is None and lv.rt.hooks() == []


def test_tools_directory_replaced_or_created_later(home: Path, live) -> None:
    tools = home / "tools"
    tools.rmdir()
    lv = live()
    staged = home / "tools.new"
    staged.mkdir()
    (staged / "guard.scm").write_text(blocking_hook("deployed"))
    os.rename(staged, tools)  # tools/ appears after the watcher started
    lv.settle()
    assert lv.verdict() == "deployed"
    (tools / "guard.scm").write_text(blocking_hook("edited"))
    lv.settle()
    assert lv.verdict() == "edited"
    os.rename(tools, home / "tools.old")  # moved away: the old watch must not keep reporting
    lv.settle()
    assert lv.verdict() is None
    (home / "tools.old" / "guard.scm").write_text(blocking_hook("stale"))
    tools.mkdir()
    (tools / "guard.scm").write_text(blocking_hook("fresh"))
    lv.settle()
    assert lv.verdict() == "fresh"


def test_symlinked_tools_directory_and_retargeting_it(home: Path, live) -> None:
    (home / "tools").rmdir()
    first, second = home / "release-1", home / "release-2"
    for release in (first, second):
        release.mkdir()
        (release / "guard.scm").write_text(blocking_hook(release.name))
    os.symlink(first, home / "tools")
    lv = live()
    assert lv.verdict() == "release-1"
    (first / "guard.scm").write_text(blocking_hook("edited"))
    lv.settle()
    assert lv.verdict() == "edited"
    os.symlink(second, home / "tools.next")  # ln -sfn: a new link renamed over the old one
    os.replace(home / "tools.next", home / "tools")
    lv.settle()
    assert lv.verdict() == "release-2"
    (first / "guard.scm").write_text(blocking_hook("old release"))
    lv.settle()
    assert lv.verdict() == "release-2"
