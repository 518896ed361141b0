"""A home with guards written once, in Scheme, that every framework integration must obey.

- ``pre_shell_exec`` denies any command containing ``rm -rf`` (reason: DENY_REASON);
- ``pre_tool`` rewrites the arguments of the tool ``greet`` to ``{"name": "harness"}``;
- ``pre_file_write`` has a guard that crashes: the permission point must fail closed.
``read_file`` has no guard at all: no decision, the tool runs.
"""

from __future__ import annotations

import pytest

from harness.runtime import Runtime

DENY_REASON = "destructive delete blocked by harness"

GUARDS = f"""
(register-hook 'pre_shell_exec
  (lambda (payload)
    (if (string-contains (cdr (assoc "command" payload)) "rm -rf")
        '(("denied" . #t) ("reason" . "{DENY_REASON}"))
        '())))

(register-hook 'pre_tool
  (lambda (payload)
    (if (equal? (cdr (assoc "tool_name" payload)) "greet")
        '(("arguments" . (("name" . "harness"))))
        '())))

(register-hook 'pre_file_write
  (lambda (payload) (error "this guard is broken")))
"""


@pytest.fixture
def guarded(tmp_path) -> Runtime:
    """A Runtime over a home holding GUARDS, recording post_tool as ``rt.seen_post_tool``
    (and the shell guard's reason as ``rt.deny_reason``)."""
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "guards.scm").write_text(GUARDS)
    with Runtime(tmp_path, load_plugins=False) as rt:
        assert rt.load_errors == {}
        rt.deny_reason = DENY_REASON
        rt.seen_post_tool = []
        rt.register_hook("post_tool", lambda p: rt.seen_post_tool.append(
            (p["tool_name"], p["arguments"], p["result"])))
        yield rt
