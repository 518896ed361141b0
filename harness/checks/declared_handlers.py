"""Declared handlers (``hooks.toml`` and the Claude Code settings files of ``[hooks]``):
every source file loads, what is wrong in its entries (the errors, which dispatches list
too, and the warnings, which show only here), and what will not work when it runs
(``harness.handlers.preflight``: a missing script, a URL off the allowlist, ...)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck
from harness.handlers.preflight import preflight


def check_declared_handlers(subject: HomeUnderCheck) -> Iterator[Finding]:
    handlers = subject.runtime.handlers
    errors = handlers.load_errors()
    for path, message in errors.items():
        yield Finding(ERROR, subject.relative(path), message)
    has_model = subject.runtime.host_model is not None or subject.config.model is not None
    in_error = set(errors)
    for problem in [*handlers.problems(), *preflight(handlers, has_model)]:
        severity = ERROR if problem.severity == "error" else WARNING
        if severity == ERROR:
            in_error.add(str(problem.file))
        yield Finding(severity, subject.relative(problem.file),
                      f"{problem.key}: {problem.message}" if problem.key else problem.message)
    table = handlers.table
    points = ", ".join(point for point, declared in table.by_point.items() if declared)
    for source in handlers.sources:
        if Path(source.path).is_file():
            if str(source.path) not in in_error:  # (an entry in error: not "ok")
                yield Finding(OK, subject.relative(source.path), "loads")
        elif source.scope != "harness":  # a mistyped path would switch its guards off
            yield Finding(WARNING, subject.relative(source.path),
                          "does not exist, so it declares no handlers (named in "
                          "harness.toml [hooks])")
    if points:
        yield Finding(OK, "handlers", f"declared on {points}")
    if table.switched_off:
        yield Finding(OK, "handlers", table.switched_off)
