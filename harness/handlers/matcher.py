"""Which handlers an event selects: matchers exactly as Claude Code matches them.

A matcher that is missing, ``""`` or ``"*"`` matches everything. One made only of letters,
digits, ``_``, ``-``, space, ``,`` and ``|`` is a list of exact names split on ``|`` and
``,`` (``Edit|Write``, ``Edit, Write``); anything else is a JavaScript regular expression,
unanchored (``Edit.*`` also matches ``NotebookEdit``; ``^Edit$`` does not). Matching is
case-sensitive. FileChanged and StopFailure read the narrower exact set: letters, digits,
``_`` and ``|``. FileChanged tests the changed file's base name.

JavaScript's ``\\d``, ``\\w`` and ``\\s`` are ASCII-only, so patterns compile with
``ASCII``; named groups ``(?<n>...)`` become ``(?P<n>...)``. A pattern that does not
compile is an error of the handler's entry (reported where the entry is loaded), and
matches nothing.

Patterns run on the ``regex`` package, not ``re`` (issue 23, item 14): a backtracking
pattern such as ``(a+)+$`` held the GIL in one ``re`` call and froze every thread of
``serve --socket`` for 42 s. Here a match releases the GIL (``concurrent``) and gives up
after MATCH_SECONDS; a match that gives up counts as a match, so a guard's handler still
runs (fail closed) and a slow matcher costs one dispatch at most MATCH_SECONDS.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import regex

__all__ = ["MATCH_ALL", "MATCH_SECONDS", "Matcher", "compile_matcher", "matched_value"]

#: how long one matcher may search one value before it counts as matched
MATCH_SECONDS = 0.05

_EXACT = re.compile(r"[A-Za-z0-9_\- ,|]*")
_EXACT_NARROW = re.compile(r"[A-Za-z0-9_|]*")  # FileChanged, StopFailure
_NARROW_EVENTS = ("FileChanged", "StopFailure")
_NAMED_GROUP = re.compile(r"\(\?<(?![=!])")  # (?<name> but not the look-behinds (?<= (?<!


@dataclass(frozen=True)
class Matcher:
    """A compiled matcher: ``names`` (exact) or ``pattern`` (regex), or neither (all)."""

    text: str | None
    names: frozenset[str] | None = None
    pattern: regex.Pattern | None = None

    def matches(self, value: object) -> bool:
        """Whether this matcher selects an event whose matched field is `value`."""
        if self.names is None and self.pattern is None:
            return True
        if not isinstance(value, str):
            return False
        if self.names is not None:
            return value in self.names
        try:
            return self.pattern.search(value, timeout=MATCH_SECONDS, concurrent=True) \
                is not None
        except TimeoutError:
            return True


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
        return Matcher(text, pattern=regex.compile(_NAMED_GROUP.sub("(?P<", text),
                                                   regex.ASCII))
    except regex.error as exc:
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
