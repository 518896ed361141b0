"""Equivalence predicates ``eq?``, ``eqv?``, ``equal?`` and the hash keys that agree with them.

* ``is_eqv``: numbers are eqv when they have the same exactness and value (``2`` vs ``2.0``
  and ``0.0`` vs ``-0.0`` differ, NaN is eqv to NaN, ``#t`` is never ``1``, and an integral
  Fraction left by inlined arithmetic is its int); every other value is eqv only to itself
  (chars and symbols are interned, so identity is enough).
* ``is_eq``: the same relation as ``eqv?``, with an identity fast path.
* ``is_equal``: structure of pairs, vectors, strings and bytevectors. It never recurses in
  Python and it terminates on circular structure (see ``is_equal``).
* ``eqv_key`` / ``equal_key``: hashable Python keys with ``key(a) == key(b)`` exactly when
  the predicate holds, for hash tables and duplicate removal.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from fractions import Fraction

from harness.scheme.datatypes import NIL, Bytevector, Char, String, Symbol, Vector
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.limits import charge
from harness.scheme.primitives import primitive
from harness.scheme.primitives.numbers import as_int

__all__ = [
    "equal_hash", "equal_key", "eqv_key", "is_eq", "is_equal", "is_eqv", "key_function_for",
    "string_hash",
]

# is_equal makes this many comparisons before it starts remembering visited containers.
_MEMO_AFTER = 20_000
# Once remembering, one visited pair in this many is recorded (bounds memory on long lists).
_MEMO_EVERY = 64
# is_equal charges its work against the budget every this many chains
_CHARGE_CHAINS = 1024
# equal_hash looks at no more than this many nodes, so hashing a long or circular list is O(1).
_HASH_BUDGET = 32
_HASH_MASK = (1 << 61) - 1

_CONTAINERS = (list, Vector)
_NUMBER_TYPES = frozenset((int, float, Fraction, complex, ExactComplex))
_EXACT_TYPES = frozenset((int, Fraction))


@primitive("scheme base", name="eqv?")
def is_eqv(a: object, b: object) -> bool:
    """R7RS ``eqv?``."""
    if a is b:
        return True
    t = type(a)
    if t is not type(b):
        # int against Fraction: equal only when the Fraction is integral (never for bools)
        return t in _EXACT_TYPES and type(b) in _EXACT_TYPES and a == b
    if t is int or t is Fraction:
        return a == b
    if t is float:
        return _float_eqv(a, b)
    if t is complex:
        return _float_eqv(a.real, b.real) and _float_eqv(a.imag, b.imag)
    if t is ExactComplex:
        return a == b
    return False


def _float_eqv(a: float, b: float) -> bool:
    if a == b:
        return math.copysign(1.0, a) == math.copysign(1.0, b)
    return math.isnan(a) and math.isnan(b)


@primitive("scheme base", name="eq?")
def is_eq(a: object, b: object) -> bool:
    """R7RS ``eq?``: identity (chars are interned), except that numbers compare as by
    ``eqv?`` so that equal integers are always eq."""
    return a is b or (type(a) in _NUMBER_TYPES and is_eqv(a, b))


def _atom_equal(a: object, b: object) -> bool:
    """``equal?`` on anything but pairs and vectors."""
    t = type(a)
    if t is String:
        return type(b) is String and a.s == b.s
    if t is Bytevector:
        return type(b) is Bytevector and a.b == b.b
    return is_eqv(a, b)


@primitive("scheme base", name="equal?")
def is_equal(a: object, b: object) -> bool:
    """R7RS ``equal?``, iterative and terminating on cycles.

    Pending comparisons wait on a Python list (x and y pushed one after the other). Each one popped starts a *chain*: a list
    spine followed in a loop, comparing atom cars at once and deferring a car that is a
    pair or vector. Cycles are caught two ways:

    * along a spine, Brent's algorithm on the pair (x, y) of cursors stops a chain whose
      cursors come back to an earlier pair (what follows was compared already);
    * after ``_MEMO_AFTER`` element comparisons, one chain start in ``_MEMO_EVERY`` is
      recorded, and a chain that starts from a recorded (x, y) is skipped as equal.

    Both assume equal what is still being compared, which is sound (a bisimulation), and
    together they bound the work: chains are finite, and only finitely many chain starts
    can be new.
    """
    if a is b:
        return True
    t = type(a)
    if t is String:  # _atom_equal, inline: guards compare strings most
        return type(b) is String and a.s == b.s
    if t not in _CONTAINERS:
        return _atom_equal(a, b)
    # Flat stack of alternating x, y: no tuple per entry (tuples would wake the cyclic GC).
    stack = [a, b]
    seen: set[int] = set()
    work = chains = charged = 0
    while stack:
        y = stack.pop()
        x = stack.pop()
        if x is y:
            continue
        t = type(x)
        if t is not list and t is not Vector:
            if not _atom_equal(x, y):
                return False
            continue
        if type(y) is not t:
            return False
        if work >= _MEMO_AFTER:
            key = id(x) << 64 | id(y)
            if key in seen:
                continue
            if chains % _MEMO_EVERY == 0:
                seen.add(key)
        chains += 1
        if chains % _CHARGE_CHAINS == 0:
            # comparing shared structure (a DAG) is a walk of its expansion: pay for it
            charge(_CHARGE_CHAINS + work - charged)
            charged = work
        if t is Vector:
            if not _vector_items_equal(x.items, y.items, stack):
                return False
            work += len(x.items)
            continue
        steps = _spine_comparisons(x, y, stack)
        if steps < 0:
            return False
        work += steps
    return True


def _spine_comparisons(x: list, y: list, stack: list) -> int:
    """Walk two list spines from the pairs x and y, comparing atom cars and pushing on
    stack the containers met (cars, and a non-pair tail). Returns how many pairs were
    walked, or -1 at the first difference."""
    tx = ty = None
    power = steps = 1
    walked = 0
    while True:
        walked += 1
        xa = x[0]
        ya = y[0]
        if xa is not ya:
            ta = type(xa)
            if ta is list or ta is Vector:
                stack.append(xa)
                stack.append(ya)
            elif ta is int:
                if xa != ya or (type(ya) is not int and not is_eqv(xa, ya)):
                    return -1
            elif ta is String:
                if type(ya) is not String or xa.s != ya.s:
                    return -1
            elif not _atom_equal(xa, ya):
                return -1
        x = x[1]
        y = y[1]
        if x is y:
            return walked
        if x.__class__ is not list or y.__class__ is not list:
            stack.append(x)
            stack.append(y)
            return walked
        if x is tx and y is ty:
            return walked
        if steps == power:
            tx, ty = x, y
            power *= 2
            steps = 0
        steps += 1


def _vector_items_equal(xs: list, ys: list, stack: list) -> bool:
    """Compare the atoms of two vectors now; push pairs of container elements on stack."""
    if len(xs) != len(ys):
        return False
    for xe, ye in zip(xs, ys):
        if xe is not ye:
            if type(xe) in _CONTAINERS:
                stack.append(xe)
                stack.append(ye)
            elif not _atom_equal(xe, ye):
                return False
    return True


# -- hash keys -----------------------------------------------------------------------------

class _Tag:
    """A unique marker that starts a key tuple, so keys of different kinds never collide."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_BIG = _Tag("big integer")
_RATIO = _Tag("ratio")
_HASH_SAFE = 1 << 60  # below this an int is its own hash, and distinct ones never collide


def _int_bytes(n: int) -> bytes:
    return n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)


_FLOAT = _Tag("float")
_COMPLEX = _Tag("complex")
_IDENTITY = _Tag("identity")
_STRING = _Tag("string")
_BYTES = _Tag("bytes")


def eqv_key(x: object) -> object:
    """A hashable key such that ``eqv_key(a) == eqv_key(b)`` iff ``(eqv? a b)``.

    Exact integers and rationals are their own keys (an integral Fraction is keyed as its
    int); floats are keyed by their bits (so 2 and 2.0, or 0.0 and -0.0, differ); symbols
    and chars by identity; booleans and every other value (strings, pairs, procedures…) by
    identity, never colliding with 0 or 1.
    """
    t = type(x)
    if t is Symbol or t is Char:
        return x
    if t is int:
        # Python hashes integers by their value modulo 2**61 - 1: big ones can be made to
        # collide and turn a dict into a list; bytes hash with a per-process key
        return x if -_HASH_SAFE < x < _HASH_SAFE else (_BIG, _int_bytes(x))
    if t is Fraction:
        x = as_int(x)
        if type(x) is int:
            return eqv_key(x)
        return (_RATIO, _int_bytes(x.numerator), _int_bytes(x.denominator))
    if t is float:
        return (_FLOAT, x.hex())
    if t is complex:
        return (_COMPLEX, x.real.hex(), x.imag.hex())
    if t is ExactComplex:
        return (_COMPLEX, x.real, x.imag)
    # The caller keeps x alive beside its key, so its id cannot be reused meanwhile.
    return (_IDENTITY, id(x))


class _StructuralKey:
    """The key of a pair or vector under ``equal?``: hashed on a bounded prefix, compared
    with ``is_equal`` (so cycles and long lists cost nothing to hash)."""

    __slots__ = ("hash", "value")

    def __init__(self, value: object) -> None:
        self.value = value
        self.hash = equal_hash(value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        # A dict calls this only for keys of equal hash: keys made to share a hashed
        # prefix turn lookups into scans, so each comparison counts against the budget.
        charge(1)
        return (isinstance(other, _StructuralKey) and other.hash == self.hash
                and is_equal(self.value, other.value))


def equal_key(x: object) -> object:
    """A hashable key such that ``equal_key(a) == equal_key(b)`` iff ``(equal? a b)``."""
    t = type(x)
    if t is String:
        return (_STRING, x.s)
    if t is Bytevector:
        return (_BYTES, bytes(x.b))
    if t is list or t is Vector:
        return _StructuralKey(x)
    return eqv_key(x)


def key_function_for(equivalence: object) -> Callable[[object], object] | None:
    """The key normaliser that agrees with ``equivalence`` if it is eq?, eqv? or equal?."""
    if equivalence is is_equal:
        return equal_key
    if equivalence is is_eqv or equivalence is is_eq:
        return eqv_key
    return None


# -- hash values ---------------------------------------------------------------------------

def string_hash(s: str) -> int:
    """A hash of a text that is the same in every run (Python's str hash is salted)."""
    return zlib.crc32(s.encode("utf-8", "surrogatepass"))


def _float_hash(x: float) -> int:
    return 0x7FF8 if math.isnan(x) else hash(x)  # hash(nan) depends on the object since 3.10


def _atom_hash(x: object) -> int:
    t = type(x)
    if t is int or t is Fraction:
        return hash(x)
    if t is float:
        return _float_hash(x)
    if t is complex:
        return _float_hash(x.real) * 31 + _float_hash(x.imag)
    if t is ExactComplex:
        return hash(x)
    if t is String:
        return string_hash(x.s)
    if t is Symbol:
        return string_hash(x.name) ^ 0x5EED
    if t is Char:
        return ord(x.c[0]) if x.c else 0
    if t is Bytevector:
        return zlib.crc32(x.b) ^ 0xB17E
    if x is True:
        return 0x7A11
    if x is False:
        return 0xFA15
    if x is NIL:
        return 0x0E
    return id(x) >> 4


def equal_hash(x: object) -> int:
    """A non-negative hash consistent with ``equal?``, looking at no more than a bounded
    prefix of the structure; the same in every run for data built from numbers, strings,
    symbols, chars, booleans, pairs and vectors."""
    h = 0
    todo = [x]
    budget = _HASH_BUDGET
    while todo and budget:
        budget -= 1
        v = todo.pop()
        t = type(v)
        if t is list:
            h = (h * 1_000_003 + 0x9A1) & _HASH_MASK
            todo.append(v[1])
            todo.append(v[0])
        elif t is Vector:
            h = (h * 1_000_003 + 0x7EC + len(v.items)) & _HASH_MASK
            todo.extend(reversed(v.items[:budget]))
        else:
            h = (h * 1_000_003 + _atom_hash(v)) & _HASH_MASK
    return h
