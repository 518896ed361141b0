"""The builtin tool layer as a home sees it: builtin files that fail to load (a broken
install) and the home's tools that shadow a builtin (allowed, and said)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from harness.checks.finding import ERROR, WARNING, Finding, HomeUnderCheck


def check_builtin_layer(subject: HomeUnderCheck) -> Iterator[Finding]:
    runtime = subject.runtime
    for path, message in sorted(runtime.registry.builtins.failures().items()):
        yield Finding(ERROR, f"builtin:tools/{Path(path).name}",
                      f"the builtin tool file does not load (a broken install): {message}")
    for shadow in runtime.shadowed_builtins():
        yield Finding(WARNING, _where(subject, shadow["source"]), shadow["message"])


def _where(subject: HomeUnderCheck, source: str) -> str:
    """``scm:/home/x/tools/a.scm`` -> ``tools/a.scm``; plugin sources stay as they are."""
    kind, _, rest = source.partition(":")
    return subject.relative(rest) if kind in ("scm", "py", "hy") else source
