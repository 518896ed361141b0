"""``(srfi 125)``, also ``(scheme hash-table)``: SRFI 69 (hashtables.py) plus these.

A table can be made from a SRFI 128 comparator (its equality predicate and hash function)
or, as in SRFI 69, from an equality predicate and an optional hash function. A comparator
whose equality is ``eq?``, ``eqv?``, ``equal?``, ``string=?``, ``string-ci=?`` or ``=``
(``make-equal-comparator``, ``(make-comparator string? string=? string<? string-hash)``,
…) gets the fast tables of those equivalences; any other (the default comparator) calls
its procedures. harness has no immutable tables: ``hash-table-mutable?`` is always #t and
``(hash-table-copy table #f)`` is a mutable copy.

This is ``(srfi 125 core)``: scheme_lib/srfi/125.sld imports and re-exports it with
(srfi 69) and writes in Scheme ``hash-table=?``, ``-for-each``, ``-map->list``,
``-count``, ``-find``, ``-intern!``, ``-intersection!`` and ``-difference!``, which then
re-enter and count their steps as any Scheme loop (their resume records went). Measured sandboxed over a 1,000-entry table
against the Python versions (side by side, best of 7, busy machine): ``-find`` 1.1-1.2x,
``-intern!`` 1.15-1.4x, ``hash-table=?`` 1.3-1.6x; ``-count``, ``-for-each`` and
``-map->list`` were 1.45-2x as loops over ``hash-table->alist`` and are now Scheme
procedures passed to the native ``hash-table-fold``/``-walk`` (0.26x, 0.56x, 0.6x those
loops: building the alist was most of their time). Kept native by measurement:
``hash-table-unfold`` (12x slower in Scheme: its mapper's two values through
``call-with-values``; with a ``case-lambda`` consumer, 120x when each evaluation of a
case-lambda compiled its dispatcher, before issue 28), ``-map`` and ``-map!`` (3.3-4x: a store a call from Scheme) and ``-prune!`` (2.4x).
A second round moved ``-intersection!`` and ``-difference!`` (1.27-1.29x, a Scheme
procedure passed to the native ``hash-table-walk``; 1.4-1.55x as a loop over a snapshot)
and kept ``-union!`` (1.7-2.07x), ``-xor!`` (1.8-2.13x: a lookup, then a store by a
second one, where the loops here do one), ``alist->hash-table`` (2x) and ``-pop!`` (14x
over a snapshot of the whole table; here it removes the oldest entry at its slot, with
no lookup, so no procedure of the table runs and nothing resumes).
"""

from __future__ import annotations

from functools import partial

from harness.scheme.datatypes import DEFAULT, Symbol, Values
from harness.scheme.errors import error
from harness.scheme.limits import CHUNK, charge
from harness.scheme.primitives import primitive
from harness.scheme.primitives.comparators import Comparator, check_comparator
from harness.scheme.primitives.hashtables import (
    HashTable,
    _new_table,
    add_absent,
    add_alist,
    check_table,
    each_pair,
    map_entries,
)
from harness.scheme.primitives.lists import (
    check_procedure,
    from_items,
    map_then,
)

#: the native part of (srfi 125): scheme_lib/srfi/125.sld imports and re-exports it with
#: (srfi 69) and writes the procedures that call a procedure of the program
LIB = "srfi 125 core"
#: table options SRFI 125 names that harness tables cannot honour
_UNSUPPORTED = frozenset(("weak-keys", "weak-values", "ephemeral-keys", "ephemeral-values"))


def table_for(who: str, spec: object, options: tuple) -> HashTable:
    """A new table from a comparator, or from an equality predicate and an optional hash
    function (the first of ``options``); other options are a capacity or symbols."""
    for option in options:
        if type(option) is Symbol and option.name in _UNSUPPORTED:
            raise error(f"{who}: {option.name} tables are not supported", option)
    if type(spec) is Comparator:
        table = HashTable(spec.equality, spec.hash if spec.hashable else DEFAULT)
        if table.key_of is None and not spec.hashable:
            raise error(f"{who}: the comparator has no hash function", spec)
        return table
    hash_function = options[0] if options and callable(options[0]) else DEFAULT
    return _new_table(who, spec, hash_function)


def _snapshot(who: str, table: object) -> list[tuple[object, object]]:
    """The entries of ``table`` (a copy), their walk counted against the budget (by
    ``HashTable.items``: once)."""
    return check_table(who, table).items()


# -- constructors --------------------------------------------------------------------------

@primitive(LIB)
def make_hash_table(spec: object = DEFAULT, *options: object) -> HashTable:
    """(make-hash-table comparator arg ...) or (make-hash-table equality [hash] arg ...);
    with nothing, an equal? table."""
    return table_for("make-hash-table", spec, options)


@primitive(LIB)
def hash_table(spec: object, *keys_and_values: object) -> HashTable:
    """(hash-table comparator key value ...): a new table of these associations."""
    table = table_for("hash-table", spec, ())
    return _set_pairs("hash-table", table, keys_and_values, table)


@primitive(LIB)
def hash_table_unfold(stop: object, mapper: object, successor: object, seed: object,
                      spec: object, *options: object) -> HashTable:
    """Until (stop? seed): (mapper seed) gives a key and a value to add, (successor
    seed) the next seed."""
    for proc in (stop, mapper, successor):
        check_procedure("hash-table-unfold", proc)
    return unfold_into(table_for("hash-table-unfold", spec, options), stop, mapper, successor,
                       seed)


def unfold_into(table: HashTable, stop: object, mapper: object, successor: object,
                seed: object, at: int = 0, pair: object = None) -> HashTable:
    """hash-table-unfold's loop from the call ``at`` (0: ``stop``, 1: ``mapper``, 2: the
    store of ``pair``, which calls a table's own equality and hash procedures, 3:
    ``successor``): the one it waits in, for a continuation captured there to resume it
    (continuations.py)."""
    n = 0
    if at:
        if at == 1:
            pair = mapper(seed)
            at = 2
        if at == 2:
            _store_pair(table, pair)
            at = 3
        seed = successor(seed)
    while True:
        at = 0
        if stop(seed) is not False:
            return table
        at = 1
        pair = mapper(seed)
        at = 2
        _store_pair(table, pair)
        at = 3
        seed = successor(seed)
        n += 1
        if n == CHUNK:
            charge(CHUNK)
            n = 0


def _store_pair(table: HashTable, pair: object) -> None:
    """Store the key and value ``pair`` (the two values of hash-table-unfold's mapper)."""
    if type(pair) is not Values or len(pair) != 2:
        raise error("hash-table-unfold: the mapper must return two values (key and value)",
                    pair)
    key = pair[0]
    slot = table.slot(key)
    old = table.entries.get(slot)
    table.store(slot, key if old is None else old[0], pair[1])


@primitive(LIB, name="alist->hash-table")
def alist_to_hash_table(alist: object, spec: object = DEFAULT,
                        *options: object) -> HashTable:
    """(alist->hash-table alist comparator arg ...), or SRFI 69's equality [hash]; the
    first entry for a key wins."""
    table = table_for("alist->hash-table", spec, options)
    return add_alist("alist->hash-table", table, alist)


# -- predicates ----------------------------------------------------------------------------

@primitive(LIB)
def hash_table_mutable_p(table: object) -> bool:
    check_table("hash-table-mutable?", table)
    return True


# -- mutators ------------------------------------------------------------------------------

def _store(table: HashTable, key: object, value: object) -> None:
    slot = table.slot(key)
    old = table.entries.get(slot)
    table.store(slot, key if old is None else old[0], value)


def _set_pairs(who: str, table: HashTable, keys_and_values: tuple, result: object) -> object:
    if len(keys_and_values) % 2:
        raise error(f"{who}: expected keys and values in pairs, got an odd number of "
                    "arguments", *keys_and_values)
    return each_pair(_store, table, list(zip(keys_and_values[::2], keys_and_values[1::2])),
                     result)


@primitive(LIB)
def hash_table_set_x(table: object, *keys_and_values: object) -> None:
    """(hash-table-set! table key value ...)."""
    return _set_pairs("hash-table-set!", check_table("hash-table-set!", table), keys_and_values,
                      None)


@primitive(LIB)
def hash_table_delete_x(table: object, *keys: object) -> int:
    """(hash-table-delete! table key ...): how many of the keys had an entry."""
    return delete_keys(check_table("hash-table-delete!", table), keys, 0)


def delete_keys(t: HashTable, keys: tuple, deleted: int, start: int = 0) -> int:
    """``deleted`` plus how many of ``keys`` (from ``start``) ``t`` had, deleting them."""
    walk = iter(keys)
    if start:
        walk.__setstate__(start)
    for key in walk:
        deleted += delete_one(t, key)
    return deleted


def delete_one(t: HashTable, key: object) -> int:
    """1 if ``t`` had ``key`` (deleting it), else 0."""
    slot = t.slot(key)
    if slot in t.entries:
        t.discard(slot)
        return 1
    return 0


# -- mapping -------------------------------------------------------------------------------

@primitive(LIB)
def hash_table_map(proc: object, comparator: object, table: object) -> HashTable:
    """A new table (made with ``comparator``) of each key with (proc value)."""
    check_procedure("hash-table-map", proc)
    check_comparator("hash-table-map", comparator)
    result = table_for("hash-table-map", comparator, ())
    entries = _snapshot("hash-table-map", table)
    return map_then(proc, [v for _, v in entries], False,
                    partial(_stored, result, [k for k, _ in entries]))


def _stored(table: HashTable, keys: list, values: list) -> HashTable:
    """``table`` with each of ``keys`` set to its value of ``values``."""
    return each_pair(_store, table, list(zip(keys, values)), table)


@primitive(LIB)
def hash_table_map_x(proc: object, table: object) -> None:
    """Sets each key's value to (proc key value)."""
    check_procedure("hash-table-map!", proc)
    t = check_table("hash-table-map!", table)
    entries = _snapshot("hash-table-map!", t)
    return map_entries(proc, entries, partial(_restored, t, [k for k, _ in entries]))


def _restored(table: HashTable, keys: list, values: list) -> None:
    return each_pair(_store, table, list(zip(keys, values)))


# -- tables as sets ------------------------------------------------------------------------

@primitive(LIB)
def hash_table_xor_x(table1: object, table2: object) -> HashTable:
    """Keeps in table1 the keys of exactly one of the tables (table2's entries for the
    keys only table2 has); returns table1."""
    t1 = check_table("hash-table-xor!", table1)
    check_table("hash-table-xor!", table2)
    return each_pair(toggle, t1, _snapshot("hash-table-xor!", table2), t1)


def toggle(t: HashTable, key: object, value: object) -> None:
    """Deletes ``key`` from ``t`` if it has it, else sets it to ``value``."""
    slot = t.slot(key)
    if slot in t.entries:
        t.discard(slot)
    else:
        t.store(slot, key, value)


@primitive(LIB)
def hash_table_empty_p(table: object) -> bool:
    return len(check_table("hash-table-empty?", table).entries) == 0


@primitive(LIB)
def hash_table_prune_x(proc: object, table: object) -> None:
    """Deletes every entry for which (proc key value) is true."""
    check_procedure("hash-table-prune!", proc)
    t = check_table("hash-table-prune!", table)
    entries = _snapshot("hash-table-prune!", t)
    return map_entries(proc, entries, partial(_pruned, t, entries))


def _pruned(t: HashTable, entries: list, answers: list) -> None:
    """Deletes from ``t`` each entry whose answer is true."""
    return each_pair(discard_if, t, [(k, answer) for (k, _), answer in zip(entries, answers)])


def discard_if(t: HashTable, key: object, answer: object) -> None:
    if answer is not False:
        t.discard(t.slot(key))


@primitive(LIB)
def hash_table_pop_x(table: object) -> Values:
    """Removes some entry and returns its key and value (an error on an empty table)."""
    t = check_table("hash-table-pop!", table)
    for slot, (key, value) in t.entries.items():  # the oldest, removed at its slot: no lookup
        t.discard(slot)
        return Values((key, value))
    raise error("hash-table-pop!: the table is empty", table)


@primitive(LIB)
def hash_table_entries(table: object) -> Values:
    """Two values: the list of keys and the list of values, in the same order."""
    items = check_table("hash-table-entries", table).items()
    return Values((from_items([k for k, _ in items]), from_items([v for _, v in items])))


@primitive(LIB)
def hash_table_union_x(table: object, other: object) -> HashTable:
    """Adds the entries of ``other`` whose keys ``table`` lacks; returns ``table``."""
    t = check_table("hash-table-union!", table)
    return each_pair(add_absent, t, check_table("hash-table-union!", other).items(), t)


@primitive(LIB)
def hash_table_empty_copy(table: object) -> HashTable:
    t = check_table("hash-table-empty-copy", table)
    return HashTable(t.equivalence, t.hash_function)
