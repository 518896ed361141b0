"""chibi-style tools run unchanged (issue 12's bar): a task tracker over .task files and
a file-history plugin that snapshots on pre_vfs_write, each end to end through
``harness call --context NAME`` (fixtures in tests/fixtures/chibi_tools, written in the
style of chibi's plugins/)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from harness.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "chibi_tools"


@pytest.fixture
def home(tmp_path) -> Path:
    home = tmp_path / "home"
    (home / "tools" / "shared").mkdir(parents=True)
    shutil.copy(FIXTURES / "tasks.scm", home / "tools" / "tasks.scm")
    shutil.copy(FIXTURES / "history.scm", home / "tools" / "shared" / "history.scm")
    (home / "harness.toml").write_text('[tools.tiers]\n"shared/history.scm" = "unsandboxed"\n')
    return home


@pytest.fixture
def call(home, capsys):
    """``harness call TOOL ARGS --context alice --home HOME`` -> its result as JSON."""
    def run(tool: str, arguments: dict, context: str = "alice") -> dict:
        code = main(["call", tool, json.dumps(arguments), "--context", context, "--json",
                     "--home", str(home)])
        result = json.loads(capsys.readouterr().out)
        assert result["errors"] == [], result["errors"]
        assert (code == 0) == (result["error"] is None and not result["blocked"])
        return result
    return run


def test_task_create_list_view_update_delete(call, home):
    created = call("task_create", {"path": "auth/login", "body": "write the login page",
                                   "priority": "high"})["output"]
    match = re.fullmatch(r"created task ([0-9a-f]{8}) at /home/alice/tasks/auth/login\.task",
                         created)
    assert match, created
    task_id = match.group(1)
    stored = (home / "vfs" / "home" / "alice" / "tasks" / "auth" / "login.task").read_text()
    assert stored.startswith(f'((id . "{task_id}")\n (status . pending)\n (priority . high)')

    listing = call("task_list", {})["output"]
    assert listing == f"{task_id} pending high /home/alice/tasks/auth/login.task\n"
    assert call("task_list", {"status": "done"})["output"] == "no tasks match filters"

    view = call("task_view", {"id": task_id})["output"]
    assert view.startswith("path: /home/alice/tasks/auth/login.task\n((id . ")
    assert view.endswith('"write the login page"')

    assert call("task_update", {"id": task_id, "status": "done"})["output"] == \
        f"updated task {task_id}"
    assert "(status . done)" in (home / "vfs" / "home" / "alice" / "tasks" / "auth" /
                                 "login.task").read_text()
    assert call("task_list", {"status": "done"})["output"].startswith(f"{task_id} done")

    # another context sees its own tasks only
    assert call("task_list", {}, context="bob")["output"] == "no tasks found"
    assert call("task_delete", {"id": task_id})["output"] == f"deleted task {task_id}"
    assert call("task_list", {})["output"] == "no tasks found"
    assert call("task_view", {"id": task_id})["output"] == f"error: task {task_id} not found"


def test_file_history_snapshot_diff_and_revert(call, home):
    uri = "vfs:///shared/notes.md"
    assert call("write_file", {"path": uri, "content": "one\ntwo\nthree\n"})["output"] == \
        "File written successfully: /shared/notes.md (14 bytes)"
    assert call("file_history_log", {"path": uri})["output"] == f"No history for {uri}"
    call("write_file", {"path": uri, "content": "one\nTWO\nthree\nfour\n"})

    assert call("file_history_log", {"path": uri})["output"] == f"Revisions for {uri}:\n  @1"
    assert call("file_history_show", {"path": uri, "revision": 1})["output"] == \
        "one\ntwo\nthree\n"
    # the change after the last common line is shown too (chibi's diff drops it)
    assert call("file_history_diff", {"path": uri})["output"] == (
        f"Diff {uri} @1 vs current:\n one\n-two\n+TWO\n three\n+four\n")
    # snapshots stay out of vfs_list
    assert call("vfs_list", {"path": "vfs:///shared"})["output"] == "notes.md (file)"

    assert call("file_history_revert", {"path": uri, "revision": "1"})["output"] == \
        f"Reverted {uri} to revision @1"
    assert (home / "vfs" / "shared" / "notes.md").read_text() == "one\ntwo\nthree\n"
    # call-tool runs the full pipeline: the revert itself was snapshotted (beyond chibi)
    assert call("file_history_log", {"path": uri})["output"] == \
        f"Revisions for {uri}:\n  @2\n  @1"
    assert call("file_history_diff", {"path": uri, "revision": 1})["output"] == \
        "No changes since revision @1"
