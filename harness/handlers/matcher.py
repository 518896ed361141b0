"""Which handlers an event selects: matchers exactly as Claude Code matches them.

A matcher that is missing, ``""`` or ``"*"`` matches everything. One made only of letters,
digits, ``_``, ``-``, space, ``,`` and ``|`` is a list of exact names split on ``|`` and
``,`` (``Edit|Write``, ``Edit, Write``); anything else is a JavaScript regular expression,
unanchored (``Edit.*`` also matches ``NotebookEdit``; ``^Edit$`` does not). Matching is
case-sensitive. FileChanged and StopFailure read the narrower exact set: letters, digits,
``_`` and ``|``. FileChanged tests the changed file's base name.

JavaScript's ``\\d``, ``\\w`` and ``\\s`` are ASCII-only, so patterns compile with
``re.ASCII``; named groups ``(?<n>...)`` become Python's ``(?P<n>...)``. A pattern that
does not compile is an error of the handler's entry (reported where the entry is loaded),
and matches nothing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

__all__ = ["MATCH_ALL", "Matcher", "compile_matcher", "matched_value"]

_EXACT = re.compile(r"[A-Za-z0-9_\- ,|]*")
_EXACT_NARROW = re.compile(r"[A-Za-z0-9_|]*")  # FileChanged, StopFailure
_NARROW_EVENTS = ("FileChanged", "StopFailure")
_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")  # (?<name> but not the look-behinds (?<= (?<!


@dataclass(frozen=True)
class Matcher:
    """A compiled matcher: ``names`` (exact) or ``pattern`` (regex), or neither (all)."""

    text: str | None
    names: frozenset[str] | None = None
    pattern: re.Pattern | None = None

    def matches(self, value: object) -> bool:
        """Whether this matcher selects an event whose matched field is `value`."""
        if self.names is None and self.pattern is None:
            return True
        if not isinstance(value, str):
            return False
        if self.names is not None:
            return value in self.names
        return self.pattern.search(value) is not None


MATCH_ALL = Matcher(None)


def compile_matcher(text: str | None, event: str) -> Matcher:
    """The matcher `text` of a handler group of `event`; raises ValueError with the reason
    when it is a regular expression that does not compile."""
    if text is None or text in ("", "*"):
        return MATCH_ALL
    narrow = event in _NARROW_EVENTS
    if (_EXACT_NARROW if narrow else _EXACT).fullmatch(text):
        parts = text.split("|") if narrow else re.split(r"[|,]", text)
        return Matcher(text, names=frozenset(p.strip() for p in parts if p.strip()))
    try:
        return Matcher(text, pattern=re.compile(_NAMED_GROUP.sub("(?P<", text), re.ASCII))
    except re.error as exc:
        raise ValueError(f"matcher {text!r} is not a valid regular expression: {exc}") \
            from None


def matched_value(event: str, matcher_field: str | None, payload: dict) -> object:
    """The payload value an event's matcher is tested against."""
    if matcher_field is None:
        return None
    value = payload.get(matcher_field)
    if event == "FileChanged" and isinstance(value, str):
        return os.path.basename(value)
    return value
