"""The standard character sets of SRFI 14, computed from Python's Unicode tables.

They follow the modern definitions of the SRFI's 2019 post-finalization note
(``contrib/unicode-2019/CharsetDefs``), with letters by general category so that each
set agrees with the (scheme char) predicate of the same meaning:

==========================  =====================================================
set                         members
==========================  =====================================================
lower-case / upper-case     the Lowercase / Uppercase properties (what
                            ``char-lower-case?`` / ``char-upper-case?`` test)
title-case                  general category Lt
letter                      categories L* (what ``char-alphabetic?`` tests)
digit                       category Nd (what ``char-numeric?`` tests)
letter+digit                letter + digit
graphic                     categories L* M* N* P* S*
printing                    graphic + whitespace
whitespace                  the White_Space property (``char-whitespace?``)
iso-control                 #x00-#x1F and #x7F-#x9F
punctuation / symbol        categories P* / S*
hex-digit                   0-9, A-F, a-f
blank                       category Zs and tab
ascii                       #x00-#x7F
==========================  =====================================================

The Unicode version is Python's (``unicodedata.unidata_version``). Reading the general
category of all 1,114,112 code points takes ~0.15 s, so it happens once, when a program
first uses a set that needs it (``CharSet.lazy``), never at start-up.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

from harness.scheme.charset import (
    MAX_CODE,
    OPERATIONS,
    UNIVERSE,
    CharSet,
    bounds_of_codes,
    codes,
    combine,
)
from harness.scheme.primitives.chars import WHITESPACE

__all__ = ["STANDARD_SETS"]

CATEGORIES = (
    "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps",
    "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs",
    "Co", "Cn",
)


@cache
def _category_table() -> bytes:
    """One byte per code point: the index of its general category in CATEGORIES."""
    index = {name: i for i, name in enumerate(CATEGORIES)}
    return bytes(map(index.__getitem__, map(unicodedata.category, map(chr, range(MAX_CODE)))))


@cache
def categories(prefixes: str) -> list[int]:
    """The bounds of the code points whose general category starts with one of the
    space-separated ``prefixes`` ("L N" is every letter and number)."""
    wanted = [i for i, name in enumerate(CATEGORIES)
              if any(name.startswith(p) for p in prefixes.split())]
    runs = re.compile(b"[" + b"".join(re.escape(bytes([i])) for i in wanted) + b"]+")
    bounds: list[int] = []
    for match in runs.finditer(_category_table()):
        bounds.append(match.start())
        bounds.append(match.end())
    return bounds


def _having(test: Callable[[str], bool]) -> list[int]:
    """The bounds of the assigned characters for which ``test(char)`` is true."""
    return bounds_of_codes(c for c in codes(categories("L M N P S Z Cc Cf")) if test(chr(c)))


def _union(*parts: list[int]) -> list[int]:
    result: list[int] = []
    for part in parts:
        result = combine(result, part, OPERATIONS["union"])
    return result


def _whitespace() -> list[int]:
    return bounds_of_codes(map(ord, WHITESPACE))


def _ranges(*pairs: tuple[int, int]) -> Callable[[], list[int]]:
    """A source of the bounds of inclusive ranges ``(first, last)``."""
    return lambda: [x for first, last in pairs for x in (first, last + 1)]


#: name (without ``char-set:``) -> how to compute its bounds
_SOURCES: dict[str, Callable[[], list[int]]] = {
    "lower-case": lambda: _having(str.islower),
    "upper-case": lambda: _having(str.isupper),
    "title-case": lambda: categories("Lt"),
    "letter": lambda: categories("L"),
    "digit": lambda: categories("Nd"),
    "letter+digit": lambda: categories("L Nd"),
    "graphic": lambda: categories("L M N P S"),
    "printing": lambda: _union(categories("L M N P S"), _whitespace()),
    "whitespace": _whitespace,
    "iso-control": _ranges((0x00, 0x1F), (0x7F, 0x9F)),
    "punctuation": lambda: categories("P"),
    "symbol": lambda: categories("S"),
    "hex-digit": _ranges((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
    "blank": lambda: _union(categories("Zs"), [0x09, 0x0A]),
    "ascii": _ranges((0x00, 0x7F)),
    "empty": list,
    "full": lambda: list(UNIVERSE),
}

#: ``char-set:NAME`` -> its frozen, lazily computed set
STANDARD_SETS: dict[str, CharSet] = {
    f"char-set:{name}": CharSet.lazy(source) for name, source in _SOURCES.items()
}
