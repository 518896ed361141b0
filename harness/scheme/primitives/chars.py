"""Characters: the char procedures of (scheme base) and (scheme char).

A Scheme char is an interned ``Char`` (``Char.of``), so ``char=?`` is identity. Case
mapping is Unicode's simple (one character to one character) mapping, as R7RS asks of the
char procedures; characters whose mapping would need several characters stay as they are.
"""

from __future__ import annotations

import operator
import unicodedata
from collections.abc import Callable

from harness.scheme.datatypes import Char
from harness.scheme.errors import error, wrong_type
from harness.scheme.primitives import primitive
from harness.scheme.primitives.numbers import as_int

__all__ = ["WHITESPACE", "char_arg", "fold_char"]

BASE = "scheme base"
CHAR = "scheme char"

#: the Unicode White_Space property (Python's isspace() also accepts \x1c-\x1f)
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_WHITESPACE_SET = frozenset(WHITESPACE)
_MAX_CODE_POINT = 0x10FFFF


def char_arg(who: str, x: object) -> str:
    """The text of a Char argument, or the standard wrong-type error."""
    if type(x) is not Char:
        raise wrong_type(who, "a character", x)
    return x.c


def _simple(mapped: str, c: str) -> str:
    return mapped if len(mapped) == 1 else c


def fold_char(c: str) -> str:
    """Simple case folding of one character (``ß`` stays ``ß``)."""
    folded = c.casefold()
    if len(folded) == 1:
        return folded
    return _simple(c.lower(), c)


# -- comparison ----------------------------------------------------------------------------

def _char_chain(who: str, op: Callable, key: Callable | None) -> Callable:
    def compare(first: object, *more: object) -> bool:
        texts = [char_arg(who, first)]
        texts.extend(char_arg(who, x) for x in more)
        if key is not None:
            texts = list(map(key, texts))
        return all(map(op, texts, texts[1:]))
    compare.__doc__ = f"R7RS ``{who}``: true when each character is {who} the next."
    return compare


char_eq_p = primitive(BASE, name="char=?")(_char_chain("char=?", operator.eq, None))
char_lt_p = primitive(BASE, name="char<?")(_char_chain("char<?", operator.lt, None))
char_gt_p = primitive(BASE, name="char>?")(_char_chain("char>?", operator.gt, None))
char_le_p = primitive(BASE, name="char<=?")(_char_chain("char<=?", operator.le, None))
char_ge_p = primitive(BASE, name="char>=?")(_char_chain("char>=?", operator.ge, None))
char_ci_eq_p = primitive(CHAR, name="char-ci=?")(_char_chain("char-ci=?", operator.eq, fold_char))
char_ci_lt_p = primitive(CHAR, name="char-ci<?")(_char_chain("char-ci<?", operator.lt, fold_char))
char_ci_gt_p = primitive(CHAR, name="char-ci>?")(_char_chain("char-ci>?", operator.gt, fold_char))
char_ci_le_p = primitive(CHAR, name="char-ci<=?")(
    _char_chain("char-ci<=?", operator.le, fold_char))
char_ci_ge_p = primitive(CHAR, name="char-ci>=?")(
    _char_chain("char-ci>=?", operator.ge, fold_char))


# -- base ----------------------------------------------------------------------------------

@primitive(BASE)
def char_p(x: object) -> bool:
    return type(x) is Char


@primitive(BASE)
def char_to_integer(char: object) -> int:
    return ord(char_arg("char->integer", char))


@primitive(BASE)
def integer_to_char(n: object) -> Char:
    """R7RS ``integer->char`` for a Unicode scalar value (surrogates are refused)."""
    if type(n) is not int and type(n := as_int(n)) is not int:
        raise wrong_type("integer->char", "an exact integer", n)
    if not 0 <= n <= _MAX_CODE_POINT or 0xD800 <= n <= 0xDFFF:
        raise error("integer->char: not a Unicode scalar value", n)
    return Char.of(chr(n))


# -- (scheme char) -------------------------------------------------------------------------

@primitive(CHAR)
def char_alphabetic_p(char: object) -> bool:
    return char_arg("char-alphabetic?", char).isalpha()


@primitive(CHAR)
def char_numeric_p(char: object) -> bool:
    return char_arg("char-numeric?", char).isdecimal()


@primitive(CHAR)
def char_whitespace_p(char: object) -> bool:
    return char_arg("char-whitespace?", char) in _WHITESPACE_SET


@primitive(CHAR)
def char_upper_case_p(char: object) -> bool:
    return char_arg("char-upper-case?", char).isupper()


@primitive(CHAR)
def char_lower_case_p(char: object) -> bool:
    return char_arg("char-lower-case?", char).islower()


@primitive(CHAR)
def digit_value(char: object) -> int | bool:
    """R7RS ``digit-value``: the value of a decimal digit (any script), else #f."""
    value = unicodedata.decimal(char_arg("digit-value", char), None)
    return False if value is None else value


@primitive(CHAR)
def char_upcase(char: object) -> Char:
    c = char_arg("char-upcase", char)
    return Char.of(_simple(c.upper(), c))


@primitive(CHAR)
def char_downcase(char: object) -> Char:
    c = char_arg("char-downcase", char)
    return Char.of(_simple(c.lower(), c))


@primitive(CHAR)
def char_foldcase(char: object) -> Char:
    return Char.of(fold_char(char_arg("char-foldcase", char)))
