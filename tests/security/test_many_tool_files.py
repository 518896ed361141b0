"""Start-up is linear in the number of tool files, and a context cannot fill tools/
(issue 23, item 9): loading N files rebuilt the whole index once per file (10,000 files
took 440 s to start), and a context had written 2,000 tool files with write_file."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime

from harness.loading.registry import Registry
from harness.vfs.store import MAX_TOOL_FILE_BYTES, MAX_ZONE_TOOL_FILES

HOOK = "(register-hook 'post_message (lambda (p) (list (cons \"n\" {n}))))\n"


def test_a_start_indexes_the_registry_once_whatever_the_number_of_files(tmp_path,
                                                                        monkeypatch):
    files = {f"f{n:03}.scm": HOOK.format(n=n) for n in range(60)}
    files["f007.scm"] = "(car '())\n"  # a failure inside the batch is kept too
    home = make_home(tmp_path, files)
    indexed = []
    original = Registry._reindex
    monkeypatch.setattr(Registry, "_reindex", lambda self: indexed.append(1) or original(self))
    rt = runtime(home)
    assert len(indexed) <= 2  # the empty registry's, then the batch's
    answers = [a["answer"]["n"] for a in rt.fire("post_message", {})["answers"]]
    assert answers == [n for n in range(60) if n != 7]  # path order kept
    assert list(rt.load_errors) == [str(home / "tools" / "f007.scm")]
    assert "f007.scm" in rt.fire("post_message", {})["errors"][0]["source"]


def test_a_context_keeps_to_its_quota_of_tool_files(tmp_path):
    rt = runtime(make_home(tmp_path))
    tool = '(define-tool t{n} (description "d") (execute (lambda (a) "x")))'
    for n in range(MAX_ZONE_TOOL_FILES):
        result = rt.call_tool("write_file", {"path": f"vfs:///tools/home/alice/t{n}.scm",
                                             "content": tool.format(n=n)}, context="alice")
        assert result.error is None, result.error
    over = rt.call_tool("write_file", {"path": "vfs:///tools/home/alice/more.scm",
                                       "content": tool.format(n="more")}, context="alice")
    assert f"a context may keep at most {MAX_ZONE_TOOL_FILES} there" in over.error
    again = rt.call_tool("write_file", {"path": "vfs:///tools/home/alice/t0.scm",
                                        "content": tool.format(n=0)}, context="alice")
    assert again.error is None  # replacing a file adds none
    moved = rt.call_tool("vfs_copy", {"src": "vfs:///tools/home/alice/t1.scm",
                                      "dst": "vfs:///tools/home/alice/copy.scm"},
                         context="alice")
    assert "a context may keep at most" in moved.error
    big = rt.call_tool("write_file", {"path": "vfs:///tools/home/bob/big.scm",
                                      "content": ";" * (MAX_TOOL_FILE_BYTES + 1)},
                       context="bob")
    assert f"tool files of at most {MAX_TOOL_FILE_BYTES} bytes" in big.error
    rt.vfs.write("<host>", "/tools/home/alice/host.scm", tool.format(n="host").encode())
    assert rt.call_tool("thost").output == "x"  # the host is not held to it
