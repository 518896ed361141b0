"""The home's own entries: ``tools/`` and ``plugins/`` are directories, and a name that
is close to a known one (``tool/``, ``harness.tml``) is most likely a typo."""

from __future__ import annotations

import os
from collections.abc import Iterator

from harness.checks.finding import ERROR, WARNING, Finding, HomeUnderCheck
from harness.home_layout import KNOWN_ENTRIES, stray_files
from harness.spelling import closest_name

_DIRECTORIES = ("tools", "plugins")


def check_layout(subject: HomeUnderCheck) -> Iterator[Finding]:
    home = subject.home
    for name in _DIRECTORIES:
        if (home / name).exists() and not (home / name).is_dir():
            yield Finding(ERROR, name, "is not a directory, so nothing in it is loaded")
    if not any((home / name).is_dir() for name in _DIRECTORIES):
        yield Finding(WARNING, ".", "has neither tools/ nor plugins/: no tool or hook is "
                                    "loaded from it (is this the home you meant?)")
    strays = [(where, why) for where, why in stray_files(home)
              if not where.startswith(("tools/", "plugins/"))]  # (their own checks say it)
    for where, why in strays:
        yield Finding(WARNING, where, why)
    said = {where.rstrip("/") for where, _ in strays}
    for name in sorted(os.listdir(home)):
        if name in KNOWN_ENTRIES or name in said:
            continue
        close = closest_name(name, KNOWN_ENTRIES, cutoff=0.75)
        if close:
            shown = f"{name}/" if (home / name).is_dir() else name
            yield Finding(WARNING, shown, f"is not read by harness; did you mean {close}?")
