"""The builtin tools: chibi's names, parameters, result texts and error texts (reference
§5), each called through the pipeline with an approving permission handler."""

from __future__ import annotations

import json

import pytest
from builtin_helpers import make_home, runtime

from harness.model import ModelRequest

TEXT = "one\ntwo\nthree\nfour\nfive\n"


@pytest.fixture
def rt(tmp_path):
    rt = runtime(make_home(tmp_path), model=lambda request: _echo(request))
    rt.vfs.write("system", "/shared/f.txt", TEXT.encode())
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "a.py").write_text("import os\nprint('hi')\n")
    (tmp_path / "project" / "sub").mkdir()
    (tmp_path / "project" / "sub" / "b.py").write_text("x = 1\n# TODO: more\n")
    (tmp_path / "project" / "notes.md").write_text("TODO: all\n")
    (tmp_path / "project" / ".gitignore").write_text("notes.md\n")
    rt.project_root = tmp_path / "project"
    return rt


def _echo(request: ModelRequest) -> str:
    return f"model saw: {request.messages[1]['content'][:20]}"


F = "vfs:///shared/f.txt"

CASES = [
    # tool, arguments, output (or "Error: ..." for a failure)
    ("file_head", {"path": F, "lines": 2}, "one\ntwo"),
    ("file_head", {"path": F, "lines": "2"}, "one\ntwo"),
    ("file_head", {"path": F}, "one\ntwo\nthree\nfour\nfive"),
    ("file_head", {"path": F, "lines": 0}, ""),
    ("file_head", {}, "Error: Must provide path (missing required argument: 'path')"),
    ("file_head", {"path": "vfs:///shared/none"},
     "Error: No such file or directory (os error 2)"),
    ("file_head", {"path": "vfs:///shared"}, "Error: Is a directory (os error 21)"),
    ("file_tail", {"path": F, "lines": 2}, "four\nfive"),
    ("file_lines", {"path": F, "start": 2, "end": 3}, "two\nthree"),
    ("file_lines", {"path": F, "start": 4, "end": 9}, "four\nfive"),
    ("file_lines", {"path": F, "start": 0, "end": 3},
     "Error: Line numbers are 1-indexed, start must be >= 1"),
    ("file_lines", {"path": F, "start": 3, "end": 2}, "Error: End line must be >= start line"),
    ("file_lines", {"path": F, "end": 2},
     "Error: Missing 'start' parameter (missing required argument: 'start')"),
    ("file_grep", {"path": F, "pattern": "^t", "context_before": 0, "context_after": 0},
     ">2:two\n>3:three"),
    ("file_grep", {"path": F, "pattern": "five", "context_before": 1},
     " 4:four\n>5:five"),
    ("file_grep", {"path": F, "pattern": "x"}, "No matches found for pattern: x"),
    ("file_grep", {"path": F, "pattern": "("}, ("Error: Invalid regex: missing ), "
                                               "unterminated subpattern at position 0")),
    ("write_file", {"path": "vfs:///shared/new/w.txt", "content": "héllo"},
     "File written successfully: /shared/new/w.txt (6 bytes)"),
    ("write_file", {"path": "vfs:///shared/x"},
     "Error: Missing 'content' parameter (missing required argument: 'content')"),
    ("file_edit", {"path": F, "operation": "replace_lines", "line_start": 2, "line_end": 3,
                   "content": "TWO"}, "Edited /shared/f.txt (4 lines)"),
    ("file_edit", {"path": F, "operation": "insert_before", "line_start": 1, "content": "zero"},
     "Edited /shared/f.txt (6 lines)"),
    ("file_edit", {"path": F, "operation": "insert_after", "line_start": 5, "content": "six"},
     "Edited /shared/f.txt (6 lines)"),
    ("file_edit", {"path": F, "operation": "delete_lines", "line_start": 1, "line_end": 5},
     "Edited /shared/f.txt (0 lines)"),
    ("file_edit", {"path": F, "operation": "replace_string", "find": "two", "replace": "2"},
     "Replaced string in /shared/f.txt (3 \u2192 1 bytes)"),
    ("file_edit", {"path": F, "operation": "replace_string", "find": 'no "pe"\n',
                   "replace": ""}, 'Error: String not found in file: "no \\"pe\\"\\n"'),
    ("file_edit", {"path": F, "operation": "swap"},
     ("Error: argument 'operation' must be one of ['replace_lines', 'insert_before', "
     "'insert_after', 'delete_lines', 'replace_string']")),
    ("file_edit", {"path": F, "operation": "insert_after", "line_start": 6, "content": "x"},
     "Error: Line 6 is out of bounds (file has 5 lines)"),
    ("file_edit", {"path": F, "operation": "delete_lines", "line_start": 3, "line_end": 2},
     "Error: line_end (2) must be >= line_start (3)"),
    ("file_edit", {"path": F, "operation": "delete_lines", "line_start": 3, "line_end": 9},
     "Error: line_end 9 is out of bounds (file has 5 lines)"),
    ("file_edit", {"path": F, "operation": "delete_lines", "line_start": 0, "line_end": 1},
     "Error: 'line_start' must be >= 1 (line numbers are 1-indexed)"),
    ("file_edit", {"path": F, "operation": "replace_lines", "line_start": 1, "line_end": 1},
     "Error: Missing 'content' parameter"),
    ("vfs_list", {"path": "vfs:///shared"}, "f.txt (file)"),
    ("vfs_list", {"path": "vfs:///nothing/here"}, "No entries found."),
    ("vfs_list", {"path": "/shared"},
     "Error: not a vfs:/// URI (requires three slashes): /shared"),
    ("vfs_list", {"path": "vfs:///shared/f.txt"}, "Error: Not a directory (os error 20)"),
    ("vfs_mkdir", {"path": "vfs:///shared/a/b"}, "Created /shared/a/b"),
    ("vfs_copy", {"src": F, "dst": "vfs:///shared/c/g.txt"},
     "Copied /shared/f.txt -> /shared/c/g.txt"),
    ("vfs_move", {"src": F, "dst": "vfs:///shared/h.txt"}, "Moved /shared/f.txt -> /shared/h.txt"),
    ("vfs_delete", {"path": F}, "Deleted /shared/f.txt"),
    ("vfs_delete", {"path": "vfs:///shared/none"},
     "Error: No such file or directory (os error 2)"),
    ("glob_files", {"pattern": "*.py"}, "a.py\nsub/b.py"),
    ("glob_files", {"pattern": "*.md"}, "No files found matching pattern: *.md"),
    ("grep_files", {"pattern": "TODO", "context_lines": 0}, "sub/b.py:2: # TODO: more"),
    ("grep_files", {"pattern": "print", "context_lines": 1},
     "a.py:1-import os\na.py:2: print('hi')"),
    ("grep_files", {"pattern": "[", "path": "."},
     "Error: Invalid regex pattern '[': unterminated character set at position 0"),
    ("dir_list", {"path": "."}, ("./\n\u251c\u2500\u2500 sub/\n\u251c\u2500\u2500 a.py (22 B)\n"
                                "\u2514\u2500\u2500 notes.md (10 B)\n")),
    ("dir_list", {"path": "vfs:///shared"}, "Error: dir_list does not support vfs:// paths"),
    ("dir_list", {"path": "nope"}, "Error: Path not found: nope"),
    ("scheme_eval", {"code": '(display "x") (+ 1 2)'},
     "result: 3\nstdout: x\nstderr: (empty)"),
    ("scheme_eval", {"code": "(car 1)"},
     "result: error: car: expected a pair, got an integer\nstdout: (empty)\nstderr: (empty)"),
    ("update_goals", {"flock": "site", "content": "ship"},
     "Goals updated for flock 'site' (4 characters)."),
    ("update_goals", {"flock": "team", "content": "x"},
     "Error: context 'default' is not a member of flock 'team'"),
    ("update_reflection", {"content": "learned"}, "Reflection updated successfully (7 characters)."),
    ("send_message", {"to": "bob", "content": "hi"}, "Message delivered to 'bob' via local inbox"),
    ("send_message", {"to": "", "content": "hi"}, "Error: 'to' field is required"),
    ("spawn_agent", {"system_prompt": "s", "input": "tell me"}, "model saw: tell me"),
    ("summarize_content", {"source": F, "instructions": "short"},
     "model saw: ## Instructions\nshor"),
    ("fetch_url", {"url": "ftp://x"}, "Error: URL must start with http:// or https://, got: ftp://x"),
    ("read_context", {"context_name": "nobody"}, "Error: Context 'nobody' does not exist"),
    ("nope", {}, "Error: unknown tool 'nope'"),
]


@pytest.mark.parametrize("tool, arguments, expected", CASES,
                         ids=[f"{c[0]}-{n}" for n, c in enumerate(CASES)])
def test_builtin_texts(rt, tool, arguments, expected):
    result = rt.call_tool(tool, arguments)
    assert result.output == expected
    assert (result.error is None) == (not expected.startswith("Error: ")) or \
        expected.startswith("Error: 'to'")


def test_file_edit_keeps_or_adds_the_final_newline(rt):
    rt.vfs.write("system", "/shared/n.txt", b"a\r\nb")
    rt.call_tool("file_edit", {"path": "vfs:///shared/n.txt", "operation": "replace_lines",
                               "line_start": 2, "line_end": 2, "content": "B"})
    assert rt.vfs.read("/shared/n.txt") == b"a\nB\n"


def test_scheme_eval_keeps_a_session_per_context(rt):
    rt.call_tool("scheme_eval", {"code": "(define n 1)"}, context="ann")
    assert rt.call_tool("scheme_eval", {"code": "n"}, context="ann").output.startswith(
        "result: 1\n")
    assert "unbound" in rt.call_tool("scheme_eval", {"code": "n"}, context="bob").output
    assert rt.call_tool("scheme_eval", {"code": "%context-name%"},
                        context="bob").output.startswith('result: "bob"')


def test_send_message_by_hook_and_read_context_with_tasks(rt):
    rt.call_tool("send_message", {"to": "bob", "content": "first"})
    rt.vfs.write("system", "/home/bob/tasks/a.task",
                 b'((id . "aa11bb22") (status . pending) (priority . high))\n\n"do it\\nnow"\n')
    rt.vfs.write("system", "/site/goals.md", b"be kind")
    state = json.loads(rt.call_tool("read_context", {"context_name": "bob"}).output)
    assert state["message_count"] == 1
    assert state["recent_messages"] == [{"content": "first", "from": "default",
                                         "type": "message"}]
    assert state["flock_goals"] == [{"flock": rt.vfs.site_flock, "goals": "be kind"}]
    assert state["tasks"].splitlines() == [
        "--- tasks ---",
        "id       status       priority   path                 summary",
        "aa11bb22 pending      high       a.task               do it",
        "--- 1 active, 0 done ---"]


def test_fetch_url_asks_before_a_loopback_address(rt, local_server):
    local_server.respond = lambda path, headers, body: (200, b"x" * 100)
    url = local_server.url + "/"
    denied = runtime(rt.home, allow=None).call_tool("fetch_url", {"url": url})
    assert denied.output == "Permission denied: no permission handler configured"
    assert rt.call_tool("fetch_url", {"url": url}).output == "x" * 100
    cut = rt.call_tool("fetch_url", {"url": url, "max_bytes": 10})
    assert cut.output == "Error: Response too large: Content-Length 100 exceeds limit " \
                         "of 10 bytes"
    assert [r["method"] for r in local_server.requests] == ["GET", "GET"]


def test_a_home_tool_shadows_a_builtin(tmp_path):
    mine = '(define-tool file_head (description "mine") (execute (lambda (a) "my head")))'
    rt = runtime(make_home(tmp_path, {"mine.scm": mine}))
    assert rt.call_tool("file_head", {"path": "vfs:///x"}).output == "my head"
    assert [s["message"] for s in rt.shadowed_builtins()] == [
        "tool file_head shadows the builtin tool of the same name"]


@pytest.mark.parametrize("uri, hint", [("vfs://shared/x.txt", "vfs:///shared/x.txt"),
                                       ("vfs:/shared/x.txt", "vfs:///shared/x.txt")])
def test_a_vfs_uri_without_three_slashes_is_refused_with_the_right_spelling(rt, tmp_path,
                                                                            uri, hint):
    result = rt.call_tool("write_file", {"path": uri, "content": "hi"})
    assert result.error == (f"argument {uri!r} is not a VFS URI: a VFS URI has three "
                            f"slashes ({hint}); a host path has none")
    assert not any(p.name.startswith("vfs:") for p in tmp_path.rglob("*"))
