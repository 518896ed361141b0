"""SRFI 1: lists as sets (the ``lset`` procedures) and the deletions that compare elements
(``delete-duplicates``, ``alist-delete``), as resumable loops.

Every operation here is a sweep over one list that asks, for each element, whether it is
in some (or every) list of a few, by a scan that calls the compare procedure:

* ``scan``: is ``x`` in some / every list of ``sets``;
* ``select``: the elements whose answer is the one wanted (and the others, for
  ``lset-diff+intersection``);
* ``adjoin``: the elements not yet in a list that grows with them (``delete-duplicates``,
  ``lset-adjoin``, ``lset-union``);
* ``subset``: whether every element is in another list (``lset<=``, ``lset=``);
* the loops over several lists (``union_then``, ``xor_then``, ``subsets_then``).

Each loop keeps its state in its locals (its elements walked by a named iterator, whose
position says which element the waiting call is about), so a continuation captured inside
the compare procedure is resumed by continuations.py: the scan, the sweep and the loop
around it go on from where they were, each re-entry building its own lists. Code that
never re-enters runs these loops and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import pairwise

from harness.scheme.datatypes import DEFAULT, NIL, Values
from harness.scheme.errors import wrong_type
from harness.scheme.limits import charge
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.equivalence import is_equal, key_function_for
from harness.scheme.primitives.lists import check_procedure, from_items, proper_items

SRFI1 = "srfi 1"

#: a scan of a set operation is counted against the budget past this length (a builtin
#: predicate such as equal? costs no step of its own, and the operations are quadratic)
_SCAN_FREE = 64


def scan(same: Callable, x: object, sets: list | tuple, every: bool, flip: bool,
         s: int = 0, j: int = 0) -> bool:
    """Whether ``x`` is in every list of ``sets`` (``every``) or in some, an element ``e``
    matching when ``(same x e)`` is true (``(same e x)`` if ``flip``), starting from the
    element ``j`` of ``sets[s]``."""
    while s < len(sets):
        items = sets[s]
        if len(items) > _SCAN_FREE:
            charge(len(items))
        walk = iter(items)  # a named iterator: its position is where a resume goes on
        if j:
            walk.__setstate__(j)
            j = 0
        found = False
        if flip:
            for e in walk:
                if same(e, x) is not False:
                    found = True
                    break
        else:
            for e in walk:
                if same(x, e) is not False:
                    found = True
                    break
        if found is not every:
            return found
        s += 1
    return every


def select(same: Callable, xs: list | tuple, sets: list, every: bool, want: bool,
           kept: list, other: list | None, finish: Callable, start: int = 0) -> object:
    """``finish(kept, other)``: ``kept`` extended with the elements of ``xs`` (from
    ``start``) whose ``scan`` answer is ``want``, ``other`` (unless None) with the rest."""
    walk = iter(xs)
    if start:
        walk.__setstate__(start)
    for x in walk:
        if scan(same, x, sets, every, False) is want:
            kept.append(x)
        elif other is not None:
            other.append(x)
    return finish(kept, other)


def adjoin(same: Callable, xs: list | tuple, kept: list, finish: Callable,
           start: int = 0) -> object:
    """``finish(kept)``, ``kept`` extended with each element ``x`` of ``xs`` (from
    ``start``) for which no element ``e`` of it (the ones added included) has ``(same e
    x)`` true."""
    walk = iter(xs)
    if start:
        walk.__setstate__(start)
    sets = (kept,)
    for x in walk:
        if not scan(same, x, sets, False, True):
            kept.append(x)
    return finish(kept)


def subset(same: Callable, xs: list, ys: list, start: int = 0) -> bool:
    """Whether every element of ``xs`` (from ``start``) is in ``ys``."""
    walk = iter(xs)
    if start:
        walk.__setstate__(start)
    sets = (ys,)
    for x in walk:
        if not scan(same, x, sets, True, False):
            return False
    return True


def subsets_then(same: Callable, pairs: list, start: int = 0) -> bool:
    """Whether ``subset`` holds for each (xs, ys) of ``pairs``, from ``start``."""
    walk = iter(pairs)
    if start:
        walk.__setstate__(start)
    for xs, ys in walk:
        if not subset(same, xs, ys):
            return False
    return True


def union_then(same: Callable, lists: tuple, base: object, kept: list, n0: int,
               start: int = 0) -> object:
    """lset-union from ``lists[start]`` on: ``base`` is the list the result is consed
    onto, its ``n0`` elements the first of ``kept`` (the elements so far)."""
    walk = iter(lists)
    if start:
        walk.__setstate__(start)
    for lst in walk:
        new = proper_items("lset-union", lst)
        if not kept:
            base, kept, n0 = lst, new, len(new)
        elif lst is not base or len(kept) != n0:  # (eq? list result): nothing to add
            kept = adjoin(same, new, kept, _itself)
    return _adjoined(base, n0, kept)


def xor_then(same: Callable, lists: tuple, acc: list, start: int = 0, b: list | None = None,
             split: tuple | None = None) -> object:
    """lset-xor from ``lists[start]`` on, ``acc`` the xor of the lists before (as SRFI 1's
    reference: a-b and a∩b, then b-a or b-(a∩b) consed onto a-b). Given ``split`` (a-b
    and a∩b of ``acc`` and ``b``, the list before ``lists[start]``), that xor ends first."""
    walk = iter(lists)
    walk.__setstate__(start)
    phase = 1  # which call the loop waits in (0: a-b and a∩b, 1: the rest), for a resume
    if split is not None:
        acc = xor_rest(same, acc, b, split[0], split[1])
    for lst in walk:
        b = proper_items("lset-xor", lst)
        phase = 0
        split = select(same, acc, [b], False, False, [], [], _both)
        phase = 1  # noqa: F841 - read by continuations.py
        acc = xor_rest(same, acc, b, split[0], split[1])
    return from_items(acc)


def xor_rest(same: Callable, a: list, b: list, a_minus_b: list, a_and_b: list) -> list:
    """a xor b, given a-b and a∩b."""
    if not a_minus_b:
        return select(same, b, [a], False, False, [], None, _kept)
    if not a_and_b:
        return b + a
    return select(same, b, [a_and_b], False, False, [], None,
                  lambda new, _: new[::-1] + a_minus_b)


def alist_delete_then(same: Callable, key: object, entries: list, kept: list,
                      start: int = 0) -> object:
    """The entries of ``entries`` (from ``start``) whose key k has (same key k) false,
    after ``kept``."""
    walk = iter(entries)
    if start:
        walk.__setstate__(start)
    append = kept.append
    for e in walk:
        if same(key, e[0]) is False:
            append(e)
    return from_items(kept)


def _itself(kept: list) -> list:
    return kept


def _kept(kept: list, _other: object) -> list:
    return kept


def _both(kept: list, other: list) -> tuple[list, list]:
    return kept, other


def _list_of(kept: list, _other: object) -> object:
    return from_items(kept)


def _adjoined(lst: object, n0: int, kept: list) -> object:
    """``lst`` with the elements of ``kept`` past its first ``n0`` consed on, in order."""
    return from_items(kept[:n0 - 1:-1] if n0 else kept[::-1], lst)


def _diff_and_intersection(diff: list, inter: list) -> Values:
    return Values((from_items(diff), from_items(inter)))


def _set_args(who: str, same: object, lists: tuple) -> list[list]:
    check_procedure(who, same)
    return [proper_items(who, lst) for lst in lists]


# -- the procedures -----------------------------------------------------------------------

@primitive(SRFI1)
def delete_duplicates(lst: object, same: object = DEFAULT) -> object:
    """(delete-duplicates list [=]): the first occurrence of each element, in order."""
    if same is DEFAULT:
        same = is_equal
    else:
        check_procedure("delete-duplicates", same)
    items = proper_items("delete-duplicates", lst)
    key_of = key_function_for(same)
    if key_of is not None:  # eq?/eqv?/equal?: one pass with a set of keys
        seen: set = set()
        kept = []
        for x in items:
            k = key_of(x)
            if k not in seen:
                seen.add(k)
                kept.append(x)
        return from_items(kept)
    return adjoin(same, items, [], from_items)


@primitive(SRFI1)
def alist_delete(key: object, alist: object, same: object = DEFAULT) -> object:
    """(alist-delete key alist [=]): the entries whose key k has (= key k) false."""
    if same is DEFAULT:
        same = is_equal
    else:
        check_procedure("alist-delete", same)
    entries = proper_items("alist-delete", alist)
    for entry in entries:
        if entry.__class__ is not list:
            raise wrong_type("alist-delete", "an association list (a list of pairs)", alist)
    return alist_delete_then(same, key, entries, [])


@primitive(SRFI1, name="lset<=")
def lset_le(same: object, *lists: object) -> bool:
    """Each list is a subset of the next."""
    sets = _set_args("lset<=", same, lists)
    return subsets_then(same, list(pairwise(sets)))


@primitive(SRFI1, name="lset=")
def lset_eq(same: object, *lists: object) -> bool:
    """Each list has the same elements as the next."""
    sets = _set_args("lset=", same, lists)
    return subsets_then(same, [p for a, b in pairwise(sets) for p in ((a, b), (b, a))])


@primitive(SRFI1)
def lset_adjoin(same: object, lst: object, *elements: object) -> object:
    """Conses onto list each element not already in it."""
    check_procedure("lset-adjoin", same)
    items = proper_items("lset-adjoin", lst)
    return adjoin(same, elements, items, partial(_adjoined, lst, len(items)))


@primitive(SRFI1)
def lset_union(same: object, *lists: object) -> object:
    """Conses onto the first list the elements of the others not already present."""
    check_procedure("lset-union", same)
    return union_then(same, lists, NIL, [], 0)


@primitive(SRFI1)
def lset_intersection(same: object, lst: object, *lists: object) -> object:
    """The elements of the first list present in every other list."""
    sets = _set_args("lset-intersection", same, (lst, *lists))
    return select(same, sets[0], sets[1:], True, True, [], None, _list_of)


@primitive(SRFI1)
def lset_difference(same: object, lst: object, *lists: object) -> object:
    """The elements of the first list present in no other list."""
    sets = _set_args("lset-difference", same, (lst, *lists))
    return select(same, sets[0], sets[1:], False, False, [], None, _list_of)


@primitive(SRFI1)
def lset_xor(same: object, *lists: object) -> object:
    """The elements in an odd number of the lists (SRFI 1 reference order)."""
    check_procedure("lset-xor", same)
    return xor_then(same, lists, [])


@primitive(SRFI1, name="lset-diff+intersection")
def lset_diff_plus_intersection(same: object, lst: object, *lists: object) -> Values:
    """=> (lset-difference = list ...), (lset-intersection of list with their union)."""
    sets = _set_args("lset-diff+intersection", same, (lst, *lists))
    return select(same, sets[0], sets[1:], False, False, [], [], _diff_and_intersection)


# the linear-update variants share the pure versions (SRFI 1 allows it)
for _name, _fn in {"delete-duplicates!": delete_duplicates, "alist-delete!": alist_delete,
                   "lset-union!": lset_union, "lset-intersection!": lset_intersection,
                   "lset-difference!": lset_difference, "lset-xor!": lset_xor,
                   "lset-diff+intersection!": lset_diff_plus_intersection}.items():
    define(SRFI1, _name, _fn)
