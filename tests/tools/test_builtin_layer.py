"""A broken builtin file (a damaged install) and a home tool shadowing a builtin are said,
never silent: in the tool call's error, in ``load_failures()`` and in ``check --home``."""

from __future__ import annotations

import pytest

from harness import builtins
from harness.checks import ERROR, WARNING, check_home
from harness.runtime import Runtime

GOOD = '(define-tool vfs_hello (description "hi") (execute (lambda (args) "hello")))\n'
BROKEN = '(define-tool file_head\n  (execute (lambda (args) "head"))\n'  # never closed


@pytest.fixture
def damaged_layer(tmp_path, monkeypatch):
    """The process's builtin layer read from a folder with one good and one broken file."""
    folder = tmp_path / "builtin_tools"
    folder.mkdir()
    (folder / "good.scm").write_text(GOOD)
    (folder / "fs_read.scm").write_text(BROKEN)
    monkeypatch.setattr(builtins, "BUILTIN_TOOLS_DIR", folder)
    monkeypatch.setattr(builtins, "_shared", builtins.BuiltinTools())
    return folder


@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    return home


def test_a_builtin_whose_file_failed_names_the_files_error(damaged_layer, home):
    with Runtime(home) as rt:
        assert rt.call_tool("vfs_hello").output == "hello"  # the rest of the layer works
        result = rt.call_tool("file_head", {"path": "vfs:///x"})
        assert result.error.startswith("the builtin tool 'file_head' failed to load: "
                                       f"{damaged_layer}/fs_read.scm:1:1: ")
        assert rt.load_failures() == [{
            "source": "builtin:tools/fs_read.scm", "last_good_runs": False,
            "message": builtins._shared.load_errors[str(damaged_layer / "fs_read.scm")]}]


def test_listing_failures_does_not_load_the_layer(damaged_layer, home):
    with Runtime(home) as rt:
        assert rt.load_failures() == []
        assert not rt.registry.builtins.loaded


def test_check_home_reports_a_broken_builtin_and_a_shadowing_tool(damaged_layer, home):
    (home / "tools" / "mine.scm").write_text(
        '(define-tool vfs_hello (description "mine") (execute (lambda (a) "mine")))\n')
    findings = [(f.severity, f.where, f.message) for f in check_home(home)]
    broken = [f for f in findings if f[1] == "builtin:tools/fs_read.scm"]
    assert len(broken) == 1 and broken[0][0] == ERROR
    assert broken[0][2].startswith("the builtin tool file does not load (a broken install): "
                                   f"{damaged_layer}/fs_read.scm:1:1:")
    assert (WARNING, "tools/mine.scm",
            "tool vfs_hello shadows the builtin tool of the same name") in findings
