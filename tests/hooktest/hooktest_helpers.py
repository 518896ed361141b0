"""Shared by the ``harness test`` tests: fixture files and an in-process runner."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness.cli import test_command

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (cdr (assoc "command" (cdr (assoc "arguments" payload))))))
      (if (string-contains command "rm -rf")
          (list (cons "block" #t) (cons "message" "no rm -rf"))
          '()))))
"""


def shell(command: str) -> dict:
    return {"tool_name": "shell_exec", "arguments": {"command": command}}


def write_fixture(directory: Path, name: str, content: object) -> Path:
    """``directory/NAME.hooktest.json`` holding ``content`` (JSON, or text as is)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.hooktest.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2),
                    encoding="utf-8")
    return path


def run_harness_test(*argv: str) -> int:
    """``harness test ARGV...`` in process; returns the exit status."""
    parser = argparse.ArgumentParser(prog="harness")
    test_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["test", *argv])
    return args.run(args)
