"""Character sets (SRFI 14) as sorted ranges of code points.

A ``CharSet`` keeps its members as ``bounds``, an even-length sorted list of code points
``[lo0, hi0, lo1, hi1, ...]``: each pair is a half-open range ``[lo, hi)`` of members,
and ranges neither overlap nor touch. So:

* membership is one bisect: ``code`` is a member when ``bisect_right(bounds, code)`` is
  odd (``char-set:letter`` is ~660 ranges, ``char-set:full`` two);
* the size is the sum of the range lengths, equality is list equality;
* union, intersection, difference and xor are one merge of two boundary lists
  (``combine``), complement is a difference from ``UNIVERSE``.

The universe is every Unicode scalar value: code points 0 to #x10FFFF without the
surrogates #xD800-#xDFFF, which are not characters.

A set made by the standard library may be *lazy*: its bounds are computed from the
Unicode tables on first use (see unicode_sets.py), and it is *frozen*: the linear-update
procedures (``char-set-adjoin!`` …) return a new set instead of changing it, since every
environment of the process shares it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "END_OF_SET", "MAX_CODE", "OPERATIONS", "UNIVERSE", "CharSet", "bounds_of_codes",
    "bounds_of_range", "codes", "combine", "contains", "first_member", "next_member",
    "size_of",
]

#: one past the largest code point
MAX_CODE = 0x110000
SURROGATES = (0xD800, 0xE000)
#: every character: the code points that are Unicode scalar values
UNIVERSE = [0, SURROGATES[0], SURROGATES[1], MAX_CODE]
#: the cursor that ``char-set-cursor-next`` gives past the last member
END_OF_SET = MAX_CODE


class CharSet:
    """A set of characters (see the module docstring). ``bounds`` is computed on first
    use when the set was made with ``lazy``; ``frozen`` sets are never changed."""

    __slots__ = ("_bounds", "_source", "frozen")

    def __init__(self, bounds: list[int], frozen: bool = False) -> None:
        self._bounds = bounds
        self._source: Callable[[], list[int]] | None = None
        self.frozen = frozen

    @classmethod
    def lazy(cls, source: Callable[[], list[int]]) -> CharSet:
        """A frozen set whose bounds ``source()`` computes when first needed."""
        cs = cls([], frozen=True)
        cs._bounds = None
        cs._source = source
        return cs

    @property
    def bounds(self) -> list[int]:
        b = self._bounds
        if b is None:
            b = self._bounds = self._source()
            self._source = None
        return b

    @bounds.setter
    def bounds(self, value: list[int]) -> None:
        self._bounds = value

    def __repr__(self) -> str:
        return f"#<char-set {size_of(self.bounds)}>"


def contains(bounds: list[int], code: int) -> bool:
    return bisect_right(bounds, code) & 1 == 1


def size_of(bounds: list[int]) -> int:
    return sum(bounds[1::2]) - sum(bounds[0::2])


def codes(bounds: list[int]) -> Iterator[int]:
    """Every member's code point, in ascending order."""
    for i in range(0, len(bounds), 2):
        yield from range(bounds[i], bounds[i + 1])


def next_member(bounds: list[int], code: int) -> int:
    """The smallest member above ``code``, or ``END_OF_SET``."""
    k = bisect_right(bounds, code + 1)
    if k & 1:  # code + 1 lies inside a range
        return code + 1
    return bounds[k] if k < len(bounds) else END_OF_SET


def first_member(bounds: list[int]) -> int:
    return bounds[0] if bounds else END_OF_SET


def bounds_of_codes(code_points: Iterable[int]) -> list[int]:
    """The bounds of the set of ``code_points`` (any order, repeats allowed)."""
    out: list[int] = []
    for code in sorted(set(code_points)):
        if out and out[-1] == code:
            out[-1] = code + 1
        else:
            out.append(code)
            out.append(code + 1)
    return out


def bounds_of_range(lower: int, upper: int) -> list[int]:
    """The characters with codes in ``[lower, upper)`` (surrogates left out)."""
    return combine([lower, upper] if lower < upper else [], UNIVERSE, _AND)


# How combine decides membership from membership in a and in b (bit 1: a, bit 0: b).
_OR = (False, True, True, True)
_AND = (False, False, False, True)
_AND_NOT = (False, False, True, False)
_XOR = (False, True, True, False)

OPERATIONS = {"union": _OR, "intersection": _AND, "difference": _AND_NOT, "xor": _XOR}


def combine(a: list[int], b: list[int], table: tuple[bool, bool, bool, bool]) -> list[int]:
    """The bounds of the set whose members are the codes ``c`` with
    ``table[2 * (c in a) + (c in b)]``: one merge of the two sorted boundary lists."""
    out: list[int] = []
    append = out.append
    i = j = 0
    na, nb = len(a), len(b)
    in_a = in_b = inside = False
    while i < na or j < nb:
        if j >= nb or (i < na and a[i] <= b[j]):
            x = a[i]
        else:
            x = b[j]
        if i < na and a[i] == x:
            in_a = not in_a
            i += 1
        if j < nb and b[j] == x:
            in_b = not in_b
            j += 1
        now = table[2 * in_a + in_b]
        if now is not inside:
            append(x)
            inside = now
    return out
