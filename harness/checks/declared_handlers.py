"""Declared handlers (``hooks.toml`` and the Claude Code settings files of ``[hooks]``):
every source file loads, and what is wrong in its entries (the errors, which dispatches
list too, and the warnings, which show only here)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck


def check_declared_handlers(subject: HomeUnderCheck) -> Iterator[Finding]:
    handlers = subject.runtime.handlers
    errors = handlers.load_errors()
    for path, message in errors.items():
        yield Finding(ERROR, subject.relative(path), message)
    for problem in handlers.problems():
        severity = ERROR if problem.severity == "error" else WARNING
        yield Finding(severity, subject.relative(problem.file),
                      f"{problem.key}: {problem.message}" if problem.key else problem.message)
    table = handlers.table
    points = ", ".join(point for point, declared in table.by_point.items() if declared)
    for path in handlers.source_paths():
        if Path(path).is_file() and path not in errors:
            yield Finding(OK, subject.relative(path), "loads")
    if points:
        yield Finding(OK, "handlers", f"declared on {points}")
    if table.switched_off:
        yield Finding(OK, "handlers", table.switched_off)
