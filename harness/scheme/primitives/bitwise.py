"""Bitwise operations on exact integers (SRFI 151, R7RS-large's ``(scheme bitwise)``).

Integers are two's complement of unbounded width: a negative integer has infinitely many 1
bits on the left. Bit ``0`` is the least significant. A field is the bits ``start`` (included)
to ``end`` (excluded). Results are limited to MAX_EXACT_BITS bits like every exact number
(a larger shift or field is a size error, not a memory exhaustion), and operations on big
integers count against the step budget by their size.

This is ``(srfi 151 core)``: scheme_lib/srfi/151.sld imports and re-exports it and writes
the three walks that call a procedure of the program (``bitwise-fold``,
``bitwise-for-each``, ``bitwise-unfold``) in Scheme, the first two over ``integer-bits``
(the bits as a list, made in one pass), the unfold adding its bits to the integer a
256-bit word at a time. They were Python loops with a hand-written resume record for
``call/cc`` (continuations.py); in Scheme they re-enter and count their steps with nothing
written for it. Measured sandboxed against the Python loops (side by side, best of 7, a
busy machine): a 2,000-bit fold 1.2-1.45x, for-each 1.0-1.35x, a 2,000-bit unfold 1.8x
the Python time; walks of small integers 1.3-2x; unsandboxed (bench/resumable_primitives.py,
where library code counts steps and the Python loop counted none) a 1,000-bit unfold 3x
when it gathered a list of the bits, 1.3-1.4x since it makes the integer as it goes (1.0x
for 1,000 and 10,000 bits timed alone, 0.75x for 100,000).
Kept in Scheme: the time is in the procedures the program passes, which count as steps now.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import reduce

from harness.scheme.datatypes import Vector
from harness.scheme.errors import SizeLimitExceeded, wrong_type
from harness.scheme.limits import charge_bulk
from harness.scheme.numparse import MAX_EXACT_BITS
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.lists import (
    PAIR_BYTES,
    check_alloc,
    from_items,
    proper_items,
)
from harness.scheme.primitives.numbers import as_int

#: the native part of (srfi 151): scheme_lib/srfi/151.sld imports and re-exports it
CORE = "srfi 151 core"
LIBS = (CORE,)


def integer(who: str, x: object) -> int:
    """``x`` as an exact integer, or the standard error."""
    if type(x) is not int and type(x := as_int(x)) is not int:
        raise wrong_type(who, "an exact integer", x)
    bits = x.bit_length()
    if bits > 4096:  # a big operand: its operations are work by its size
        charge_bulk(bits >> 3)
    return x


def index(who: str, x: object) -> int:
    """``x`` as a bit index (a non-negative exact integer below MAX_EXACT_BITS)."""
    if type(x) is not int and type(x := as_int(x)) is not int or x < 0:
        raise wrong_type(who, "a non-negative exact integer", x)
    if x > MAX_EXACT_BITS:
        raise SizeLimitExceeded(f"{who}: bit index {x} is beyond the {MAX_EXACT_BITS} bits "
                                "of an exact number")
    return x


def field(who: str, start: object, end: object) -> tuple[int, int]:
    """The bit field ``[start, end)`` (start <= end)."""
    s, e = index(who, start), index(who, end)
    if s > e:
        raise wrong_type(who, f"an end index of at least {s}", end)
    return s, e


def mask(width: int) -> int:
    return (1 << width) - 1


def _variadic(name: str, op: Callable[[int, int], int], identity: int) -> None:
    def fn(*args: object) -> int:
        return reduce(op, (integer(name, a) for a in args), identity)
    fn.__doc__ = f"SRFI 151 ``{name}`` of any number of integers ({identity} of none)."
    primitive(*LIBS, name=name)(fn)


_variadic("bitwise-and", int.__and__, -1)
_variadic("bitwise-ior", int.__or__, 0)
_variadic("bitwise-xor", int.__xor__, 0)
_variadic("bitwise-eqv", lambda a, b: ~(a ^ b), -1)


def _binary(name: str, op: Callable[[int, int], int]) -> None:
    def fn(a: object, b: object) -> int:
        return op(integer(name, a), integer(name, b))
    fn.__doc__ = f"SRFI 151 ``{name}`` of two integers."
    primitive(*LIBS, name=name)(fn)


for _name, _op in (("bitwise-nand", lambda a, b: ~(a & b)), ("bitwise-nor", lambda a, b: ~(a | b)),
                   ("bitwise-andc1", lambda a, b: ~a & b), ("bitwise-andc2", lambda a, b: a & ~b),
                   ("bitwise-orc1", lambda a, b: ~a | b), ("bitwise-orc2", lambda a, b: a | ~b)):
    _binary(_name, _op)


@primitive(*LIBS)
def bitwise_not(i: object) -> int:
    return ~integer("bitwise-not", i)


@primitive(*LIBS)
def arithmetic_shift(i: object, count: object) -> int:
    """``i`` shifted left by ``count`` bits (right if negative, rounding toward -inf)."""
    n = integer("arithmetic-shift", i)
    c = as_int(count)
    if type(c) is not int:
        raise wrong_type("arithmetic-shift", "an exact integer", count)
    if c <= 0:
        return n >> min(-c, n.bit_length() + 1)
    if n and n.bit_length() + c > MAX_EXACT_BITS:
        raise SizeLimitExceeded(f"arithmetic-shift: the result would exceed {MAX_EXACT_BITS} "
                                "bits")
    return n << c if n else 0


@primitive(*LIBS)
def bit_count(i: object) -> int:
    """The number of 1 bits of a non-negative ``i``, of 0 bits of a negative one."""
    n = integer("bit-count", i)
    return (n if n >= 0 else ~n).bit_count()


@primitive(*LIBS)
def integer_length(i: object) -> int:
    """The number of bits ``i`` needs besides its sign."""
    n = integer("integer-length", i)
    return (n if n >= 0 else ~n).bit_length()


@primitive(*LIBS)
def bitwise_if(mask_: object, i: object, j: object) -> int:
    """The bits of ``i`` where ``mask`` has 1s, of ``j`` elsewhere."""
    m = integer("bitwise-if", mask_)
    return (m & integer("bitwise-if", i)) | (~m & integer("bitwise-if", j))


# -- single bits --------------------------------------------------------------------------

@primitive(*LIBS)
def bit_set_p(k: object, i: object) -> bool:
    return (integer("bit-set?", i) >> index("bit-set?", k)) & 1 == 1


@primitive(*LIBS)
def copy_bit(k: object, i: object, value: object) -> int:
    """``i`` with its bit ``k`` set (``value`` true) or cleared (#f)."""
    b = index("copy-bit", k)
    n = integer("copy-bit", i)
    return n | (1 << b) if value is not False else n & ~(1 << b)


@primitive(*LIBS)
def bit_swap(k1: object, k2: object, i: object) -> int:
    a, b = index("bit-swap", k1), index("bit-swap", k2)
    n = integer("bit-swap", i)
    if (n >> a) & 1 != (n >> b) & 1:
        n ^= (1 << a) | (1 << b)
    return n


@primitive(*LIBS)
def any_bit_set_p(test: object, i: object) -> bool:
    return integer("any-bit-set?", test) & integer("any-bit-set?", i) != 0


@primitive(*LIBS)
def every_bit_set_p(test: object, i: object) -> bool:
    t = integer("every-bit-set?", test)
    return t & integer("every-bit-set?", i) == t


@primitive(*LIBS)
def first_set_bit(i: object) -> int:
    """The index of the lowest 1 bit of ``i``; -1 for 0."""
    n = integer("first-set-bit", i)
    return (n & -n).bit_length() - 1


# -- bit fields ---------------------------------------------------------------------------

@primitive(*LIBS)
def bit_field(i: object, start: object, end: object) -> int:
    """The bits ``[start, end)`` of ``i``, as a non-negative integer."""
    s, e = field("bit-field", start, end)
    return (integer("bit-field", i) >> s) & mask(e - s)


@primitive(*LIBS)
def bit_field_any_p(i: object, start: object, end: object) -> bool:
    return bit_field(i, start, end) != 0


@primitive(*LIBS)
def bit_field_every_p(i: object, start: object, end: object) -> bool:
    s, e = field("bit-field-every?", start, end)
    return bit_field(i, s, e) == mask(e - s)


@primitive(*LIBS)
def bit_field_clear(i: object, start: object, end: object) -> int:
    s, e = field("bit-field-clear", start, end)
    return integer("bit-field-clear", i) & ~(mask(e - s) << s)


@primitive(*LIBS)
def bit_field_set(i: object, start: object, end: object) -> int:
    s, e = field("bit-field-set", start, end)
    return integer("bit-field-set", i) | (mask(e - s) << s)


@primitive(*LIBS)
def bit_field_replace(dest: object, source: object, start: object, end: object) -> int:
    """``dest`` with its field ``[start, end)`` the low bits of ``source``."""
    s, e = field("bit-field-replace", start, end)
    m = mask(e - s) << s
    src = integer("bit-field-replace", source)
    return (integer("bit-field-replace", dest) & ~m) | ((src << s) & m)


@primitive(*LIBS)
def bit_field_replace_same(dest: object, source: object, start: object, end: object) -> int:
    """``dest`` with its field ``[start, end)`` the same bits of ``source``."""
    s, e = field("bit-field-replace-same", start, end)
    m = mask(e - s) << s
    return ((integer("bit-field-replace-same", dest) & ~m)
            | (integer("bit-field-replace-same", source) & m))


@primitive(*LIBS)
def bit_field_rotate(i: object, count: object, start: object, end: object) -> int:
    """``i`` with its field ``[start, end)`` rotated left by ``count`` (right if negative)."""
    s, e = field("bit-field-rotate", start, end)
    n = integer("bit-field-rotate", i)
    c = as_int(count)
    if type(c) is not int:
        raise wrong_type("bit-field-rotate", "an exact integer", count)
    width = e - s
    if width == 0:
        return n
    c %= width
    bits = (n >> s) & mask(width)
    rotated = ((bits << c) | (bits >> (width - c))) & mask(width)
    return (n & ~(mask(width) << s)) | (rotated << s)


@primitive(*LIBS)
def bit_field_reverse(i: object, start: object, end: object) -> int:
    """``i`` with the order of the bits of its field ``[start, end)`` reversed."""
    s, e = field("bit-field-reverse", start, end)
    n = integer("bit-field-reverse", i)
    width = e - s
    check_alloc("bit-field-reverse", width, 1)
    bits = format((n >> s) & mask(width), f"0{width}b") if width else ""
    reversed_ = int(bits[::-1], 2) if width else 0
    return (n & ~(mask(width) << s)) | (reversed_ << s)


# -- bits as booleans ---------------------------------------------------------------------

def _booleans(who: str, i: object, length: object) -> list[bool]:
    """The bits of ``i`` as booleans, least significant first: ``length`` of them (by
    default its integer-length)."""
    n = integer(who, i)
    width = (n if n >= 0 else ~n).bit_length() if length is None else index(who, length)
    check_alloc(who, width, PAIR_BYTES)
    # one pass over the digits: shifting n for each bit was quadratic in its length
    digits = format(n & ((1 << width) - 1), f"0{width}b") if width else ""
    return [d == "1" for d in reversed(digits)]


def _from_booleans(items: list) -> int:
    n = 0
    for k, b in enumerate(items):
        if b is not False:
            n |= 1 << k
    return n


@primitive(*LIBS, name="bits->list")
def bits_to_list(i: object, length: object = None) -> object:
    return from_items(_booleans("bits->list", i, length))


@primitive(*LIBS, name="bits->vector")
def bits_to_vector(i: object, length: object = None) -> Vector:
    return Vector(_booleans("bits->vector", i, length))


@primitive(*LIBS, name="list->bits")
def list_to_bits(lst: object) -> int:
    """The non-negative integer whose bits, least significant first, are the booleans of
    ``lst`` (#f is 0, anything else 1)."""
    return _from_booleans(proper_items("list->bits", lst))


@primitive(*LIBS, name="vector->bits")
def vector_to_bits(v: object) -> int:
    if type(v) is not Vector:
        raise wrong_type("vector->bits", "a vector", v)
    return _from_booleans(v.items)


@primitive(*LIBS)
def bits(*booleans: object) -> int:
    return _from_booleans(list(booleans))


# -- what the walks in scheme_lib/srfi/151.sld use ------------------------------------------

@primitive(*LIBS)
def integer_bits(who: object, i: object) -> object:
    """The bits of ``i`` as a list of booleans, least significant first (its
    integer-length of them), for the walks of ``who`` (a symbol)."""
    return from_items(_booleans(who.name, i, None))


define(CORE, "max-bits", MAX_EXACT_BITS)


@primitive(*LIBS)
def too_many_bits(who: object) -> None:
    """Raise the size error of an integer made bit by bit past MAX_EXACT_BITS."""
    raise SizeLimitExceeded(f"{who.name}: the result would exceed {MAX_EXACT_BITS} bits")


@primitive(*LIBS)
def make_bitwise_generator(i: object) -> Callable[[], bool]:
    """A procedure of no arguments giving the bits of ``i`` one at a time, least
    significant first, forever (a negative ``i``'s high bits are all #t)."""
    n = integer("make-bitwise-generator", i)
    position = [0]

    def generator() -> bool:
        k = position[0]
        position[0] = k + 1
        return (n >> k) & 1 == 1
    return generator

