"""Bytevectors: (scheme base). A byte is an exact integer 0..255."""

from __future__ import annotations

from harness.scheme.datatypes import DEFAULT, Bytevector
from harness.scheme.errors import wrong_type
from harness.scheme.primitives import primitive
from harness.scheme.primitives.lists import check_alloc, check_count
from harness.scheme.primitives.numbers import as_int
from harness.scheme.primitives.vectors import check_index, copy_into, index_range

BASE = "scheme base"


def check_byte(who: str, b: object) -> int:
    """``b`` as a byte, or the standard error."""
    b = as_int(b)
    if type(b) is not int or not 0 <= b <= 255:
        raise wrong_type(who, "a byte (an exact integer from 0 to 255)", b)
    return b


def check_bytevector(who: str, bv: object) -> bytearray:
    """The bytes of bytevector ``bv``, or the standard error."""
    if type(bv) is not Bytevector:
        raise wrong_type(who, "a bytevector", bv)
    return bv.b


@primitive(BASE)
def bytevector_p(x: object) -> bool:
    return type(x) is Bytevector


@primitive(BASE)
def make_bytevector(k: object, fill: object = 0) -> Bytevector:
    """(make-bytevector k [byte]); the fill defaults to 0."""
    n = check_count("make-bytevector", k)
    check_alloc("make-bytevector", n)
    return Bytevector(bytearray([check_byte("make-bytevector", fill)]) * n)


@primitive(BASE)
def bytevector(*bytes_: object) -> Bytevector:
    return Bytevector(bytearray(check_byte("bytevector", b) for b in bytes_))


@primitive(BASE)
def bytevector_length(bv: object) -> int:
    return len(check_bytevector("bytevector-length", bv))


@primitive(BASE)
def bytevector_u8_ref(bv: object, k: object) -> int:
    b = check_bytevector("bytevector-u8-ref", bv)
    return b[check_index("bytevector-u8-ref", bv, k, len(b))]


@primitive(BASE)
def bytevector_u8_set_x(bv: object, k: object, byte: object) -> None:
    b = check_bytevector("bytevector-u8-set!", bv)
    b[check_index("bytevector-u8-set!", bv, k, len(b))] = check_byte("bytevector-u8-set!", byte)


@primitive(BASE)
def bytevector_copy(bv: object, start: object = DEFAULT, end: object = DEFAULT) -> Bytevector:
    b = check_bytevector("bytevector-copy", bv)
    s, e = index_range("bytevector-copy", bv, len(b), start, end)
    return Bytevector(b[s:e])


@primitive(BASE)
def bytevector_copy_x(to: object, at: object, source: object, start: object = DEFAULT,
                      end: object = DEFAULT) -> None:
    """(bytevector-copy! to at from [start [end]]); overlapping ranges copy correctly."""
    target = check_bytevector("bytevector-copy!", to)
    b = check_bytevector("bytevector-copy!", source)
    s, e = index_range("bytevector-copy!", source, len(b), start, end)
    copy_into("bytevector-copy!", to, target, at, b[s:e])


@primitive(BASE)
def bytevector_append(*bytevectors: object) -> Bytevector:
    parts = [check_bytevector("bytevector-append", bv) for bv in bytevectors]
    total = sum(map(len, parts))
    check_alloc("bytevector-append", total, 1)
    return Bytevector(bytearray().join(parts))
