"""Tool cases in fixtures: ``{"tool", "arguments", "expect": {"output", "blocked", "error"}}``
call a tool through its hook stack, beside the hook cases of the same file."""

from __future__ import annotations

import pytest
from hooktest_helpers import run_harness_test, write_fixture

from harness.cli.test_command import FixtureError, read_fixture

TOOLS = """\
(define-tool word-count
  (parameters '((text . ((type . "string")))))
  (execute (lambda (args) (length (string-split (cdr (assoc "text" args)) #\\space)))))
(define-tool stats
  (execute (lambda (args) (json-stringify (list (cons "lines" 2) (cons "words" 5))))))
(define-tool hello (execute (lambda (args) "Hello, Ada!\\n")))
"""


@pytest.fixture
def tool_home(home):
    (home / "tools" / "tools.scm").write_text(TOOLS)
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
    if case.get("expect", {}).get("blocked"):
        # the guard of the hooktest home blocks a pre_tool whose arguments hold "rm -rf"
        case = {**case, "tool": "word-count"}
        (tool_home / "tools" / "guard.scm").write_text(
            "(register-hook 'pre_tool (lambda (p) (if (string-contains (cdr (assoc \"text\" "
            "(cdr (assoc \"arguments\" p)))) \"rm -rf\") (list (cons \"block\" #t) "
            "(cons \"message\" \"no rm -rf\")) '())))")
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


def test_tool_and_hook_cases_share_a_file(tool_home, tmp_path, capsys):
    path = write_fixture(tmp_path, "mixed", {"hook": "pre_tool", "match": "partial", "cases": [
        {"name": "a hook case", "expect": {"blocked": False}},
        {"name": "a tool case", "tool": "word-count", "arguments": {"text": "x y"},
         "expect": {"output": 2}}]})
    assert run_harness_test(str(path), "--home", str(tool_home)) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"


@pytest.mark.parametrize(("entry", "message"), [
    ({"tool": "t", "hook": "pre_tool", "expect": {}}, '"hook" does not go with "tool"'),
    ({"tool": "t", "payload": {}, "expect": {}}, 'a tool case has "arguments"'),
    ({"tool": "t", "errors": 1, "expect": {}}, '"errors" does not go with "tool"'),
    ({"tool": 3, "expect": {}}, '"tool" must be a tool name'),
    ({"tool": "t", "arguments": [1], "expect": {}}, '"arguments" must be a JSON object'),
    ({"tool": "t"}, 'missing "expect"'),
    ({"tool": "t", "expect": {"outptu": 1}}, 'unknown key "outptu"'),
    ({"tool": "t", "expect": {"blocked": "yes"}}, '"blocked" must be true or false'),
    ({"tool": "t", "expect": {"error": 5}}, '"error" must be null, true or a part'),
    ({"hook": "pre_tool", "arguments": {}, "expect": {}}, '"arguments" belongs to a tool case'),
])
def test_tool_case_mistakes_name_their_file(tmp_path, entry, message):
    path = write_fixture(tmp_path, "x", entry)
    with pytest.raises(FixtureError) as info:
        read_fixture(path)
    assert str(info.value).startswith(str(path))
    assert message in str(info.value)


def test_a_fixture_file_may_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.hooktest.json"
    path.write_text('\ufeff{"hook": "on_start", "expect": {}}', encoding="utf-8")
    [case] = read_fixture(path)
    assert case.hook == "on_start"
