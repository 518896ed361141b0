"""Suggestions for misspelt names: the "did you mean" of unknown tools, settings and entries."""

from __future__ import annotations

from collections.abc import Iterable


def closest_name(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name of ``known`` closest to ``name``, or None if none is close enough."""
    import difflib  # here, not at the top: only a misspelt name pays for its import
    matches = difflib.get_close_matches(name, list(known), n=1, cutoff=cutoff)
    return matches[0] if matches else None
