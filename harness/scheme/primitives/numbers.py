"""The numeric procedures of (scheme base), (scheme inexact) and (scheme complex).

Exact numbers are ``int`` and ``Fraction``; inexact ones ``float`` and ``complex``. Every
result is normalised: a Fraction with denominator 1 becomes an ``int`` and a complex with
a zero imaginary part becomes a ``float``. Booleans are never numbers (``type(x) is int``).

Inlined ``+``, ``-`` and ``*`` skip that normalisation, so an integral Fraction such as
``(+ 1/3 2/3)`` can reach any procedure: every check for an exact integer accepts one
(``as_int``), and results passed through unchanged are normalised.

The compiler inlines two-argument arithmetic as Python operators; the procedures here serve
every other arity and the procedures passed as values, so the all-``int`` paths stay in C
(``sum``, ``math.prod``, ``map``) where they can.
"""

from __future__ import annotations

import cmath
import math
import operator
from collections.abc import Callable
from fractions import Fraction

from harness.scheme.datatypes import DEFAULT, String, Values
from harness.scheme.errors import SizeLimitExceeded, error, wrong_type
from harness.scheme.exact_complex import ExactComplex, exact_complex
from harness.scheme.limits import charge_work
from harness.scheme.numparse import (
    MAX_EXACT_BITS,
    MAX_EXACT_DIGITS,
    format_number,
    parse_number,
    to_inexact,
)
from harness.scheme.primitives import primitive

Number = int | Fraction | float | complex | ExactComplex

_NUMBER_TYPES = frozenset((int, Fraction, float, complex, ExactComplex))
_REAL_TYPES = frozenset((int, Fraction, float))
_EXACT_TYPES = frozenset((int, Fraction))
_EXACT_NUMBER_TYPES = frozenset((int, Fraction, ExactComplex))
_COMPLEX_TYPES = frozenset((complex, ExactComplex))
_INT_ONLY = frozenset((int,))
_FLOAT_ONLY = frozenset((float,))
_RADIXES = (2, 8, 10, 16)
_INF = math.inf
_NAN = math.nan

BASE = "scheme base"
INEXACT = "scheme inexact"
COMPLEX = "scheme complex"


# -- helpers -------------------------------------------------------------------------------

def normalise(x: Number) -> Number:
    """``x`` with an integral Fraction made ``int``. An inexact complex keeps an imaginary
    part of 0.0 (it is not real: R7RS 6.2.6 ``(real? -2.5+0.0i)``; only an exact zero
    imaginary part folds, as in ``1+0i``)."""
    if type(x) is Fraction and x.denominator == 1:
        return x.numerator
    return x


def as_int(x: object) -> object:
    """``x`` itself, except that an integral Fraction becomes the ``int`` it equals.

    Inlined arithmetic can leave one (``(+ 1/3 2/3)`` is ``Fraction(1, 1)``); after this
    call ``type(x) is int`` holds for every exact integer. Checks keep their int fast path:
    ``if type(k) is not int and type(k := as_int(k)) is not int: raise ...``.
    """
    if type(x) is Fraction and x.denominator == 1:
        return x.numerator
    return x


def _first_bad(who: str, expected: str, args: tuple, ok: frozenset) -> Exception:
    for x in args:
        if type(x) not in ok:
            return wrong_type(who, expected, x)
    raise AssertionError("no bad argument")


def _number(who: str, x: object) -> Number:
    if type(x) not in _NUMBER_TYPES:
        raise wrong_type(who, "a number", x)
    return x


def _real(who: str, x: object) -> int | Fraction | float:
    """``x``, a real (an inexact complex is not one, even with an imaginary part of 0.0)."""
    if type(x) in _REAL_TYPES:
        return x
    raise wrong_type(who, "a real number", x)


def _reals(who: str, args: tuple) -> tuple:
    if _REAL_TYPES.issuperset(map(type, args)):
        return args
    return tuple(_real(who, x) for x in args)


def _integer(who: str, x: object) -> tuple[int, bool]:
    """``x`` as an ``int`` plus whether it was inexact (an integral float)."""
    t = type(x)
    if t is int:
        return x, False
    if t is Fraction and x.denominator == 1:
        return x.numerator, False
    if t is float and x.is_integer():
        return int(x), True
    raise wrong_type(who, "an integer", x)


# One big-number operation is one C call that no limit can interrupt: it is charged before
# it starts, (limbs of a) x (limbs of b) / this many steps, as measured on CPython 3.11
# (a step ~50 ns; per pair of 30-bit limbs: multiplication ~0.2 ns, division ~1-2 ns,
# gcd ~3 ns, isqrt ~0.5 ns); charge_work also refuses one that would end past a deadline.
_LIMB_PAIRS_PER_STEP = {"mul": 200, "div": 32, "gcd": 16, "sqrt": 64}
_FREE_LIMB_PAIRS = 1_000_000  # operands of ~30,000 bits and less cost nothing extra


def _charge_big(kind: str, a_bits: int, b_bits: int) -> None:
    pairs = (a_bits // 30 + 1) * (b_bits // 30 + 1)
    if pairs > _FREE_LIMB_PAIRS:
        charge_work(pairs // _LIMB_PAIRS_PER_STEP[kind])


def _exact_size_check(who: str, bits: float) -> None:
    if bits > MAX_EXACT_BITS:
        raise SizeLimitExceeded(f"{who}: exact result would exceed {MAX_EXACT_DIGITS} digits")


def _bits(x: Number) -> int:
    """The size in bits of an exact number (0 for inexact ones)."""
    t = type(x)
    if t is int:
        return x.bit_length()
    if t is Fraction:
        return x.numerator.bit_length() + x.denominator.bit_length()
    if t is ExactComplex:
        return _bits(x.real) + _bits(x.imag)
    return 0


def _is_nan(x: Number) -> bool:
    return type(x) is float and math.isnan(x)


def _inexact_all(args: tuple) -> tuple:
    return tuple(to_inexact(x) for x in args)


# -- predicates ----------------------------------------------------------------------------

@primitive(BASE)
def number_p(x: object) -> bool:
    return type(x) in _NUMBER_TYPES


@primitive(BASE)
def complex_p(x: object) -> bool:
    return type(x) in _NUMBER_TYPES


@primitive(BASE)
def real_p(x: object) -> bool:
    return type(x) in _REAL_TYPES


@primitive(BASE)
def rational_p(x: object) -> bool:
    t = type(x)
    if t is int or t is Fraction:
        return True
    return t is float and math.isfinite(x)


@primitive(BASE)
def integer_p(x: object) -> bool:
    t = type(x)
    if t is int or (t is Fraction and x.denominator == 1):
        return True
    return t is float and x.is_integer()


@primitive(BASE)
def exact_p(z: object) -> bool:
    return type(_number("exact?", z)) in _EXACT_NUMBER_TYPES


@primitive(BASE)
def inexact_p(z: object) -> bool:
    return type(_number("inexact?", z)) not in _EXACT_NUMBER_TYPES


@primitive(BASE)
def exact_integer_p(x: object) -> bool:
    return type(x) is int or type(as_int(x)) is int


@primitive(BASE)
def exact_rational_p(x: object) -> bool:
    return type(x) in _EXACT_TYPES


@primitive(INEXACT)
def nan_p(z: object) -> bool:
    z = _number("nan?", z)
    if type(z) is complex:
        return math.isnan(z.real) or math.isnan(z.imag)
    return _is_nan(z)


@primitive(INEXACT)
def infinite_p(z: object) -> bool:
    z = _number("infinite?", z)
    if type(z) is complex:
        return math.isinf(z.real) or math.isinf(z.imag)
    return type(z) is float and math.isinf(z)


@primitive(INEXACT)
def finite_p(z: object) -> bool:
    z = _number("finite?", z)
    if type(z) is complex:
        return math.isfinite(z.real) and math.isfinite(z.imag)
    return type(z) is not float or math.isfinite(z)


@primitive(BASE)
def zero_p(z: object) -> bool:
    return _number("zero?", z) == 0


@primitive(BASE)
def positive_p(x: object) -> bool:
    return _real("positive?", x) > 0


@primitive(BASE)
def negative_p(x: object) -> bool:
    return _real("negative?", x) < 0


@primitive(BASE)
def odd_p(n: object) -> bool:
    return _integer("odd?", n)[0] & 1 == 1


@primitive(BASE)
def even_p(n: object) -> bool:
    return _integer("even?", n)[0] & 1 == 0


# -- comparison ----------------------------------------------------------------------------

def _real_chain(who: str, op: Callable) -> Callable:
    def compare(first: object, *more: object) -> bool:
        if len(more) == 1 and type(first) is int and type(more[0]) is int:
            return op(first, more[0])  # the common case, e.g. a sort predicate
        args = _reals(who, (first, *more))
        return all(map(op, args, args[1:]))
    compare.__doc__ = f"R7RS ``{who}``: true when each argument is {who} the next."
    return compare


@primitive(BASE, name="=")
def num_eq(first: object, *more: object) -> bool:
    """R7RS ``=``: true when all arguments are numerically equal."""
    args = (first, *more)
    if not _NUMBER_TYPES.issuperset(map(type, args)):
        raise _first_bad("=", "a number", args, _NUMBER_TYPES)
    return all(map(operator.eq, args, args[1:]))


num_lt = primitive(BASE, name="<")(_real_chain("<", operator.lt))
num_gt = primitive(BASE, name=">")(_real_chain(">", operator.gt))
num_le = primitive(BASE, name="<=")(_real_chain("<=", operator.le))
num_ge = primitive(BASE, name=">=")(_real_chain(">=", operator.ge))


def _extremum(who: str, pick: Callable) -> Callable:
    def extremum(first: object, *more: object) -> Number:
        args = _reals(who, (first, *more))
        if float not in map(type, args):
            return normalise(pick(args))
        if any(map(_is_nan, args)):
            return _NAN
        return to_inexact(pick(args))  # one inexact argument makes the result inexact
    extremum.__doc__ = f"R7RS ``{who}`` (inexact if any argument is)."
    return extremum


max_ = primitive(BASE, name="max")(_extremum("max", max))
min_ = primitive(BASE, name="min")(_extremum("min", min))


# -- arithmetic ----------------------------------------------------------------------------

@primitive(BASE, name="+")
def add(*args: object) -> Number:
    """R7RS ``+``."""
    if not _NUMBER_TYPES.issuperset(map(type, args)):
        raise _first_bad("+", "a number", args, _NUMBER_TYPES)
    try:
        return normalise(sum(args))
    except OverflowError:  # an exact number too big for a float met an inexact one
        return normalise(sum(_inexact_all(args)))



@primitive(BASE, name="*")
def mul(*args: object) -> Number:
    """R7RS ``*``; refuses exact products larger than MAX_EXACT_DIGITS."""
    if len(args) == 2:
        a, b = args
        if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() < 64:
            return a * b
        if type(a) is float and type(b) is float:  # floats cannot grow: nothing to check
            return a * b
    types = set(map(type, args))
    if types == _FLOAT_ONLY:
        return math.prod(args)
    if types <= _INT_ONLY:
        if len(args) > 1 and 0 not in args:
            total = sum(map(int.bit_length, args))
            _exact_size_check("*", total)
            _charge_big("mul", total // 2, total // 2)
        return math.prod(args)
    if not types <= _NUMBER_TYPES:
        raise _first_bad("*", "a number", args, _NUMBER_TYPES)
    result: Number = 1
    for x in args:
        result = _mul2(result, x)
    return normalise(result)


def _mul2(a: Number, b: Number) -> Number:
    if a != 0 and b != 0:
        _exact_size_check("*", _bits(a) + _bits(b))
        _charge_big("gcd" if type(a) is Fraction or type(b) is Fraction else "mul",
                    _bits(a), _bits(b))
    try:
        return a * b
    except OverflowError:
        return to_inexact(a) * to_inexact(b)


@primitive(BASE, name="-")
def sub(first: object, *more: object) -> Number:
    """R7RS ``-``: negation with one argument, else left-to-right subtraction."""
    args = (first, *more)
    if not _NUMBER_TYPES.issuperset(map(type, args)):
        raise _first_bad("-", "a number", args, _NUMBER_TYPES)
    if not more:
        return normalise(-first)
    result = first
    for x in more:
        try:
            result = result - x
        except OverflowError:
            result = to_inexact(result) - to_inexact(x)
    return normalise(result)


@primitive(BASE, name="/")
def div(first: object, *more: object) -> Number:
    """R7RS ``/``: exact division gives a normalised Fraction; an exact zero divisor is an
    error unless the dividend is inexact (then IEEE rules give an infinity or NaN)."""
    args = (first, *more)
    if not _NUMBER_TYPES.issuperset(map(type, args)):
        raise _first_bad("/", "a number", args, _NUMBER_TYPES)
    if not more:
        return _div2(1, first)
    result = first
    for x in more:
        result = _div2(result, x)
    return result


def _div2(a: Number, b: Number) -> Number:
    ta, tb = type(a), type(b)
    _charge_big("gcd", _bits(a), _bits(b))  # an exact quotient is reduced by a gcd
    if b == 0:
        if ta in _EXACT_NUMBER_TYPES and tb in _EXACT_TYPES:
            raise error("/: division by zero")
        return _divide_by_zero(a, b)
    if ta is int and tb is int:
        return a // b if a % b == 0 else Fraction(a, b)
    try:
        if ta is int and tb is Fraction:
            return normalise(Fraction(a) / b)
        return normalise(a / b)
    except OverflowError:
        return normalise(to_inexact(a) / to_inexact(b))


def _divide_by_zero(a: Number, b: Number) -> float | complex:
    """IEEE division of ``a`` by a zero ``b`` (one of them inexact)."""
    sign = math.copysign(1.0, b.real if type(b) is complex else float(b))
    if type(a) is ExactComplex:
        a = to_inexact(a)
    if type(a) is complex:
        return complex(_ieee_over_zero(a.real, sign), _ieee_over_zero(a.imag, sign))
    return _ieee_over_zero(to_inexact(a), sign)


def _ieee_over_zero(x: float, sign: float) -> float:
    if math.isnan(x) or x == 0:
        return _NAN
    return math.copysign(_INF, x) * sign


@primitive(BASE, name="abs")
def abs_(x: object) -> Number:
    """R7RS ``abs`` of a real number."""
    return normalise(abs(_real("abs", x)))


# -- integer division ----------------------------------------------------------------------

def division_args(who: str, n1: object, n2: object) -> tuple[int, int, bool]:
    """Two integer arguments as ints, the divisor not zero, and whether one was inexact."""
    a, inexact_a = _integer(who, n1)
    b, inexact_b = _integer(who, n2)
    if b == 0:
        raise error(f"{who}: division by zero")
    _charge_big("div", a.bit_length(), b.bit_length())
    return a, b, inexact_a or inexact_b


def _truncating(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q, a - q * b


def division_result(x: int, inexact: bool) -> int | float:
    """``x``, inexact if an argument was."""
    return to_inexact(x) if inexact else x


@primitive(BASE, name="floor/")
def floor_divide(n1: object, n2: object) -> Values:
    """R7RS ``floor/``: the floor quotient and remainder as two values."""
    a, b, inexact = division_args("floor/", n1, n2)
    q, r = divmod(a, b)
    return Values((division_result(q, inexact), division_result(r, inexact)))


@primitive(BASE)
def floor_quotient(n1: object, n2: object) -> int | float:
    a, b, inexact = division_args("floor-quotient", n1, n2)
    return division_result(a // b, inexact)


@primitive(BASE)
def floor_remainder(n1: object, n2: object) -> int | float:
    a, b, inexact = division_args("floor-remainder", n1, n2)
    return division_result(a % b, inexact)


@primitive(BASE)
def modulo(n1: object, n2: object) -> int | float:
    a, b, inexact = division_args("modulo", n1, n2)
    return division_result(a % b, inexact)


@primitive(BASE, name="truncate/")
def truncate_divide(n1: object, n2: object) -> Values:
    """R7RS ``truncate/``: the truncating quotient and remainder as two values."""
    a, b, inexact = division_args("truncate/", n1, n2)
    q, r = _truncating(a, b)
    return Values((division_result(q, inexact), division_result(r, inexact)))


@primitive(BASE)
def truncate_quotient(n1: object, n2: object) -> int | float:
    a, b, inexact = division_args("truncate-quotient", n1, n2)
    return division_result(_truncating(a, b)[0], inexact)


@primitive(BASE)
def truncate_remainder(n1: object, n2: object) -> int | float:
    a, b, inexact = division_args("truncate-remainder", n1, n2)
    return division_result(_truncating(a, b)[1], inexact)


def _small_ints(a: object, b: object) -> bool:
    """Two non-negative exact integers below 2**62, the divisor not 0: the case of
    ``quotient`` and ``remainder`` in loops, with nothing to check or charge."""
    return (a.__class__ is int and b.__class__ is int and 0 <= a < _SMALL
            and 0 < b < _SMALL)


_SMALL = 1 << 62


@primitive(BASE)
def quotient(n1: object, n2: object) -> int | float:
    if _small_ints(n1, n2):
        return n1 // n2
    a, b, inexact = division_args("quotient", n1, n2)
    return division_result(_truncating(a, b)[0], inexact)


@primitive(BASE)
def remainder(n1: object, n2: object) -> int | float:
    if _small_ints(n1, n2):
        return n1 % n2
    a, b, inexact = division_args("remainder", n1, n2)
    return division_result(_truncating(a, b)[1], inexact)


@primitive(BASE)
def gcd(*args: object) -> int | float:
    """R7RS ``gcd`` (0 with no arguments; always non-negative)."""
    pairs = [_integer("gcd", x) for x in args]
    _charge_gcd([n for n, _ in pairs])
    return division_result(math.gcd(*(n for n, _ in pairs)), any(i for _, i in pairs))


def _charge_gcd(ints: list[int]) -> None:
    sizes = sorted(n.bit_length() for n in ints)
    if len(sizes) > 1:
        _charge_big("gcd", sizes[-1], sizes[-2])


@primitive(BASE)
def lcm(*args: object) -> int | float:
    """R7RS ``lcm`` (1 with no arguments; always non-negative)."""
    pairs = [_integer("lcm", x) for x in args]
    ints = [n for n, _ in pairs]
    if 0 not in ints:
        _exact_size_check("lcm", sum(n.bit_length() for n in ints))
        _charge_gcd(ints)
    return division_result(math.lcm(*ints), any(i for _, i in pairs))


# -- rationals and rounding ----------------------------------------------------------------

def _rational(who: str, q: object) -> int | Fraction | float:
    q = _real(who, q)
    if type(q) is float and not math.isfinite(q):
        raise wrong_type(who, "a rational number", q)
    return q


@primitive(BASE)
def numerator(q: object) -> int | float:
    q = _rational("numerator", q)
    if type(q) is float:
        return float(Fraction(q).numerator)
    return q if type(q) is int else q.numerator


@primitive(BASE)
def denominator(q: object) -> int | float:
    q = _rational("denominator", q)
    if type(q) is float:
        return float(Fraction(q).denominator)
    return 1 if type(q) is int else q.denominator


def _rounding(who: str, to_int: Callable) -> Callable:
    def rounding(x: object) -> Number:
        x = _real(who, x)
        t = type(x)
        if t is int:
            return x
        if t is Fraction:
            return to_int(x)
        if not math.isfinite(x):
            return x
        return math.copysign(float(to_int(x)), x)  # keeps -0.0 for (round -0.4)
    rounding.__doc__ = f"R7RS ``{who}``: exact for exact arguments, else a float."
    return rounding


floor = primitive(BASE, name="floor")(_rounding("floor", math.floor))
ceiling = primitive(BASE, name="ceiling")(_rounding("ceiling", math.ceil))
truncate = primitive(BASE, name="truncate")(_rounding("truncate", math.trunc))
round_ = primitive(BASE, name="round")(_rounding("round", round))  # Python rounds to even


@primitive(BASE)
def rationalize(x: object, y: object) -> Number:
    """R7RS ``rationalize``: the simplest rational within ``y`` of ``x``."""
    x, y = _real("rationalize", x), _real("rationalize", y)
    inexact = type(x) is float or type(y) is float
    if inexact:
        if _is_nan(x) or _is_nan(y):
            return _NAN
        if math.isinf(y):
            return _NAN if math.isinf(x) else 0.0
        if math.isinf(x):
            return float(x)
    x, y = Fraction(x), abs(Fraction(y))
    bits = max(_bits(x), _bits(y))
    _charge_big("gcd", bits, bits)  # x - y and x + y; the expansion charges its steps
    result = _simplest_between(x - y, x + y)
    return to_inexact(result) if inexact else normalise(result)


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    if lo > 0:
        return _simplest_positive(lo, hi)
    if hi < 0:
        return -_simplest_positive(-hi, -lo)
    return Fraction(0)


def _simplest_positive(lo: Fraction, hi: Fraction) -> Fraction:
    """The simplest rational in [lo, hi], 0 < lo <= hi, via its continued fraction."""
    terms = []
    while True:
        whole = math.floor(lo)
        if whole == lo:
            terms.append(whole)
            break
        if whole < math.floor(hi):
            terms.append(whole + 1)
            break
        terms.append(whole)
        # each step reduces fractions as big as the bounds: a gcd each, charged
        _charge_big("gcd", _bits(lo), _bits(hi))
        lo, hi = 1 / (hi - whole), 1 / (lo - whole)
    result = Fraction(terms.pop())
    while terms:
        _charge_big("gcd", _bits(result), _bits(result))
        result = terms.pop() + 1 / result
    return result


# -- transcendental functions --------------------------------------------------------------

def _real_or_complex(who: str, real_fn: Callable, complex_fn: Callable) -> Callable:
    """A function using ``real_fn`` on floats, falling back to ``complex_fn`` outside its
    real domain (``math`` raises ValueError there) and for complex arguments."""
    def fn(z: object) -> float | complex:
        z = _number(who, z)
        if type(z) is ExactComplex:
            z = to_inexact(z)
        if type(z) is complex:
            try:
                return normalise(complex_fn(z))
            except (ValueError, OverflowError):
                raise error(f"{who}: result out of range for", z) from None
        x = to_inexact(z)
        try:
            return real_fn(x)
        except ValueError:
            if math.isinf(x):
                return _NAN
            return normalise(complex_fn(complex(x)))
        except OverflowError:
            return _INF
    fn.__doc__ = f"R7RS ``{who}``."
    return fn


exp = primitive(INEXACT, name="exp")(_real_or_complex("exp", math.exp, cmath.exp))
sin = primitive(INEXACT, name="sin")(_real_or_complex("sin", math.sin, cmath.sin))
cos = primitive(INEXACT, name="cos")(_real_or_complex("cos", math.cos, cmath.cos))
tan = primitive(INEXACT, name="tan")(_real_or_complex("tan", math.tan, cmath.tan))
asin = primitive(INEXACT, name="asin")(_real_or_complex("asin", math.asin, cmath.asin))
acos = primitive(INEXACT, name="acos")(_real_or_complex("acos", math.acos, cmath.acos))


def _log1(z: Number) -> float | complex:
    t = type(z)
    if t is ExactComplex:
        z, t = to_inexact(z), complex
    if t is complex:
        return normalise(cmath.log(z))
    if _is_nan(z):
        return _NAN
    if z == 0:
        return -_INF
    if z < 0:
        return normalise(cmath.log(complex(to_inexact(z))))
    if t is Fraction:  # math.log(Fraction) goes through float and may overflow
        return math.log(z.numerator) - math.log(z.denominator)
    return math.log(z)  # also exact for ints beyond the float range


@primitive(INEXACT)
def log(z: object, base: object = DEFAULT) -> float | complex:
    """R7RS ``log``: natural logarithm, or logarithm to ``base``."""
    value = _log1(_number("log", z))
    if base is DEFAULT:
        return value
    return _div2(value, _log1(_number("log", base)))


@primitive(INEXACT)
def atan(y: object, x: object = DEFAULT) -> float | complex:
    """R7RS ``atan``: one argument (real or complex), or two reals as in ``atan2``."""
    if x is DEFAULT:
        z = _number("atan", y)
        if type(z) is ExactComplex:
            z = to_inexact(z)
        if type(z) is complex:
            try:
                return normalise(cmath.atan(z))
            except ValueError:
                raise error("atan: undefined at", z) from None
        return math.atan(to_inexact(z))
    return math.atan2(to_inexact(_real("atan", y)), to_inexact(_real("atan", x)))


@primitive(BASE)
def square(z: object) -> Number:
    z = _number("square", z)
    return normalise(_mul2(z, z))


@primitive(BASE, INEXACT)
def sqrt(z: object) -> Number:
    """R7RS ``sqrt``: exact for exact perfect squares (also of rationals); a negative real
    gives an inexact imaginary number."""
    z = normalise(_number("sqrt", z))
    t = type(z)
    if t is ExactComplex:
        z, t = to_inexact(z), complex
    if t is complex:
        return normalise(cmath.sqrt(z))
    if z < 0:
        root = sqrt(-z)
        if type(root) is not float:
            return exact_complex(0, root)  # (sqrt -4) is +2i
        return complex(0.0, root)
    if t is int:
        root = math.isqrt(z)
        return root if root * root == z else _float_sqrt(z)
    if t is Fraction:
        num, den = math.isqrt(z.numerator), math.isqrt(z.denominator)
        if num * num == z.numerator and den * den == z.denominator:
            return Fraction(num, den)
        return _float_sqrt(z.numerator) / _float_sqrt(z.denominator)
    return math.sqrt(z)


def _float_sqrt(n: int) -> float:
    """The square root of a non-negative int as a float, even beyond the float range."""
    try:
        return math.sqrt(n)
    except OverflowError:
        shift = (n.bit_length() - 106) & ~1
        try:
            return math.ldexp(math.sqrt(n >> shift), shift // 2)
        except OverflowError:
            return _INF


@primitive(BASE)
def exact_integer_sqrt(k: object) -> Values:
    """R7RS ``exact-integer-sqrt``: s and k - s*s where s = floor(sqrt(k))."""
    k = as_int(k)
    if type(k) is not int or k < 0:
        raise wrong_type("exact-integer-sqrt", "a non-negative exact integer", k)
    _charge_big("sqrt", k.bit_length(), k.bit_length())
    s = math.isqrt(k)
    return Values((s, k - s * s))


# -- expt ----------------------------------------------------------------------------------

@primitive(BASE)
def expt(z1: object, z2: object) -> Number:
    """R7RS ``expt``: exact for an exact base and an exact integer exponent (refusing
    results beyond MAX_EXACT_DIGITS), exact for exact roots of exact rationals, else
    inexact (complex for a negative base and a non-integer exponent)."""
    base, power = normalise(_number("expt", z1)), normalise(_number("expt", z2))
    tb, tp = type(base), type(power)
    if tp is int and tb in _EXACT_TYPES:
        return _exact_power(base, power)
    if tp is int and tb is ExactComplex:
        _exact_size_check("expt", (_bits(base.real) + _bits(base.imag)) * abs(power))
        if power < 0 and base == 0:
            raise error("expt: division by zero")
        return base ** power
    if tb is ExactComplex or tp is ExactComplex:
        base, power = to_inexact(base), to_inexact(power)
        tb, tp = type(base), type(power)
    if tp is Fraction and tb in _EXACT_TYPES and base >= 0:
        root = _exact_root(base, power.denominator)
        if root is not None:
            return _exact_power(root, power.numerator)
    if tb is complex or tp is complex:
        return _complex_power(complex(base), complex(power))
    return _float_power(to_inexact(base), to_inexact(power))


def _exact_power(base: int | Fraction, n: int) -> int | Fraction:
    if n == 0:
        return 1
    if base == 0:
        if n < 0:
            raise error("expt: division by zero")
        return 0
    if base == 1:
        return 1
    if base == -1:
        return 1 if n % 2 == 0 else -1
    if type(base) is int:
        log2_size = math.log2(abs(base))
    else:
        log2_size = max(math.log2(abs(base.numerator)), math.log2(base.denominator))
    _exact_size_check("expt", log2_size * abs(n))
    result_bits = int(log2_size * abs(n))
    _charge_big("mul" if type(base) is int else "gcd", result_bits, result_bits)
    return normalise(Fraction(base) ** n)


_MAX_EXACT_ROOT_DEGREE = 1024
# Newton's method divides big numbers; beyond this size an inexact root is good enough.
_MAX_EXACT_ROOT_BITS = 64_000


def _exact_root(x: int | Fraction, degree: int) -> int | Fraction | None:
    """The exact ``degree``-th root of x >= 0, or None when it is not rational."""
    if degree > _MAX_EXACT_ROOT_DEGREE or _bits(x) > _MAX_EXACT_ROOT_BITS:
        return None
    x = Fraction(x)
    num, den = _integer_root(x.numerator, degree), _integer_root(x.denominator, degree)
    if num ** degree == x.numerator and den ** degree == x.denominator:
        return normalise(Fraction(num, den))
    return None


def _integer_root(n: int, k: int) -> int:
    """floor(n ** (1/k)) for n >= 0, by Newton's method on integers."""
    if n < 2:
        return n
    if k == 2:
        return math.isqrt(n)
    x = 1 << -(-n.bit_length() // k)  # a power of two at least the root
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def _float_power(b: float, p: float) -> float | complex:
    if b == 0:
        if math.isnan(p):
            return _NAN
        if p == 0:
            return 1.0
        return 0.0 if p > 0 else _INF
    try:
        return normalise(b ** p)  # a negative base and a fractional power give a complex
    except OverflowError:
        odd = p.is_integer() and math.fmod(p, 2.0) != 0
        return -_INF if b < 0 and odd else _INF


def _complex_power(b: complex, p: complex) -> Number:
    if p == 0:
        return 1.0
    if b == 0:
        return 0.0 if p.real > 0 else _NAN
    try:
        return normalise(b ** p)
    except OverflowError:
        return complex(_NAN, _NAN)


# -- exactness -----------------------------------------------------------------------------

@primitive(BASE)
def exact(z: object) -> int | Fraction:
    """R7RS ``exact``: the exact value of a finite real; an error for infinities, NaNs and
    non-real complex numbers."""
    z = _number("exact", z)
    t = type(z)
    if t is complex:
        if z.imag != 0:
            if not (math.isfinite(z.real) and math.isfinite(z.imag)):
                raise error("exact: no exact representation of", z)
            return exact_complex(exact(z.real), exact(z.imag))
        z, t = z.real, float
    if t is float:
        if not math.isfinite(z):
            raise error("exact: no exact representation of", z)
        if z.is_integer():
            return int(z)
        return Fraction(z)
    return normalise(z)


@primitive(BASE)
def inexact(z: object) -> float | complex:
    """R7RS ``inexact``: the nearest float (an infinity beyond the float range)."""
    return to_inexact(_number("inexact", z))


primitive(BASE, name="exact->inexact")(inexact)  # the R5RS names, still widely used
primitive(BASE, name="inexact->exact")(exact)


# -- text ----------------------------------------------------------------------------------

def _radix(who: str, radix: object) -> int:
    if radix is DEFAULT:
        return 10
    radix = as_int(radix)
    if type(radix) is not int or radix not in _RADIXES:
        raise wrong_type(who, "a radix (2, 8, 10 or 16)", radix)
    return radix


@primitive(BASE)
def number_to_string(z: object, radix: object = DEFAULT) -> String:
    """R7RS ``number->string``; inexact non-integers only in radix 10."""
    z = _number("number->string", z)
    r = _radix("number->string", radix)
    _charge_big("div", _bits(z), _bits(z))  # base conversion: divisions of halves
    try:
        return String(format_number(normalise(z), r))
    except ValueError:
        raise error("number->string: inexact non-integers are written in radix 10 only",
                    z) from None


@primitive(BASE)
def string_to_number(text: object, radix: object = DEFAULT) -> Number | bool:
    """R7RS ``string->number``: the number, or #f when the text is not one."""
    if type(text) is not String:
        raise wrong_type("string->number", "a string", text)
    digits_bits = len(text.s) * 4
    _charge_big("mul", digits_bits, digits_bits)
    value = parse_number(text.s, _radix("string->number", radix))
    return False if value is None else value


# -- complex numbers -----------------------------------------------------------------------

@primitive(COMPLEX)
def make_rectangular(x1: object, x2: object) -> Number:
    re_part, im_part = _real("make-rectangular", x1), _real("make-rectangular", x2)
    if type(im_part) is not float and im_part == 0:
        return normalise(re_part)
    if type(re_part) is not float and type(im_part) is not float:
        return exact_complex(re_part, im_part)
    return normalise(complex(to_inexact(re_part), to_inexact(im_part)))


@primitive(COMPLEX)
def make_polar(x3: object, x4: object) -> Number:
    magnitude_, angle_ = _real("make-polar", x3), _real("make-polar", x4)
    if type(angle_) is not float and angle_ == 0:
        return normalise(magnitude_)
    m, a = to_inexact(magnitude_), to_inexact(angle_)
    if math.isinf(a):  # no direction: as the reader reads such a polar literal
        return complex(math.nan, math.nan)
    return normalise(complex(m * math.cos(a), m * math.sin(a)))


@primitive(COMPLEX)
def real_part(z: object) -> Number:
    z = _number("real-part", z)
    return z.real if type(z) in _COMPLEX_TYPES else normalise(z)


@primitive(COMPLEX)
def imag_part(z: object) -> Number:
    z = _number("imag-part", z)
    return z.imag if type(z) in _COMPLEX_TYPES else 0


@primitive(COMPLEX)
def magnitude(z: object) -> Number:
    z = _number("magnitude", z)
    if type(z) is ExactComplex:  # exact when the sum of squares is an exact square
        return sqrt(z.real * z.real + z.imag * z.imag)
    return normalise(abs(z))


@primitive(COMPLEX)
def angle(z: object) -> Number:
    z = _number("angle", z)
    t = type(z)
    if t is complex or t is ExactComplex:
        return cmath.phase(complex(z))
    if t is float:
        return math.atan2(0.0, z)
    return math.pi if z < 0 else 0
