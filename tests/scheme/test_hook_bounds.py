"""Leaf hooks (harness/scheme/hook_bounds.py) run under a bare budget, straight-line ones
without any: only code that cannot write, capture a continuation or recurse is a leaf, only
leaf code that cannot run away is straight-line; a redefined primitive or tight limits put
the budget back, and what such a hook answers is what it answered under the whole budget."""

from __future__ import annotations

import pytest

from harness.runtime import Runtime
from harness.sandbox.scheme_calls import Limits
from harness.scheme.hook_bounds import leaf_hook, straight_line
from harness.scheme.interpreter import Interpreter
from tests.hooks.test_dispatcher import make_home

GUARD = """
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (cdr (assoc "tool_name" p)) "rm")
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))
"""


@pytest.mark.parametrize(("src", "leaf", "straight"), [
    ("(lambda (p) '())", True, True),
    ("(lambda (p) (if (equal? (cdr (assoc \"tool_name\" p)) \"rm\") (list) '()))", True, True),
    ("(lambda (p) (cond ((assq 'a p) => cdr) (else '())))", True, False),  # a local
    ("(lambda (p) `((\"message\" . ,(cdr (assoc \"x\" p)))))", True, True),
    ("(lambda (p) (when (not (assoc \"x\" p)) (list (cons \"block\" #t))))", True, True),
    ("(lambda (p) (let ((t (assoc \"x\" p))) t))", True, True),   # a local read once
    ("(lambda (p) (let ((t (assoc \"x\" p))) (list t t)))", True, False),  # read twice
    ("(lambda (p) (set! p (list p p)) p)", False, False),           # a boxed variable
    ("(lambda (p) (let ((f car)) (f p)))", False, False),           # a procedure value call
    ("(lambda (p) (g p))", False, False),                            # a procedure of the file
    ("(lambda (p) (display p) '())", False, False),                  # writes
    ("(lambda (p) (let loop () (loop)))", False, False),             # loops
    ("(lambda (p) (lambda () p))", False, False),                    # an inner procedure
    ("(lambda (p) (let ((x p)) (lambda () x)))", False, False),      # a captured local
    ("(lambda (p) (equal? gl p))", False, False),                    # a global variable
    ("(lambda (p) (equal? '#0=(1 . #0#) p))", True, False),          # a cyclic constant
    ("(lambda (p) (call/cc (lambda (k) (k 1))))", False, False),
    ("(lambda (p) (list (cons \"prompt\" %context-name%)))", False, False),  # reads a getter
    ("(lambda (p) (let ((k call/cc)) (k (lambda (c) 1))))", False, False),
    ("(lambda (p) (+ (cdr (assoc \"n\" p)) 1))", False, False),     # arithmetic
    ("(lambda (p q) '())", False, False),
    # procedures of the file: leaf code too, never straight-line (a parameter is a local)
    ("(lambda (p) (if (equal? (tool-of p) \"rm\") (list) '()))", True, False),
    ("(lambda (p) (if (via (tool-of p) p) (list) '()))", True, False),  # calls tool-of too
    ("(lambda (p) (if (g p) (list) '()))", True, False),
    ("(lambda (p) (if (shout p) (list) '()))", False, False),   # it writes
    ("(lambda (p) (if (spin p) (list) '()))", False, False),    # it loops
    ("(lambda (p) (if (self p) (list) '()))", False, False),    # it recurses
    ("(lambda (p) (if (ping p) (list) '()))", False, False),    # they recurse together
    ("(lambda (p) (if (sum p) (list) '()))", False, False),     # arithmetic
    # member with two arguments (with a third it calls a procedure)
    ("(lambda (p) (if (member (cdr (assoc \"t\" p)) '(\"rm\" \"dd\")) (list) '()))",
     True, True),
    ("(lambda (p) (if (memq (cdr (assoc \"t\" p)) '(a b)) (list) '()))", True, True),
    ("(lambda (p) (if (member \"rm\" p equal?) (list) '()))", False, False),
    ("(lambda (p) (if (member \"rm\" p tool-of) (list) '()))", False, False),
    ("(lambda (p) (list (cons \"x\" member)))", False, False),  # as a value
    # type tests and c[ad]r accessors do a bounded amount of work, inline or called
    ("(lambda (p) (if (null? (cddr p)) '() (list)))", True, True),
    ("(lambda (p) (if (pair? (cadr (assoc \"a\" p))) (list) '()))", True, True),
    ("(lambda (p) (let ((f cadr)) (f p)))", False, False),         # a procedure value call
    ("(lambda (p) (equal? #(1 2) p))", False, False),              # a vector constant
])
def test_only_code_that_cannot_write_or_recurse_is_a_leaf(src, leaf, straight):
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("""
      (define (g x) x) (define gl '(1 2))
      (define (tool-of p) (cdr (assoc "tool_name" p)))
      (define (via tool p) (if (equal? tool (tool-of p)) (not (assoc "x" p)) #f))
      (define (shout p) (display p) #t)
      (define (spin p) (let loop ((l p)) (if (pair? l) (loop (cdr l)) #t)))
      (define (self p) (if (null? p) #t (if (self (cdr p)) #t #f)))
      (define (ping p) (if (pong p) #t #f)) (define (pong p) (if (ping p) #t #f))
      (define (sum p) (+ 1 (cdr (assoc "n" p))))""")
    proc = interp.eval_string(src)
    assert (leaf_hook(proc) is not None) is leaf
    assert (straight_line(proc) is not None) is straight


def test_unsandboxed_code_keeps_its_budget():
    # its budget check reads the stop flag (the monitor raises it at the deadline): a leaf
    # hook under its budget, never one without
    proc = Interpreter(tier="unsandboxed").eval_string(
        "(lambda (p) (if (equal? (cdr (assoc \"a\" p)) 1) (list (cons \"block\" #t)) '()))")
    assert leaf_hook(proc) is not None
    assert straight_line(proc) is None


def test_a_straight_line_guard_answers_as_under_its_budget(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": GUARD}))
    assert rt.registry.runs_for("pre_tool")[0].straight
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


HELPER_GUARD = """
(define (tool-of p) (cdr (assoc "tool_name" p)))
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (tool-of p) "rm")
        (list (cons "block" #t) (cons "message" "no rm"))
        '())))
"""


def test_a_guard_with_a_local_read_once_is_straight_line(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": """
        (register-hook 'pre_tool
          (lambda (p)
            (let ((tool (cdr (assoc "tool_name" p))))
              (if (equal? tool "rm") (list (cons "block" #t)) '()))))"""}))
    assert rt.registry.runs_for("pre_tool")[0].straight
    assert rt.fire("pre_tool", {"tool_name": "rm"})["outcome"]["blocked"] is True
    assert rt.fire("pre_tool", {"tool_name": "ls"})["outcome"]["blocked"] is False


def test_a_member_guard_answers_as_under_its_budget(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": """
        (register-hook 'pre_tool
          (lambda (p)
            (if (member (cdr (assoc "tool_name" p)) '("rm" "dd"))
                (list (cons "block" #t) (cons "message" "no"))
                '())))"""}))
    assert rt.registry.runs_for("pre_tool")[0].straight
    assert rt.fire("pre_tool", {"tool_name": "dd"})["outcome"]["blocked"] is True
    assert rt.fire("pre_tool", {"tool_name": "ls"})["outcome"]["blocked"] is False


def test_a_guard_through_a_procedure_of_its_file_is_a_leaf_hook(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": HELPER_GUARD}))
    [run] = rt.registry.runs_for("pre_tool")
    assert run.leaf is not None and not run.straight
    blocked = rt.fire("pre_tool", {"tool_name": "rm", "arguments": {}})
    assert blocked["outcome"] == {"blocked": True, "message": "no rm", "arguments": {}}
    assert rt.fire("pre_tool", {"tool_name": "ls"})["outcome"]["blocked"] is False


def test_a_redefined_procedure_puts_the_budget_back(tmp_path, capfd):
    # the file's own tool turns the guard's helper into a loop that writes: the guard must
    # then be stopped, and what it wrote captured, not printed
    rt = Runtime(make_home(tmp_path, {"a.scm": HELPER_GUARD + """
        (define-tool evil
          (description "turns tool-of into a loop")
          (execute (lambda (args)
                     (set! tool-of (lambda (p) (let loop () (display "x") (loop))))
                     "done")))
    """}, toml="[limits.sandboxed]\nsteps = 200000\n"))
    assert rt.call_tool("evil", {}).output == "done"
    assert not rt.registry.runs_for("pre_tool")[0].leaf.holds()
    result = rt.fire("pre_tool", {"tool_name": "rm"})
    assert result["outcome"]["blocked"] is False
    assert "step budget" in result["errors"][0]["message"]
    assert capfd.readouterr().out == ""


def test_a_procedure_that_doubles_its_argument_is_charged(tmp_path):
    # each call of twice doubles what the answer's conversion walks: 2^25 leaves in the
    # end, stopped by the step budget although the hook has no local of its own
    nested = "p"
    for _ in range(25):
        nested = f"(twice {nested})"
    rt = Runtime(make_home(tmp_path, {"a.scm": f"""
        (define (twice x) (list x x))
        (register-hook 'pre_tool (lambda (p) (list (cons "arguments" {nested}))))
    """}, toml="[limits.sandboxed]\nsteps = 100000\n"))
    assert rt.registry.runs_for("pre_tool")[0].leaf is not None
    [error] = rt.fire("pre_tool", {"tool_name": "x", "arguments": {}})["errors"]
    assert "converting the answer: step budget of 100,000 steps exhausted" in \
        error["message"]


def test_a_hook_with_locals_keeps_its_budget(tmp_path):
    # each let could double shared structure that equal? or the answer's conversion walks
    # in full: such a hook is a leaf hook, run under its budget
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (register-hook 'pre_tool
          (lambda (p) (let* ((a (list p p)) (b (list a a))) (if (equal? a b) '() '()))))
    """}))
    [run] = rt.registry.runs_for("pre_tool")
    assert run.leaf is not None and not run.straight
    assert rt.fire("pre_tool", {"tool_name": "x"})["errors"] == []


#: an answer of 2^25 leaves in 25 shared levels: its conversion to JSON walks them all
HUGE_ANSWER = "(let* ((a0 (list p p)) {}) (list (cons \"arguments\" a25)))".format(
    " ".join(f"(a{i + 1} (list a{i} a{i}))" for i in range(25)))


def test_a_leaf_hook_is_stopped_by_its_step_budget(tmp_path):
    # (converting its answer counts: the hook is still under its budget then)
    rt = Runtime(make_home(tmp_path, {"a.scm": f"""
        (register-hook 'pre_tool (lambda (p) {HUGE_ANSWER}))
    """}, toml="[limits.sandboxed]\nsteps = 100000\n"))
    assert rt.registry.runs_for("pre_tool")[0].leaf is not None
    result = rt.fire("pre_tool", {"tool_name": "x", "arguments": {}})
    assert result["outcome"]["blocked"] is False
    [error] = result["errors"]
    assert "a.scm:2: converting the answer: step budget of 100,000 steps exhausted" in \
        error["message"]


def test_an_unsandboxed_leaf_hook_is_stopped_at_its_deadline(tmp_path):
    rt = Runtime(make_home(tmp_path, {"a.scm": f"""
        (register-hook 'pre_tool (lambda (p) {HUGE_ANSWER}))
        (register-hook 'post_tool (lambda (p) (list (cons "note" (cdr (assoc "x" p))))))
    """}, toml='[tools.tiers]\n"" = "unsandboxed"\n[limits.unsandboxed]\nseconds = 0.2\n'))
    [run] = rt.registry.runs_for("pre_tool")
    assert run.leaf is not None and run.watch_deadline
    [error] = rt.fire("pre_tool", {"tool_name": "x", "arguments": {}})["errors"]
    assert "time limit of 0.2 s exceeded" in error["message"]
    # the budget is left clean: the next dispatch runs afresh
    after = rt.fire("post_tool", {"tool_name": "x", "x": "ok"})
    assert after["errors"] == [] and after["answers"][0]["answer"] == {"note": "ok"}


def test_a_leaf_hook_leaves_the_recursion_window_shut(tmp_path, monkeypatch):
    from harness.scheme import limits
    seen = []
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (register-hook 'pre_tool (lambda (p) (let ((t (assoc "tool_name" p))) '())))
        (register-hook 'post_tool (lambda (p) (display "x") '()))
    """}))
    monkeypatch.setattr(limits, "_setrecursionlimit", lambda n: seen.append(n))
    rt.fire("pre_tool", {"tool_name": "x"})
    assert seen == []
    rt.fire("post_tool", {"tool_name": "x"})  # the whole budget opens it
    assert seen


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
    assert rt.registry.runs_for("pre_tool")[0].leaf is None
    result = rt.fire("pre_tool", {"tool_name": "rm"})
    assert result["outcome"]["blocked"] is True
    assert [e.get("output") for e in result["trace"]] == [None, "seen"]


def test_a_straight_line_hook_is_traced(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": GUARD}))
    rt.dispatcher.trace_enabled = True
    [entry] = rt.fire("pre_tool", {"tool_name": "rm"})["trace"]
    assert entry["answer"] == {"block": True, "message": "no rm"}
    assert "output" not in entry and entry["ms"] >= 0


def test_a_file_of_its_own_assoc_gets_the_whole_payload(tmp_path):
    # the hook reads its payload through the file's own assoc, which is leaf code too:
    # only the standard assoc may be given just the keys asked for, so this hook must see
    # the whole payload (its assoc answers the entries after the first one)
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (define (assoc key alist) (cdr alist))
        (register-hook 'pre_tool
          (lambda (p) (list (cons "message" (car (car (assoc "x" p)))))))
    """}))
    assert rt.registry.runs_for("pre_tool")[0].leaf is not None
    result = rt.fire("pre_tool", {"tool_name": "ls", "arguments": {}, "x": 1})
    assert result["errors"] == []
    assert result["answers"][0]["answer"] == {"message": "arguments"}
