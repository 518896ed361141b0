"""Numeric literals: the R7RS number syntax (section 7.1.1) read and written.

``parse_number`` is used by the reader and ``string->number``; ``format_number`` by the
printer and ``number->string``. Exact results follow datatypes.py: ``int``, a normalised
``Fraction``; inexact ones ``float`` or ``complex``. A complex literal whose parts are
both exact (``1+2i``, ``1/2-i``) is an ``ExactComplex`` (exact_complex.py).

Python refuses to convert an ``int`` of more than 4300 decimal digits to or from text, and
does it in quadratic time; the divide-and-conquer helpers here have neither limit.
"""

from __future__ import annotations

import decimal
import math
import re
from fractions import Fraction
from functools import cache

from harness.scheme.errors import SizeLimitExceeded
from harness.scheme.exact_complex import ExactComplex, exact_complex

__all__ = [
    "MAX_EXACT_BITS", "MAX_EXACT_DIGITS", "format_number", "int_to_text", "parse_number",
    "text_to_int", "to_inexact",
]

#: the largest exact number (in decimal digits) a literal or a computation may produce
MAX_EXACT_DIGITS = 1_000_000
MAX_EXACT_BITS = int(MAX_EXACT_DIGITS * math.log2(10)) + 1

Number = int | Fraction | float | complex | ExactComplex

_DIGITS = {2: "01", 8: "0-7", 10: "0-9", 16: "0-9a-f"}
# Python's own str<->int limit is 4300 digits; stay under it for the pieces we convert.
_DIRECT_DIGITS = 4000
_INF = math.inf
_NAN = math.nan


# -- grammar -------------------------------------------------------------------------------

@cache
def _grammar(radix: int) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """Regexes for (real, polar, rectangular) numbers in ``radix``; case-insensitive."""
    d = f"[{_DIGITS[radix]}]"
    uinteger = f"{d}+"
    ureal = f"{uinteger}(?:/{uinteger})?"
    if radix == 10:
        suffix = "(?:[esfdl][+-]?[0-9]+)?"  # s f d l: R5RS exponent markers, still read
        decimal = f"(?:[0-9]+(?:\\.[0-9]*)?{suffix}|\\.[0-9]+{suffix})"
        ureal = f"(?:{uinteger}/{uinteger}|{decimal})"
    naninf = r"(?:inf\.0|nan\.0)"
    real = f"(?:[+-]?{ureal}|[+-]{naninf})"
    flags = re.IGNORECASE
    return (
        re.compile(real, flags),
        re.compile(f"({real})@({real})", flags),
        re.compile(f"({real})?([+-])({ureal}|{naninf})?i", flags),
    )


def parse_number(text: str, radix: int = 10) -> Number | None:
    """The number ``text`` denotes, or None when it is not number syntax.

    ``radix`` is the default radix (2, 8, 10 or 16); a ``#x``/``#b``/``#o``/``#d`` prefix
    overrides it and ``#e``/``#i`` force exactness. Raises SizeLimitExceeded for an exact
    literal larger than MAX_EXACT_DIGITS.
    """
    exactness = ""
    if text[:1] == "#":
        text, radix, exactness = _strip_prefixes(text, radix)
        if not text:
            return None
    elif radix == 10:
        if text.isdigit() and text.isascii() and len(text) <= _DIRECT_DIGITS:
            return int(text)  # the common case: a plain decimal integer
        if text[:1] not in _REAL_STARTS:
            return None
    real_re, polar_re, rect_re = _grammar(radix)
    if real_re.fullmatch(text):
        return _real(text, radix, exactness)
    m = rect_re.fullmatch(text)
    if m is not None:
        re_text, sign, im_text = m.groups()
        re_part = 0 if re_text is None else _real(re_text, radix, exactness)
        im_part = _real(sign + (im_text or "1"), radix, exactness)
        if re_part is None or im_part is None:
            return None
        if im_part == 0 and type(im_part) is not float:
            return re_part
        if type(re_part) is not float and type(im_part) is not float:
            return exact_complex(re_part, im_part)
        return complex(to_inexact(re_part), to_inexact(im_part))
    m = polar_re.fullmatch(text)
    if m is not None:
        magnitude = _real(m.group(1), radix, exactness)
        angle = _real(m.group(2), radix, exactness)
        if magnitude is None or angle is None:
            return None
        if angle == 0 and type(angle) is not float:
            return magnitude
        mag, ang = to_inexact(magnitude), to_inexact(angle)
        if not math.isfinite(ang):  # cos(inf) raises: the direction is undefined, so NaN
            return complex(math.nan, math.nan)
        return complex(mag * math.cos(ang), mag * math.sin(ang))
    return None


_REAL_STARTS = frozenset("0123456789+-.")
_RADIX_PREFIXES = {"x": 16, "b": 2, "o": 8, "d": 10}


def _strip_prefixes(text: str, radix: int) -> tuple[str, int, str]:
    """Remove up to one radix and one exactness prefix; ('', ...) when they are malformed."""
    seen_radix = False
    exactness = ""
    while text[:1] == "#":
        c = text[1:2].lower()
        if c in _RADIX_PREFIXES and not seen_radix:
            radix, seen_radix = _RADIX_PREFIXES[c], True
        elif c in ("e", "i") and not exactness:
            exactness = c
        else:
            return "", radix, exactness
        text = text[2:]
    return text, radix, exactness


_EXPONENT_MARKERS = str.maketrans("sfdl", "eeee")


def _real(text: str, radix: int, exactness: str) -> Number | None:
    """The value of a text matching the ``real`` rule, with exactness applied."""
    body = text.lstrip("+-")
    negative = text[:1] == "-"
    low = body.lower()
    if low in ("inf.0", "nan.0"):
        if exactness == "e":
            return None  # infinities and NaNs have no exact value
        value = _NAN if low == "nan.0" else _INF
        return -value if negative else value
    if "/" in body:
        num_text, den_text = body.split("/")
        num, den = text_to_int(num_text, radix), text_to_int(den_text, radix)
        if den == 0:
            if exactness != "i":
                return None
            value = _NAN if num == 0 else _INF
            return -value if negative else value
        value = Fraction(-num if negative else num, den)
        if exactness == "i":
            return to_inexact(value)
        return value.numerator if value.denominator == 1 else value
    if radix == 10 and low.strip("0123456789.+-") not in ("", "e"):
        # the other exponent markers of R5RS mean the same as e
        low = low.translate(_EXPONENT_MARKERS)
        text = text.lower().translate(_EXPONENT_MARKERS)
    if radix == 10 and ("." in body or "e" in low):
        if exactness == "e":
            value = _exact_decimal(low)
            return -value if negative else value
        return float(text)
    value = text_to_int(body, radix)
    if negative:
        value = -value
    return to_inexact(value) if exactness == "i" else value


def _exact_decimal(text: str) -> int | Fraction:
    """The exact value of an unsigned decimal literal such as ``1.5e-3``."""
    mantissa, _, exp_text = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    if not digits:
        return 0
    if len(exp_text.lstrip("+-0")) > 9:  # also keeps int() under Python's digit limit
        raise SizeLimitExceeded(f"exact number {text[:40]} exceeds {MAX_EXACT_DIGITS} digits")
    exponent = (int(exp_text) if exp_text else 0) - len(frac)
    if len(digits) + exponent > MAX_EXACT_DIGITS or -exponent > MAX_EXACT_DIGITS:
        raise SizeLimitExceeded(
            f"exact number {text[:40]} exceeds {MAX_EXACT_DIGITS} digits")
    value = text_to_int(digits, 10)
    if exponent >= 0:
        return value * 10 ** exponent
    result = Fraction(value, 10 ** -exponent)
    return result.numerator if result.denominator == 1 else result


def to_inexact(x: Number) -> float | complex:
    """``x`` as an inexact number; exact values too large for a float become infinities."""
    if type(x) is float or type(x) is complex:
        return x
    if type(x) is ExactComplex:
        return complex(to_inexact(x.real), to_inexact(x.imag))
    try:
        return float(x)
    except OverflowError:
        return _INF if x > 0 else -_INF


# -- big integers <-> digits ---------------------------------------------------------------

def text_to_int(digits: str, radix: int = 10) -> int:
    """The integer whose digits (no sign) in ``radix`` are ``digits``; any length.

    Raises SizeLimitExceeded beyond MAX_EXACT_DIGITS decimal digits (or the same size in
    another radix).
    """
    if radix != 10 or len(digits) <= _DIRECT_DIGITS:
        if radix != 10 and len(digits) * math.log2(radix) > MAX_EXACT_BITS:
            raise SizeLimitExceeded(f"exact number exceeds {MAX_EXACT_DIGITS} digits")
        return int(digits, radix)  # power-of-two radixes have no digit limit in Python
    if len(digits) > MAX_EXACT_DIGITS:
        raise SizeLimitExceeded(f"exact number exceeds {MAX_EXACT_DIGITS} digits")
    powers: dict[int, int] = {}

    def pow5(w: int) -> int:
        p = powers.get(w)
        if p is None:
            p = powers[w] = 5 ** w if w <= _DIRECT_DIGITS else pow5(w >> 1) * pow5(w - (w >> 1))
        return p

    def convert(a: int, b: int) -> int:
        if b - a <= _DIRECT_DIGITS:
            return int(digits[a:b])
        mid = (a + b + 1) >> 1
        low = b - mid
        return convert(mid, b) + ((convert(a, mid) * pow5(low)) << low)  # 10**k = 5**k << k

    return convert(0, len(digits))


def int_to_text(n: int, radix: int = 10) -> str:
    """The digits of ``n`` in ``radix`` (lowercase, '-' if negative); any size."""
    if radix == 16:
        return format(n, "x")
    if radix == 8:
        return format(n, "o")
    if radix == 2:
        return format(n, "b")
    if n.bit_length() <= 13_000:  # under Python's 4300-digit str limit
        return str(n)
    if n < 0:
        return "-" + int_to_text(-n)
    return str(_int_to_decimal(n))


def _int_to_decimal(n: int) -> decimal.Decimal:
    """``n`` >= 0 as an exact Decimal, by binary splitting (libmpdec multiplies fast)."""
    two = decimal.Decimal(2)
    powers: dict[int, decimal.Decimal] = {}

    def pow2(w: int) -> decimal.Decimal:
        p = powers.get(w)
        if p is None:
            p = powers[w] = two ** w if w <= 128 else pow2(w >> 1) * pow2(w - (w >> 1))
        return p

    def convert(x: int, width: int) -> decimal.Decimal:
        if width <= 128:
            return decimal.Decimal(x)
        half = width >> 1
        hi = x >> half
        return convert(x - (hi << half), half) + convert(hi, width - half) * pow2(half)

    with decimal.localcontext() as ctx:
        ctx.prec = decimal.MAX_PREC
        ctx.Emax = decimal.MAX_EMAX
        ctx.traps[decimal.Inexact] = True
        return convert(n, n.bit_length())


# -- writing -------------------------------------------------------------------------------

def format_number(x: Number, radix: int = 10) -> str:
    """The external representation of ``x`` in ``radix`` (2, 8, 10 or 16).

    Raises ValueError for a non-integral inexact real in a radix other than 10.
    """
    t = type(x)
    if t is int:
        return int_to_text(x, radix)
    if t is Fraction:
        if x.denominator == 1:  # inlined arithmetic can leave one, e.g. (+ 1/3 2/3)
            return int_to_text(x.numerator, radix)
        return f"{int_to_text(x.numerator, radix)}/{int_to_text(x.denominator, radix)}"
    if t is float:
        return _float_text(x, radix)
    if t is ExactComplex:
        imag = format_number(x.imag, radix)
        if imag[0] != "-":
            imag = "+" + imag
        if imag in ("+1", "-1"):  # 1+i, -i
            imag = imag[0]
        return imag + "i" if x.real == 0 else format_number(x.real, radix) + imag + "i"
    if t is complex:
        imag = _float_text(x.imag, radix)
        if imag[0] not in "+-":
            imag = "+" + imag
        if x.real == 0 and math.copysign(1.0, x.real) > 0:
            return imag + "i"
        return _float_text(x.real, radix) + imag + "i"
    raise TypeError(f"not a number: {x!r}")


def _float_text(x: float, radix: int) -> str:
    if math.isnan(x):
        return "+nan.0"
    if x == _INF:
        return "+inf.0"
    if x == -_INF:
        return "-inf.0"
    if radix != 10:
        if not x.is_integer():
            raise ValueError("inexact non-integers are written in radix 10 only")
        return "#i" + int_to_text(int(x), radix)
    text = repr(x)
    if "e" in text:
        mantissa, _, exponent = text.partition("e")
        return f"{mantissa}e{int(exponent)}"  # '1e+21' -> '1e21', '1.5e-07' -> '1.5e-7'
    return text
