"""The VFS (SPEC §11, reference §6): URI rules, zones, the virtual mounts, hot reload of
/tools, and (harness io) on top of it."""

from __future__ import annotations

import json

import pytest
from builtin_helpers import make_home, runtime

from harness.vfs.paths import VfsError, check_path, context_name_problem, path_of_uri
from harness.vfs.zones import SYSTEM


@pytest.mark.parametrize("text, message", [
    ("", "VFS path cannot be empty"),
    ("home/a", "VFS path must start with '/': home/a"),
    ("/a\0b", "VFS path cannot contain null bytes"),
    ("/a/", "VFS path cannot have trailing slash: /a/"),
    ("/a//b", "VFS path cannot contain '//': /a//b"),
    ("/a/../b", "VFS path cannot contain '.' or '..': /a/../b"),
    ("/a/./b", "VFS path cannot contain '.' or '..': /a/./b"),
])
def test_paths_are_rejected_never_normalised(text, message):
    with pytest.raises(VfsError) as info:
        check_path(text)
    assert str(info.value) == message


def test_uris_need_three_slashes():
    assert path_of_uri("vfs:///") == "/"
    assert path_of_uri("vfs:///home/a/x.task") == "/home/a/x.task"
    with pytest.raises(VfsError, match=r"not a vfs:/// URI \(requires three slashes\): vfs://x"):
        path_of_uri("vfs://x")


def test_context_names():
    assert context_name_problem("alice_2-b") is None
    assert "reserved" in context_name_problem("SYSTEM")
    assert "invalid context name" in context_name_problem("-x")
    assert "invalid context name" in context_name_problem("a/b")


ZONE_CASES = [
    # (caller, path, allowed?, error text fragment)
    ("alice", "/shared/x", True, None),
    ("alice", "/home/alice/tasks/a.task", True, None),
    ("alice", "/home/bob/x", False, ("context 'alice' cannot write to '/home/bob/x' (writable "
                                    "zones: /shared/, /home/alice/, /site/")),
    ("alice", "/site/goals.md", True, None),
    ("alice", "/flocks/registry.json", False, "cannot write to flock registry (System only)"),
    ("alice", "/flocks/team/goals.md", True, None),
    ("bob", "/flocks/team/goals.md", False, "context 'bob' is not a member of flock 'team'"),
    ("alice", "/tools/shared/t.scm", True, None),
    ("bob", "/tools/home/alice/t.scm", False, "context 'bob' cannot write to /tools/home/alice/"),
    ("alice", "/tools/sys/file_head", False, ("'/tools/sys/file_head' is read-only (virtual "
                                             "tool registry)")),
    (SYSTEM, "/tools/sys/x", False, "is read-only (virtual tool registry)"),
    ("alice", "/sys/contexts/alice/state.json", False, "is read-only (virtual context metadata)"),
    ("alice", "/sys/tool_cache/alice/x", False, "cannot write to '/sys/tool_cache/alice/x'"),
    (SYSTEM, "/sys/tool_cache/alice/x", True, None),
    (SYSTEM, "/home/bob/x", True, None),
]


@pytest.mark.parametrize("caller, path, allowed, message", ZONE_CASES)
def test_write_zones(tmp_path, caller, path, allowed, message):
    rt = runtime(make_home(tmp_path))
    rt.vfs.write(SYSTEM, "/flocks/registry.json", json.dumps({"flocks": [
        {"name": "team", "created_at": 0, "members": [{"context": "alice", "site": "x"}]}
    ]}).encode())
    if allowed:
        rt.vfs.write(caller, path, b"ok")
        assert rt.vfs.read(path) == b"ok"
    else:
        with pytest.raises(VfsError) as info:
            rt.vfs.write(caller, path, b"no")
        assert message in str(info.value)


def test_listing_reading_and_virtual_mounts(tmp_path):
    home = make_home(tmp_path, {"t.scm": '(define-tool t (description "d") '
                                          '(execute (lambda (a) 1)))'})
    rt = runtime(home)
    rt.vfs.write("alice", "/home/alice/b.txt", b"b")
    rt.vfs.write("alice", "/home/alice/.hidden", b"h")
    rt.vfs.mkdir("alice", "/home/alice/a")
    assert [(e.name, e.is_dir) for e in rt.vfs.list("/home/alice")] == [
        (".hidden", False), ("a", True), ("b.txt", False)]
    assert rt.vfs.list("/nowhere") == []
    assert {e.name for e in rt.vfs.list("/")} >= {"home", "sys", "tools"}
    assert "file_head" in [e.name for e in rt.vfs.list("/tools/sys")]
    schema = json.loads(rt.vfs.read("/tools/sys/t"))
    assert list(schema) == ["category", "description", "name", "parameters"]
    assert [e.name for e in rt.vfs.list("/sys/contexts")] == ["alice", "default"]
    assert rt.vfs.read("/sys/contexts/alice/task-dirs") == \
        b'("/home/alice/tasks" "/site/tasks")'
    state = json.loads(rt.vfs.read("/sys/contexts/alice/state.json"))
    assert state["paths"]["tasks"] == "/home/alice/tasks"
    with pytest.raises(VfsError, match="no context: carol"):
        rt.vfs.read("/sys/contexts/carol/task-dirs")


def test_a_tool_file_written_through_the_vfs_is_loaded_at_once(tmp_path):
    rt = runtime(make_home(tmp_path))
    tool = '(define-tool made (description "d") (execute (lambda (a) "made by a tool")))'
    result = rt.call_tool("write_file", {"path": "vfs:///tools/shared/made.scm",
                                         "content": tool}, context="alice")
    assert result.error is None
    assert (rt.home / "tools" / "shared" / "made.scm").read_text() == tool
    assert rt.call_tool("made").output == "made by a tool"
    rt.call_tool("vfs_delete", {"path": "vfs:///tools/shared/made.scm"})
    assert rt.call_tool("made").error == "unknown tool 'made'"


def test_harness_io_on_the_vfs(tmp_path):
    files = {"admin/io.scm": """
        (import (harness io))
        (define-tool io (description "d") (execute (lambda (a)
          (io-write "vfs:///home/bob/deep/x.txt" "one")
          (io-append "vfs:///home/bob/deep/x.txt" "+two")
          (let ((before (list (io-read "vfs:///home/bob/deep/x.txt")
                              (io-list "vfs:///home/bob/deep") (io-list "vfs:///missing")
                              (io-exists? "vfs:///home/bob") (io-read "vfs:///missing"))))
            (io-delete "vfs:///home/bob/deep")
            (append before (list (io-exists? "vfs:///home/bob/deep")
              (guard (e (#t (error-object-message e))) (io-delete "vfs:///home/bob/deep"))
              (guard (e (#t (error-object-message e))) (io-write "vfs:///tools/sys/x" ""))))))))
    """}
    rt = runtime(make_home(tmp_path, files, '[tools.tiers]\n"admin/" = "unsandboxed"\n'))
    assert json.loads(rt.call_tool("io").output) == [
        "one+two", ["x.txt"], [], True, False, False,
        "io-delete: /home/bob/deep: No such file or directory (os error 2)",
        "io-write: /tools/sys/x: '/tools/sys/x' is read-only (virtual tool registry)"]


def test_io_write_of_a_tool_file_loads_it_at_once(tmp_path):
    maker = """
        (import (harness io))
        (define-tool make (description "d") (execute (lambda (a)
          (io-write "vfs:///tools/made.scm"
                    "(define-tool made (description \\"d\\") (execute (lambda (a) 42)))")
          "written")))
    """
    rt = runtime(make_home(tmp_path, {"admin/maker.scm": maker},
                           '[tools.tiers]\n"admin/" = "unsandboxed"\n'))
    assert rt.call_tool("make").output == "written"
    assert rt.call_tool("made").output == "42"
