"""A builtin's call through chibi's pipeline (reference §2–4): permission gates with the
deny-only protocol, pre/post_vfs_write, and the output cache."""

from __future__ import annotations

import json

from builtin_helpers import make_home, runtime

RECORDER = """\
(define seen '())
(define (note! point payload) (set! seen (cons (vector point payload) seen)) '())
(for-each (lambda (point) (register-hook point (lambda (p) (note! (symbol->string point) p))))
          '(pre_vfs_write post_vfs_write pre_cache_output post_cache_output post_tool
            post_tool_output pre_file_write pre_file_read pre_shell_exec))
(define-tool seen (description "d") (execute (lambda (a) (reverse seen))))
"""


def full_output(rt, result) -> str:
    """The whole output of a call, read back from the tool cache when it was cached."""
    if not result.cached:
        return result.output
    uri = result.output.split("\n", 1)[0][len("[Output cached: "):-1]
    return rt.vfs.read_text(uri[len("vfs://"):])


def seen(rt) -> list:
    events = json.loads(full_output(rt, rt.call_tool("seen")))
    return [[point, dict(payload)] for point, payload in events]


def test_permission_gates_deny_without_a_handler(tmp_path):
    rt = runtime(make_home(tmp_path), allow=None)
    shell = rt.call_tool("shell_exec", {"command": "echo hi"})
    assert shell.denied and shell.output == "no permission handler configured"  # bare reason
    write = rt.call_tool("write_file", {"path": str(tmp_path / "x"), "content": "x"})
    assert write.output == "Permission denied: no permission handler configured"
    assert not (tmp_path / "x").exists()
    read = rt.call_tool("file_head", {"path": "/etc/hostname"})
    assert read.denied and read.output.startswith("Permission denied: ")
    # inside the project root, and in the VFS, there is no gate
    (tmp_path / "inside.txt").write_text("a\nb\n")
    rt.project_root = tmp_path
    assert rt.call_tool("file_head", {"path": "inside.txt"}).output == "a\nb"
    assert rt.call_tool("write_file", {"path": "vfs:///shared/x", "content": "x"}).error is None


def test_a_hook_denies_with_its_reason_and_the_handler_decides_otherwise(tmp_path):
    guard = """\
    (register-hook 'pre_shell_exec (lambda (p)
      (if (string-contains (cdr (assoc "command" p)) "rm")
          (list (cons "denied" #t) (cons "reason" "no rm here"))
          '())))
    """
    rt = runtime(make_home(tmp_path, {"guard.scm": guard}), allow=True)
    assert rt.call_tool("shell_exec", {"command": "rm -rf x"}).output == "no rm here"
    ok = json.loads(rt.call_tool("shell_exec", {"command": "echo hi"}).output)
    assert ok == {"exit_code": 0, "stderr": "", "stdout": "hi\n", "timed_out": False}
    refused = runtime(rt.home, allow=False).call_tool("shell_exec", {"command": "echo hi"})
    assert refused.output == "denied by permission handler"


def test_vfs_writes_fire_pre_and_post_vfs_write(tmp_path):
    rt = runtime(make_home(tmp_path, {"rec.scm": RECORDER}))
    rt.call_tool("write_file", {"path": "vfs:///home/ann/x", "content": "x"}, context="ann")
    rt.call_tool("write_file", {"path": "vfs:///home/bob/x", "content": "x"}, context="ann")
    events = [e for e in seen(rt) if e[0] in ("pre_vfs_write", "post_vfs_write")]
    assert events == [
        ["pre_vfs_write", {"tool_name": "write_file", "path": "vfs:///home/ann/x",
                           "content": "x", "caller": "ann"}],
        ["post_vfs_write", {"tool_name": "write_file", "path": "vfs:///home/ann/x",
                            "caller": "ann"}],
        # a refused write is announced but not confirmed
        ["pre_vfs_write", {"tool_name": "write_file", "path": "vfs:///home/bob/x",
                           "content": "x", "caller": "ann"}]]


def test_a_large_output_is_cached_and_the_model_sees_a_stub(tmp_path):
    rt = runtime(make_home(tmp_path, {"rec.scm": RECORDER}))
    text = "".join(f"line {n}\n" for n in range(1000))
    rt.vfs.write("system", "/shared/big.txt", text.encode())
    result = rt.call_tool("file_head", {"path": "vfs:///shared/big.txt", "lines": 1000},
                          context="ann")
    assert result.cached
    lines = result.output.split("\n")
    uri = lines[0][len("[Output cached: "):-1]
    assert uri.startswith("vfs:///sys/tool_cache/ann/file_head_")
    size = len(text) - 1  # file_head drops the final newline
    assert lines[1] == f"Tool: file_head | Size: {size} chars, ~{size // 4} tokens | Lines: 1000"
    assert lines[2] == "Output too large. Full output stored \u2014 do NOT re-run this tool."
    assert lines[3] == (f'Use file_head, file_tail, file_lines, or file_grep with path="{uri}" '
                        "to examine.")
    assert lines[4].startswith("Preview (first ") and lines[5] == "---" and lines[-1] == "---"
    assert lines[6] == "line 0"
    # the whole output is in the VFS, readable by the tools the stub names
    assert rt.call_tool("file_tail", {"path": uri, "lines": 1}).output == "line 999"
    events: dict = {}
    for point, payload in seen(rt):
        events.setdefault(point, payload)  # the first of each: file_head's
    assert events["pre_cache_output"]["line_count"] == 1000
    assert events["post_cache_output"]["output_size"] == size
    assert events["post_tool"]["cached"] is True
    assert events["post_tool"]["result"] == text[:-1]  # post_tool gets the full output


def test_pre_cache_output_can_skip_the_cache_or_give_the_summary(tmp_path):
    hook = """\
    (register-hook 'pre_cache_output (lambda (p)
      (if (equal? (cdr (assoc "tool_name" p)) "file_tail")
          (list (cons "block" #t))
          (list (cons "summary" "a thousand lines")))))
    """
    rt = runtime(make_home(tmp_path, {"cache.scm": hook}))
    rt.vfs.write("system", "/shared/big.txt", ("x" * 50 + "\n").encode() * 200)
    whole = rt.call_tool("file_tail", {"path": "vfs:///shared/big.txt", "lines": 500})
    assert not whole.cached and len(whole.output) > 4000
    stub = rt.call_tool("file_head", {"path": "vfs:///shared/big.txt", "lines": 500})
    assert stub.cached and "\n---\na thousand lines\n---" in stub.output


def test_shell_exec_timeout_kills_the_process_group(tmp_path):
    rt = runtime(make_home(tmp_path))
    marker = tmp_path / "survivor"
    result = rt.call_tool("shell_exec", {
        "command": f"(sleep 2; touch {marker}) & sleep 30", "timeout_secs": 1})
    assert json.loads(result.output) == {"exit_code": -1, "stderr": "", "stdout": "",
                                         "timed_out": True}
    import time
    time.sleep(2.5)
    assert not marker.exists()  # the background child died with its group


def test_a_tool_of_the_home_with_a_gated_category_passes_the_same_gate(tmp_path):
    tools = """\
    (define-tool deploy (description "d") (category "shell")
      (execute (lambda (a) "deployed")))
    (define-tool ping (description "d") (category "network") (summary-params '("host"))
      (parameters '((host . ((type . "string") (description . "where")))))
      (execute (lambda (a) "pong")))
    (define seen '())
    (register-hook 'pre_fetch_url (lambda (p) (set! seen p) '()))
    (define-tool seen (description "d") (execute (lambda (a) seen)))
    """
    home = make_home(tmp_path, {"mine.scm": tools})
    refused = runtime(home, allow=None)
    assert refused.call_tool("deploy").output == "no permission handler configured"
    assert refused.call_tool("ping", {"host": "db1"}).denied
    assert json.loads(refused.call_tool("seen").output) == {
        "tool_name": "ping", "summary": "db1", "safety": "no_url"}
    assert runtime(home, allow=True).call_tool("deploy").output == "deployed"


def test_summarize_content_of_a_host_file_passes_the_read_gate(tmp_path):
    rt = runtime(make_home(tmp_path), allow=None, model=lambda request: "summary")
    denied = rt.call_tool("summarize_content", {"source": "/etc/hostname",
                                                "instructions": "one line"})
    assert denied.denied and denied.output.startswith("Permission denied: ")
    rt.vfs.write("system", "/shared/doc.md", b"text")
    assert rt.call_tool("summarize_content", {"source": "vfs:///shared/doc.md",
                                              "instructions": "one line"}).output == "summary"
