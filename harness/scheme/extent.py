"""Find where a datum ends without parsing it (for ``read`` and for error messages)."""

from __future__ import annotations

import re
from functools import cache

#: deepest nesting of lists and vectors the reader accepts: lark's parse of deep nesting
#: cannot be interrupted, so a hostile text must be refused before parsing
MAX_NESTING = 10_000

# One token at a time: strings, |symbols|, chars, comments, openers, closers, prefixes, atoms.
# Compiled when first used (a program read from the parse cache never needs it): ~0.4 ms.
_TOKEN = r'''
    (?P<ws>\s+|;[^\n]*)
  | (?P<block>\#\|)
  | (?P<string>"(?:\\.|[^"\\])*")
  | (?P<pipe>\|(?:\\.|[^|\\])*\|)
  | (?P<char>\#\\(?:.|\n)[^\s()";'`,|]*)
  | (?P<open>\(|\#\(|\#[uU]8\()
  | (?P<close>\))
  | (?P<directive>\#!(?i:fold-case|no-fold-case)(?=[\s()";']|$))
  | (?P<comment>\#;)
  | (?P<prefix>'|`|,@|,|\#\d+=)
  | (?P<atom>[^\s()";'`,|]+)
'''


@cache
def _token() -> re.Pattern:
    return re.compile(_TOKEN, re.VERBOSE | re.DOTALL)


def _skip_block(text: str, i: int) -> int | None:
    depth = 1
    n = len(text)
    while depth and i < n:
        if text.startswith("#|", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("|#", i):
            depth, i = depth - 1, i + 2
        else:
            i += 1
    return i if not depth else None


def datum_end(text: str, start: int = 0) -> int | None:
    """Offset just past the first complete datum at or after ``start``.

    None when only whitespace and comments remain. An unterminated datum extends to the end
    of the text (the parser then reports the error with its position).
    """
    i, n = start, len(text)
    depth = 0
    pending_prefix = False
    comments = 0  # `#;` datum comments waiting for the datum they remove (at depth 0)
    token = _token()
    while i < n:
        m = token.match(text, i)
        if m is None:  # an unterminated string or |symbol|
            return n
        kind = m.lastgroup
        i = m.end()
        if kind == "ws" or kind == "directive":
            continue
        if kind == "comment":
            if depth == 0:
                comments += 1
            continue
        if kind == "block":
            end = _skip_block(text, i)
            if end is None:
                return n
            i = end
            continue
        if kind == "prefix":
            pending_prefix = True
            continue
        if kind == "open":
            depth += 1
            pending_prefix = False
            if depth > MAX_NESTING:
                return n  # the reader's nesting check reports it with a position
            continue
        if kind == "close":
            depth -= 1
            if depth <= 0:
                if comments:
                    comments -= 1
                    continue
                return i
            continue
        pending_prefix = False
        if depth == 0:
            if comments:
                comments -= 1
                continue
            return i
    return n if depth or pending_prefix or comments else None


def unclosed_opener(text: str) -> int | None:
    """Offset of the outermost opening parenthesis that is never closed, if any."""
    stack: list[int] = []
    i, n = 0, len(text)
    token = _token()
    while i < n:
        m = token.match(text, i)
        if m is None:
            return None
        kind = m.lastgroup
        if kind == "open":
            stack.append(m.start())
        elif kind == "close" and stack:
            stack.pop()
        elif kind == "block":
            end = _skip_block(text, m.end())
            if end is None:
                return None
            i = end
            continue
        i = m.end()
    return stack[0] if stack else None
