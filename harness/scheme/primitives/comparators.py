"""SRFI 128 comparators: ``(srfi 128)``, also ``(scheme comparator)``.

A ``Comparator`` bundles a type test, an equality predicate, an ordering predicate and a
hash function. The combinators (``make-pair-comparator``, ``make-list-comparator``,
``make-vector-comparator``) walk data in Python loops that count their steps against the
running budget and refuse circular sequences. The default comparator, and the names of
the library each importing environment has its own of, are in default_comparator.py.

This is ``(srfi 128 core)``: scheme_lib/srfi/128.sld imports and re-exports it and writes
the procedures that call a comparator's procedures (``=?``, ``<?``, ``>?``, ``<=?``,
``>=?``, ``comparator-test-type``, ``-check-type``, ``-hash``) in Scheme, where they
re-enter and count their steps with nothing written for them (they were Python with
hand-written resume records). The record type stays native: hash tables, sorts and the
default comparator read a comparator's procedures from Python. Measured sandboxed, 1,000
calls against the Python versions (side by side, best of 7, busy machine): ``=?`` and
``<?`` with the default comparator 1.3-1.4x, ``<=?`` with Scheme procedures 1.25-1.3x,
``<?`` over 5 objects 1.5-1.7x, ``comparator-check-type`` 2.2x (0.9 us more a call): the
price of a Scheme call around a native one, paid per call, not per element.
``comparator-if<=>`` (comparator_syntax.py) expands into Scheme that calls the comparator's
procedures itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction

from harness.scheme.datatypes import DEFAULT, Symbol
from harness.scheme.errors import error, wrong_type
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.limits import CHUNK, charge
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.chars import char_arg, fold_char
from harness.scheme.primitives.equivalence import string_hash
from harness.scheme.primitives.hashtables import _bounded, string_ci_hash, string_hash_
from harness.scheme.primitives.lists import check_procedure
from harness.scheme.primitives.numbers import as_int

#: the native part of (srfi 128): scheme_lib/srfi/128.sld imports and re-exports it
SRFI128 = "srfi 128 core"

#: (hash-bound): every hash function here returns less than this
HASH_BOUND = (1 << 61) - 1
#: how many nodes of a pair or vector structure a hash looks at (so hashing is O(1))
HASH_NODES = 32
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


def any_object(_x: object) -> bool:
    return True


_no_ordering.__qualname__ = "no-ordering-predicate"
_no_hash.__qualname__ = "no-hash-function"
any_object.__qualname__ = "any-object?"


def check_comparator(who: str, x: object) -> Comparator:
    if type(x) is not Comparator:
        raise wrong_type(who, "a comparator", x)
    return x


def hash_value(who: str, h: object) -> int:
    """A hash function's result, checked: a non-negative exact integer."""
    n = as_int(h)
    if type(n) is not int or n < 0:
        raise wrong_type(who, "a hash function to return a non-negative exact integer", h)
    return n


def mix(h: int, x: int) -> int:
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


def _indices(n: int) -> Iterator[int]:
    """0 to n - 1, one step counted per index (a chunk at a time)."""
    for start in range(0, n, CHUNK):
        charge(min(CHUNK, n - start))
        yield from range(start, min(start + CHUNK, n))


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


@primitive(SRFI128, name="ordering-of")
def ordering_for(who: Symbol, comparator: object) -> Callable:
    """The ordering predicate of ``comparator`` for 128.sld's procedure ``who``, whose
    name its errors carry: a value that is not a comparator, a comparator made without an
    ordering. One call where the checks and the accessor were three (<=? is called often
    and does little else)."""
    c = check_comparator(who.name, comparator)
    if not c.ordered:
        raise error(f"{who.name}: the comparator has no ordering predicate", c)
    return c.ordering


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
        return mix(hash_value("pair-comparator", car_c.hash(x[0])),
                    hash_value("pair-comparator", cdr_c.hash(x[1])))

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
            h = mix(h, hash_value("list-comparator", elem.hash(head(x))))
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
        for i in _indices(size(x)):
            if e_test(ref(x, i)) is False:
                return False
        return True

    def vector_equal(x: object, y: object) -> bool:
        n = size(x)
        if n != size(y):
            return False
        for i in _indices(n):
            if e_eq(ref(x, i), ref(y, i)) is False:
                return False
        return True

    def vector_less(x: object, y: object) -> bool:
        n, m = size(x), size(y)
        if n != m:
            return n < m
        for i in _indices(n):
            a, b = ref(x, i), ref(y, i)
            if e_eq(a, b) is False:
                return elem.ordering(a, b) is not False
        return False

    def vector_hash(x: object, _bound: object = DEFAULT) -> int:
        n = size(x)
        h = n
        for i in range(min(n, HASH_NODES)):
            h = mix(h, hash_value("vector-comparator", elem.hash(ref(x, i))))
        return h

    return Comparator(vector_test, vector_equal, vector_less if elem.ordered else None,
                      vector_hash if elem.hashable else None)


# -- standard hash functions --------------------------------------------------------------

def is_nan(x: object) -> bool:
    return type(x) is float and math.isnan(x)


def _number_part_hash(x: object) -> int:
    if is_nan(x):  # hash(nan) depends on the object
        return 0x7FF8
    return hash(x) & HASH_BOUND  # int, Fraction and float agree where = does


def number_hash_value(x: object) -> int:
    """A hash that agrees with ``=`` across exactness (1, 1.0 and 1+0.0i alike)."""
    imag = x.imag
    if imag == 0:
        return _number_part_hash(x.real)
    return mix(_number_part_hash(x.real), _number_part_hash(imag))


NUMBER_TYPES = (int, float, Fraction, complex, ExactComplex)


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
    if type(obj) not in NUMBER_TYPES:
        raise wrong_type("number-hash", "a number", obj)
    return _bounded("number-hash", number_hash_value(obj), bound)


# SRFI 69's string hashes are consistent with string=? / string-ci=? already: the same
# procedures, so importing both libraries binds each name to one value.
define(SRFI128, "string-hash", string_hash_)
define(SRFI128, "string-ci-hash", string_ci_hash)
