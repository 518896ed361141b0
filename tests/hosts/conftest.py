"""A home with one guard per permission point, shared by the host adapter tests."""

from __future__ import annotations

import json

import pytest

from harness.runtime import Runtime

#: the guards every host must obey: no `rm -rf`, no writing or reading `.env`, no fetching
#: from evil.example, and a pre_tool rewrite of `echo SECRET` to `echo [redacted]`
GUARDS = """(import (scheme base) (srfi 130) (harness hooks))
(define (field name payload) (cdr (assoc name payload)))
(register-hook 'pre_shell_exec
  (lambda (payload)
    (if (string-prefix? "rm -rf" (field "command" payload))
        (list (cons "denied" #t) (cons "reason" "rm -rf is not allowed"))
        '())))
(register-hook 'pre_file_write
  (lambda (payload)
    (if (string-suffix? ".env" (field "path" payload))
        (list (cons "denied" #t) (cons "reason" "no writing .env"))
        '())))
(register-hook 'pre_file_read
  (lambda (payload)
    (if (string-suffix? ".env" (field "path" payload))
        (list (cons "denied" #t) (cons "reason" "no reading .env"))
        '())))
(register-hook 'pre_fetch_url
  (lambda (payload)
    (if (string-prefix? "https://evil.example" (field "url" payload))
        (list (cons "denied" #t) (cons "reason" "no evil fetches"))
        '())))
"""

REWRITE = """(import (scheme base) (harness hooks))
(register-hook 'pre_tool
  (lambda (payload)
    (let* ((args (cdr (assoc "arguments" payload)))
           (command (assoc "command" args)))
      (if (and command (equal? (cdr command) "echo SECRET"))
          (list (cons "arguments" (list (cons "command" "echo [redacted]"))))
          '()))))
"""


def make_guard_home(root, *, rewrite: bool = False, harness_toml: str | None = None):
    home = root / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guards.scm").write_text(GUARDS)
    if rewrite:
        (home / "tools" / "rewrite.scm").write_text(REWRITE)
    if harness_toml is not None:
        (home / "harness.toml").write_text(harness_toml)
    return home


@pytest.fixture
def guard_runtime(tmp_path):
    runtime = Runtime(make_guard_home(tmp_path, rewrite=True))
    yield runtime
    runtime.close()


def reply_json(reply) -> dict:
    """The JSON a command hook printed (empty: none)."""
    return json.loads(reply.stdout) if reply.stdout.strip() else {}
