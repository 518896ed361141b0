"""Find where a datum ends without parsing it (for ``read`` and for error messages)."""

from __future__ import annotations

import re
from functools import cache

from harness.scheme.limits import CHUNK, charge

#: deepest nesting of lists and vectors the reader accepts: lark's parse of deep nesting
#: cannot be interrupted, so a hostile text must be refused before parsing
MAX_NESTING = 10_000
#: steps one token of ``datum_end``'s scan costs (~1.5 µs: as much as 30 plain steps)
TOKEN_STEPS = 30

# One token at a time: strings, |symbols|, chars, comments, openers, closers, prefixes, atoms.
# String and |symbol| runs are possessive: a group per character kept a backtracking frame
# per character in one C call (a 4M-character literal: 1.7 s, 580 MB).
# Compiled when first used (a program read from the parse cache never needs it): ~0.4 ms.
_TOKEN = r'''
    (?P<ws>\s+|;[^\n]*)
  | (?P<block>\#\|)
  | (?P<string>"[^"\\]*+(?:\\.[^"\\]*+)*+")
  | (?P<pipe>\|[^|\\]*+(?:\\.[^|\\]*+)*+\|)
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


_BLOCK_MARK = re.compile(r"#\||\|#")


def skip_block(text: str, i: int) -> int | None:
    """Offset just past the ``|#`` that closes a ``#|`` comment whose body starts at
    ``i`` (nested ones included), or None when it is never closed. It jumps from mark to
    mark: a long comment costs C-speed searches, not a Python step per character."""
    depth = 1
    while depth:
        mark = _BLOCK_MARK.search(text, i)
        if mark is None:
            return None
        depth += 1 if mark.group() == "#|" else -1
        i = mark.end()
    return i


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
    tokens = 0
    while i < n:
        tokens += 1
        if tokens == CHUNK:  # a Python step per token: a huge datum is counted as it goes
            charge(CHUNK * TOKEN_STEPS)
            tokens = 0
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
            end = skip_block(text, i)
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
    tokens = 0
    while i < n:
        tokens += 1
        if tokens == CHUNK:  # a Python step per token: a huge datum is counted as it goes
            charge(CHUNK * TOKEN_STEPS)
            tokens = 0
        m = token.match(text, i)
        if m is None:
            return None
        kind = m.lastgroup
        if kind == "open":
            stack.append(m.start())
        elif kind == "close" and stack:
            stack.pop()
        elif kind == "block":
            end = skip_block(text, m.end())
            if end is None:
                return None
            i = end
            continue
        i = m.end()
    return stack[0] if stack else None
