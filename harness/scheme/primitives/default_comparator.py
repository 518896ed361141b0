"""The default comparator of SRFI 128, and what each environment has of (srfi 128).

**The order.** The default comparator orders values by type first: the empty list,
pairs, booleans, characters, strings, symbols, numbers, vectors, bytevectors, then the
types registered with ``comparator-register-default!`` (in registration order), then
everything else (records, procedures, hash tables, char-sets …). Within a type: #f < #t;
characters and strings by code point; symbols by name; numbers by ``=`` and ``<``, a
non-real one by real part then imaginary part; pairs car first, then cdr (so proper
lists compare lexicographically, shorter first on a common prefix); vectors and
bytevectors by length, then element by element; a registered type by its comparator;
other values equal only to themselves (``eqv?``), grouped by type. ``default-hash``
agrees with it (1 and 1.0 hash alike) and looks at no more than HASH_NODES nodes of a
structure. Comparing walks list spines in a loop, counts its steps against the budget
and ends on circular structure.

**What belongs to one environment.** ``comparator-register-default!`` changes the
default comparator, and ``hash-salt`` / ``hash-bound`` are parameters one may set: a
process-wide registry would let one tool file change how every other file's data
compares, and keep stale registrations across reloads. So each environment that imports
(srfi 128) gets its own default comparator, registry and parameters
(``environment_exports``, instantiated by libraries.py); everything else is shared.
"""

from __future__ import annotations

import os
import secrets
import zlib
from collections.abc import Callable

from harness.scheme.datatypes import (
    DEFAULT,
    NIL,
    Bytevector,
    Char,
    Nil,
    String,
    Symbol,
    Vector,
)
from harness.scheme.errors import error, wrong_type
from harness.scheme.limits import CHUNK, charge
from harness.scheme.parameters import make_parameter
from harness.scheme.primitives.comparators import (
    HASH_BOUND,
    HASH_NODES,
    NUMBER_TYPES,
    Comparator,
    any_object,
    check_comparator,
    hash_value,
    is_nan,
    mix,
    number_hash_value,
)
from harness.scheme.primitives.equivalence import is_eq, is_equal, is_eqv, string_hash
from harness.scheme.primitives.hashtables import _bounded
from harness.scheme.primitives.numbers import as_int

#: how many comparators one environment may register with comparator-register-default!
MAX_REGISTERED = 256

# -- the default comparator ---------------------------------------------------------------

_EMPTY, _PAIR, _BOOLEAN, _CHAR, _STRING, _SYMBOL, _NUMBER, _VECTOR, _BYTEVECTOR = range(9)
_REGISTERED = 9  # the first registered type's rank
_RANKS = {Nil: _EMPTY, list: _PAIR, bool: _BOOLEAN, Char: _CHAR, String: _STRING,
          Symbol: _SYMBOL, Vector: _VECTOR, Bytevector: _BYTEVECTOR,
          **{t: _NUMBER for t in NUMBER_TYPES}}


def _standard_samples() -> tuple:
    """One value of each standard type (fresh: the type test gets to see them)."""
    return (NIL, [NIL, NIL], False, True, Char.of("a"), String(""), Symbol.intern("a"), 0,
            0.5, 1j, Vector([]), Bytevector(bytearray()))


# After this many pairs of containers (lists, vectors), compare remembers about one in 64
# of those it meets and skips one met again, so that circular structure ends (as in
# equal?). Which ones it remembers is scattered (a multiplicative hash of the count): a
# fixed stride would keep picking the same point of a cycle whose period divides it.
_MEMO_AFTER = 1_000
_MEMO_MASK = 63 << 26
_SCATTER = 2_654_435_761


def _compare_numbers(x: object, y: object) -> int:
    """``<`` and ``=`` on the real parts, then on the imaginary ones (NaN last)."""
    for a, b in ((x.real, y.real), (x.imag, y.imag)):
        if a < b:
            return -1
        if a > b:
            return 1
        if a != b:  # a NaN
            return is_nan(a) - is_nan(b)
    return 0


def _spines(x: list, y: list, pending: list) -> tuple[int, int]:
    """Walk the spines of two lists from the pairs x and y while their cars are equal
    atoms of the common kinds (compared here); at any other car or at the end of a spine,
    push what is left on ``pending`` (cars before cdrs). Returns the order found (0 if
    none yet) and the number of pairs walked. Spines that come back together to where
    they were (Brent's algorithm) are equal from there on."""
    tx = ty = None
    power = steps = 1
    walked = 0
    while True:
        walked += 1
        a = x[0]
        b = y[0]
        if a is not b:
            t = a.__class__
            if t is not b.__class__ or t not in _SPINE_ATOMS:
                pending += (y[1], x[1], b, a)
                return 0, walked
            if t is String:
                a, b = a.s, b.s
            elif t is Symbol:
                a, b = a.name, b.name
            elif t is Char:
                a, b = a.c, b.c
            if a != b:
                if a < b:
                    return -1, walked
                if a > b:
                    return 1, walked
                pending += (y[1], x[1], y[0], x[0])  # NaN, uninterned symbols: the long way
                return 0, walked
        x = x[1]
        y = y[1]
        if x is y:
            return 0, walked
        if x.__class__ is not list or y.__class__ is not list:
            pending += (y, x)
            return 0, walked
        if x is tx and y is ty:
            return 0, walked
        if steps == power:
            tx, ty = x, y
            power *= 2
            steps = 0
            if power > CHUNK:
                charge(power // 2)  # the walk since the last charge
        steps += 1


#: atoms _spines and compare order themselves when both sides are of one of these classes
#: (numbers of other classes, booleans, NaN and uninterned symbols take the general way)
_PLAIN_ATOMS = _SPINE_ATOMS = frozenset((int, float, String, Symbol, Char))


class _Elements:
    """The elements of two vectors still to compare, from index ``next`` on."""

    __slots__ = ("next", "xs", "ys")

    def __init__(self, xs: list, ys: list) -> None:
        self.xs, self.ys = xs, ys
        self.next = 0


def _sign(a: object, b: object) -> int:
    return -1 if a < b else (1 if a > b else 0)


class DefaultComparators:
    """The default comparator of one environment and the comparators registered with it
    (see the module docstring for the order)."""

    def __init__(self) -> None:
        self.registered: list[Comparator] = []

    def register(self, comparator: object) -> None:
        c = check_comparator("comparator-register-default!", comparator)
        if len(self.registered) >= MAX_REGISTERED:
            raise error(f"comparator-register-default!: no more than {MAX_REGISTERED} "
                        "comparators can be registered")
        for sample in _standard_samples():
            if c.type_test(sample) is not False:
                raise error("comparator-register-default!: the comparator's type test "
                            "accepts a value of a standard type", sample)
        self.registered.append(c)

    def rank(self, x: object) -> int:
        r = _RANKS.get(type(x))
        if r is not None:
            return r
        for i, c in enumerate(self.registered):
            if c.type_test(x) is not False:
                return _REGISTERED + i
        return _REGISTERED + len(self.registered)

    def compare(self, a: object, b: object) -> int:
        """-1, 0 or 1: a before, with or after b. Iterative: the pairs of values still to
        compare wait on ``pending`` (x pushed after y), cars before cdrs, the rest of two
        vectors as one ``_Elements`` cursor; list spines are walked in a loop
        (``_spines``)."""
        t = a.__class__
        if t is b.__class__ and t in _PLAIN_ATOMS:  # the common case, without the loop
            if t is String:
                a, b = a.s, b.s
            elif t is Symbol:
                if a is b:
                    return 0
                a, b = a.name, b.name
            elif t is Char:
                a, b = a.c, b.c
            if a < b:
                return -1
            if a > b:
                return 1
            if a == b and t is not Symbol:
                return 0
        pending: list = [b, a]
        work = containers = 0
        seen: set[tuple[int, int]] = set()
        while pending:
            x = pending.pop()
            y = pending.pop()
            if x is y:
                continue
            if x.__class__ is _Elements:
                i = x.next
                if i < len(x.xs) and i < len(x.ys):  # (the vectors may have changed)
                    x.next = i + 1
                    pending += (None, x, x.ys[i], x.xs[i])
                continue
            rx = _RANKS.get(x.__class__)
            ry = _RANKS.get(y.__class__)
            if rx is None:
                rx = self.rank(x)
            if ry is None:
                ry = self.rank(y)
            if rx != ry:
                return -1 if rx < ry else 1
            work += 1
            if work >= CHUNK:
                charge(work)
                work = 0
            if rx == _PAIR or rx == _VECTOR:
                containers += 1
                if containers > _MEMO_AFTER:
                    key = (id(x), id(y))
                    if key in seen:
                        continue  # met again: what follows is being compared already
                    if (containers * _SCATTER) & _MEMO_MASK == 0:
                        seen.add(key)
                if rx == _PAIR:
                    order, walked = _spines(x, y, pending)
                    if order:
                        return order
                    work += min(walked, CHUNK)  # (longer walks charged themselves)
                elif len(x.items) != len(y.items):
                    return -1 if len(x.items) < len(y.items) else 1
                else:
                    pending += (None, _Elements(x.items, y.items))
                continue
            order = self._compare_atoms(rx, x, y)
            if order:
                return order
        return 0

    def _compare_atoms(self, rank: int, x: object, y: object) -> int:
        if rank == _NUMBER:
            return _compare_numbers(x, y)
        if rank == _STRING:
            return _sign(x.s, y.s)
        if rank == _CHAR:
            return _sign(x.c, y.c)
        if rank == _BOOLEAN:
            return -1 if x is False else 1
        if rank == _SYMBOL:  # distinct symbols of one name are uninterned ones
            return _sign(x.name, y.name) or _sign(id(x), id(y))
        if rank == _BYTEVECTOR:
            return _sign(len(x.b), len(y.b)) or _sign(x.b, y.b)
        if rank < _REGISTERED + len(self.registered):
            c = self.registered[rank - _REGISTERED]
            if c.equality(x, y) is not False:
                return 0
            return -1 if c.ordering(x, y) is not False else 1
        if is_eqv(x, y):
            return 0
        return _sign(type(x).__name__, type(y).__name__) or _sign(id(x), id(y))

    def hash(self, x: object, _bound: object = DEFAULT) -> int:
        """A hash consistent with ``equal``: of an atom, the standard hash of its type; of
        a pair or vector, its first HASH_NODES nodes hashed together."""
        rank = self.rank(x)
        if rank != _PAIR and rank != _VECTOR:
            return self._atom_hash(rank, x)
        h = 0
        todo = [x]
        for _ in range(HASH_NODES):
            if not todo:
                break
            v = todo.pop()
            rank = self.rank(v)
            if rank == _PAIR:
                h = mix(h, 0x9A1)
                todo.append(v[1])
                todo.append(v[0])
            elif rank == _VECTOR:
                h = mix(h, 0x7EC + len(v.items))
                todo.extend(reversed(v.items[:HASH_NODES]))
            else:
                h = mix(h, self._atom_hash(rank, v))
        return h

    def _atom_hash(self, rank: int, x: object) -> int:
        if rank == _NUMBER:
            return number_hash_value(x)
        if rank == _STRING:
            return string_hash(x.s)
        if rank == _SYMBOL:
            return string_hash(x.name)
        if rank == _CHAR:
            return ord(x.c)
        if rank == _BOOLEAN:
            return 1 if x else 0
        if rank == _BYTEVECTOR:
            return zlib.crc32(x.b)
        if rank == _EMPTY:
            return 0x0E
        if rank < _REGISTERED + len(self.registered):
            c = self.registered[rank - _REGISTERED]
            return hash_value("default-hash", c.hash(x))
        return id(x) >> 4  # equal only to itself


def _positive_integer(who: str, minimum: int) -> Callable[[object], int]:
    def convert(x: object) -> int:
        n = as_int(x)
        if type(n) is not int or n < minimum:
            what = "a positive" if minimum else "a non-negative"
            raise wrong_type(who, f"{what} exact integer", x)
        return n
    return convert


def _initial_salt() -> int:
    """HARNESS_HASH_SALT if set (for runs that must repeat), else random per process."""
    text = os.environ.get("HARNESS_HASH_SALT", "")
    if text.isdigit() and len(text) < 40:
        return int(text) % HASH_BOUND
    return secrets.randbelow(HASH_BOUND)


_SALT = _initial_salt()


def environment_exports() -> dict[str, object]:
    """The names of (srfi 128) of which each importing environment has its own: its
    default comparator and registry, the eq/eqv/equal comparators whose hash function is
    its ``default-hash``, and the ``hash-bound`` / ``hash-salt`` parameters."""
    defaults = DefaultComparators()

    def default_hash(obj: object, bound: object = DEFAULT) -> int:
        return _bounded("default-hash", defaults.hash(obj), bound)

    def default_equality(a: object, b: object) -> bool:
        return defaults.compare(a, b) == 0

    def default_ordering(a: object, b: object) -> bool:
        return defaults.compare(a, b) < 0

    def comparator_register_default_x(comparator: object) -> None:
        defaults.register(comparator)

    default = Comparator(any_object, default_equality, default_ordering, default_hash)
    exports: dict[str, object] = {
        "make-default-comparator": lambda: default,
        "default-hash": default_hash,
        "comparator-register-default!": comparator_register_default_x,
    }
    for name, equality in (("eq", is_eq), ("eqv", is_eqv), ("equal", is_equal)):
        comparator = Comparator(any_object, equality, default_ordering, default_hash)
        exports[f"make-{name}-comparator"] = lambda c=comparator: c
    for name, value in (*exports.items(), ("default-equality", default_equality),
                        ("default-ordering", default_ordering)):
        value.__qualname__ = name
    exports["hash-bound"] = make_parameter(HASH_BOUND, _positive_integer("hash-bound", 1))
    exports["hash-salt"] = make_parameter(_SALT, _positive_integer("hash-salt", 0))
    return exports


def default_comparator_of(exports: dict[str, object]) -> Comparator:
    """The default comparator of an environment's ``environment_exports()``."""
    return exports["make-default-comparator"]()
