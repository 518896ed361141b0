"""Tracing wraps the runners (harness.hooks.runners.TracedRunner): a traced dispatch runs
the same hooks to the same result, with one trace entry per hook."""

from __future__ import annotations

from harness.runtime import Runtime
from tests.hooks.test_dispatcher import make_home

FILES = {
    # a leaf hook (bare budget or none) that answers
    "a.scm": """(register-hook 'pre_tool (lambda (p) (if (equal? (cdr (assoc "tool_name" p)) "rm")
                   (list (cons "block" #t) (cons "message" "no rm")) '())))""",
    # two hooks of one file, through a loop (the whole budget, shared), one prints
    "b.scm": """(define (count l) (if (null? l) 0 (+ 1 (count (cdr l)))))
(register-hook 'pre_tool (lambda (p) (display "looked") (count p) '()))
(register-hook 'pre_tool (lambda (p) (count p) (car '())))""",
}


def test_traced_and_untraced_dispatches_agree(tmp_path):
    rt = Runtime(make_home(tmp_path, FILES))
    plain = rt.fire("pre_tool", {"tool_name": "rm"})
    rt.dispatcher.trace_enabled = True
    traced = rt.fire("pre_tool", {"tool_name": "rm"})
    assert {k: v for k, v in traced.items() if k != "trace"} == plain
    assert plain["outcome"]["blocked"] is True
    entries = {e["source"].rsplit("/", 1)[-1]: e for e in traced["trace"]}
    assert list(entries) == ["a.scm:1", "b.scm:2", "b.scm:3"]
    assert entries["a.scm:1"]["answer"] == {"block": True, "message": "no rm"}
    assert entries["b.scm:2"]["output"] == "looked" and "answer" not in entries["b.scm:2"]
    assert "car" in entries["b.scm:3"]["error"]
    assert all(e["ms"] >= 0 for e in entries.values())


def test_a_reentrant_dispatch_is_traced_as_skipped(tmp_path):
    rt = Runtime(make_home(tmp_path, {}))
    rt.dispatcher.trace_enabled = True
    inner = []
    rt.register_hook("pre_tool", lambda payload: inner.append(rt.fire("pre_tool", {})))
    rt.fire("pre_tool", {})
    assert inner[0]["trace"] == [{"source": "in-process", "skipped": "re-entrant dispatch"}]
