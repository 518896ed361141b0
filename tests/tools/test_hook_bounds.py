"""Straight-line hooks (harness/tools/hook_bounds.py) run without a budget: only code that
cannot run away qualifies, a redefined primitive or tight limits put the budget back, and
what such a hook answers is what it answered under its budget."""

from __future__ import annotations

import pytest

from harness.runtime import Runtime
from harness.scheme.interpreter import Interpreter
from harness.tools.execution import Limits
from harness.tools.hook_bounds import straight_line
from tests.hooks.test_dispatcher import make_home

GUARD = """
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (cdr (assoc "tool_name" p)) "rm")
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))
"""


@pytest.mark.parametrize(("src", "straight"), [
    ("(lambda (p) '())", True),
    ("(lambda (p) (if (equal? (cdr (assoc \"tool_name\" p)) \"rm\") (list) '()))", True),
    ("(lambda (p) (cond ((assq 'a p) => cdr) (else '())))", False),  # a procedure value call
    ("(lambda (p) `((\"message\" . ,(cdr (assoc \"x\" p)))))", True),
    ("(lambda (p) (when (not (assoc \"x\" p)) (list (cons \"block\" #t))))", True),
    ("(lambda (p) (let ((t (assoc \"x\" p))) t))", False),       # a local: shared structure
    ("(lambda (p) (g p))", False),                                 # a procedure of the file
    ("(lambda (p) (display p) '())", False),                       # writes
    ("(lambda (p) (let loop () (loop)))", False),                  # loops
    ("(lambda (p) (lambda () p))", False),                         # an inner procedure
    ("(lambda (p) (equal? gl p))", False),                         # a global variable
    ("(lambda (p) (equal? '#0=(1 . #0#) p))", False),              # a cyclic constant
    ("(lambda (p) (call/cc (lambda (k) (k 1))))", False),
    ("(lambda (p) (+ (cdr (assoc \"n\" p)) 1))", False),           # arithmetic
    ("(lambda (p q) '())", False),
])
def test_only_code_that_cannot_run_away_is_straight_line(src, straight):
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (g x) x) (define gl '(1 2))")
    assert (straight_line(interp.eval_string(src)) is not None) is straight


def test_unsandboxed_code_keeps_its_budget():
    # its budget check reads a flag the analysis does not accept: it runs under the budget
    proc = Interpreter(tier="unsandboxed").eval_string(
        "(lambda (p) (if (equal? (cdr (assoc \"a\" p)) 1) (list (cons \"block\" #t)) '()))")
    assert straight_line(proc) is None


def test_a_straight_line_guard_answers_as_under_its_budget(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": GUARD}))
    assert rt.registry.runs_for("pre_tool")[0].straight is not None
    blocked = rt.fire("pre_tool", {"tool_name": "rm", "arguments": {}})
    assert blocked["outcome"] == {"blocked": True, "message": "no rm", "arguments": {}}
    assert blocked["answers"][0]["source"].endswith("guard.scm:2")
    assert rt.fire("pre_tool", {"tool_name": "ls", "arguments": {}})["outcome"]["blocked"] \
        is False


def test_a_straight_line_hook_that_fails_is_reported_with_its_place(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (register-hook 'pre_tool (lambda (p) (cdr (assoc "missing" p))))
    """}))
    result = rt.fire("pre_tool", {"tool_name": "ls"})
    assert len(result["errors"]) == 1
    assert "a.scm:2" in result["errors"][0]["message"]
    assert result["outcome"]["blocked"] is False


def test_a_redefined_primitive_puts_the_budget_back(tmp_path):
    # the file's own tool turns equal? into a loop: the guard must then be stopped
    rt = Runtime(make_home(tmp_path, {"a.scm": GUARD + """
        (define-tool evil
          (description "turns equal? into a loop")
          (execute (lambda (args) (set! equal? (lambda (a b) (let loop () (loop)))) "done")))
    """}, toml="[limits.sandboxed]\nsteps = 200000\n"))
    assert rt.call_tool("evil", {}).output == "done"
    result = rt.fire("pre_tool", {"tool_name": "rm"})
    assert result["outcome"]["blocked"] is False
    assert "step budget" in result["errors"][0]["message"]


def test_a_hook_with_locals_keeps_its_budget(tmp_path):
    # each let could double shared structure that equal? or the answer's conversion walks
    # in full: such a hook runs under its budget
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (register-hook 'pre_tool
          (lambda (p) (let* ((a (list p p)) (b (list a a))) (if (equal? a b) '() '()))))
    """}))
    assert rt.registry.runs_for("pre_tool")[0].straight is None
    assert rt.fire("pre_tool", {"tool_name": "x"})["errors"] == []


def test_tight_limits_keep_the_budget():
    assert Limits().leave_room
    assert Limits(steps=None, seconds=None, max_memory=None).leave_room
    assert not Limits(steps=1000).leave_room
    assert not Limits(seconds=0.01).leave_room
    assert not Limits(max_memory=1 << 20).leave_room


def test_a_run_with_one_budgeted_hook_budgets_them_all(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": GUARD + """
        (register-hook 'pre_tool (lambda (p) (display "seen") '()))
    """}))
    rt.dispatcher.trace_enabled = True
    assert rt.registry.runs_for("pre_tool")[0].straight is None
    result = rt.fire("pre_tool", {"tool_name": "rm"})
    assert result["outcome"]["blocked"] is True
    assert [e.get("output") for e in result["trace"]] == [None, "seen"]


def test_a_straight_line_hook_is_traced(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": GUARD}))
    rt.dispatcher.trace_enabled = True
    [entry] = rt.fire("pre_tool", {"tool_name": "rm"})["trace"]
    assert entry["answer"] == {"block": True, "message": "no rm"}
    assert "output" not in entry and entry["ms"] >= 0
