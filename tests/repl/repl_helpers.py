"""Shared by the REPL tests: tool files, and a small home with one hook and one tool."""

from __future__ import annotations

from pathlib import Path

GUARD = """\
;; blocks rm -rf
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (cond ((assoc "command" (cdr (assoc "arguments" payload))) => cdr)
                         (else ""))))
      (if (string-contains command "rm -rf")
          (list (cons "block" #t) (cons "message" "no rm -rf"))
          '()))))
"""

GREET = """\
(define-tool greet
  (description "Greet someone by name")
  (parameters '((name . ((type . "string")))))
  (execute (lambda (args) (string-append "Hello, " (cdr (assoc "name" args)) "!"))))
"""

BROKEN = """\
(register-hook 'pre_tool
  (lambda (payload)
    (car '())))
(define oops (car 5))
"""


def write_home(home: Path) -> Path:
    """HOME/tools/guard.scm (a pre_tool hook) and HOME/tools/greet.scm (a tool)."""
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD, encoding="utf-8")
    (home / "tools" / "greet.scm").write_text(GREET, encoding="utf-8")
    return home
