"""A TOML syntax error as harness reports every error in a file: ``FILE:LINE:COL: message``,
the line and a caret (tomllib puts the place at the end of its message)."""

from __future__ import annotations

import re

_PLACE = re.compile(r" \(at line (\d+), column (\d+)\)$")


def toml_error(path: object, text: str, message: str) -> str:
    """tomllib's ``Expected ']' ... (at line 1, column 13)`` for the file ``path`` whose
    text is ``text``, as ``PATH:1:13: Expected ']' ...`` with the line and a caret."""
    from harness.scheme.errors import SourcePos, caret_excerpt
    found = _PLACE.search(message)
    if found is None:
        return f"{path}: {message}"
    where = SourcePos(str(path), int(found[1]), int(found[2]))
    excerpt = caret_excerpt(text, where)
    return f"{path}:{where.line}:{where.col}: {message[:found.start()]}" + (
        f"\n{excerpt}" if excerpt else "")
