"""Sorting: SRFI 132 (ordering procedure first) and chibi's ``(sort seq [less [key]])``.

Every sort is stable; an error raised by ``less`` propagates. A ``less`` that may run
Scheme code is called from a merge sort written in Python (sort_then): called from
Python's list sort (C code), each level of a Scheme recursion through the sort would grow
the C stack, and a continuation captured in ``less`` could not be resumed. A primitive
``less`` (``<``, ``string<?``…) cannot recurse, so it keeps the faster list sort. Merging
and the other scans are plain loops.

SRFI 132 is ``scheme_lib/srfi/132.sld``: this module registers its native part as the
library ``(srfi 132 core)``, which that file imports and re-exports. Measured with
``bench/resumable_primitives.py`` (a Scheme ``less``, time in Scheme / time here, two
runs of best of 3 on a busy machine):

* in Scheme: ``list-sorted?`` 1.26-1.33 (2,000 elements), ``list-merge`` 1.68-2.04 (two
  of 2,000), ``list-delete-neighbor-dups`` 1.44-2.17 (1,000: a third of it the reverse
  of the kept elements, which a loop that calls a procedure of the program cannot build
  in place), and the medians and selections, which sort here and pick in Scheme:
  ``vector-find-median`` 1.01-1.07, ``-find-median!`` 1.00-1.10, ``vector-select!``
  1.05-1.23, ``vector-separate!`` 1.06-1.12 (2,000); SRFI 128's ``comparator-if<=>``
  (comparator_syntax.py) went from a call of a primitive to code that calls the
  comparator itself: 0.66-0.70.
* kept here: the sorts (a merge sort in Scheme measured 3.5x), ``vector-sorted?`` 2.4-3.5
  (an index loop pays two ``vector-ref``s and a call a step, where the loop here walks a
  slice), ``vector-merge`` / ``vector-merge!`` 4.4-9.8 (the fastest Scheme merge of two
  vector ranges, a loop of ``vector-ref``s and a list turned into a vector at the end,
  4.4x: the loop here merges Python lists by slices), ``vector-delete-neighbor-dups``
  and its ``!`` form 3.6-3.7. These keep their resume records in continuations.py.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cmp_to_key, partial
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


def stable_sorted(less: Callable, items: list, finish: Callable[[list], object],
                  key: Callable | None = None) -> object:
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


def merge_then(less: Callable, xs: list, ys: list, finish: Callable[[list], object],
               out: list | None = None, i: int = 0, j: int = 0) -> object:
    """``finish`` of the stable merge of ``xs`` and ``ys`` (on ties the element of ``xs``
    comes first), ``out`` holding what is merged of ``xs[:i]`` and ``ys[:j]``. Its state
    is in locals: a continuation captured inside ``less`` resumes it (continuations.py)."""
    if out is None:
        out = []
    nx, ny = len(xs), len(ys)
    while i < nx and j < ny:
        if less(ys[j], xs[i]) is not False:
            out.append(ys[j])
            j += 1
        else:
            out.append(xs[i])
            i += 1
    out.extend(xs[i:])
    out.extend(ys[j:])
    return finish(out)


def sorted_then(less: Callable, items: list, start: int = 1) -> bool:
    """Whether no element of ``items`` from ``start`` on is ``less`` than the one before it
    (the -sorted? checks: a continuation captured in ``less`` resumes the loop)."""
    if len(items) <= start:
        return True
    walk = iter(items)  # a named iterator: its position is where a resume goes on
    walk.__setstate__(start)
    a = items[start - 1]
    for b in walk:
        if less(b, a) is not False:
            return False
        a = b
    return True


def without_neighbor_dups(same: Callable, items: list, finish: Callable[[list], object],
                          kept: list | None = None, start: int = 1) -> object:
    """``finish`` of the first element of each run of neighbours equal under (same earlier
    later), ``kept`` those of ``items[:start]`` when given (a resume goes on from there)."""
    if not items:
        return finish([])
    if kept is None:
        kept = [items[0]]
    walk = iter(items)
    walk.__setstate__(start)
    for x in walk:
        if same(kept[-1], x) is False:
            kept.append(x)
    return finish(kept)


def _vector_range(who: str, v: object, start: object, end: object) -> tuple[list, int, int]:
    items = check_vector(who, v)
    s, e = index_range(who, v, len(items), start, end)
    return items, s, e


# -- lists --------------------------------------------------------------------------------

@primitive(SRFI132)
def list_sort(less: object, lst: object) -> object:
    """(list-sort < list): a new sorted list (stable)."""
    check_procedure("list-sort", less)
    return stable_sorted(less, proper_items("list-sort", lst), from_items)


# -- vectors ------------------------------------------------------------------------------

@primitive(SRFI132)
def vector_sort(less: object, v: object, start: object = DEFAULT,
                end: object = DEFAULT) -> Vector:
    """(vector-sort < v [start [end]]): a new vector of the sorted range."""
    check_procedure("vector-sort", less)
    items, s, e = _vector_range("vector-sort", v, start, end)
    return stable_sorted(less, items[s:e], Vector)


@primitive(SRFI132)
def vector_sort_x(less: object, v: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    """(vector-sort! < v [start [end]]): sorts the range in place."""
    check_procedure("vector-sort!", less)
    items, s, e = _vector_range("vector-sort!", v, start, end)

    def put_back(result: list) -> None:
        items[s:e] = result
    return stable_sorted(less, items[s:e], put_back)


@primitive(SRFI132)
def vector_sorted_p(less: object, v: object, start: object = DEFAULT,
                    end: object = DEFAULT) -> bool:
    check_procedure("vector-sorted?", less)
    items, s, e = _vector_range("vector-sorted?", v, start, end)
    return sorted_then(less, items[s:e])


@primitive(SRFI132)
def vector_merge(less: object, v1: object, v2: object, start1: object = DEFAULT,
                 end1: object = DEFAULT, start2: object = DEFAULT,
                 end2: object = DEFAULT) -> Vector:
    """(vector-merge < v1 v2 [start1 [end1 [start2 [end2]]]]): a new merged vector."""
    check_procedure("vector-merge", less)
    xs, s1, e1 = _vector_range("vector-merge", v1, start1, end1)
    ys, s2, e2 = _vector_range("vector-merge", v2, start2, end2)
    return merge_then(less, xs[s1:e1], ys[s2:e2], Vector)


@primitive(SRFI132)
def vector_merge_x(less: object, to: object, v1: object, v2: object,
                   start: object = DEFAULT, start1: object = DEFAULT, end1: object = DEFAULT,
                   start2: object = DEFAULT, end2: object = DEFAULT) -> None:
    """(vector-merge! < to v1 v2 [start [start1 [end1 [start2 [end2]]]]])."""
    check_procedure("vector-merge!", less)
    xs, s1, e1 = _vector_range("vector-merge!", v1, start1, end1)
    ys, s2, e2 = _vector_range("vector-merge!", v2, start2, end2)
    target = check_vector("vector-merge!", to)
    at, _ = index_range("vector-merge!", to, len(target), start)
    return merge_then(less, xs[s1:e1], ys[s2:e2], partial(_put_merged, to, target, at))


def _put_merged(to: Vector, target: list, at: int, merged: list) -> None:
    index_range("vector-merge!", to, len(target), at, at + len(merged))
    target[at:at + len(merged)] = merged


@primitive(SRFI132)
def vector_delete_neighbor_dups(same: object, v: object, start: object = DEFAULT,
                                end: object = DEFAULT) -> Vector:
    check_procedure("vector-delete-neighbor-dups", same)
    items, s, e = _vector_range("vector-delete-neighbor-dups", v, start, end)
    return without_neighbor_dups(same, items[s:e], Vector)


@primitive(SRFI132)
def vector_delete_neighbor_dups_x(same: object, v: object, start: object = DEFAULT,
                                  end: object = DEFAULT) -> int:
    """Packs the result into v[start, new-end) and returns new-end."""
    check_procedure("vector-delete-neighbor-dups!", same)
    items, s, e = _vector_range("vector-delete-neighbor-dups!", v, start, end)
    return without_neighbor_dups(same, items[s:e], partial(_packed, items, s))


def _packed(items: list, s: int, kept: list) -> int:
    items[s:s + len(kept)] = kept
    return s + len(kept)


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
        return stable_sorted(ordering, items, made)
    keys = map_then(key, items, False, list)
    return sort_by_keys(ordering, items, made, keys)


def sort_by_keys(less: Callable, items: list, made: Callable, keys: list) -> object:
    """``made`` of ``items`` sorted by their ``keys`` (``sort``'s key procedure's values)."""
    return stable_sorted(less, list(zip(keys, items)),
                         lambda pairs: made([x for _, x in pairs]), itemgetter(0))


_ALIASES = {
    "list-stable-sort": list_sort, "list-sort!": list_sort, "list-stable-sort!": list_sort,
    "vector-stable-sort": vector_sort, "vector-stable-sort!": vector_sort_x,
}
for _name, _fn in _ALIASES.items():
    primitive(SRFI132, name=_name)(_fn)
