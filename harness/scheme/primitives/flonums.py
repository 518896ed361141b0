"""Flonum operations (SRFI 144, R7RS-large's ``(scheme flonum)``).

A flonum is an inexact real (a Python float, IEEE 754 double). Every argument must be one
(``flonum`` converts a real number) and results follow IEEE 754 as C's libm does: a domain
error is a NaN (``(flsqrt -1.0)``), an overflow an infinity, never a Scheme error. The
Bessel functions are the C library's ``jn`` and ``yn`` (through ctypes): Python's math
module has no Bessel functions.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from fractions import Fraction
from itertools import pairwise

from harness.scheme.datatypes import Values
from harness.scheme.errors import error, wrong_type
from harness.scheme.numparse import to_inexact
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.numbers import as_int

LIB = "srfi 144"

_INF, _NAN = math.inf, math.nan
#: C's FP_ILOGB0 and FP_ILOGBNAN on glibc, and INT_MAX (ilogb of an infinity)
ILOGB_ZERO = ILOGB_NAN = -(2 ** 31)
_INT_MAX = 2 ** 31 - 1

CONSTANTS = {
    "fl-e": math.e, "fl-1/e": 1 / math.e, "fl-e-2": math.e ** 2,
    "fl-e-pi/4": math.exp(math.pi / 4), "fl-log2-e": 1 / math.log(2),
    "fl-log10-e": 1 / math.log(10), "fl-log-2": math.log(2), "fl-1/log-2": 1 / math.log(2),
    "fl-log-3": math.log(3), "fl-log-pi": math.log(math.pi), "fl-log-10": math.log(10),
    "fl-1/log-10": 1 / math.log(10), "fl-pi": math.pi, "fl-1/pi": 1 / math.pi,
    "fl-2pi": 2 * math.pi, "fl-pi/2": math.pi / 2, "fl-pi/4": math.pi / 4,
    "fl-pi-squared": math.pi ** 2, "fl-degree": math.pi / 180, "fl-2/pi": 2 / math.pi,
    "fl-2/sqrt-pi": 2 / math.sqrt(math.pi), "fl-sqrt-pi": math.sqrt(math.pi),
    "fl-sqrt-2": math.sqrt(2), "fl-sqrt-3": math.sqrt(3), "fl-sqrt-5": math.sqrt(5),
    "fl-sqrt-10": math.sqrt(10), "fl-1/sqrt-2": 1 / math.sqrt(2), "fl-cbrt-2": 2 ** (1 / 3),
    "fl-cbrt-3": 3 ** (1 / 3), "fl-4thrt-2": 2 ** 0.25, "fl-phi": (1 + math.sqrt(5)) / 2,
    "fl-log-phi": math.log((1 + math.sqrt(5)) / 2),
    "fl-1/log-phi": 1 / math.log((1 + math.sqrt(5)) / 2),
    "fl-euler": 0.5772156649015329, "fl-e-euler": math.exp(0.5772156649015329),
    "fl-sin-1": math.sin(1), "fl-cos-1": math.cos(1), "fl-gamma-1/2": math.gamma(1 / 2),
    "fl-gamma-1/3": math.gamma(1 / 3), "fl-gamma-2/3": math.gamma(2 / 3),
    "fl-greatest": sys.float_info.max, "fl-least": 5e-324, "fl-epsilon": sys.float_info.epsilon,
    "fl-fast-fl+*": False, "fl-integer-exponent-zero": ILOGB_ZERO,
    "fl-integer-exponent-nan": ILOGB_NAN,
}
for _name, _value in CONSTANTS.items():
    define(LIB, _name, _value)


def flonum_arg(who: str, x: object) -> float:
    if type(x) is not float:
        raise wrong_type(who, "a flonum", x)
    return x


def ieee(fn: Callable[..., float], *args: float) -> float:
    """``fn(*args)`` with C's answers where Python's math raises: NaN for a domain error,
    an infinity for an overflow."""
    try:
        return fn(*args)
    except ValueError:
        return _NAN
    except OverflowError:
        return _INF


def _define(name: str, fn: Callable, doc: str) -> None:
    fn.__doc__ = f"SRFI 144 ``{name}``: {doc}"
    define(LIB, name, fn)


def _unary(name: str, op: Callable[[float], object], doc: str) -> None:
    _define(name, lambda x: op(flonum_arg(name, x)), doc)


def _binary(name: str, op: Callable[[float, float], object], doc: str) -> None:
    _define(name, lambda x, y: op(flonum_arg(name, x), flonum_arg(name, y)), doc)


# -- constructors and accessors -------------------------------------------------------------

@primitive(LIB)
def flonum(x: object) -> float:
    """The flonum nearest the real number ``x``."""
    if type(x) not in (int, float, Fraction):
        raise wrong_type("flonum", "a real number", x)
    return to_inexact(x)  # an overflow keeps its sign


_binary("fladjacent", math.nextafter, "the flonum next to x toward y")
_binary("flcopysign", math.copysign, "the magnitude of x with the sign of y")


@primitive(LIB)
def make_flonum(x: object, n: object) -> float:
    """x * 2^n (C's ldexp)."""
    e = as_int(n)
    if type(e) is not int:
        raise wrong_type("make-flonum", "an exact integer", n)
    e = max(-100_000, min(100_000, e))  # beyond these, every flonum underflows or overflows
    m = flonum_arg("make-flonum", x)
    try:
        return math.ldexp(m, e)
    except OverflowError:
        return math.copysign(_INF, m)


def _integer_fraction(x: float) -> Values:
    fraction, integral = math.modf(x)
    return Values((integral, fraction))


def _exponent(x: float) -> float:
    if x == 0:
        return -_INF
    if not math.isfinite(x):
        return abs(x)
    return float(math.frexp(x)[1] - 1)


def _integer_exponent(x: float) -> int:
    if x == 0:
        return ILOGB_ZERO
    if math.isnan(x):
        return ILOGB_NAN
    if math.isinf(x):
        return _INT_MAX
    return math.frexp(x)[1] - 1


_unary("flinteger-fraction", _integer_fraction, "the integral and fractional parts of x")
_unary("flexponent", _exponent, "the exponent of x as a flonum (C's logb)")
_unary("flinteger-exponent", _integer_exponent, "the exponent of x (C's ilogb)")
_unary("flnormalized-fraction-exponent", lambda x: Values(math.frexp(x)),
       "a fraction in [0.5, 1) and an exponent (C's frexp)")
_unary("flsign-bit", lambda x: 1 if math.copysign(1.0, x) < 0 else 0,
       "1 if the sign bit of x is set, else 0")

# -- predicates ------------------------------------------------------------------------------


@primitive(LIB)
def flonum_p(x: object) -> bool:
    return type(x) is float


def _comparison(name: str, test: Callable[[float, float], bool]) -> None:
    def fn(*args: object) -> bool:
        xs = [flonum_arg(name, a) for a in args]
        return all(test(a, b) for a, b in pairwise(xs))
    _define(name, fn, "of any number of flonums")


for _name, _test in (("fl=?", float.__eq__), ("fl<?", float.__lt__), ("fl>?", float.__gt__),
                     ("fl<=?", float.__le__), ("fl>=?", float.__ge__)):
    _comparison(_name, _test)


def _integer_test(name: str, remainder: float) -> None:
    def test(x: float) -> bool:
        if not (math.isfinite(x) and x.is_integer()):
            raise wrong_type(name, "an integral flonum", x)
        return math.fmod(abs(x), 2.0) == remainder
    _unary(name, test, f"whether the integral flonum x is {'odd' if remainder else 'even'}")


_integer_test("flodd?", 1.0)
_integer_test("fleven?", 0.0)
_binary("flunordered?", lambda x, y: math.isnan(x) or math.isnan(y), "x or y is a NaN")
_unary("flinteger?", lambda x: math.isfinite(x) and x.is_integer(), "x is an integer")
_unary("flzero?", lambda x: x == 0, "x is zero")
_unary("flpositive?", lambda x: x > 0, "x > 0")
_unary("flnegative?", lambda x: x < 0, "x < 0")
_unary("flfinite?", math.isfinite, "x is neither infinite nor a NaN")
_unary("flinfinite?", math.isinf, "x is an infinity")
_unary("flnan?", math.isnan, "x is a NaN")
_unary("flnormalized?", lambda x: math.isfinite(x) and abs(x) >= sys.float_info.min,
       "x is a normalized flonum")
_unary("fldenormalized?", lambda x: 0 < abs(x) < sys.float_info.min,
       "x is a denormalized flonum")

# -- arithmetic ------------------------------------------------------------------------------


def _flonums(name: str, args: tuple) -> list[float]:
    return [flonum_arg(name, a) for a in args]


@primitive(LIB, name="fl+")
def fl_add(*args: object) -> float:
    result = 0.0
    for x in _flonums("fl+", args):  # left to right, as C adds
        result += x
    return result


@primitive(LIB, name="fl*")
def fl_mul(*args: object) -> float:
    result = 1.0
    for x in _flonums("fl*", args):
        result *= x
    return result


@primitive(LIB, name="fl-")
def fl_sub(x: object, *more: object) -> float:
    first = flonum_arg("fl-", x)
    if not more:
        return -first
    for y in _flonums("fl-", more):
        first -= y
    return first


@primitive(LIB, name="fl/")
def fl_div(x: object, *more: object) -> float:
    first = flonum_arg("fl/", x)
    if not more:
        return _divide(1.0, first)
    for y in _flonums("fl/", more):
        first = _divide(first, y)
    return first


def _divide(x: float, y: float) -> float:
    if y == 0:  # IEEE: a signed infinity, or a NaN for 0/0
        if x == 0 or math.isnan(x):
            return _NAN
        return math.copysign(_INF, x) * math.copysign(1.0, y)
    return x / y


@primitive(LIB, name="fl+*")
def fl_add_mul(x: object, y: object, z: object) -> float:
    """x * y + z rounded once (C's fma)."""
    a, b, c = (flonum_arg("fl+*", v) for v in (x, y, z))
    if not all(map(math.isfinite, (a, b, c))):
        return a * b + c
    return to_inexact(Fraction(a) * Fraction(b) + Fraction(c))  # an overflow keeps its sign


@primitive(LIB)
def flmax(*args: object) -> float:
    xs = _flonums("flmax", args)
    return max(xs) if xs else -_INF


@primitive(LIB)
def flmin(*args: object) -> float:
    xs = _flonums("flmin", args)
    return min(xs) if xs else _INF


def _round(fn: Callable[[float], int]) -> Callable[[float], float]:
    # through an integer the sign of a zero is lost: (flround -0.4) is -0.0
    return lambda x: math.copysign(float(fn(x)), x) if math.isfinite(x) else x


def _numerator(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    return float(Fraction(x).numerator)


def _denominator(x: float) -> float:
    if math.isnan(x):
        return x
    if math.isinf(x) or x == 0:
        return 1.0
    return float(Fraction(x).denominator)


_unary("flabs", abs, "|x|")
_binary("flabsdiff", lambda x, y: abs(x - y), "|x - y|")
_binary("flposdiff", lambda x, y: x - y if x > y else (0.0 if x <= y else _NAN),
        "x - y if positive, else 0 (C's fdim)")
_unary("flsgn", lambda x: math.copysign(1.0, x), "1.0 or -1.0, the sign of x")
_unary("flnumerator", _numerator, "the numerator of x as a rational")
_unary("fldenominator", _denominator, "the denominator of x as a rational")
_unary("flfloor", _round(math.floor), "the largest integer not above x")
_unary("flceiling", _round(math.ceil), "the smallest integer not below x")
_unary("flround", _round(round), "the nearest integer, ties to even")
_unary("fltruncate", _round(math.trunc), "x rounded toward zero")

# -- exponents and logarithms ----------------------------------------------------------------


def _cbrt(x: float) -> float:
    if not math.isfinite(x) or x == 0:
        return x
    y = abs(x) ** (1 / 3)
    y -= (y * y * y - abs(x)) / (3 * y * y)  # one Newton step: the last bit right
    return math.copysign(y, x)


def _pow(x: float, y: float) -> float:
    odd = math.isfinite(y) and y.is_integer() and math.fmod(y, 2.0) != 0
    try:
        return math.pow(x, y)
    except ValueError:  # 0 to a negative power is a pole: an infinity, else a NaN
        return math.copysign(_INF, x) if odd else (_INF if x == 0 else _NAN)
    except OverflowError:
        return -_INF if x < 0 and odd else _INF


def _log(x: float) -> float:
    if x == 0:
        return -_INF
    return ieee(math.log, x)


_unary("flexp", lambda x: ieee(math.exp, x), "e^x")
_unary("flexp2", lambda x: ieee(math.pow, 2.0, x), "2^x")
_unary("flexp-1", lambda x: ieee(math.expm1, x), "e^x - 1, accurate near 0")
_unary("flsquare", lambda x: x * x, "x * x")
_unary("flsqrt", lambda x: ieee(math.sqrt, x), "the square root of x")
_unary("flcbrt", _cbrt, "the cube root of x")
_binary("flhypot", math.hypot, "the square root of x^2 + y^2")
_binary("flexpt", lambda x, y: _pow(x, y), "x^y")
_unary("fllog", _log, "the natural logarithm of x")
_unary("fllog1+", lambda x: -_INF if x == -1 else ieee(math.log1p, x),
       "the natural logarithm of 1 + x, accurate near 0")
_unary("fllog2", lambda x: -_INF if x == 0 else ieee(math.log2, x), "the base-2 logarithm")
_unary("fllog10", lambda x: -_INF if x == 0 else ieee(math.log10, x), "the base-10 logarithm")


@primitive(LIB)
def make_fllog_base(base: object) -> Callable[[object], float]:
    """The procedure that gives the logarithm in ``base`` (a flonum above 1.0)."""
    b = flonum_arg("make-fllog-base", base)
    if not b > 1.0:
        raise wrong_type("make-fllog-base", "a flonum above 1.0", base)
    scale = math.log(b)

    def log_base(x: object) -> float:
        return _log(flonum_arg("fllog-base", x)) / scale
    return log_base


# -- trigonometry ----------------------------------------------------------------------------

def _sinh(x: float) -> float:
    try:
        return math.sinh(x)
    except OverflowError:
        return math.copysign(_INF, x)


def _atanh(x: float) -> float:
    if abs(x) == 1:
        return math.copysign(_INF, x)
    return ieee(math.atanh, x)


for _name, _fn in (("flsin", math.sin), ("flcos", math.cos), ("fltan", math.tan),
                   ("flasin", math.asin), ("flacos", math.acos), ("flcosh", math.cosh),
                   ("fltanh", math.tanh), ("flasinh", math.asinh), ("flacosh", math.acosh)):
    _unary(_name, lambda x, fn=_fn: ieee(fn, x), f"C's {_name[2:]}")
_unary("flsinh", _sinh, "C's sinh")
_unary("flatanh", _atanh, "C's atanh")


@primitive(LIB)
def flatan(y: object, x: object = None) -> float:
    """The arctangent of y, or with x that of y/x in the quadrant of (x, y)."""
    if x is None:
        return math.atan(flonum_arg("flatan", y))
    return math.atan2(flonum_arg("flatan", y), flonum_arg("flatan", x))


# -- integer division ------------------------------------------------------------------------

def _quotient(x: float, y: float) -> float:
    q = _divide(x, y)
    return float(math.trunc(q)) if math.isfinite(q) else q


def _remquo(x: float, y: float) -> Values:
    """C's remquo: the IEEE remainder and (here all of) the quotient rounded to even."""
    if not (math.isfinite(x) and math.isfinite(y)) or y == 0:
        return Values((_NAN, 0))
    q = round(Fraction(x) / Fraction(y))
    return Values((math.remainder(x, y), q))


_binary("flquotient", _quotient, "x / y rounded toward zero")
_binary("flremainder", lambda x, y: ieee(math.fmod, x, y), "x - y * (flquotient x y)")
_binary("flremquo", _remquo, "the IEEE remainder of x / y and the quotient rounded to even")

# -- special functions -----------------------------------------------------------------------


def _gamma(x: float) -> float:
    if x == 0:
        return math.copysign(_INF, x)
    return ieee(math.gamma, x)


def _log_gamma(x: float) -> Values:
    if math.isnan(x):
        return Values((x, 1.0))
    if x <= 0 and x.is_integer() or math.isinf(x):
        return Values((_INF, 1.0))
    sign = 1.0 if x > 0 or math.floor(x) % 2 == 0 else -1.0
    return Values((math.lgamma(x), sign))


_unary("flgamma", _gamma, "the gamma function")
_unary("flloggamma", _log_gamma, "log |gamma(x)| and the sign of gamma(x)")
_unary("flerf", math.erf, "the error function")
_unary("flerfc", math.erfc, "the complementary error function")


def _libm_bessel(name: str) -> Callable[[int, float], float] | None:
    """C's ``jn`` or ``yn``, loaded on first use (ctypes is not worth a start-up)."""
    import ctypes
    import ctypes.util
    path = ctypes.util.find_library("m")
    if path is None:
        return None
    try:
        fn = getattr(ctypes.CDLL(path), name)
    except (OSError, AttributeError):
        return None
    fn.restype = ctypes.c_double
    fn.argtypes = (ctypes.c_int, ctypes.c_double)
    return fn


_BESSEL: dict[str, Callable[[int, float], float] | None] = {}
_C_NAMES = {"flfirst-bessel": "jn", "flsecond-bessel": "yn"}


def _bessel(name: str) -> None:
    def fn(n: object, x: object) -> float:
        order = as_int(n)
        if type(order) is not int or not -(2 ** 31) < order < 2 ** 31:
            raise wrong_type(name, "an exact integer order", n)
        value = flonum_arg(name, x)
        if name not in _BESSEL:
            _BESSEL[name] = _libm_bessel(_C_NAMES[name])
        bessel = _BESSEL[name]
        if bessel is None:
            raise error(f"{name}: the C library's Bessel functions are not available here")
        return bessel(order, value)
    kind = "first" if name == "flfirst-bessel" else "second"
    _define(name, fn, f"the Bessel function of the {kind} kind of order n at x")


_bessel("flfirst-bessel")
_bessel("flsecond-bessel")
