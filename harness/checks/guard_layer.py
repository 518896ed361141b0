"""The ready guards harness.toml enables ([guards], harness.guards): each one loads, with
the hooks it put on which points (a guard that does not load is an error: a broken
install, and every dispatch says so too)."""

from __future__ import annotations

from collections.abc import Iterator

from harness.checks.finding import ERROR, OK, Finding, HomeUnderCheck
from harness.guards import guard_path


def check_guard_layer(subject: HomeUnderCheck) -> Iterator[Finding]:
    runtime = subject.runtime
    for name in subject.config.guards:
        path = str(guard_path(name))
        where = f"guard:{name}"
        error = runtime.load_errors.get(path)
        if error is not None:
            yield Finding(ERROR, where, f"the guard does not load (a broken install): {error}")
            continue
        reg = runtime.registry.get(path)
        if reg is None:
            yield Finding(ERROR, where, f"the guard is enabled but not loaded ({path})")
            continue
        points = ", ".join(sorted({h.point for h in reg.hooks})) or "-"
        yield Finding(OK, where, f"enabled ({reg.tier}, {path}): hooks {points}")
