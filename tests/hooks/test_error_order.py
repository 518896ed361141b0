"""The errors of a dispatch are in dispatch order (issue 24): load failures first, then each
source's errors where it ran, a combine problem with an answer where its source ran."""

from __future__ import annotations

from harness.runtime import Runtime
from tests.hooks.test_dispatcher import make_home

MISSPELT = """(register-hook 'pre_tool (lambda (p) (list (cons "blok" #t))))"""
CRASHES = """(register-hook 'pre_tool (lambda (p) (car (cdr (assoc "nothing" p)))))"""


def _sources(result: dict) -> list[str]:
    return [e["source"].rsplit("/", 1)[-1] for e in result["errors"]]


def test_a_combine_problem_comes_where_its_source_ran(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": MISSPELT, "b.scm": CRASHES}))
    result = rt.fire("pre_tool", {"tool_name": "x"})
    assert _sources(result) == ["a.scm:1", "b.scm:1"], result["errors"]
    assert "unknown answer key 'blok'" in result["errors"][0]["message"]
    assert "hook failed" in result["errors"][1]["message"]


def test_a_later_problem_still_comes_after_an_earlier_failure(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": CRASHES, "b.scm": MISSPELT}))
    result = rt.fire("pre_tool", {"tool_name": "x"})
    assert _sources(result) == ["a.scm:1", "b.scm:1"], result["errors"]


def test_load_failures_come_first(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": MISSPELT, "b.scm": CRASHES,
                                      "c.scm": "(register-hook 'pre_tool"}))
    result = rt.fire("pre_tool", {"tool_name": "x"})
    assert _sources(result) == ["c.scm", "a.scm:1", "b.scm:1"], result["errors"]


def test_traced_dispatch_keeps_the_same_order(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": MISSPELT, "b.scm": CRASHES}))
    rt.dispatcher.trace_enabled = True
    result = rt.fire("pre_tool", {"tool_name": "x"})
    assert _sources(result) == ["a.scm:1", "b.scm:1"], result["errors"]
    assert [t["source"].rsplit("/", 1)[-1] for t in result["trace"]] == ["a.scm:1", "b.scm:1"]
    assert "answer" in result["trace"][0] and "error" in result["trace"][1]
