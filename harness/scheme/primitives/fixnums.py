"""Fixnum operations (SRFI 143, R7RS-large's ``(scheme fixnum)``).

A fixnum is an exact integer of ``fx-width`` (62) bits, two's complement: from ``fx-least``
(-2^61) to ``fx-greatest`` (2^61 - 1). Every argument must be a fixnum and every result is
one: a result out of range is an error (``fx+: the result is not a fixnum``), never a
silent wrap-around. ``(fx- i)`` negates, as chibi-scheme allows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import reduce
from itertools import pairwise

from harness.scheme.datatypes import Values
from harness.scheme.errors import error, wrong_type
from harness.scheme.primitives import bitwise as bw
from harness.scheme.primitives import define, primitive

LIB = "srfi 143"

WIDTH = 62
GREATEST = (1 << (WIDTH - 1)) - 1
LEAST = -(1 << (WIDTH - 1))

define(LIB, "fx-width", WIDTH)
define(LIB, "fx-greatest", GREATEST)
define(LIB, "fx-least", LEAST)


def fixnum(who: str, x: object) -> int:
    """``x``, a fixnum, or the standard error."""
    if type(x) is not int or not LEAST <= x <= GREATEST:
        raise wrong_type(who, "a fixnum", x)
    return x


def result(who: str, x: int) -> int:
    """``x``, a fixnum result, or the error of an overflow."""
    if not LEAST <= x <= GREATEST:
        raise error(f"{who}: the result is not a fixnum", x)
    return x


@primitive(LIB)
def fixnum_p(x: object) -> bool:
    return type(x) is int and LEAST <= x <= GREATEST


def _comparison(name: str, test: Callable[[int, int], bool]) -> None:
    def fn(*args: object) -> bool:
        xs = [fixnum(name, a) for a in args]
        return all(test(a, b) for a, b in pairwise(xs))
    fn.__doc__ = f"SRFI 143 ``{name}`` of any number of fixnums."
    define(LIB, name, fn)


for _name, _test in (("fx=?", int.__eq__), ("fx<?", int.__lt__), ("fx>?", int.__gt__),
                     ("fx<=?", int.__le__), ("fx>=?", int.__ge__)):
    _comparison(_name, _test)


def _unary(name: str, op: Callable[[int], object]) -> None:
    def fn(i: object) -> object:
        value = op(fixnum(name, i))
        return result(name, value) if type(value) is int else value
    fn.__doc__ = f"SRFI 143 ``{name}``."
    define(LIB, name, fn)


def _binary(name: str, op: Callable[[int, int], int]) -> None:
    def fn(i: object, j: object) -> int:
        return result(name, op(fixnum(name, i), fixnum(name, j)))
    fn.__doc__ = f"SRFI 143 ``{name}`` of two fixnums."
    define(LIB, name, fn)


def _quotient(i: int, j: int) -> int:
    if j == 0:
        raise error("fxquotient: division by zero")
    q = abs(i) // abs(j)
    return -q if (i < 0) != (j < 0) else q


def _remainder(i: int, j: int) -> int:
    if j == 0:
        raise error("fxremainder: division by zero")
    return i - j * _quotient(i, j)


for _name, _op in (("fxzero?", lambda i: i == 0), ("fxpositive?", lambda i: i > 0),
                   ("fxnegative?", lambda i: i < 0), ("fxodd?", lambda i: i & 1 == 1),
                   ("fxeven?", lambda i: i & 1 == 0), ("fxneg", int.__neg__),
                   ("fxabs", abs), ("fxsquare", lambda i: i * i), ("fxnot", int.__invert__),
                   ("fxbit-count", lambda i: (i if i >= 0 else ~i).bit_count()),
                   ("fxlength", lambda i: (i if i >= 0 else ~i).bit_length()),
                   ("fxfirst-set-bit", lambda i: (i & -i).bit_length() - 1)):
    _unary(_name, _op)

for _name, _op in (("fx+", int.__add__), ("fx*", int.__mul__), ("fxquotient", _quotient),
                   ("fxremainder", _remainder)):
    _binary(_name, _op)


@primitive(LIB, name="fx-")
def fx_minus(i: object, j: object = None) -> int:
    """``(fx- i j)``: i - j; ``(fx- i)``: -i."""
    if j is None:
        return result("fx-", -fixnum("fx-", i))
    return result("fx-", fixnum("fx-", i) - fixnum("fx-", j))


def _extremum(name: str, pick: Callable) -> None:
    def fn(i: object, *more: object) -> int:
        return pick(fixnum(name, x) for x in (i, *more))
    fn.__doc__ = f"SRFI 143 ``{name}`` of one or more fixnums."
    define(LIB, name, fn)


_extremum("fxmax", max)
_extremum("fxmin", min)


@primitive(LIB)
def fxsqrt(i: object) -> Values:
    """The largest s with s * s <= i, and i - s * s (two values)."""
    n = fixnum("fxsqrt", i)
    if n < 0:
        raise wrong_type("fxsqrt", "a non-negative fixnum", i)
    s = math.isqrt(n)
    return Values((s, n - s * s))


def _carry(name: str, combine: Callable[[int, int, int], int]) -> None:
    def fn(i: object, j: object, k: object) -> Values:
        s = combine(fixnum(name, i), fixnum(name, j), fixnum(name, k))
        # s = r + q * 2^width with r in [-2^(width-1), 2^(width-1)): SRFI 143's balanced/
        r = (s + (1 << (WIDTH - 1))) % (1 << WIDTH) - (1 << (WIDTH - 1))
        return Values((r, (s - r) >> WIDTH))
    fn.__doc__ = (f"SRFI 143 ``{name}``: the low fixnum of the result and the carry "
                  "(two values).")
    define(LIB, name, fn)


_carry("fx+/carry", lambda i, j, k: i + j + k)
_carry("fx-/carry", lambda i, j, k: i - j - k)
_carry("fx*/carry", lambda i, j, k: i * j + k)


def _bitwise(name: str, op: Callable[[int, int], int], identity: int) -> None:
    def fn(*args: object) -> int:
        return reduce(op, (fixnum(name, a) for a in args), identity)
    fn.__doc__ = f"SRFI 143 ``{name}`` of any number of fixnums."
    define(LIB, name, fn)


_bitwise("fxand", int.__and__, -1)
_bitwise("fxior", int.__or__, 0)
_bitwise("fxxor", int.__xor__, 0)


def _shift(name: str, direction: int) -> None:
    """An arithmetic shift; ``direction`` 0: by the count's sign, 1: left, -1: right."""
    def fn(i: object, count: object) -> int:
        n, c = fixnum(name, i), fixnum(name, count)
        if direction and not 0 <= c < WIDTH:
            raise wrong_type(name, f"a shift count from 0 to {WIDTH - 1}", count)
        if abs(c) >= WIDTH:
            raise wrong_type(name, f"a shift count below {WIDTH} in size", count)
        c *= direction or 1
        return result(name, n << c if c >= 0 else n >> -c)
    fn.__doc__ = f"SRFI 143 ``{name}``."
    define(LIB, name, fn)


_shift("fxarithmetic-shift", 0)
_shift("fxarithmetic-shift-left", 1)
_shift("fxarithmetic-shift-right", -1)


def _in_width(who: str, k: object) -> int:
    """A bit index of a fixnum."""
    n = fixnum(who, k)
    if not 0 <= n < WIDTH:
        raise wrong_type(who, f"a bit index from 0 to {WIDTH - 1}", k)
    return n


@primitive(LIB)
def fxif(mask: object, i: object, j: object) -> int:
    m = fixnum("fxif", mask)
    return (m & fixnum("fxif", i)) | (~m & fixnum("fxif", j))


@primitive(LIB, name="fxbit-set?")
def fxbit_set_p(k: object, i: object) -> bool:
    return (fixnum("fxbit-set?", i) >> _in_width("fxbit-set?", k)) & 1 == 1


@primitive(LIB)
def fxcopy_bit(k: object, i: object, value: object) -> int:
    b = _in_width("fxcopy-bit", k)
    n = fixnum("fxcopy-bit", i)
    return result("fxcopy-bit", n | (1 << b) if value is not False else n & ~(1 << b))


def _field(who: str, start: object, end: object) -> tuple[int, int]:
    s, e = _in_width(who, start), fixnum(who, end)
    if not s <= e <= WIDTH:
        raise wrong_type(who, f"an end index from {s} to {WIDTH}", end)
    return s, e


@primitive(LIB)
def fxbit_field(i: object, start: object, end: object) -> int:
    s, e = _field("fxbit-field", start, end)
    return bw.bit_field(fixnum("fxbit-field", i), s, e)


@primitive(LIB)
def fxbit_field_rotate(i: object, count: object, start: object, end: object) -> int:
    s, e = _field("fxbit-field-rotate", start, end)
    n = bw.bit_field_rotate(fixnum("fxbit-field-rotate", i),
                            fixnum("fxbit-field-rotate", count), s, e)
    return result("fxbit-field-rotate", n)


@primitive(LIB)
def fxbit_field_reverse(i: object, start: object, end: object) -> int:
    s, e = _field("fxbit-field-reverse", start, end)
    return result("fxbit-field-reverse", bw.bit_field_reverse(fixnum("fxbit-field-reverse", i),
                                                              s, e))
