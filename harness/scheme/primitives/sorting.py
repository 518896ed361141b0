"""Sorting: SRFI 132 (ordering procedure first) and chibi's ``(sort seq [less [key]])``.

Every sort is stable; an error raised by ``less`` propagates. A ``less`` that may run
Scheme code is called from a merge sort written in Python (sort_then): called from
Python's list sort (C code), each level of a Scheme recursion through the sort would grow
the C stack, and a continuation captured in ``less`` could not be resumed. A primitive
``less`` (``<``, ``string<?``…) cannot recurse, so it keeps the faster list sort. Merging
and the other scans are plain loops.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cmp_to_key
from operator import itemgetter

from harness.scheme.datatypes import DEFAULT, NIL, Vector
from harness.scheme.errors import wrong_type
from harness.scheme.limits import charge
from harness.scheme.primitives import PROCEDURE_NAMES, primitive
from harness.scheme.primitives.lists import (
    check_procedure,
    from_items,
    map_then,
    proper_items,
)
from harness.scheme.primitives.vectors import check_vector, index_range

#: the native part of SRFI 132: scheme_lib/srfi/132.sld imports and re-exports it
SRFI132 = "srfi 132 core"


def stable_sorted(less: Callable, items: list, key: Callable | None = None,
                  finish: Callable[[list], object] = list) -> object:
    """``finish`` of a new list of ``items`` in the order of the Scheme procedure ``less``
    (stable); the caller has checked that less is a procedure. With ``key`` (a Python
    function that cannot run Scheme code), less compares ``key(item)``s."""
    if len(items) > 64:
        # n log n comparisons; a primitive ``less`` costs no step of its own
        charge(len(items) * len(items).bit_length())
    if less is _default_less or less in PROCEDURE_NAMES:
        compare = less if key is None else (lambda a, b: less(key(a), key(b)))
        # Python's sort only asks "a < b?", so a comparison is one call of less.
        return finish(sorted(items, key=cmp_to_key(lambda a, b: -1 if compare(a, b)
                                                   is not False else 0)))
    compare = less if key is None else keyed(less, key)
    return sort_then(compare, items, finish)


def keyed(less: Callable, key: Callable) -> Callable:
    """``less`` comparing ``key``s (a Python frame continuations.py passes through)."""
    def compare(a: object, b: object) -> object:
        return less(key(a), key(b))
    return compare


def sort_then(less: Callable, items: list, finish: Callable[[list], object],
              runs: list | None = None, i: int = 0, j: int = 1, down: bool | None = None,
              merged: list | None = None, k: int = 0, out: list | None = None,
              a: int = 0, b: int = 0, value: object = DEFAULT) -> object:
    """Natural merge sort (stable) calling ``less`` from Python frames only; ``finish`` of
    the sorted list. First ``items`` is cut into the runs already in order (``items[i:j]``
    being read, ``down`` if it descends strictly: reversed), so sorted or reversed input
    takes n comparisons; then the runs are merged two by two (``merged``: this level's
    runs so far; ``runs[k]`` and ``runs[k + 1]`` being merged into ``out`` from ``a`` and
    ``b``). That state is all in locals, so a continuation captured inside ``less``
    resumes the sort (continuations.py) with ``value`` the answer of its comparison."""
    n = len(items)
    if runs is None:
        runs = []
    # -- runs ---------------------------------------------------------------------------
    while i < n:
        ended = False
        if value is not DEFAULT:  # resumed in the comparison of items[j]: its answer
            smaller = value is not False
            value = DEFAULT
            if down is None or down is smaller:
                down = smaller
                j += 1
            else:
                ended = True
        if not ended:
            if down is None and j < n:
                down = less(items[j], items[j - 1]) is not False
                j += 1
            if down:
                while j < n and less(items[j], items[j - 1]) is not False:
                    j += 1
            else:
                while j < n and less(items[j], items[j - 1]) is False:
                    j += 1
        runs.append(items[i:j][::-1] if down else items[i:j])
        i, j, down = j, j + 1, None
    # -- merges -------------------------------------------------------------------------
    if merged is None:
        merged = []
    while True:
        count = len(runs)
        while k + 1 < count:
            xs, ys = runs[k], runs[k + 1]
            if out is None:
                if value is DEFAULT:
                    value = less(ys[0], xs[-1])
                if value is False:  # already in order
                    merged.append(xs + ys)
                    k += 2
                    value = DEFAULT
                    continue
                out = []
            elif value is not DEFAULT:  # resumed in the merge: the comparison's answer
                if value is not False:
                    out.append(ys[b])
                    b += 1
                else:
                    out.append(xs[a])
                    a += 1
            value = DEFAULT
            append = out.append
            nx, ny = len(xs), len(ys)
            while a < nx and b < ny:
                if less(ys[b], xs[a]) is not False:
                    append(ys[b])
                    b += 1
                else:
                    append(xs[a])
                    a += 1
            out.extend(xs[a:])
            out.extend(ys[b:])
            merged.append(out)
            out = None
            a = b = 0
            k += 2
        if k < count:
            merged.append(runs[k])
        if len(merged) <= 1:
            return finish(merged[0] if merged else [])
        runs, merged, k = merged, [], 0


def _vector_range(who: str, v: object, start: object, end: object) -> tuple[list, int, int]:
    items = check_vector(who, v)
    s, e = index_range(who, v, len(items), start, end)
    return items, s, e


# -- lists --------------------------------------------------------------------------------

@primitive(SRFI132)
def list_sort(less: object, lst: object) -> object:
    """(list-sort < list): a new sorted list (stable)."""
    check_procedure("list-sort", less)
    return stable_sorted(less, proper_items("list-sort", lst), finish=from_items)


# -- vectors ------------------------------------------------------------------------------

@primitive(SRFI132)
def vector_sort(less: object, v: object, start: object = DEFAULT,
                end: object = DEFAULT) -> Vector:
    """(vector-sort < v [start [end]]): a new vector of the sorted range."""
    check_procedure("vector-sort", less)
    items, s, e = _vector_range("vector-sort", v, start, end)
    return stable_sorted(less, items[s:e], finish=Vector)


@primitive(SRFI132)
def vector_sort_x(less: object, v: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    """(vector-sort! < v [start [end]]): sorts the range in place."""
    check_procedure("vector-sort!", less)
    items, s, e = _vector_range("vector-sort!", v, start, end)

    def put_back(result: list) -> None:
        items[s:e] = result
    return stable_sorted(less, items[s:e], finish=put_back)


# -- chibi's sort -------------------------------------------------------------------------

def _default_less(a: object, b: object) -> bool:
    """``<`` on real numbers, the default ordering of ``sort``."""
    for x in (a, b):
        if type(x) not in (int, Fraction, float):
            raise wrong_type("sort", "a real number (or pass an ordering procedure)", x)
    return a < b


@primitive(SRFI132, "harness sort")
def sort(seq: object, less: object = DEFAULT, key: object = DEFAULT) -> object:
    """(sort list-or-vector [less [key]]): a new sorted list or vector (stable); less
    defaults to <, and key (if given) maps each element to what less compares."""
    ordering = _default_less if less is DEFAULT else less
    check_procedure("sort", ordering)
    if key is not DEFAULT:
        check_procedure("sort", key)
    if seq is NIL or seq.__class__ is list:
        items = proper_items("sort", seq)
    elif type(seq) is Vector:
        items = seq.items
    else:
        raise wrong_type("sort", "a list or a vector", seq)
    made = Vector if type(seq) is Vector else from_items
    if key is DEFAULT:
        return stable_sorted(ordering, items, finish=made)
    keys = map_then(key, items, False, list)
    return sort_by_keys(ordering, items, made, keys)


def sort_by_keys(less: Callable, items: list, made: Callable, keys: list) -> object:
    """``made`` of ``items`` sorted by their ``keys`` (``sort``'s key procedure's values)."""
    return stable_sorted(less, list(zip(keys, items)), itemgetter(0),
                         lambda pairs: made([x for _, x in pairs]))


_ALIASES = {
    "list-stable-sort": list_sort, "list-sort!": list_sort, "list-stable-sort!": list_sort,
    "vector-stable-sort": vector_sort, "vector-stable-sort!": vector_sort_x,
}
for _name, _fn in _ALIASES.items():
    primitive(SRFI132, name=_name)(_fn)
