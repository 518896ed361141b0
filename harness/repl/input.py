"""When is a typed entry finished? When every datum in it is complete (balanced parentheses,
closed strings and block comments, no dangling quote)."""

from __future__ import annotations

from harness.scheme.extent import datum_end


def is_complete(text: str) -> bool:
    """True when ``text`` holds only complete data (or nothing but blanks and comments).

    ``datum_end`` lets an unfinished datum run to the end of the text, so a datum that also
    swallows an extra newline appended to the text is unfinished.
    """
    probe = text + "\n"
    pos = 0
    while (end := datum_end(probe, pos)) is not None:
        if end > len(text):
            return False
        pos = end
    return True
