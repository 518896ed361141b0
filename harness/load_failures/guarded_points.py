"""Which permission points a tool file that does not load was going to guard.

A file that fails to load has no registrations to read, so its source text is searched for
the permission points' names — plainly, as words, in any of the spellings a file can use
(``pre_shell_exec``, ``pre-shell-exec``). A name in a comment or a string counts too: a
false match denies until the file loads, which is the safe side, and a reader's tokens
would be no help for a file that does not read.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from harness.hooks.catalogue import HOOK_POINTS

__all__ = ["PERMISSION_POINTS", "permission_points_named"]

#: the hook points that decide allow / deny (SPEC §2): they never open on a broken guard
PERMISSION_POINTS = frozenset(name for name, point in HOOK_POINTS.items()
                              if point.combine == "permission")


@cache
def _pattern() -> re.Pattern[str]:
    spellings = "|".join(name.replace("_", "[_-]") for name in sorted(PERMISSION_POINTS))
    return re.compile(rf"(?<![\w-])({spellings})(?![\w-])")


def permission_points_named(path: Path) -> frozenset[str]:
    """The permission points named in the text of ``path`` (none if it cannot be read)."""
    try:
        text = path.read_bytes().decode("utf-8", "replace")
    except OSError:
        return frozenset()
    return frozenset(m.replace("-", "_") for m in _pattern().findall(text))
