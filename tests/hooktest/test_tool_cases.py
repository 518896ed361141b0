"""Tool cases in fixtures: ``{"tool", "arguments", "expect": {"output", "blocked", "error"}}``
call a tool through its hook stack, beside the hook cases of the same file."""

from __future__ import annotations

import pytest
from hooktest_helpers import run_harness_test, write_fixture

TOOLS = """\
(define-tool word-count
  (parameters '((text . ((type . "string")))))
  (execute (lambda (args) (length (string-split (cdr (assoc "text" args)) #\\space)))))
(define-tool stats
  (execute (lambda (args) (json-stringify (list (cons "lines" 2) (cons "words" 5))))))
(define-tool hello (execute (lambda (args) "Hello, Ada!\\n")))
"""


#: blocks a tool call whose "text" argument holds "rm -rf" (GUARD reads "command" only)
TEXT_GUARD = """\
(register-hook 'pre_tool
  (lambda (p)
    (let ((text (assoc "text" (cdr (assoc "arguments" p)))))
      (if (and text (string? (cdr text)) (string-contains (cdr text) "rm -rf"))
          (list (cons "block" #t) (cons "message" "no rm -rf"))
          '()))))
"""


@pytest.fixture
def tool_home(home):
    (home / "tools" / "tools.scm").write_text(TOOLS)
    (home / "tools" / "guard.scm").write_text(TEXT_GUARD)
    return home


def run_cases(tmp_path, home, *cases) -> tuple[int, str]:
    path = write_fixture(tmp_path, "tools", {"cases": list(cases)})
    return run_harness_test(str(path), "--home", str(home)), str(path)


@pytest.mark.parametrize("case", [
    {"tool": "word-count", "arguments": {"text": "a b c"}, "expect": {"output": 3}},
    {"tool": "word-count", "arguments": {"text": "a b c"}, "expect": {"output": "3"}},
    {"tool": "stats", "expect": {"output": {"lines": 2, "words": 5}}},
    {"tool": "stats", "match": "partial", "expect": {"output": {"lines": 2}}},
    {"tool": "hello", "expect": {"output": "Hello, Ada!"}},
    {"tool": "wordcount", "expect": {"error": "did you mean 'word-count'?"}},
    {"tool": "word-count", "arguments": {"text": 5}, "expect": {"error": True}},
    {"tool": "word-count", "arguments": {"text": "rm -rf /"},
     "expect": {"blocked": True, "output": "no rm -rf"}},
])
def test_passing_tool_cases(tool_home, tmp_path, capsys, case):
    code, path = run_cases(tmp_path, tool_home, case)
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines() == [f"PASS  {path}: case 1", "1 passed, 0 failed"]


@pytest.mark.parametrize(("case", "reason"), [
    ({"tool": "word-count", "arguments": {"text": "a b"}, "expect": {"output": 3}},
     "output differs (exact match):"),
    ({"tool": "stats", "expect": {"output": {"lines": 2}}}, '+  "words": 5'),
    ({"tool": "wordcount", "expect": {"output": "x"}},
     "the call failed: unknown tool 'wordcount'; did you mean 'word-count'?"),
    ({"tool": "stats", "expect": {"error": True}}, "expected the call to fail, it did not"),
    ({"tool": "stats", "expect": {"blocked": True}}, "blocked: expected true, got false"),
])
def test_failing_tool_cases_say_why(tool_home, tmp_path, capsys, case, reason):
    code, path = run_cases(tmp_path, tool_home, case)
    out = capsys.readouterr().out
    assert code == 1
    assert f"FAIL  {path}: case 1" in out
    assert reason in out


def test_hook_failures_during_a_tool_call_fail_the_case_unless_counted(tool_home, tmp_path,
                                                                      capsys):
    (tool_home / "tools" / "crash.scm").write_text(
        "(register-hook 'post_tool (lambda (p) (car '())))")
    case = {"tool": "stats", "match": "partial", "expect": {"output": {"lines": 2}}}
    code, _ = run_cases(tmp_path, tool_home, case)
    out = capsys.readouterr().out
    assert code == 1
    assert "errors: expected 0, got 1" in out and "post_tool hook failed" in out
    code, _ = run_cases(tmp_path, tool_home, dict(case, errors=1))
    assert code == 0


def test_tool_and_hook_cases_share_a_file(tool_home, tmp_path, capsys):
    path = write_fixture(tmp_path, "mixed", {"hook": "pre_tool", "match": "partial", "cases": [
        {"name": "a hook case", "expect": {"blocked": False}},
        {"name": "a tool case", "tool": "word-count", "arguments": {"text": "x y"},
         "expect": {"output": 2}}]})
    assert run_harness_test(str(path), "--home", str(tool_home)) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"
