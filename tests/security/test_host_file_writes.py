"""Writing a user's host file keeps what an editor keeps (issue 23, item 13): its mode
(execute bits), owner, hard links, and a symbolic link stays a link with the file it
leads to changed; a new file gets 0666 less the umask, not 0600."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime

from harness.atomic_file import replace_contents


def _write(rt, tool: str, path: Path, text: str):
    if tool == "write_file":
        arguments = {"path": str(path), "content": text}
    else:
        arguments = {"path": str(path), "operation": "replace_string",
                     "find": path.read_text(), "replace": text}
    result = rt.call_tool(tool, arguments)
    assert result.error is None, result.error
    return result


@pytest.fixture
def rt(tmp_path):
    return runtime(make_home(tmp_path))


@pytest.mark.parametrize("tool", ["write_file", "file_edit"])
def test_an_edited_script_keeps_its_execute_bits(rt, tmp_path, tool):
    script = tmp_path / "run.sh"
    script.write_text("echo old\n")
    script.chmod(0o754)
    _write(rt, tool, script, "echo new\n")
    assert script.read_text() == "echo new\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o754


@pytest.mark.parametrize("tool", ["write_file", "file_edit"])
def test_a_symlink_stays_a_link_and_its_target_changes(rt, tmp_path, tool):
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    _write(rt, tool, link, "new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.parametrize("tool", ["write_file", "file_edit"])
def test_a_hard_link_is_not_broken(rt, tmp_path, tool):
    one = tmp_path / "one.txt"
    one.write_text("old old")
    other = tmp_path / "other.txt"
    os.link(one, other)
    _write(rt, tool, one, "new")
    assert other.read_text() == "new" and one.stat().st_ino == other.stat().st_ino


def test_a_new_file_follows_the_umask(rt, tmp_path):
    old = os.umask(0o022)
    try:
        _write(rt, "write_file", tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_a_failed_write_keeps_the_old_contents_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    with pytest.raises(TypeError):
        replace_contents(target, object())  # the write itself fails
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]
