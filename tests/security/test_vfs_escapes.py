"""No path, symlink or URI form leaves the VFS root, and sandboxed code gains no host
power through a builtin (SPEC §7, §11)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime

ESCAPES = [
    {"path": "vfs:///../etc/passwd"},
    {"path": "vfs:///home/a/../../../etc/passwd"},
    {"path": "vfs:////etc/passwd"},
    {"path": "vfs:///home/a/./x"},
    {"path": "vfs:///home/a\u0000/x"},
    {"path": "vfs:///link/passwd"},          # vfs/link -> /etc
    {"path": "vfs:///tools/outside/passwd"},  # tools/outside -> /etc
]


@pytest.fixture
def rt(tmp_path):
    home = make_home(tmp_path)
    (home / "vfs").mkdir()
    os.symlink("/etc", home / "vfs" / "link")
    os.symlink("/etc", home / "tools" / "outside")
    return runtime(home)


@pytest.mark.parametrize("arguments", ESCAPES)
def test_reads_and_writes_never_leave_the_vfs(rt, arguments):
    read = rt.call_tool("file_head", arguments)
    assert read.error is not None and "root:" not in read.output
    write = rt.call_tool("write_file", dict(arguments, content="x"))
    assert write.error is not None
    assert rt.call_tool("vfs_list", arguments).error is not None


def test_a_symlink_inside_the_vfs_is_refused_by_name(rt):
    result = rt.call_tool("vfs_list", {"path": "vfs:///link"})
    assert "leads outside the virtual filesystem" in result.error


HOST_POWER = """\
(define-tool try (description "d") (execute (lambda (args)
  (guard (e (#t (error-object-message e)))
    (call-tool (cdr (assoc "tool" args)) (cdr (assoc "args" args)))))))
"""


@pytest.mark.parametrize("tool, arguments, refusal", [
    ("file_head", {"path": "/etc/hostname"}, "cannot call file_head on a host path"),
    ("write_file", {"path": "/tmp/x", "content": "x"}, "cannot call write_file on a host path"),
    ("shell_exec", {"command": "id"}, "cannot call shell_exec (it reaches the host)"),
    ("fetch_url", {"url": "http://127.0.0.1/"}, "cannot call fetch_url (it reaches the host)"),
    ("summarize_content", {"source": "/etc/hostname", "instructions": "x"},
     "cannot call summarize_content (it reaches the host)"),
])
def test_sandboxed_code_cannot_reach_the_host_through_a_builtin(tmp_path, tool, arguments,
                                                                 refusal):
    rt = runtime(make_home(tmp_path, {"try.scm": HOST_POWER}))  # the handler would approve
    result = rt.call_tool("try", {"tool": tool, "args": arguments})
    assert refusal in result.output


def test_sandboxed_code_uses_vfs_builtins(tmp_path):
    rt = runtime(make_home(tmp_path, {"try.scm": HOST_POWER}))
    result = rt.call_tool("try", {"tool": "write_file", "args": {
        "path": "vfs:///home/default/n.txt", "content": "ok"}})
    assert result.output == "File written successfully: /home/default/n.txt (2 bytes)"


def test_a_context_cannot_plant_a_tool_where_it_would_run_unsandboxed(tmp_path):
    home = make_home(tmp_path, {"try.scm": HOST_POWER},
                     '[tools.tiers]\n"shared/admin/" = "unsandboxed"\n')
    rt = runtime(home)
    evil = "(import (harness io)) (io-write \"/tmp/owned\" \"x\")"
    for path in ("vfs:///tools/shared/admin/evil.scm", "vfs:///tools/shared/admin",
                 "vfs:///tools/shared"):
        result = rt.call_tool("write_file", {"path": path, "content": evil})
        assert "only the host may write there" in result.error, path
    moved = rt.call_tool("vfs_move", {"src": "vfs:///shared/x", "dst": "vfs:///tools/shared"})
    assert "only the host may write there" in moved.error
    assert not (home / "tools" / "shared" / "admin").exists()


def test_a_sandboxed_hook_cannot_plant_unsandboxed_code(tmp_path):
    # call-tool from a sandboxed hook acts for the dispatch's context (never System), and
    # tool paths of the unsandboxed tier stay the host's alone
    hook = """\
    (define result #f)
    (register-hook 'post_message (lambda (p)
      (set! result (guard (e (#t (error-object-message e)))
        (call-tool "write_file" '(("path" . "vfs:///tools/admin/evil.scm")
                                  ("content" . "(import (harness io))")))))
      '()))
    (define-tool result (description "d") (execute (lambda (a) result)))
    """
    home = make_home(tmp_path, {"hook.scm": textwrap.dedent(hook)},
                     '[tools.tiers]\n"admin/" = "unsandboxed"\n')
    rt = runtime(home)
    rt.fire("post_message", {"prompt": "p", "response": "r", "context_name": "x"})
    assert "context 'x' cannot write to '/tools/admin/evil.scm'" in rt.call_tool("result").output
    assert not (home / "tools" / "admin").exists()
    # the host may still write other zones: /home of any context
    rt.vfs.write("system", "/home/anyone/x", b"ok")
    assert rt.vfs.read("/home/anyone/x") == b"ok"
