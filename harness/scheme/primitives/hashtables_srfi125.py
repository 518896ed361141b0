"""The SRFI 125 procedures of ``(scheme hash-table)`` beyond SRFI 69's (hashtables.py).

``(scheme hash-table)`` is SRFI 69 plus these, as in chibi-scheme; SRFI 125's
comparator-taking constructors are not provided (harness has no comparators).
"""

from __future__ import annotations

from harness.scheme.datatypes import Values
from harness.scheme.errors import error
from harness.scheme.primitives import primitive
from harness.scheme.primitives.hashtables import (
    HashTable,
    _entries,
    check_table,
)
from harness.scheme.primitives.lists import check_procedure, from_items

LIB = "scheme hash-table"


@primitive(LIB)
def hash_table_empty_p(table: object) -> bool:
    return len(check_table("hash-table-empty?", table).entries) == 0


@primitive(LIB)
def hash_table_for_each(proc: object, table: object) -> None:
    """(hash-table-for-each proc table): (proc key value) for each entry."""
    check_procedure("hash-table-for-each", proc)
    for k, v in _entries("hash-table-for-each", table):
        proc(k, v)


@primitive(LIB, name="hash-table-map->list")
def hash_table_map_to_list(proc: object, table: object) -> object:
    check_procedure("hash-table-map->list", proc)
    return from_items([proc(k, v) for k, v in _entries("hash-table-map->list", table)])


@primitive(LIB)
def hash_table_count(pred: object, table: object) -> int:
    """How many entries satisfy (pred key value)."""
    check_procedure("hash-table-count", pred)
    return sum(1 for k, v in _entries("hash-table-count", table) if pred(k, v) is not False)


@primitive(LIB)
def hash_table_find(proc: object, table: object, failure: object) -> object:
    """The first true (proc key value), else (failure)."""
    check_procedure("hash-table-find", proc)
    check_procedure("hash-table-find", failure)
    for k, v in _entries("hash-table-find", table):
        result = proc(k, v)
        if result is not False:
            return result
    return failure()


@primitive(LIB)
def hash_table_prune_x(proc: object, table: object) -> None:
    """Deletes every entry for which (proc key value) is true."""
    check_procedure("hash-table-prune!", proc)
    t = check_table("hash-table-prune!", table)
    for k, v in _entries("hash-table-prune!", t):
        if proc(k, v) is not False:
            t.discard(t.slot(k))


@primitive(LIB)
def hash_table_intern_x(table: object, key: object, failure: object) -> object:
    """The value of ``key``; if missing, sets it to (failure) first."""
    t = check_table("hash-table-intern!", table)
    check_procedure("hash-table-intern!", failure)
    entry = t.entries.get(t.slot(key))
    if entry is not None:
        return entry[1]
    value = failure()
    t.store(t.current_slot(t.slot(key), key), key, value)
    return value


@primitive(LIB)
def hash_table_pop_x(table: object) -> Values:
    """Removes some entry and returns its key and value (an error on an empty table)."""
    t = check_table("hash-table-pop!", table)
    for k, v in t.items():
        t.discard(t.slot(k))
        return Values((k, v))
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
    for k, v in _entries("hash-table-union!", other):
        slot = t.slot(k)
        if slot not in t.entries:
            t.store(slot, k, v)
    return t


@primitive(LIB)
def hash_table_empty_copy(table: object) -> HashTable:
    t = check_table("hash-table-empty-copy", table)
    return HashTable(t.equivalence, t.hash_function)
