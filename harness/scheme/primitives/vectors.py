"""Vectors: (scheme base).

Optional ``start``/``end`` arguments select the range [start, end); ``index_range`` and
``check_index`` (shared with bytevectors and sorting) turn a bad index into a Scheme error
instead of letting Python wrap a negative index around.

``vector-for-each`` is written in Scheme (scheme_lib/scheme/base/walks.sld, which (scheme
base) exports: libraries.SCHEME_WRITTEN), so it counts its steps and re-enters with
nothing written for it in continuations.py: measured with ``bench/resumable_primitives.py``
(sandboxed, ``odd?`` as a Scheme procedure) at 1.37-1.42x the Python loop it replaced
over 1,000 elements and 1.06-1.16x over 10. ``vector-map`` stays here: in Scheme it was 1.8-3.3x
(over 10 and 1,000 elements, ``odd?``; 2.2-6.5x with the identity), the results gathered
in fresh pairs (so that a re-entry leaves the vectors returned before it as they were)
and turned into a vector.
"""

from __future__ import annotations

from harness.scheme.datatypes import DEFAULT, Vector
from harness.scheme.errors import error, wrong_type
from harness.scheme.limits import charge_bulk
from harness.scheme.primitives import primitive
from harness.scheme.primitives.lists import (
    PAIR_BYTES,
    check_alloc,
    check_count,
    check_procedure,
    from_items,
    map_then,
    proper_items,
)
from harness.scheme.primitives.numbers import as_int

BASE = "scheme base"


def check_index(who: str, obj: object, k: object, size: int) -> int:
    """``k`` as a valid index 0 <= k < size into ``obj``, or an error."""
    k = as_int(k)
    if type(k) is not int:
        raise wrong_type(who, "an exact integer index", k)
    if not 0 <= k < size:
        raise error(f"{who}: index out of range", obj, k)
    return k


def index_range(who: str, obj: object, size: int, start: object = DEFAULT,
                end: object = DEFAULT) -> tuple[int, int]:
    """The optional ``start``/``end`` arguments as ints with 0 <= start <= end <= size."""
    s = 0 if start is DEFAULT else as_int(start)
    e = size if end is DEFAULT else as_int(end)
    for k in (s, e):
        if type(k) is not int:
            raise wrong_type(who, "an exact integer index", k)
    if not 0 <= s <= size:
        raise error(f"{who}: start index out of range", obj, s)
    if not s <= e <= size:
        raise error(f"{who}: end index out of range", obj, e)
    charge_bulk(e - s, 8 * (e - s))  # the callers copy, fill or convert the range
    return s, e


def copy_into(who: str, to: object, target: list | bytearray, at: object,
              part: list | bytearray) -> None:
    """``vector-copy!`` / ``bytevector-copy!``: put ``part`` (an already-sliced copy, so
    overlapping ranges are safe) into ``target`` (the items of ``to``) from index ``at``."""
    at = as_int(at)
    if type(at) is not int:
        raise wrong_type(who, "an exact integer index", at)
    if not 0 <= at <= len(target) - len(part):
        raise error(f"{who}: destination index out of range", to, at)
    target[at:at + len(part)] = part


def check_vector(who: str, v: object) -> list:
    """The items of vector ``v``, or the standard error."""
    if type(v) is not Vector:
        raise wrong_type(who, "a vector", v)
    return v.items


@primitive(BASE)
def vector_p(x: object) -> bool:
    return type(x) is Vector


@primitive(BASE)
def make_vector(k: object, fill: object = DEFAULT) -> Vector:
    """(make-vector k [fill]); the fill defaults to #f."""
    n = check_count("make-vector", k)
    check_alloc("make-vector", n)
    return Vector([False if fill is DEFAULT else fill] * n)


@primitive(BASE)
def vector(*items: object) -> Vector:
    return Vector(list(items))


@primitive(BASE)
def vector_length(v: object) -> int:
    if v.__class__ is Vector:
        return len(v.items)
    return len(check_vector("vector-length", v))


@primitive(BASE)
def vector_ref(v: object, k: object) -> object:
    if v.__class__ is Vector and k.__class__ is int and k >= 0:  # the usual case, inline
        items = v.items
        if k < len(items):
            return items[k]
    items = check_vector("vector-ref", v)
    return items[check_index("vector-ref", v, k, len(items))]


@primitive(BASE)
def vector_set_x(v: object, k: object, value: object) -> None:
    if v.__class__ is Vector and k.__class__ is int and k >= 0:  # the usual case, inline
        items = v.items
        if k < len(items):
            items[k] = value
            return
    items = check_vector("vector-set!", v)
    items[check_index("vector-set!", v, k, len(items))] = value


@primitive(BASE)
def vector_to_list(v: object, start: object = DEFAULT, end: object = DEFAULT) -> object:
    items = check_vector("vector->list", v)
    s, e = index_range("vector->list", v, len(items), start, end)
    check_alloc("vector->list", e - s, PAIR_BYTES)
    return from_items(items[s:e])


@primitive(BASE)
def list_to_vector(lst: object) -> Vector:
    return Vector(proper_items("list->vector", lst))


@primitive(BASE)
def vector_fill_x(v: object, fill: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    items = check_vector("vector-fill!", v)
    s, e = index_range("vector-fill!", v, len(items), start, end)
    items[s:e] = [fill] * (e - s)


@primitive(BASE)
def vector_copy(v: object, start: object = DEFAULT, end: object = DEFAULT) -> Vector:
    items = check_vector("vector-copy", v)
    s, e = index_range("vector-copy", v, len(items), start, end)
    return Vector(items[s:e])


@primitive(BASE)
def vector_copy_x(to: object, at: object, source: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    """(vector-copy! to at from [start [end]]); overlapping ranges copy correctly."""
    target = check_vector("vector-copy!", to)
    items = check_vector("vector-copy!", source)
    s, e = index_range("vector-copy!", source, len(items), start, end)
    copy_into("vector-copy!", to, target, at, items[s:e])


@primitive(BASE)
def vector_append(*vectors: object) -> Vector:
    out: list = []
    for v in vectors:
        out.extend(check_vector("vector-append", v))
        check_alloc("vector-append", len(out))
    return Vector(out)


def _shortest(who: str, vectors: tuple) -> tuple[list[list], int]:
    columns = [check_vector(who, v) for v in vectors]
    return columns, min(len(c) for c in columns)


@primitive(BASE)
def vector_map(f: object, v: object, *vectors: object) -> Vector:
    """(vector-map f vector ...), stopping at the shortest vector."""
    check_procedure("vector-map", f)
    columns, n = _shortest("vector-map", (v, *vectors))
    if len(columns) == 1:  # a copy: a re-entered continuation maps the vector as it was
        return map_then(f, columns[0][:], False, Vector)
    return map_then(f, [[c[i] for c in columns] for i in range(n)], True, Vector)
