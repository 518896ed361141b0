"""Exact complex numbers: ``1+2i``, ``1/2-3/4i`` (both parts exact, the imaginary one not 0).

Python has no exact complex type, so this is one: an immutable pair of exact reals
(``int`` or ``Fraction``) with the arithmetic operators, so compiled ``(+ a b)`` (a Python
``+``) and the numeric primitives work on it unchanged. Mixed with an inexact number it
gives a Python ``complex``; a result whose imaginary part is exact 0 is its real part.
"""

from __future__ import annotations

from fractions import Fraction

_EXACT = (int, Fraction)


def exact_complex(re, im):
    """The exact number ``re + im i``: an ``ExactComplex``, or ``re`` when ``im`` is 0."""
    if im == 0:
        return re.numerator if type(re) is Fraction and re.denominator == 1 else re
    return ExactComplex(re, im)


def _exact(x):
    return x.numerator if type(x) is Fraction and x.denominator == 1 else x


class ExactComplex:
    """``re + im i`` with exact parts; build it with ``exact_complex`` (which normalises)."""

    __slots__ = ("imag", "real")

    def __init__(self, re, im) -> None:
        self.real = _exact(re)
        self.imag = _exact(im)

    # -- conversions ------------------------------------------------------------------------
    def __complex__(self) -> complex:
        return complex(float(self.real), float(self.imag))

    def __repr__(self) -> str:
        return f"ExactComplex({self.real!r}, {self.imag!r})"

    def __hash__(self) -> int:
        return hash((self.real, self.imag))

    def __eq__(self, other) -> bool:
        if type(other) is ExactComplex:
            return self.real == other.real and self.imag == other.imag
        if type(other) is complex:
            return complex(self) == other
        return False  # a real number has imaginary part 0

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    # -- arithmetic -------------------------------------------------------------------------
    def __neg__(self):
        return ExactComplex(-self.real, -self.imag)

    def __pos__(self):
        return self

    def __add__(self, other):
        t = type(other)
        if t is ExactComplex:
            return exact_complex(self.real + other.real, self.imag + other.imag)
        if t in _EXACT:
            return ExactComplex(self.real + other, self.imag)
        if t is float or t is complex:
            return complex(self) + other
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        t = type(other)
        if t is ExactComplex or t in _EXACT or t is float or t is complex:
            return self + (-other)
        return NotImplemented

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        t = type(other)
        if t is ExactComplex:
            a, b, c, d = self.real, self.imag, other.real, other.imag
            return exact_complex(a * c - b * d, a * d + b * c)
        if t in _EXACT:
            return exact_complex(self.real * other, self.imag * other)
        if t is float or t is complex:
            return complex(self) * other
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        t = type(other)
        if t is ExactComplex:
            c, d = other.real, other.imag
            denominator = c * c + d * d
            return self * ExactComplex(Fraction(c, 1) / denominator, Fraction(-d, 1) / denominator)
        if t in _EXACT:
            if other == 0:
                raise ZeroDivisionError("division by zero")
            return exact_complex(Fraction(self.real) / other, Fraction(self.imag) / other)
        if t is float or t is complex:
            return complex(self) / other
        return NotImplemented

    def __rtruediv__(self, other):
        t = type(other)
        if t in _EXACT:
            return ExactComplex(other, 0) / self if other != 0 else 0
        if t is float or t is complex:
            return other / complex(self)
        return NotImplemented

    def __pow__(self, power):
        """An exact result for an exact integer power; else an inexact one."""
        if type(power) is int:
            result, base, n = 1, self, abs(power)
            while n:
                if n & 1:
                    result = result * base
                base = base * base
                n >>= 1
            return result if power >= 0 else 1 / result
        return complex(self) ** power
