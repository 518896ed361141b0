"""Pairs and lists: (scheme base), (scheme cxr) and SRFI 1.

Every traversal is a Python loop (no recursion per element), so lists of millions of
elements work. Traversals detect circular lists, so a primitive never spins forever out
of reach of the step budget; the SRFI 1 procedures that take several lists accept
circular ones as long as one list is finite.

A procedure argument is called from such a loop (or a list comprehension) with plain
positional arguments, or through ``call_n`` for a row of arguments: never from a
generator expression, a C builtin (any, all, sum, next…) or as ``f(*args)``, which would
grow the C stack on each level of a Scheme recursion through the primitive.

The argument checks shared by the sequence modules (vectors, bytevectors, sorting,
hash tables) live here too: ``check_procedure``, ``check_count``, ``check_alloc``,
``proper_items`` and ``from_items``.

SRFI 1 is ``scheme_lib/srfi/1.sld``: this module registers its native part as the library
``(srfi 1 core)``, which that file imports and re-exports, and the procedures it writes
in Scheme (they count their steps and re-enter with nothing written for them here or in
continuations.py) are the ones that measured as fast there, or that issue 28 moved
whatever the cost. Measured with ``bench/resumable_primitives.py`` (sandboxed, a Scheme
procedure argument, 1,000 elements; 50 for the sets; time in Scheme / time here):

* in Scheme: ``find`` 0.95, ``find-tail`` 0.94-1.04, ``any`` 0.98-1.02 (two lists
  0.55-0.60), ``every`` 1.03, ``list-index`` 0.89, ``count`` 1.04-1.06 (two lists 0.58),
  and the folds, ``take-while``/``drop-while``/``span``/``break``, ``alist-copy``;
* in Scheme though slower (the set operations were the pilot of the move, and with the
  deletions that compare elements they took 800 lines of resumable loops and records):
  ``lset-union`` 1.28, ``-intersection`` 1.29 (with ``eqv?`` 1.66), ``-difference`` 1.28,
  ``-xor`` 1.29, ``-adjoin`` 1.45, ``delete-duplicates`` 1.2-1.3 (with ``eq?``, ``eqv?`` or
  ``equal?`` it is ``unique_by_key`` here, one pass), ``alist-delete`` 1.9;
* kept here: ``filter`` 1.89, ``remove`` 1.94, ``partition`` 1.44, ``delete`` 1.64,
  ``filter-map`` 1.38, ``append-map`` 1.29, ``unfold`` 1.91, ``unfold-right`` 1.09,
  ``list-tabulate`` 1.12, ``list=`` 1.49. Most of the difference is the step a Scheme
  loop counts per element (a call), which a loop here does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from itertools import repeat

from harness.scheme.datatypes import DEFAULT, NIL, String, Symbol, Values, is_list, is_number
from harness.scheme.errors import SizeLimitExceeded, error, wrong_type
from harness.scheme.limits import CHUNK, MAX_ALLOC, charge, charge_alloc
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.equivalence import is_eq, is_equal, is_eqv, key_function_for
from harness.scheme.primitives.numbers import as_int
from harness.scheme.run_support import call_n

BASE = "scheme base"
#: the native half of SRFI 1: scheme_lib/srfi/1.sld imports it and adds the rest
SRFI1 = "srfi 1 core"


#: bytes of one pair (a two-item Python list with its GC header), for memory estimates
PAIR_BYTES = 88


# -- argument checks shared by the sequence modules ---------------------------------------

def check_procedure(who: str, f: object) -> None:
    """Raise the standard error unless ``f`` can be called as a Scheme procedure."""
    if not callable(f):
        raise wrong_type(who, "a procedure", f)


def check_count(who: str, k: object) -> int:
    """``k`` as a non-negative exact integer, or the standard error."""
    k = as_int(k)
    if type(k) is not int or k < 0:
        raise wrong_type(who, "a non-negative exact integer", k)
    return k


def check_alloc(who: str, n: int, item_bytes: int = 8) -> None:
    """Refuse to build an object of more than MAX_ALLOC elements (sandbox size cap); the
    work of building it counts against the step budget, and its memory (about
    ``item_bytes`` each) against the memory limit before it is allocated."""
    if n > MAX_ALLOC:
        raise SizeLimitExceeded(f"{who}: size {n} exceeds the limit of {MAX_ALLOC}")
    charge_alloc(n, item_bytes)


def proper_items(who: str, lst: object) -> list:
    """The elements of the proper list ``lst`` as a Python list; the error
    "<who>: expected a proper list, got ..." if it is improper or circular."""
    out = []
    append = out.append
    x = slow = lst
    while x.__class__ is list:
        append(x[0])
        x = x[1]
        if x.__class__ is not list:
            break
        append(x[0])
        x = x[1]
        slow = slow[1]
        if x is slow:
            raise wrong_type(who, "a proper list", lst)
    if x is not NIL:
        raise wrong_type(who, "a proper list", lst)
    if len(out) > CHUNK:
        charge(len(out))  # walking big data counts against the step budget
    return out


def from_items(items: Iterable, tail: object = NIL) -> object:
    """A fresh Scheme list of ``items`` ending in ``tail``."""
    if not isinstance(items, list):
        items = list(items)
    result = tail
    for item in reversed(items):
        result = [item, result]
    return result


#: a list of at most this many pairs is walked without the checked walk (_pairs): short
#: enough that it needs no cycle check or charge; a longer, circular or improper list takes
#: the checked walk
QUICK_WALK = 64
_QUICK = range(QUICK_WALK)


def short_items(lst: object) -> list | None:
    """The elements of ``lst`` when it is a proper list of at most QUICK_WALK pairs, else
    None (the caller then takes its checked walk, which reports an improper or circular
    list): the fast path of map and append, which take every element.

    The hook lookups (assq, assoc and member with a string) walk the same QUICK_WALK pairs
    in a loop of their own: they stop at the entry they find, without a list of the
    entries. Through this helper, ``(assoc "tool_name" payload)`` on a 5-entry payload
    measured 0.63 µs against 0.22 µs, and member on 3 strings 0.9 µs against 0.2 µs."""
    items: list = []
    append = items.append
    x = lst
    for _ in _QUICK:
        if x.__class__ is not list:
            return items if x is NIL else None
        append(x[0])
        x = x[1]
    return items if x is NIL else None


def _pairs(who: str, lst: object) -> Iterator[list]:
    """Yield the successive pairs of the proper list ``lst`` (Brent's cycle detection:
    every element of a cycle is yielded once before the error)."""
    x = tortoise = lst
    power = steps = 1
    while x.__class__ is list:
        yield x
        x = x[1]
        if x is tortoise:
            raise wrong_type(who, "a proper list", lst)
        if steps == power:
            tortoise = x
            power *= 2
            steps = 0
            if power > CHUNK:
                charge(power // 2)  # the walk since the last charge counts
        steps += 1
    if x is not NIL:
        raise wrong_type(who, "a proper list", lst)


def _spine(who: str, lst: object) -> tuple[list, object]:
    """The pairs of a finite, possibly dotted list, and its final cdr."""
    cells = []
    x = tortoise = lst
    power = steps = 1
    while x.__class__ is list:
        cells.append(x)
        x = x[1]
        if x is tortoise:
            raise wrong_type(who, "a finite list", lst)
        if steps == power:
            tortoise = x
            power *= 2
            steps = 0
        steps += 1
    if len(cells) > CHUNK:
        charge(len(cells))
    return cells, x


def _is_finite(x: object) -> bool:
    """False for a circular list, True for anything else."""
    tortoise = x
    power = steps = 1
    while x.__class__ is list:
        x = x[1]
        if x is tortoise:
            return False
        if steps == power:
            tortoise = x
            power *= 2
            steps = 0
        steps += 1
    return True


def _rows(who: str, lists: tuple, rows: int = 0) -> Iterator[list]:
    """Yield ``[e1, e2, ...]``, the i-th elements of each list, stopping at the shortest.
    Circular lists are fine as long as one list is finite. ``rows`` counts the rows
    yielded (from that start: a resumed walk, continuations.py)."""
    if not any(_is_finite(x) for x in lists):
        raise error(f"{who}: all lists are circular")
    cursors = list(lists)
    n = len(cursors)
    while True:
        rows += 1
        if rows % CHUNK == 0:
            charge(CHUNK * n)
        row = []
        for i in range(n):
            c = cursors[i]
            if c.__class__ is not list:
                if c is not NIL:
                    raise wrong_type(who, "a proper list", lists[i])
                return
            row.append(c[0])
            cursors[i] = c[1]
        yield row


def _check_procedures(who: str, *fs: object) -> None:
    for f in fs:
        check_procedure(who, f)


def _equivalence(who: str, eq: object) -> Callable:
    """The optional equality argument of member, assoc, delete…: equal? when missing."""
    if eq is DEFAULT:
        return is_equal
    check_procedure(who, eq)
    return eq


def _skip(who: str, lst: object, k: int) -> object:
    """What follows the first ``k`` pairs of ``lst``, or an index error. The walk counts
    against the budget as it goes (a circular list is long enough for any k)."""
    x = lst
    left = k
    while left:
        n = min(CHUNK, left)
        for _ in range(n):
            if x.__class__ is not list:
                raise error(f"{who}: index out of range", lst, k)
            x = x[1]
        left -= n
        if left:
            charge(n)
    return x


def _nth_cell(who: str, lst: object, k: int) -> list:
    """The k-th pair of ``lst`` (0-based), or an index error."""
    x = _skip(who, lst, k)
    if x.__class__ is not list:
        raise error(f"{who}: index out of range", lst, k)
    return x


def _exact(x: object) -> object:
    """A Fraction with denominator 1 becomes an int (the representation invariant)."""
    if type(x) is Fraction and x.denominator == 1:
        return int(x)
    return x


# -- pairs (scheme base) ------------------------------------------------------------------

@primitive(BASE, SRFI1)
def pair_p(x: object) -> bool:
    return x.__class__ is list


@primitive(BASE, SRFI1)
def cons(a: object, d: object) -> list:
    return [a, d]


@primitive(BASE, SRFI1)
def car(x: object) -> object:
    if x.__class__ is not list:
        raise wrong_type("car", "a pair", x)
    return x[0]


@primitive(BASE, SRFI1)
def cdr(x: object) -> object:
    if x.__class__ is not list:
        raise wrong_type("cdr", "a pair", x)
    return x[1]


@primitive(BASE, SRFI1)
def set_car_x(x: object, value: object) -> None:
    if x.__class__ is not list:
        raise wrong_type("set-car!", "a pair", x)
    x[0] = value


@primitive(BASE, SRFI1)
def set_cdr_x(x: object, value: object) -> None:
    if x.__class__ is not list:
        raise wrong_type("set-cdr!", "a pair", x)
    x[1] = value


def _make_cxr(name: str) -> Callable[[object], object]:
    """The accessor ``name`` (e.g. "cadr"), applying its a/d letters right to left."""
    path = tuple(0 if letter == "a" else 1 for letter in reversed(name[1:-1]))

    def cxr(x: object) -> object:
        for index in path:
            if x.__class__ is not list:
                raise wrong_type(name, "a pair", x)
            x = x[index]
        return x

    cxr.__doc__ = f"({name} x); the error names the first non-pair met on the way."
    return cxr


def _cxr_names(depth: int) -> list[str]:
    names = [""]
    for _ in range(depth):
        names = [n + letter for n in names for letter in "ad"]
    return [f"c{n}r" for n in names]


for _name in _cxr_names(2) + _cxr_names(3) + _cxr_names(4):
    _cxr = _make_cxr(_name)
    define(BASE if len(_name) == 4 else "scheme cxr", _name, _cxr)
    define(SRFI1, _name, _cxr)


# -- lists (scheme base) ------------------------------------------------------------------

@primitive(BASE, SRFI1)
def null_p(x: object) -> bool:
    return x is NIL


@primitive(BASE, SRFI1, name="list?")
def list_p(x: object) -> bool:
    return is_list(x)


@primitive(BASE, SRFI1)
def make_list(k: object, fill: object = DEFAULT) -> object:
    """(make-list k [fill]); the fill defaults to #f."""
    n = check_count("make-list", k)
    check_alloc("make-list", n, PAIR_BYTES)
    value = False if fill is DEFAULT else fill
    result = NIL
    for _ in range(n):
        result = [value, result]
    return result


@primitive(BASE, SRFI1, name="list")
def list_(*items: object) -> object:
    return from_items(items)


@primitive(BASE, SRFI1)
def length(lst: object) -> int:
    """Length of a proper list; an error for an improper or circular one."""
    return proper_length("length", lst)


def proper_length(who: str, lst: object) -> int:
    """The length of the proper list ``lst``; the error "<who>: expected a proper list,
    got ..." if it is improper or circular. A long walk counts against the step budget."""
    n = 0
    x = slow = lst
    while x.__class__ is list:
        x = x[1]
        n += 1
        if x.__class__ is not list:
            break
        x = x[1]
        n += 1
        slow = slow[1]
        if x is slow:
            raise wrong_type(who, "a proper list", lst)
    if x is not NIL:
        raise wrong_type(who, "a proper list", lst)
    if n > CHUNK:
        charge(n)
    return n


def _append(who: str, lists: tuple | list) -> object:
    if not lists:
        return NIL
    result = lists[-1]
    total = 0
    for lst in reversed(lists[:-1]):
        items = proper_items(who, lst)
        total += len(items)
        check_alloc(who, total, PAIR_BYTES)
        result = from_items(items, result)
    return result


@primitive(BASE, SRFI1)
def append(*lists: object) -> object:
    """All but the last argument are copied; the last may be any object."""
    if len(lists) == 2:  # (append short-list tail): copied without the checked walk
        items = short_items(lists[0])  # no more than a chunk: nothing to charge
        if items is not None:
            result = lists[1]
            for item in reversed(items):
                result = [item, result]
            return result
    return _append("append", lists)


@primitive(BASE, SRFI1)
def reverse(lst: object) -> object:
    # through proper_items, not the _pairs generator: the Scheme library's loops end in
    # (reverse acc), and 1,000 elements reversed in 85 µs against 105-160 µs
    result = NIL
    for item in proper_items("reverse", lst):
        result = [item, result]
    return result


@primitive(BASE, SRFI1)
def list_tail(lst: object, k: object) -> object:
    return _skip("list-tail", lst, check_count("list-tail", k))


@primitive(BASE, SRFI1)
def list_ref(lst: object, k: object) -> object:
    return _nth_cell("list-ref", lst, check_count("list-ref", k))[0]


@primitive(BASE)
def list_set_x(lst: object, k: object, value: object) -> None:
    _nth_cell("list-set!", lst, check_count("list-set!", k))[0] = value


@primitive(BASE, SRFI1)
def list_copy(obj: object) -> object:
    """A copy of the spine of ``obj`` (the final cdr is kept); a non-pair is returned as is."""
    cells, tail = _spine("list-copy", obj)
    return from_items([c[0] for c in cells], tail)


def _member(who: str, x: object, lst: object, same: Callable) -> object:
    for cell in _pairs(who, lst):
        if same(x, cell[0]) is not False:
            return cell
    return False


@primitive(BASE, SRFI1)
def memq(x: object, lst: object) -> object:
    return _member("memq", x, lst, is_eq)


@primitive(BASE, SRFI1)
def memv(x: object, lst: object) -> object:
    return _member("memv", x, lst, is_eqv)


@primitive(BASE, SRFI1)
def member(x: object, lst: object, compare: object = DEFAULT) -> object:
    """(member x list [compare]); compare is called as (compare x element)."""
    if compare is DEFAULT and x.__class__ is String:
        # (member tool '("rm" "dd")), a guard's test: a short list of strings, their
        # texts compared without a call per element (equal? of a string and a non-string
        # is false)
        text = x.s
        y = lst
        for _ in _QUICK:
            if y.__class__ is not list:
                if y is NIL:
                    return False
                break
            item = y[0]
            if item.__class__ is String and item.s == text:
                return y
            y = y[1]
    return _member("member", x, lst, _equivalence("member", compare))


def _assoc(who: str, key: object, alist: object, same: Callable) -> object:
    # (assoc "text" alist) is the lookup every hook makes in its payload: equal? on a
    # string key is a text comparison, made here without a call per entry
    text = key.s if same is is_equal and key.__class__ is String else None
    for cell in _pairs(who, alist):
        entry = cell[0]
        if entry.__class__ is not list:
            raise wrong_type(who, "an association list (a list of pairs)", alist)
        if text is not None:
            found = entry[0]
            if found.__class__ is String and found.s == text:
                return entry
        elif same(key, entry[0]) is not False:
            return entry
    return False


@primitive(BASE, SRFI1)
def assq(key: object, alist: object) -> object:
    x = alist
    for _ in _QUICK:  # the usual short alist, without a call per entry
        if x.__class__ is not list:
            if x is NIL:
                return False
            break
        entry = x[0]
        if entry.__class__ is not list:
            break
        if entry[0] is key:
            return entry
        x = x[1]
    return _assoc("assq", key, alist, is_eq)


@primitive(BASE, SRFI1)
def assv(key: object, alist: object) -> object:
    return _assoc("assv", key, alist, is_eqv)


@primitive(BASE, SRFI1)
def assoc(key: object, alist: object, compare: object = DEFAULT) -> object:
    """(assoc key alist [compare]); compare is called as (compare key entry-key)."""
    if compare is DEFAULT and key.__class__ is String:
        # a hook's payload lookup: a short alist, its keys compared as texts
        text = key.s
        x = alist
        for _ in _QUICK:
            if x.__class__ is not list:
                if x is NIL:
                    return False
                break
            entry = x[0]
            if entry.__class__ is not list:
                break
            found = entry[0]
            if found.__class__ is String and found.s == text:
                return entry
            x = x[1]
    return _assoc("assoc", key, alist, _equivalence("assoc", compare))


def _two_rows(a: object, b: object) -> list | None:
    """``_rows`` of two short proper lists (``short_items``: nothing to check for cycles
    or to charge); None when either is not one (``_rows`` then walks, and reports)."""
    xs = short_items(a)
    ys = short_items(b) if xs is not None else None
    if ys is None:
        return None
    return [[x, y] for x, y in zip(xs, ys)]


@primitive(BASE, SRFI1, name="map")
def map_(f: object, lst: object, *lists: object) -> object:
    """(map f list ...), left to right, stopping at the shortest list."""
    if not callable(f):  # check_procedure's test without its call: maps are short
        raise wrong_type("map", "a procedure", f)
    # map_then's loop inline: a map over a short list is common, and one call more is
    # measurable there. continuations.py resumes it as map_then.
    out: list = []
    append = out.append
    if not lists:
        x = lst
        if x.__class__ is list:  # one or two elements (an evaluator's arguments): no walk
            rest = x[1]
            if rest is NIL:
                items = (x[0],)  # continuations.py reads ``items`` and ``out``
                return [f(items[0]), NIL]
            if rest.__class__ is list and rest[1] is NIL:
                items = (x[0], rest[0])
                append(f(items[0]))
                return [out[0], [f(items[1]), NIL]]
        items = short_items(lst)  # the usual short list, without the checked walk
        if items is None:  # longer, improper or circular: the checked walk
            items = proper_items("map", lst)
        for x in items:
            append(f(x))
    elif len(lists) == 1:  # (map f keys values): rows of two short lists, f called itself
        items = _two_rows(lst, lists[0])
        if items is None:
            items = list(_rows("map", (lst, *lists)))
        for x in items:
            append(f(x[0], x[1]))
    else:
        items = list(_rows("map", (lst, *lists)))
        for x in items:
            append(call_n(f, x))
    result = NIL
    for x in reversed(out):
        result = [x, result]
    return result


def map_then(f: object, items: list, rows: bool, finish: Callable[[list], object]) -> object:
    """``finish`` of the list of ``f`` applied to each of ``items`` (each a list of
    arguments when ``rows``), left to right. The loop every map-like primitive runs: a
    continuation captured inside ``f`` resumes it (continuations.py), and each re-entry
    builds its own results, so those computed before it stay as they were (R7RS map)."""
    # Loops, not comprehensions: ``out`` stays a local, and its length is the position.
    out: list = []
    append = out.append
    if not rows:
        for x in items:
            append(f(x))
    else:
        for x in items:
            append(call_n(f, x))
    return finish(out)


def select_then(pred: object, items: list, keep: bool | None,
                finish: Callable[..., object], first: object = DEFAULT) -> object:
    """``finish(picked)``: the items on which ``pred``'s value is true (``keep`` True) or
    #f (``keep`` False), in order; ``keep`` None: ``finish(yes, no)``, both. Given
    ``first``, ``pred`` is called as ``(pred first item)`` (and ``keep`` is False). The
    loop of the filters: a continuation captured inside ``pred`` resumes it
    (continuations.py)."""
    walk = iter(items)  # a named iterator: its position is where a resume goes on
    yes: list = []
    if first is not DEFAULT:
        for x in walk:
            if pred(first, x) is False:
                yes.append(x)
        return finish(yes)
    if keep is None:
        no: list = []
        for x in walk:
            if pred(x) is False:
                no.append(x)
            else:
                yes.append(x)
        return finish(yes, no)
    append = yes.append
    if keep:
        for x in walk:
            if pred(x) is not False:
                append(x)
    else:
        for x in walk:
            if pred(x) is False:
                append(x)
    return finish(yes)


#: the pairs filter and remove walk before they check the whole list: a list no longer
#: than this is walked once, with no cycle check and nothing to charge (the walk is bounded
#: and each call of the predicate checks its own budget where it may run unbounded work).
#: A list of Nones: its iterator makes no int objects
_UNCHECKED_PAIRS = [None] * CHUNK
#: the rest of a longer list, once checked
_CHECKED_PAIRS = repeat(None)


def filter_then(who: str, pred: object, lst: object, keep: bool) -> object:
    """A fresh list of the elements of the proper list ``lst`` on which ``pred``'s value is
    true (``keep`` True) or #f (``keep`` False), in order: filter and remove. The list is
    walked once, its result built front to back. A list longer than a chunk is checked
    (for a cycle, which would walk forever, and an improper end) and its walk charged when
    the walk reaches the chunk's end, before ``pred`` sees more of it; a shorter one needs
    neither (it is walked in bounded time, and its end tested as the walk reaches it), so
    ``pred`` may have seen the elements before an improper end. A continuation captured
    inside ``pred`` resumes as select_then's (continuations.py)."""
    head = last = [None, NIL]
    x = lst
    pairs = _UNCHECKED_PAIRS
    pair, nil = list, NIL  # locals: read once per element, cheaper than globals
    while True:
        if keep:
            for _ in pairs:
                if x.__class__ is not pair:  # not `x is not NIL`: ``pred`` may set-cdr! it
                    break
                item = x[0]
                if pred(item) is not False:
                    last[1] = last = [item, nil]  # the new pair, then the new last
                x = x[1]
        else:
            for _ in pairs:
                if x.__class__ is not pair:
                    break
                item = x[0]
                if pred(item) is False:
                    last[1] = last = [item, nil]
                x = x[1]
        if x.__class__ is not list:  # (the walk of the checked rest ends only here)
            break
        proper_length(who, lst)
        pairs = _CHECKED_PAIRS
    if x is not NIL:  # improper, or made improper by ``pred`` on the way
        raise wrong_type(who, "a proper list", lst)
    return head[1]


def fold_then(kons: object, items: list, acc: object, rows: bool) -> object:
    """``acc`` passed through ``kons`` on each of ``items`` in order: ``(kons x acc)``, or
    ``(kons x1 x2 ... acc)`` when each item is a row of arguments. The loop of the native
    folds (SRFI 151's): a continuation captured inside ``kons`` resumes it
    (continuations.py)."""
    walk = iter(items)  # a named iterator: its position is where a resume goes on
    if not rows:
        for x in walk:
            acc = kons(x, acc)
    else:
        for x in walk:
            acc = call_n(kons, (*x, acc))
    return acc


def unspecified(results: list) -> None:
    """The ``finish`` of a for-each-like primitive: its calls' values are not its value."""


@primitive(BASE, SRFI1)
def for_each(f: object, lst: object, *lists: object) -> None:
    """(for-each f list ...), left to right, stopping at the shortest list."""
    check_procedure("for-each", f)
    if lists:
        return map_then(f, list(_rows("for-each", (lst, *lists))), True, unspecified)
    for cell in _pairs("for-each", lst):
        f(cell[0])


# -- SRFI 1: constructors -----------------------------------------------------------------

@primitive(SRFI1)
def xcons(d: object, a: object) -> list:
    return [a, d]


@primitive(SRFI1, name="cons*")
def cons_star(first: object, *rest: object) -> object:
    """(cons* a b ... tail): like list, but the last argument is the tail."""
    items = (first, *rest)
    return from_items(items[:-1], items[-1])


@primitive(SRFI1)
def circular_list(first: object, *rest: object) -> list:
    head = from_items((first, *rest))
    _spine("circular-list", head)[0][-1][1] = head
    return head


@primitive(SRFI1)
def iota(count: object, start: object = 0, step: object = 1) -> object:
    """(iota count [start [step]]): start, start+step, ... (count numbers)."""
    n = check_count("iota", count)
    for x in (start, step):
        if not is_number(x):
            raise wrong_type("iota", "a number", x)
    check_alloc("iota", n, PAIR_BYTES)
    return from_items([_exact(start + i * step) for i in range(n)])


# -- SRFI 1: predicates -------------------------------------------------------------------

@primitive(SRFI1, name="proper-list?")
def proper_list_p(x: object) -> bool:
    return is_list(x)


@primitive(SRFI1)
def circular_list_p(x: object) -> bool:
    return not _is_finite(x)


@primitive(SRFI1)
def dotted_list_p(x: object) -> bool:
    return _is_finite(x) and _spine("dotted-list?", x)[1] is not NIL


@primitive(SRFI1)
def not_pair_p(x: object) -> bool:
    return x.__class__ is not list


@primitive(SRFI1)
def null_list_p(x: object) -> bool:
    if x is NIL:
        return True
    if x.__class__ is list:
        return False
    raise wrong_type("null-list?", "a list", x)


# -- SRFI 1: selectors --------------------------------------------------------------------

_ORDINALS = ("first", "second", "third", "fourth", "fifth",
             "sixth", "seventh", "eighth", "ninth", "tenth")


def _make_ordinal(index: int, name: str) -> Callable[[object], object]:
    def ordinal(lst: object) -> object:
        x = lst
        for _ in range(index):
            if x.__class__ is not list:
                break
            x = x[1]
        if x.__class__ is not list:
            raise wrong_type(name, f"a list of at least {index + 1} elements", lst)
        return x[0]

    ordinal.__doc__ = f"({name} list): element {index} of list."
    return ordinal


for _index, _name in enumerate(_ORDINALS):
    define(SRFI1, _name, _make_ordinal(_index, _name))


@primitive(SRFI1, name="car+cdr")
def car_plus_cdr(x: object) -> Values:
    if x.__class__ is not list:
        raise wrong_type("car+cdr", "a pair", x)
    return Values((x[0], x[1]))


def _take(who: str, lst: object, k: object) -> object:
    n = check_count(who, k)
    check_alloc(who, n, PAIR_BYTES)
    items = []
    x = lst
    for _ in range(n):
        if x.__class__ is not list:
            raise error(f"{who}: index out of range", lst, k)
        items.append(x[0])
        x = x[1]
    return from_items(items)


@primitive(SRFI1)
def take(lst: object, k: object) -> object:
    """(take list k): a fresh list of the first k elements."""
    return _take("take", lst, k)


@primitive(SRFI1)
def drop(lst: object, k: object) -> object:
    """(drop list k): what follows the first k elements (shared)."""
    return _skip("drop", lst, check_count("drop", k))


def _last_cells(who: str, lst: object, k: object) -> tuple[list, object, int]:
    """The pairs and final cdr of a finite list, and how many pairs precede its last k."""
    n = check_count(who, k)
    cells, tail = _spine(who, lst)
    if n > len(cells):
        raise error(f"{who}: index out of range", lst, k)
    return cells, tail, len(cells) - n


@primitive(SRFI1)
def take_right(lst: object, k: object) -> object:
    """(take-right list k): the last k pairs of list (shared, with the final cdr)."""
    cells, tail, start = _last_cells("take-right", lst, k)
    return cells[start] if start < len(cells) else tail


@primitive(SRFI1)
def drop_right(lst: object, k: object) -> object:
    """(drop-right list k): a fresh list of all but the last k elements."""
    cells, _, stop = _last_cells("drop-right", lst, k)
    return from_items([c[0] for c in cells[:stop]])


@primitive(SRFI1)
def split_at(lst: object, k: object) -> Values:
    """(split-at list k) => (take list k), (drop list k)."""
    return Values((_take("split-at", lst, k), drop(lst, k)))


@primitive(SRFI1)
def last_pair(lst: object) -> list:
    if lst.__class__ is not list:
        raise wrong_type("last-pair", "a pair", lst)
    return _spine("last-pair", lst)[0][-1]


@primitive(SRFI1)
def last(lst: object) -> object:
    if lst.__class__ is not list:
        raise wrong_type("last", "a pair", lst)
    return _spine("last", lst)[0][-1][0]


# -- SRFI 1: miscellaneous ----------------------------------------------------------------

@primitive(SRFI1, name="length+")
def length_plus(x: object) -> object:
    """The length of a proper list, #f for a circular one."""
    if not _is_finite(x):
        return False
    if not is_list(x):
        raise wrong_type("length+", "a proper or circular list", x)
    return length(x)


@primitive(SRFI1)
def concatenate(lists: object) -> object:
    return _append("concatenate", proper_items("concatenate", lists))


@primitive(SRFI1)
def append_x(*lists: object) -> object:
    """(append! list ... obj): like append, but links the argument lists in place."""
    if not lists:
        return NIL
    result = lists[-1]
    for lst in reversed(lists[:-1]):
        if lst is NIL:
            continue
        if not is_list(lst):
            raise wrong_type("append!", "a proper list", lst)
        _spine("append!", lst)[0][-1][1] = result
        result = lst
    return result


@primitive(SRFI1)
def reverse_x(lst: object) -> object:
    """(reverse! list): reverses the list in place, returning its new head."""
    if not is_list(lst):
        raise wrong_type("reverse!", "a proper list", lst)
    result = NIL
    while lst is not NIL:
        rest = lst[1]
        lst[1] = result
        result, lst = lst, rest
    return result


@primitive(SRFI1)
def append_reverse(rev_head: object, tail: object) -> object:
    """(append-reverse rev-head tail) = (append (reverse rev-head) tail)."""
    result = tail
    for cell in _pairs("append-reverse", rev_head):
        result = [cell[0], result]
    return result


@primitive(SRFI1, name="zip")
def zip_(lst: object, *lists: object) -> object:
    """(zip list ...) = (map list list ...)."""
    return from_items([from_items(row) for row in _rows("zip", (lst, *lists))])


def _unzip(who: str, lists: object, width: int) -> list[object]:
    columns: list[list] = [[] for _ in range(width)]
    for cell in _pairs(who, lists):
        x = entry = cell[0]
        for column in columns:
            if x.__class__ is not list:
                raise wrong_type(who, f"a list of at least {width} elements", entry)
            column.append(x[0])
            x = x[1]
    return [from_items(c) for c in columns]


@primitive(SRFI1)
def unzip1(lists: object) -> object:
    return _unzip("unzip1", lists, 1)[0]


def _make_unzip(width: int) -> Callable[[object], Values]:
    name = f"unzip{width}"

    def unzip(lists: object) -> Values:
        return Values(_unzip(name, lists, width))

    unzip.__doc__ = f"({name} list-of-lists): {width} lists, of the 1st..{width}th elements."
    return unzip


for _width in range(2, 6):
    define(SRFI1, f"unzip{_width}", _make_unzip(_width))


# -- SRFI 1: the higher-order procedures that stay native (measured: see the docstring)

@primitive(SRFI1)
def list_tabulate(k: object, init: object) -> object:
    n = check_count("list-tabulate", k)
    check_procedure("list-tabulate", init)
    check_alloc("list-tabulate", n, PAIR_BYTES)
    return map_then(init, list(range(n)), False, from_items)



@primitive(SRFI1, name="list=")
def list_eq(same: object, *lists: object) -> bool:
    """(list= elt= list ...): each list has the same length as the next and elt= holds
    between their corresponding elements."""
    check_procedure("list=", same)
    return lists_equal(same, [proper_items("list=", lst) for lst in lists])


def lists_equal(same: Callable, items: list[list], i: int = 1, start: int = 0) -> bool:
    """Whether each of ``items[i:]`` has the length of the one before it, and ``same``
    holds between their elements from element ``start`` of ``items[i]`` on: list='s loop
    (a continuation captured in ``same``, on the elements ``j``, resumes it:
    continuations.py)."""
    while i < len(items):
        a, b = items[i - 1], items[i]
        if len(a) != len(b):
            return False
        for j in range(start, len(a)):
            if same(a[j], b[j]) is False:
                return False
        start = 0
        i += 1
    return True



@primitive(SRFI1)
def unfold(stop: object, mapper: object, successor: object, seed: object,
           tail_gen: object = DEFAULT) -> object:
    """(unfold p f g seed [tail-gen]): (f seed), (f (g seed)), ... until (p seed)."""
    _check_procedures("unfold", stop, mapper, successor)
    if tail_gen is not DEFAULT:
        check_procedure("unfold", tail_gen)
    return unfold_then(stop, mapper, successor, seed, [], tail_gen)


def unfold_then(stop: object, mapper: object, successor: object, seed: object, items: list,
                tail_gen: object, at: int = 0) -> object:
    """unfold's loop from the call ``at`` (0: ``stop``, 1: ``mapper``, 2: ``successor``,
    3: ``tail_gen``) on ``seed``, ``items`` the elements so far. ``at`` names the call
    waited in: a continuation captured inside one resumes the loop (continuations.py)."""
    append = items.append
    if at == 1:
        append(mapper(seed))
        at = 2
    if at == 2:
        seed = successor(seed)
    if at != 3:
        while True:
            at = 0
            if stop(seed) is not False:
                break
            at = 1
            append(mapper(seed))
            at = 2
            seed = successor(seed)
        at = 3
    return from_items(items, NIL if tail_gen is DEFAULT else tail_gen(seed))


@primitive(SRFI1)
def unfold_right(stop: object, mapper: object, successor: object, seed: object,
                 tail: object = NIL) -> object:
    """(unfold-right p f g seed [tail]): builds the list from the right, onto tail."""
    _check_procedures("unfold-right", stop, mapper, successor)
    return unfold_right_then(stop, mapper, successor, seed, tail)


def unfold_right_then(stop: object, mapper: object, successor: object, seed: object,
                      result: object, at: int = 0) -> object:
    """unfold-right's loop from the call ``at`` (as unfold_then's) on ``seed``, ``result``
    the list so far."""
    if at == 1:
        result = [mapper(seed), result]
        at = 2
    if at == 2:
        seed = successor(seed)
    while True:
        at = 0
        if stop(seed) is not False:
            return result
        at = 1
        result = [mapper(seed), result]
        at = 2
        seed = successor(seed)


@primitive(SRFI1)
def append_map(f: object, lst: object, *lists: object) -> object:
    """(append-map f list ...) = (apply append (map f list ...))."""
    check_procedure("append-map", f)
    if lists:
        return map_then(f, list(_rows("append-map", (lst, *lists))), True, _appended)
    return map_then(f, proper_items("append-map", lst), False, _appended)


def _appended(results: list) -> object:
    return _append("append-map", results)



@primitive(SRFI1)
def filter_map(f: object, lst: object, *lists: object) -> object:
    """Like map, keeping only the true results."""
    check_procedure("filter-map", f)
    if lists:
        return map_then(f, list(_rows("filter-map", (lst, *lists))), True, _true_values)
    return map_then(f, proper_items("filter-map", lst), False, _true_values)


def _true_values(values: list) -> object:
    return from_items([v for v in values if v is not False])


# -- SRFI 1: filtering and partitioning ---------------------------------------------------

@primitive(SRFI1, name="filter")
def filter_(pred: object, lst: object) -> object:
    check_procedure("filter", pred)
    return filter_then("filter", pred, lst, True)


@primitive(SRFI1)
def remove(pred: object, lst: object) -> object:
    check_procedure("remove", pred)
    return filter_then("remove", pred, lst, False)


@primitive(SRFI1)
def partition(pred: object, lst: object) -> Values:
    """(partition pred list) => elements satisfying pred, the others."""
    check_procedure("partition", pred)
    return select_then(pred, proper_items("partition", lst), None, _two_lists)


def _two_lists(yes: list, no: list) -> Values:
    return Values((from_items(yes), from_items(no)))



# -- SRFI 1: deletion ---------------------------------------------------------------------

@primitive(SRFI1)
def delete(x: object, lst: object, same: object = DEFAULT) -> object:
    """(delete x list [=]): the elements e for which (= x e) is false."""
    same = _equivalence("delete", same)
    items = proper_items("delete", lst)
    if same is is_equal:
        return from_items([e for e in items if is_equal(x, e) is False])
    return select_then(same, items, False, from_items, x)



# -- SRFI 1: association lists ------------------------------------------------------------

@primitive(SRFI1)
def alist_cons(key: object, datum: object, alist: object) -> list:
    return [[key, datum], alist]


@primitive("srfi 1 private")
def check_alist(who: Symbol, alist: object) -> object:
    """``alist`` if it is a proper list of pairs, else the error naming ``who``: checked
    in one pass before scheme_lib/srfi/1.sld's loop calls the program's procedure on an
    entry (as the Python alist-delete did), so that the loop need not test each entry."""
    _entries(who.name, alist)
    return alist


@primitive("srfi 1 private")
def delete_by_key(key: object, alist: object, same: object) -> object:
    """``(alist-delete key alist same)`` in one native pass when ``same`` is eq?, eqv? or
    equal? (which call no Scheme code); #f for any other ``same`` (the Scheme loop of
    scheme_lib/srfi/1.sld then calls it on each entry)."""
    if same is not is_equal and same is not is_eqv and same is not is_eq:
        return False
    return from_items([e for e in _entries("alist-delete", alist) if same(key, e[0]) is False])


def _entries(who: str, alist: object) -> list:
    entries = proper_items(who, alist)
    for entry in entries:
        if entry.__class__ is not list:
            raise wrong_type(who, "an association list (a list of pairs)", alist)
    return entries


# -- SRFI 1: deletion with a built-in equivalence -------------------------------------------

@primitive("srfi 1 private")
def unique_by_key(lst: object, same: object) -> object:
    """``(delete-duplicates lst same)`` in one pass with a set of keys when ``same`` is
    eq?, eqv? or equal? (which call no Scheme code); #f for any other ``same`` (the
    Scheme loop of scheme_lib/srfi/1.sld then compares pairs of elements)."""
    key_of = key_function_for(same)
    if key_of is None:
        return False
    seen: set = set()
    kept = []
    for x in proper_items("delete-duplicates", lst):
        k = key_of(x)
        if k not in seen:
            seen.add(k)
            kept.append(x)
    return from_items(kept)


# -- SRFI 1: linear-update variants (allowed to share the pure versions) -------------------

_LINEAR_UPDATE_ALIASES = {
    "take!": take, "drop-right!": drop_right, "split-at!": split_at,
    "append-reverse!": append_reverse, "concatenate!": concatenate,
    "map!": map_, "map-in-order": map_, "append-map!": append_map,
    "filter!": filter_, "remove!": remove, "partition!": partition, "delete!": delete,
}
for _name, _fn in _LINEAR_UPDATE_ALIASES.items():
    define(SRFI1, _name, _fn)
