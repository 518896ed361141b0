"""SRFI 14 character sets: ``(srfi 14)``, also ``(scheme char-set)`` and ``(scheme charset)``.

The sets are ``CharSet`` values (ranges of code points, see charset.py); the standard ones
(``char-set:letter`` …) come from unicode_sets.py. The iteration order, where SRFI 14
leaves it open, is ascending code points: ``char-set->list``, ``char-set-fold``, cursors.

* A cursor is the code point of the member it points at (an exact integer); the cursor
  past the last member is #x110000, the only one ``end-of-char-set?`` accepts.
* The linear-update procedures (names ending in ``!``) change their first set and return
  it, except a standard set, which is shared: they return a new set for one.
* This is ``(srfi 14 core)``: scheme_lib/srfi/14.sld imports and re-exports it and writes
  the walks that call a procedure of the program once per member (``char-set-fold``,
  ``-for-each``, ``-map``, ``-filter(!)``, ``-count``, ``-every``, ``-any``,
  ``-unfold(!)``) in Scheme over ``char-set-bounds`` (the ranges as a list). They were
  Python loops with hand-written resume records (continuations.py) and charged one step
  per character; in Scheme they re-enter and count the steps of their own loop with
  nothing written for it (walking ``char-set:full`` still costs at least a step per
  character). Measured sandboxed against the Python loops over a 5,000-character set
  (side by side, best of 7, busy machine): fold 1.2x, count 1.1x, any 1.06x, filter and
  map 1.3-1.4x, a 3,000-character unfold 1.4x the Python time (1.65x of it unsandboxed
  in bench/resumable_primitives.py, 1.15x since it gathers its characters in strings of
  64: 14.sld); 500 ``char-set-any`` on a 22-character set 1.3x. Kept in Scheme: the time is in the procedures the program passes.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import pairwise

from harness.scheme.charset import (
    END_OF_SET,
    MAX_CODE,
    OPERATIONS,
    UNIVERSE,
    CharSet,
    bounds_of_codes,
    bounds_of_range,
    codes,
    combine,
    contains,
    first_member,
    next_member,
    size_of,
)
from harness.scheme.datatypes import DEFAULT, Char, String, Values
from harness.scheme.errors import error, wrong_type
from harness.scheme.limits import CHUNK, charge, charge_bulk
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.chars import char_arg
from harness.scheme.primitives.lists import (
    PAIR_BYTES,
    check_alloc,
    from_items,
    proper_items,
)
from harness.scheme.primitives.numbers import as_int
from harness.scheme.unicode_sets import STANDARD_SETS

#: the native part of (srfi 14): scheme_lib/srfi/14.sld imports and re-exports it
SRFI14 = "srfi 14 core"
#: bytes of one boundary in a set's list (a list slot and an int object), for memory checks
BOUND_BYTES = 40
_HASH_MASK = (1 << 61) - 1

for _name, _set in STANDARD_SETS.items():
    define(SRFI14, _name, _set)


# -- argument checks ----------------------------------------------------------------------

def check_char_set(who: str, x: object) -> CharSet:
    if type(x) is not CharSet:
        raise wrong_type(who, "a char-set", x)
    return x


def _char_sets(who: str, sets: tuple) -> list[list[int]]:
    return [check_char_set(who, cs).bounds for cs in sets]


def _code_points(who: str, chars: object) -> list[int]:
    """The code points of the characters of a Scheme list."""
    return [ord(char_arg(who, c)) for c in proper_items(who, chars)]


def _new(who: str, bounds: list[int]) -> CharSet:
    """A fresh set of ``bounds`` (whose memory was not yet counted)."""
    if len(bounds) > CHUNK:
        check_alloc(who, len(bounds), BOUND_BYTES)
    return CharSet(bounds)


def _update(who: str, cs: CharSet, bounds: list[int]) -> CharSet:
    """The result of a linear-update procedure: ``cs`` changed to ``bounds`` (a new set
    if ``cs`` is a shared standard set)."""
    if cs.frozen:
        return _new(who, bounds)
    if len(bounds) > CHUNK:
        check_alloc(who, len(bounds), BOUND_BYTES)
    cs.bounds = bounds
    return cs


def _base(who: str, base: object) -> list[int]:
    return [] if base is DEFAULT else check_char_set(who, base).bounds


@primitive(SRFI14)
def char_set_bounds(cs: object) -> object:
    """The ranges of ``cs`` as a list of code points, ascending: the start (included) and
    the end (excluded) of each, for the walks of scheme_lib/srfi/14.sld."""
    return from_items(check_char_set("char-set-bounds", cs).bounds)


# -- general ------------------------------------------------------------------------------

@primitive(SRFI14)
def char_set_p(x: object) -> bool:
    return type(x) is CharSet


@primitive(SRFI14, name="char-set=")
def char_set_eq(*sets: object) -> bool:
    """(char-set= cs ...): true when all the sets have the same members (and for 0 or 1)."""
    bounds = _char_sets("char-set=", sets)
    return all(b == bounds[0] for b in bounds[1:])


@primitive(SRFI14, name="char-set<=")
def char_set_le(*sets: object) -> bool:
    """(char-set<= cs ...): true when each set is a subset of the next."""
    bounds = _char_sets("char-set<=", sets)
    for smaller, larger in pairwise(bounds):
        charge(len(smaller) + len(larger))
        if combine(smaller, larger, OPERATIONS["difference"]):
            return False
    return True


@primitive(SRFI14)
def char_set_hash(cs: object, bound: object = DEFAULT) -> int:
    """(char-set-hash cs [bound]): equal sets hash alike; a positive bound limits the
    result to [0, bound), 0 or none means no limit beyond 2^61."""
    bounds = check_char_set("char-set-hash", cs).bounds
    charge_bulk(len(bounds))
    h = hash(tuple(bounds)) & _HASH_MASK  # ints hash the same in every run
    if bound is DEFAULT:
        return h
    n = as_int(bound)
    if type(n) is not int or n < 0:
        raise wrong_type("char-set-hash", "a non-negative exact integer bound", bound)
    return h % n if n else h


# -- cursors and iteration ----------------------------------------------------------------

@primitive(SRFI14)
def char_set_cursor(cs: object) -> int:
    """A cursor at the smallest member (the end cursor for an empty set)."""
    return first_member(check_char_set("char-set-cursor", cs).bounds)


def _cursor(who: str, cs: CharSet, cursor: object) -> int:
    """A cursor that points at a member of ``cs``, or the error that names it."""
    if type(cursor) is not int or not 0 <= cursor < END_OF_SET:
        if cursor == END_OF_SET and type(cursor) is int:
            raise error(f"{who}: the cursor is past the end of the set", cursor)
        raise wrong_type(who, "a char-set cursor", cursor)
    if not contains(cs.bounds, cursor):
        raise error(f"{who}: the cursor does not point into this set", cursor)
    return cursor


@primitive(SRFI14)
def char_set_ref(cs: object, cursor: object) -> Char:
    code = _cursor("char-set-ref", check_char_set("char-set-ref", cs), cursor)
    return Char.of(chr(code))


@primitive(SRFI14)
def char_set_cursor_next(cs: object, cursor: object) -> int:
    cs = check_char_set("char-set-cursor-next", cs)
    return next_member(cs.bounds, _cursor("char-set-cursor-next", cs, cursor))


@primitive(SRFI14)
def end_of_char_set_p(cursor: object) -> bool:
    if type(cursor) is not int or not 0 <= cursor <= END_OF_SET:
        raise wrong_type("end-of-char-set?", "a char-set cursor", cursor)
    return cursor == END_OF_SET


# -- creating sets ------------------------------------------------------------------------

@primitive(SRFI14)
def char_set_copy(cs: object) -> CharSet:
    # bounds lists are never changed in place, so the copy may share its list
    return CharSet(check_char_set("char-set-copy", cs).bounds)


@primitive(SRFI14)
def char_set(*chars: object) -> CharSet:
    return _new("char-set", bounds_of_codes(ord(char_arg("char-set", c)) for c in chars))


@primitive(SRFI14, name="list->char-set")
def list_to_char_set(chars: object, base: object = DEFAULT) -> CharSet:
    added = bounds_of_codes(_code_points("list->char-set", chars))
    return _new("list->char-set", combine(_base("list->char-set", base), added,
                                          OPERATIONS["union"]))


@primitive(SRFI14, name="list->char-set!")
def list_to_char_set_x(chars: object, base: object) -> CharSet:
    base = check_char_set("list->char-set!", base)
    added = bounds_of_codes(_code_points("list->char-set!", chars))
    return _update("list->char-set!", base, combine(base.bounds, added, OPERATIONS["union"]))


def _string_codes(who: str, s: object) -> list[int]:
    if type(s) is not String:
        raise wrong_type(who, "a string", s)
    charge_bulk(len(s.s))
    return bounds_of_codes(map(ord, s.s))


@primitive(SRFI14, name="string->char-set")
def string_to_char_set(s: object, base: object = DEFAULT) -> CharSet:
    added = _string_codes("string->char-set", s)
    return _new("string->char-set", combine(_base("string->char-set", base), added,
                                            OPERATIONS["union"]))


@primitive(SRFI14, name="string->char-set!")
def string_to_char_set_x(s: object, base: object) -> CharSet:
    base = check_char_set("string->char-set!", base)
    added = _string_codes("string->char-set!", s)
    return _update("string->char-set!", base, combine(base.bounds, added, OPERATIONS["union"]))


def _ucs_range(who: str, lower: object, upper: object, strict: object) -> list[int]:
    lo, hi = as_int(lower), as_int(upper)
    for x, given in ((lo, lower), (hi, upper)):
        if type(x) is not int or x < 0:
            raise wrong_type(who, "a non-negative exact integer", given)
    if lo > hi:
        raise error(f"{who}: the lower bound is greater than the upper bound", lower, upper)
    if strict is not DEFAULT and strict is not False:
        if hi > MAX_CODE:
            raise error(f"{who}: code points above #x10FFFF are not characters", upper)
        if lo < UNIVERSE[2] and hi > UNIVERSE[1]:
            raise error(f"{who}: the surrogates #xD800-#xDFFF are not characters",
                        lower, upper)
    return bounds_of_range(lo, min(hi, MAX_CODE))


@primitive(SRFI14, name="ucs-range->char-set")
def ucs_range_to_char_set(lower: object, upper: object, strict: object = DEFAULT,
                          base: object = DEFAULT) -> CharSet:
    """(ucs-range->char-set lower upper [error? base-cs]): the characters with codes in
    [lower, upper); codes that are not characters (surrogates, above #x10FFFF) are left
    out, or an error when error? is true."""
    added = _ucs_range("ucs-range->char-set", lower, upper, strict)
    return _new("ucs-range->char-set", combine(_base("ucs-range->char-set", base), added,
                                               OPERATIONS["union"]))


@primitive(SRFI14, name="ucs-range->char-set!")
def ucs_range_to_char_set_x(lower: object, upper: object, strict: object,
                            base: object) -> CharSet:
    base = check_char_set("ucs-range->char-set!", base)
    added = _ucs_range("ucs-range->char-set!", lower, upper, strict)
    return _update("ucs-range->char-set!", base,
                   combine(base.bounds, added, OPERATIONS["union"]))


@primitive(SRFI14, name="->char-set")
def to_char_set(x: object) -> CharSet:
    """A string's characters, a character alone, or a char-set itself."""
    if type(x) is CharSet:
        return x
    if type(x) is String:
        return _new("->char-set", _string_codes("->char-set", x))
    if type(x) is Char:
        return CharSet(bounds_of_codes([ord(x.c)]))
    raise wrong_type("->char-set", "a string, character or char-set", x)


# -- querying -----------------------------------------------------------------------------

@primitive(SRFI14)
def char_set_size(cs: object) -> int:
    return size_of(check_char_set("char-set-size", cs).bounds)


@primitive(SRFI14, name="char-set->list")
def char_set_to_list(cs: object) -> object:
    """The members, ascending."""
    bounds = check_char_set("char-set->list", cs).bounds
    check_alloc("char-set->list", size_of(bounds), PAIR_BYTES)
    return from_items([Char.of(chr(code)) for code in codes(bounds)])


@primitive(SRFI14, name="char-set->string")
def char_set_to_string(cs: object) -> String:
    """The members, ascending, as a string."""
    bounds = check_char_set("char-set->string", cs).bounds
    check_alloc("char-set->string", size_of(bounds), 4)
    return String("".join(map(chr, codes(bounds))))


@primitive(SRFI14)
def char_set_contains_p(cs: object, char: object) -> bool:
    """One bisect in the set's ranges, whatever its size."""
    if type(cs) is not CharSet or type(char) is not Char:
        check_char_set("char-set-contains?", cs)
        char_arg("char-set-contains?", char)
    bounds = cs._bounds  # (the property, inlined: this is the hot one)
    if bounds is None:
        bounds = cs.bounds
    return bisect_right(bounds, ord(char.c)) & 1 == 1


# -- algebra ------------------------------------------------------------------------------

@primitive(SRFI14)
def char_set_adjoin(cs: object, *chars: object) -> CharSet:
    return _new("char-set-adjoin", _with_chars("char-set-adjoin", cs, chars, "union")[1])


@primitive(SRFI14)
def char_set_adjoin_x(cs: object, *chars: object) -> CharSet:
    return _update("char-set-adjoin!", *_with_chars("char-set-adjoin!", cs, chars, "union"))


@primitive(SRFI14)
def char_set_delete(cs: object, *chars: object) -> CharSet:
    return _new("char-set-delete", _with_chars("char-set-delete", cs, chars, "difference")[1])


@primitive(SRFI14)
def char_set_delete_x(cs: object, *chars: object) -> CharSet:
    return _update("char-set-delete!",
                   *_with_chars("char-set-delete!", cs, chars, "difference"))


def _with_chars(who: str, cs: object, chars: tuple, operation: str
                ) -> tuple[CharSet, list[int]]:
    """The checked set ``cs`` and its bounds combined by ``operation`` with ``chars``."""
    cs = check_char_set(who, cs)
    codes = bounds_of_codes(ord(char_arg(who, c)) for c in chars)
    return cs, combine(cs.bounds, codes, OPERATIONS[operation])


def _fold_sets(who: str, first: list[int], rest: list[list[int]], operation: str) -> list[int]:
    table = OPERATIONS[operation]
    result = first
    for bounds in rest:
        charge(len(result) + len(bounds))
        result = combine(result, bounds, table)
    return result


@primitive(SRFI14)
def char_set_complement(cs: object) -> CharSet:
    bounds = check_char_set("char-set-complement", cs).bounds
    return _new("char-set-complement", combine(UNIVERSE, bounds, OPERATIONS["difference"]))


@primitive(SRFI14)
def char_set_complement_x(cs: object) -> CharSet:
    cs = check_char_set("char-set-complement!", cs)
    return _update("char-set-complement!", cs,
                   combine(UNIVERSE, cs.bounds, OPERATIONS["difference"]))


def _algebra(who: str, operation: str, empty: list[int], mutate: bool,
             sets: tuple) -> CharSet:
    """union, intersection, xor (n-ary, ``empty`` for no sets) and difference (one or
    more): the value of the procedure ``who``."""
    bounds = _char_sets(who, sets)
    if not bounds:
        return CharSet(list(empty))
    result = _fold_sets(who, bounds[0], bounds[1:], operation)
    return _update(who, sets[0], result) if mutate else _new(who, result)


def _define_algebra(name: str, operation: str, empty: list[int], mutate: bool,
                    at_least: int) -> None:
    def procedure(*sets: object) -> CharSet:
        if len(sets) < at_least:
            raise error(f"{name}: expected at least {at_least} char-set"
                        f"{'s' if at_least > 1 else ''}, got {len(sets)}")
        return _algebra(name, operation, empty, mutate, sets)

    procedure.__doc__ = f"SRFI 14 ``{name}``."
    define(SRFI14, name, procedure)


for _op, _empty in (("union", []), ("intersection", UNIVERSE), ("xor", [])):
    _define_algebra(f"char-set-{_op}", _op, _empty, False, 0)
    _define_algebra(f"char-set-{_op}!", _op, _empty, True, 1)
_define_algebra("char-set-difference", "difference", [], False, 1)
_define_algebra("char-set-difference!", "difference", [], True, 1)


def _diff_and_intersection(who: str, sets: tuple) -> tuple[list[int], list[int]]:
    if not sets:
        raise error(f"{who}: expected at least 1 char-set, got 0")
    bounds = _char_sets(who, sets)
    others = _fold_sets(who, [], bounds[1:], "union")
    charge(len(bounds[0]) + len(others))
    return (combine(bounds[0], others, OPERATIONS["difference"]),
            combine(bounds[0], others, OPERATIONS["intersection"]))


@primitive(SRFI14, name="char-set-diff+intersection")
def char_set_diff_intersection(*sets: object) -> Values:
    """Two values: cs1 minus the others, and cs1 within the union of the others."""
    diff, inter = _diff_and_intersection("char-set-diff+intersection", sets)
    return Values((_new("char-set-diff+intersection", diff),
                   _new("char-set-diff+intersection", inter)))


@primitive(SRFI14, name="char-set-diff+intersection!")
def char_set_diff_intersection_x(cs1: object, cs2: object, *more: object) -> Values:
    """As char-set-diff+intersection, changing cs1 into the difference and cs2 into the
    intersection."""
    who = "char-set-diff+intersection!"
    diff, inter = _diff_and_intersection(who, (cs1, cs2, *more))
    return Values((_update(who, cs1, diff), _update(who, cs2, inter)))
