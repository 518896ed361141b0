"""SRFI 128 comparators: ``(srfi 128)``, also ``(scheme comparator)``.

A ``Comparator`` bundles a type test, an equality predicate, an ordering predicate and a
hash function. The combinators (``make-pair-comparator``, ``make-list-comparator``,
``make-vector-comparator``) and the default comparator walk data in Python loops that
count their steps against the running budget and refuse circular lists.

**The default comparator** orders values by type first, in this order: the empty list,
pairs, booleans, characters, strings, symbols, numbers, vectors, bytevectors, then the
types registered with ``comparator-register-default!`` (in registration order), then
everything else (records, procedures, hash tables, char-sets …). Within a type: #f < #t;
characters and strings by code point; symbols by name; numbers by ``=`` and ``<``, a
non-real one by real part then imaginary part; pairs car first, then cdr (so proper
lists compare lexicographically, shorter first on a common prefix); vectors and
bytevectors by length, then element by element; a registered type by its comparator;
other values equal only to themselves (``eqv?``), grouped by type. ``default-hash``
agrees with it (1 and 1.0 hash alike) and looks at no more than 32 nodes of a structure.

**What belongs to one environment.** ``comparator-register-default!`` changes the default
comparator, and ``hash-salt`` / ``hash-bound`` are parameters one may set: a
process-wide registry would let one tool file change how every other file's data
compares, and keep stale registrations across reloads. So each environment that imports
(srfi 128) gets its own default comparator, registry and parameters
(``environment_exports``, instantiated by libraries.py); everything else is shared.
"""

from __future__ import annotations

import math
import os
import secrets
import zlib
from collections.abc import Callable
from fractions import Fraction

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
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.limits import CHUNK, charge
from harness.scheme.parameters import make_parameter
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.chars import char_arg, fold_char
from harness.scheme.primitives.equivalence import is_eq, is_equal, is_eqv, string_hash
from harness.scheme.primitives.hashtables import _bounded, string_ci_hash, string_hash_
from harness.scheme.primitives.lists import check_procedure
from harness.scheme.primitives.numbers import as_int

SRFI128 = "srfi 128"

#: (hash-bound): every hash function here returns less than this
HASH_BOUND = (1 << 61) - 1
#: how many nodes of a pair or vector structure a hash looks at (so hashing is O(1))
HASH_NODES = 32
#: how many comparators one environment may register with comparator-register-default!
MAX_REGISTERED = 256
_MIX = 1_000_003


class Comparator:
    """A SRFI 128 comparator. ``ordering`` / ``hash`` are procedures that signal an error
    when the comparator was made without one (``ordered`` / ``hashable`` are then False)."""

    __slots__ = ("equality", "hash", "hashable", "ordered", "ordering", "type_test")

    def __init__(self, type_test: Callable, equality: Callable, ordering: Callable | None,
                 hash_function: Callable | None) -> None:
        self.type_test = type_test
        self.equality = equality
        self.ordered = ordering is not None
        self.ordering = ordering if ordering is not None else _no_ordering
        self.hashable = hash_function is not None
        self.hash = hash_function if hash_function is not None else _no_hash

    def __repr__(self) -> str:
        return "#<comparator>"


def _no_ordering(a: object, b: object) -> bool:
    raise error("ordering predicate: the comparator was made without one", a, b)


def _no_hash(x: object, _bound: object = DEFAULT) -> int:
    raise error("hash function: the comparator was made without one", x)


def _any_object(_x: object) -> bool:
    return True


_no_ordering.__qualname__ = "no-ordering-predicate"
_no_hash.__qualname__ = "no-hash-function"
_any_object.__qualname__ = "any-object?"


def check_comparator(who: str, x: object) -> Comparator:
    if type(x) is not Comparator:
        raise wrong_type(who, "a comparator", x)
    return x


def _ordering_of(who: str, c: Comparator) -> Callable:
    if not c.ordered:
        raise error(f"{who}: the comparator has no ordering predicate", c)
    return c.ordering


def _hash_value(who: str, h: object) -> int:
    """A hash function's result, checked: a non-negative exact integer."""
    n = as_int(h)
    if type(n) is not int or n < 0:
        raise wrong_type(who, "a hash function to return a non-negative exact integer", h)
    return n


def _mix(h: int, x: int) -> int:
    return (h * _MIX + x) & HASH_BOUND


class _Walk:
    """Counts the steps of a walk along a sequence against the budget and stops one that
    comes back to a state it was in (Brent's algorithm on the identity of the state)."""

    __slots__ = ("power", "steps", "tortoise", "who")

    def __init__(self, who: str, start: object) -> None:
        self.who = who
        self.tortoise = start
        self.power = self.steps = 1

    def step(self, state: object) -> None:
        if state is self.tortoise:
            raise error(f"{self.who}: the sequence is circular", state)
        if self.steps == self.power:
            self.tortoise = state
            self.power *= 2
            self.steps = 0
            if self.power > CHUNK:
                charge(self.power // 2)
        self.steps += 1


# -- predicates and accessors -------------------------------------------------------------

@primitive(SRFI128)
def comparator_p(x: object) -> bool:
    return type(x) is Comparator


@primitive(SRFI128)
def comparator_ordered_p(comparator: object) -> bool:
    return check_comparator("comparator-ordered?", comparator).ordered


@primitive(SRFI128)
def comparator_hashable_p(comparator: object) -> bool:
    return check_comparator("comparator-hashable?", comparator).hashable


@primitive(SRFI128)
def comparator_type_test_predicate(comparator: object) -> Callable:
    return check_comparator("comparator-type-test-predicate", comparator).type_test


@primitive(SRFI128)
def comparator_equality_predicate(comparator: object) -> Callable:
    return check_comparator("comparator-equality-predicate", comparator).equality


@primitive(SRFI128)
def comparator_ordering_predicate(comparator: object) -> Callable:
    return check_comparator("comparator-ordering-predicate", comparator).ordering


@primitive(SRFI128)
def comparator_hash_function(comparator: object) -> Callable:
    return check_comparator("comparator-hash-function", comparator).hash


@primitive(SRFI128)
def comparator_test_type(comparator: object, obj: object) -> object:
    return check_comparator("comparator-test-type", comparator).type_test(obj)


@primitive(SRFI128)
def comparator_check_type(comparator: object, obj: object) -> bool:
    """#t if obj satisfies the comparator's type test, else an error naming obj."""
    if check_comparator("comparator-check-type", comparator).type_test(obj) is False:
        raise wrong_type("comparator-check-type", "an object of the comparator's type", obj)
    return True


@primitive(SRFI128)
def comparator_hash(comparator: object, obj: object) -> object:
    """What the comparator's hash function returns for obj (unchecked, as SRFI 128 says:
    the hash tables and combinators check it where they use it)."""
    c = check_comparator("comparator-hash", comparator)
    if not c.hashable:
        raise error("comparator-hash: the comparator has no hash function", c)
    return c.hash(obj)


# -- constructors -------------------------------------------------------------------------

@primitive(SRFI128)
def make_comparator(type_test: object, equality: object, ordering: object,
                    hash_function: object) -> Comparator:
    """(make-comparator type-test equality ordering hash); ordering and hash may be #f."""
    check_procedure("make-comparator", type_test)
    check_procedure("make-comparator", equality)
    for proc in (ordering, hash_function):
        if proc is not False:
            check_procedure("make-comparator", proc)
    return Comparator(type_test, equality, None if ordering is False else ordering,
                      None if hash_function is False else hash_function)


@primitive(SRFI128)
def make_pair_comparator(car_comparator: object, cdr_comparator: object) -> Comparator:
    """Pairs whose car and cdr the two comparators handle, ordered car first."""
    car_c = check_comparator("make-pair-comparator", car_comparator)
    cdr_c = check_comparator("make-pair-comparator", cdr_comparator)
    car_test, cdr_test = car_c.type_test, cdr_c.type_test
    car_eq, cdr_eq = car_c.equality, cdr_c.equality

    def pair_test(x: object) -> bool:
        return (x.__class__ is list and car_test(x[0]) is not False
                and cdr_test(x[1]) is not False)

    def pair_equal(x: object, y: object) -> bool:
        _pairs("pair-comparator", x, y)
        return car_eq(x[0], y[0]) is not False and cdr_eq(x[1], y[1]) is not False

    def pair_less(x: object, y: object) -> bool:
        _pairs("pair-comparator", x, y)
        if car_eq(x[0], y[0]) is False:
            return car_c.ordering(x[0], y[0]) is not False
        return cdr_c.ordering(x[1], y[1]) is not False

    def pair_hash(x: object, _bound: object = DEFAULT) -> int:
        _pairs("pair-comparator", x, x)
        return _mix(_hash_value("pair-comparator", car_c.hash(x[0])),
                    _hash_value("pair-comparator", cdr_c.hash(x[1])))

    return Comparator(pair_test, pair_equal, pair_less if car_c.ordered and cdr_c.ordered
                      else None, pair_hash if car_c.hashable and cdr_c.hashable else None)


def _pairs(who: str, x: object, y: object) -> None:
    for v in (x, y):
        if v.__class__ is not list:
            raise wrong_type(who, "a pair", v)


@primitive(SRFI128)
def make_list_comparator(element_comparator: object, type_test: object, empty_p: object,
                         head: object, tail: object) -> Comparator:
    """Sequences that (type-test x) accepts, walked with empty?, head and tail, ordered
    lexicographically (the empty sequence first) by the element comparator."""
    who = "make-list-comparator"
    elem = check_comparator(who, element_comparator)
    for proc in (type_test, empty_p, head, tail):
        check_procedure(who, proc)
    e_test, e_eq = elem.type_test, elem.equality

    def list_test(x: object) -> bool:
        if type_test(x) is False:
            return False
        walk = _Walk("list-comparator", x)
        while empty_p(x) is False:
            if e_test(head(x)) is False:
                return False
            x = tail(x)
            walk.step(x)
        return True

    def list_equal(x: object, y: object) -> bool:
        walk = _Walk("list-comparator", x)
        while True:
            x_empty, y_empty = empty_p(x) is not False, empty_p(y) is not False
            if x_empty or y_empty:
                return x_empty and y_empty
            if e_eq(head(x), head(y)) is False:
                return False
            x, y = tail(x), tail(y)
            walk.step(x)

    def list_less(x: object, y: object) -> bool:
        walk = _Walk("list-comparator", x)
        while True:
            if empty_p(x) is not False:
                return empty_p(y) is False
            if empty_p(y) is not False:
                return False
            a, b = head(x), head(y)
            if e_eq(a, b) is False:
                return elem.ordering(a, b) is not False
            x, y = tail(x), tail(y)
            walk.step(x)

    def list_hash(x: object, _bound: object = DEFAULT) -> int:
        h = 0
        for _ in range(HASH_NODES):
            if empty_p(x) is not False:
                break
            h = _mix(h, _hash_value("list-comparator", elem.hash(head(x))))
            x = tail(x)
        return h

    return Comparator(list_test, list_equal, list_less if elem.ordered else None,
                      list_hash if elem.hashable else None)


@primitive(SRFI128)
def make_vector_comparator(element_comparator: object, type_test: object, length: object,
                           ref: object) -> Comparator:
    """Sequences that (type-test x) accepts, read with length and ref: shorter first,
    then element by element with the element comparator."""
    who = "make-vector-comparator"
    elem = check_comparator(who, element_comparator)
    for proc in (type_test, length, ref):
        check_procedure(who, proc)
    e_test, e_eq = elem.type_test, elem.equality

    def size(x: object) -> int:
        n = as_int(length(x))
        if type(n) is not int or n < 0:
            raise wrong_type("vector-comparator", "a length that is an exact integer", n)
        return n

    def vector_test(x: object) -> bool:
        if type_test(x) is False:
            return False
        n = size(x)
        charge(n)
        for i in range(n):
            if e_test(ref(x, i)) is False:
                return False
        return True

    def vector_equal(x: object, y: object) -> bool:
        n = size(x)
        if n != size(y):
            return False
        charge(n)
        for i in range(n):
            if e_eq(ref(x, i), ref(y, i)) is False:
                return False
        return True

    def vector_less(x: object, y: object) -> bool:
        n, m = size(x), size(y)
        if n != m:
            return n < m
        charge(n)
        for i in range(n):
            a, b = ref(x, i), ref(y, i)
            if e_eq(a, b) is False:
                return elem.ordering(a, b) is not False
        return False

    def vector_hash(x: object, _bound: object = DEFAULT) -> int:
        n = size(x)
        h = n
        for i in range(min(n, HASH_NODES)):
            h = _mix(h, _hash_value("vector-comparator", elem.hash(ref(x, i))))
        return h

    return Comparator(vector_test, vector_equal, vector_less if elem.ordered else None,
                      vector_hash if elem.hashable else None)


# -- standard hash functions --------------------------------------------------------------

def _is_nan(x: object) -> bool:
    return type(x) is float and math.isnan(x)


def _number_part_hash(x: object) -> int:
    if _is_nan(x):  # hash(nan) depends on the object
        return 0x7FF8
    return hash(x) & HASH_BOUND  # int, Fraction and float agree where = does


def number_hash_value(x: object) -> int:
    """A hash that agrees with ``=`` across exactness (1, 1.0 and 1+0.0i alike)."""
    imag = x.imag
    if imag == 0:
        return _number_part_hash(x.real)
    return _mix(_number_part_hash(x.real), _number_part_hash(imag))


_NUMBER_TYPES = (int, float, Fraction, complex, ExactComplex)


@primitive(SRFI128)
def boolean_hash(obj: object, bound: object = DEFAULT) -> int:
    if obj is not True and obj is not False:
        raise wrong_type("boolean-hash", "a boolean", obj)
    return _bounded("boolean-hash", 1 if obj else 0, bound)


@primitive(SRFI128)
def char_hash(obj: object, bound: object = DEFAULT) -> int:
    return _bounded("char-hash", ord(char_arg("char-hash", obj)), bound)


@primitive(SRFI128)
def char_ci_hash(obj: object, bound: object = DEFAULT) -> int:
    return _bounded("char-ci-hash", ord(fold_char(char_arg("char-ci-hash", obj))), bound)


@primitive(SRFI128)
def symbol_hash(obj: object, bound: object = DEFAULT) -> int:
    if type(obj) is not Symbol:
        raise wrong_type("symbol-hash", "a symbol", obj)
    return _bounded("symbol-hash", string_hash(obj.name), bound)


@primitive(SRFI128)
def number_hash(obj: object, bound: object = DEFAULT) -> int:
    if type(obj) not in _NUMBER_TYPES:
        raise wrong_type("number-hash", "a number", obj)
    return _bounded("number-hash", number_hash_value(obj), bound)


# SRFI 69's string hashes are consistent with string=? / string-ci=? already: the same
# procedures, so importing both libraries binds each name to one value.
define(SRFI128, "string-hash", string_hash_)
define(SRFI128, "string-ci-hash", string_ci_hash)


# -- comparison predicates ----------------------------------------------------------------

def _chain(who: str, comparator: object, a: object, b: object, more: tuple,
           holds: Callable[[Comparator, object, object], bool]) -> bool:
    c = check_comparator(who, comparator)
    if not holds(c, a, b):
        return False
    prev = b
    for x in more:
        if not holds(c, prev, x):
            return False
        prev = x
    return True


def _equal(c: Comparator, a: object, b: object) -> bool:
    return c.equality(a, b) is not False


def _less(c: Comparator, a: object, b: object) -> bool:
    return c.ordering(a, b) is not False


@primitive(SRFI128, name="=?")
def comparator_equal(comparator: object, a: object, b: object, *more: object) -> bool:
    """(=? comparator obj1 obj2 obj3 ...): each object equal to the next."""
    return _chain("=?", comparator, a, b, more, _equal)


@primitive(SRFI128, name="<?")
def comparator_less(comparator: object, a: object, b: object, *more: object) -> bool:
    _ordering_of("<?", check_comparator("<?", comparator))
    return _chain("<?", comparator, a, b, more, _less)


@primitive(SRFI128, name=">?")
def comparator_greater(comparator: object, a: object, b: object, *more: object) -> bool:
    _ordering_of(">?", check_comparator(">?", comparator))
    return _chain(">?", comparator, a, b, more, lambda c, x, y: _less(c, y, x))


@primitive(SRFI128, name="<=?")
def comparator_less_or_equal(comparator: object, a: object, b: object,
                             *more: object) -> bool:
    _ordering_of("<=?", check_comparator("<=?", comparator))
    return _chain("<=?", comparator, a, b, more,
                  lambda c, x, y: _less(c, x, y) or _equal(c, x, y))


@primitive(SRFI128, name=">=?")
def comparator_greater_or_equal(comparator: object, a: object, b: object,
                                *more: object) -> bool:
    _ordering_of(">=?", check_comparator(">=?", comparator))
    return _chain(">=?", comparator, a, b, more,
                  lambda c, x, y: _less(c, y, x) or _equal(c, x, y))


def order_of(comparator: object, a: object, b: object) -> int:
    """-1, 0 or 1 as ``comparator`` orders a before, with or after b (comparator-if<=>)."""
    c = check_comparator("comparator-if<=>", comparator)
    if _ordering_of("comparator-if<=>", c)(a, b) is not False:
        return -1
    return 0 if c.equality(a, b) is not False else 1


# -- the default comparator ---------------------------------------------------------------

_EMPTY, _PAIR, _BOOLEAN, _CHAR, _STRING, _SYMBOL, _NUMBER, _VECTOR, _BYTEVECTOR = range(9)
_REGISTERED = 9  # the first registered type's rank
_RANKS = {Nil: _EMPTY, list: _PAIR, bool: _BOOLEAN, Char: _CHAR, String: _STRING,
          Symbol: _SYMBOL, Vector: _VECTOR, Bytevector: _BYTEVECTOR,
          **{t: _NUMBER for t in _NUMBER_TYPES}}


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
            return _is_nan(a) - _is_nan(b)
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
                h = _mix(h, 0x9A1)
                todo.append(v[1])
                todo.append(v[0])
            elif rank == _VECTOR:
                h = _mix(h, 0x7EC + len(v.items))
                todo.extend(reversed(v.items[:HASH_NODES]))
            else:
                h = _mix(h, self._atom_hash(rank, v))
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
            return _hash_value("default-hash", c.hash(x))
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
    return int(text) % HASH_BOUND if text.isdigit() else secrets.randbelow(HASH_BOUND)


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

    default = Comparator(_any_object, default_equality, default_ordering, default_hash)
    exports: dict[str, object] = {
        "make-default-comparator": lambda: default,
        "default-hash": default_hash,
        "comparator-register-default!": comparator_register_default_x,
    }
    for name, equality in (("eq", is_eq), ("eqv", is_eqv), ("equal", is_equal)):
        comparator = Comparator(_any_object, equality, default_ordering, default_hash)
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
