"""scheme_eval sessions are per context and per calling file (issue 23, item 11): file A's
definitions were visible to file B and to the model's ``default`` session."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime


def _evaluator(point: str) -> str:
    """A file whose hook on ``point`` evaluates the payload's prompt with scheme_eval and
    keeps the result, and whose tool NAME-said returns it."""
    return f"""
(define said "")
(register-hook '{point} (lambda (p)
  (set! said (call-tool "scheme_eval" (list (cons "code" (cdr (assoc "prompt" p))))))
  '()))
(define-tool {point}-said (description "d") (execute (lambda (a) said)))
"""


def test_a_files_definitions_stay_in_its_own_session(tmp_path):
    rt = runtime(make_home(tmp_path, {"a.scm": _evaluator("pre_message"),
                                      "b.scm": _evaluator("post_message")}))
    rt.fire("pre_message", {"prompt": "(define secret 42) secret", "context_name": "alice"})
    assert rt.call_tool("pre_message-said").output.startswith("result: 42")
    rt.fire("post_message", {"prompt": "secret", "response": "", "context_name": "alice"})
    assert "unbound" in rt.call_tool("post_message-said").output  # file B: not its session
    for context in ("default", "alice"):  # the model's sessions: not file A's either
        seen = rt.call_tool("scheme_eval", {"code": "secret"}, context=context).output
        assert "unbound" in seen, context
    rt.fire("pre_message", {"prompt": "secret", "context_name": "bob"})
    assert "unbound" in rt.call_tool("pre_message-said").output  # file A, another context
    rt.fire("pre_message", {"prompt": "secret", "context_name": "alice"})
    assert rt.call_tool("pre_message-said").output.startswith("result: 42")  # it persists


def test_the_models_session_persists_per_context(tmp_path):
    rt = runtime(make_home(tmp_path))
    rt.call_tool("scheme_eval", {"code": "(define x 1)"}, context="alice")
    assert rt.call_tool("scheme_eval", {"code": "x"}, context="alice").output.startswith(
        "result: 1")
    assert "unbound" in rt.call_tool("scheme_eval", {"code": "x"}, context="bob").output
