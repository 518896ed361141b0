"""Hash tables: SRFI 69 (plus ``hash-table-contains?`` and ``hash-table-clear!``).

A ``HashTable`` maps a normalised key (see equivalence.py) to the pair (original key,
value), so lookups run at dict speed for the standard equivalences and entries keep
their insertion order. Recognised equivalences: equal? (the default), eqv?, eq?,
string=?, string-ci=? and =. Any other equivalence predicate works too, through keys that
call it (and the given hash function, if any) from Python's dict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from harness.scheme.datatypes import DEFAULT, Char, String, Symbol
from harness.scheme.errors import error, wrong_type
from harness.scheme.primitives import PROCEDURE_NAMES, primitive
from harness.scheme.primitives.equivalence import (
    equal_hash,
    is_equal,
    key_function_for,
    string_hash,
)
from harness.scheme.primitives.lists import check_procedure, from_items, proper_items

SRFI69 = "srfi 69"


class HashTable:
    """A Scheme hash table. ``items()`` gives its (key, value) pairs in insertion order.

    ``entries`` maps ``key_of(key)`` to ``(key, value)``; ``equivalence`` and
    ``hash_function`` are the Scheme procedures the table was made with.
    """

    __slots__ = ("entries", "equivalence", "hash_function", "key_of")

    def __init__(self, equivalence: object = is_equal, hash_function: object = DEFAULT) -> None:
        self.entries: dict[object, tuple[object, object]] = {}
        self.equivalence = equivalence
        self.hash_function = hash_function
        self.key_of = _key_function(equivalence, hash_function)

    def items(self) -> list[tuple[object, object]]:
        """The (key, value) pairs, oldest first (a copy: safe to mutate the table meanwhile)."""
        return list(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"#<hash-table {len(self.entries)}>"


# -- keys for the equivalence of a table -------------------------------------------------

class _CustomKey:
    """A key compared with a Scheme equivalence predicate (and hashed by a Scheme hash
    function when one was given, else all keys share one bucket)."""

    __slots__ = ("equivalence", "hash", "value")

    def __init__(self, value: object, equivalence: Callable, hash_function: object) -> None:
        self.value = value
        self.equivalence = equivalence
        self.hash = 0 if hash_function is DEFAULT else _user_hash(hash_function, value)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _CustomKey)
                and self.equivalence(self.value, other.value) is not False)


def _user_hash(hash_function: Callable, value: object) -> int:
    h = hash_function(value)
    if type(h) is not int:
        raise wrong_type("hash table hash function", "to return an exact integer", h)
    return h


def _string_key(who: str, fold: bool) -> Callable[[object], object]:
    def key(x: object) -> str:
        if type(x) is not String:
            raise wrong_type(who, "a string key", x)
        return x.s.casefold() if fold else x.s

    return key


_NUMBER_TYPES = (int, float, Fraction, complex)


def _number_key(x: object) -> object:
    # Python's == and hash agree across int, Fraction and float exactly as Scheme's = does.
    if type(x) not in _NUMBER_TYPES:
        raise wrong_type("=", "a number key", x)
    return x


def _key_function(equivalence: object, hash_function: object) -> Callable[[object], object]:
    standard = key_function_for(equivalence)
    if standard is not None:
        return standard
    name = PROCEDURE_NAMES.get(equivalence)
    if name == "string=?":
        return _string_key("string=?", fold=False)
    if name == "string-ci=?":
        return _string_key("string-ci=?", fold=True)
    if name == "=":
        return _number_key
    return lambda x: _CustomKey(x, equivalence, hash_function)


def check_table(who: str, table: object) -> HashTable:
    if type(table) is not HashTable:
        raise wrong_type(who, "a hash table", table)
    return table


def _entries(who: str, table: object) -> Iterator[tuple[object, object]]:
    """The (key, value) pairs of a snapshot, so the walker may change the table."""
    return iter(check_table(who, table).items())


# -- constructors -------------------------------------------------------------------------

def _new_table(who: str, equivalence: object, hash_function: object) -> HashTable:
    if equivalence is DEFAULT:
        equivalence = is_equal
    check_procedure(who, equivalence)
    if hash_function is not DEFAULT:
        check_procedure(who, hash_function)
    return HashTable(equivalence, hash_function)


@primitive(SRFI69)
def make_hash_table(equivalence: object = DEFAULT, hash_function: object = DEFAULT,
                    *_options: object) -> HashTable:
    """(make-hash-table [equivalence [hash . options]]); equal? by default."""
    return _new_table("make-hash-table", equivalence, hash_function)


@primitive(SRFI69)
def alist_to_hash_table(alist: object, equivalence: object = DEFAULT,
                        hash_function: object = DEFAULT, *_options: object) -> HashTable:
    """A table of the entries of ``alist``; the first entry for a key wins."""
    table = _new_table("alist->hash-table", equivalence, hash_function)
    for entry in proper_items("alist->hash-table", alist):
        if entry.__class__ is not list:
            raise wrong_type("alist->hash-table", "an association list (a list of pairs)",
                             alist)
        table.entries.setdefault(table.key_of(entry[0]), (entry[0], entry[1]))
    return table


@primitive(SRFI69)
def hash_table_p(x: object) -> bool:
    return type(x) is HashTable


@primitive(SRFI69)
def hash_table_equivalence_function(table: object) -> object:
    return check_table("hash-table-equivalence-function", table).equivalence


@primitive(SRFI69)
def hash_table_hash_function(table: object) -> object:
    """The hash function given at creation, else ``hash`` (consistent with any table that
    uses a standard equivalence)."""
    fn = check_table("hash-table-hash-function", table).hash_function
    return hash_ if fn is DEFAULT else fn


# -- lookup and update --------------------------------------------------------------------

@primitive(SRFI69)
def hash_table_ref(table: object, key: object, fail: object = DEFAULT,
                   succeed: object = DEFAULT) -> object:
    """(hash-table-ref table key [thunk [success]]): an error if the key is missing and no
    thunk is given."""
    t = check_table("hash-table-ref", table)
    entry = t.entries.get(t.key_of(key))
    if entry is None:
        if fail is DEFAULT:
            raise error("hash-table-ref: no value for key", key)
        check_procedure("hash-table-ref", fail)
        return fail()
    if succeed is DEFAULT:
        return entry[1]
    check_procedure("hash-table-ref", succeed)
    return succeed(entry[1])


@primitive(SRFI69, name="hash-table-ref/default")
def hash_table_ref_default(table: object, key: object, default: object) -> object:
    t = check_table("hash-table-ref/default", table)
    entry = t.entries.get(t.key_of(key))
    return default if entry is None else entry[1]


@primitive(SRFI69)
def hash_table_set_x(table: object, key: object, value: object) -> None:
    t = check_table("hash-table-set!", table)
    k = t.key_of(key)
    old = t.entries.get(k)
    t.entries[k] = (key if old is None else old[0], value)


@primitive(SRFI69)
def hash_table_delete_x(table: object, key: object) -> None:
    t = check_table("hash-table-delete!", table)
    t.entries.pop(t.key_of(key), None)


@primitive(SRFI69)
def hash_table_exists_p(table: object, key: object) -> bool:
    t = check_table("hash-table-exists?", table)
    return t.key_of(key) in t.entries


@primitive(SRFI69)
def hash_table_contains_p(table: object, key: object) -> bool:
    t = check_table("hash-table-contains?", table)
    return t.key_of(key) in t.entries


@primitive(SRFI69)
def hash_table_update_x(table: object, key: object, proc: object,
                        fail: object = DEFAULT) -> None:
    """(hash-table-update! table key proc [thunk]): sets key to (proc old-value)."""
    t = check_table("hash-table-update!", table)
    check_procedure("hash-table-update!", proc)
    k = t.key_of(key)
    entry = t.entries.get(k)
    if entry is None:
        if fail is DEFAULT:
            raise error("hash-table-update!: no value for key", key)
        check_procedure("hash-table-update!", fail)
        entry = (key, fail())
    new_value = proc(entry[1])
    t.entries[k] = (t.entries.get(k, entry)[0], new_value)


@primitive(SRFI69, name="hash-table-update!/default")
def hash_table_update_x_default(table: object, key: object, proc: object,
                                default: object) -> None:
    """(hash-table-update!/default table key proc default)."""
    t = check_table("hash-table-update!/default", table)
    check_procedure("hash-table-update!/default", proc)
    k = t.key_of(key)
    entry = t.entries.get(k, (key, default))
    new_value = proc(entry[1])
    t.entries[k] = (t.entries.get(k, entry)[0], new_value)


# -- the whole table ----------------------------------------------------------------------

@primitive(SRFI69)
def hash_table_size(table: object) -> int:
    return len(check_table("hash-table-size", table).entries)


@primitive(SRFI69)
def hash_table_keys(table: object) -> object:
    return from_items([k for k, _ in _entries("hash-table-keys", table)])


@primitive(SRFI69)
def hash_table_values(table: object) -> object:
    return from_items([v for _, v in _entries("hash-table-values", table)])


@primitive(SRFI69)
def hash_table_walk(table: object, proc: object) -> None:
    """Calls (proc key value) for each entry."""
    check_procedure("hash-table-walk", proc)
    for k, v in _entries("hash-table-walk", table):
        proc(k, v)


@primitive(SRFI69)
def hash_table_fold(table: object, kons: object, knil: object) -> object:
    """(hash-table-fold table kons knil): (kons key value acc) over the entries. The
    SRFI 125 order (hash-table-fold kons knil table) is accepted too."""
    if type(table) is not HashTable and type(knil) is HashTable:
        table, kons, knil = knil, table, kons
    check_procedure("hash-table-fold", kons)
    acc = knil
    for k, v in _entries("hash-table-fold", table):
        acc = kons(k, v, acc)
    return acc


@primitive(SRFI69)
def hash_table_to_alist(table: object) -> object:
    return from_items([[k, v] for k, v in _entries("hash-table->alist", table)])


@primitive(SRFI69)
def hash_table_copy(table: object, _mutable: object = DEFAULT) -> HashTable:
    """A new table with the same entries (always mutable)."""
    t = check_table("hash-table-copy", table)
    copy = HashTable(t.equivalence, t.hash_function)
    copy.entries = dict(t.entries)
    return copy


@primitive(SRFI69)
def hash_table_merge_x(table: object, other: object) -> HashTable:
    """Adds the entries of ``other`` to ``table`` (other's values win) and returns table."""
    t = check_table("hash-table-merge!", table)
    for k, v in _entries("hash-table-merge!", other):
        hash_table_set_x(t, k, v)
    return t


@primitive(SRFI69)
def hash_table_clear_x(table: object) -> None:
    check_table("hash-table-clear!", table).entries.clear()


# -- hash functions -----------------------------------------------------------------------

def _bounded(who: str, h: int, bound: object) -> int:
    if bound is DEFAULT:
        return h
    if type(bound) is not int or bound <= 0:
        raise wrong_type(who, "a positive exact integer bound", bound)
    return h % bound


@primitive(SRFI69, name="hash")
def hash_(obj: object, bound: object = DEFAULT) -> int:
    """(hash obj [bound]): a hash consistent with equal?."""
    return _bounded("hash", equal_hash(obj), bound)


@primitive(SRFI69, name="string-hash")
def string_hash_(s: object, bound: object = DEFAULT) -> int:
    if type(s) is not String:
        raise wrong_type("string-hash", "a string", s)
    return _bounded("string-hash", string_hash(s.s), bound)


@primitive(SRFI69)
def string_ci_hash(s: object, bound: object = DEFAULT) -> int:
    if type(s) is not String:
        raise wrong_type("string-ci-hash", "a string", s)
    return _bounded("string-ci-hash", string_hash(s.s.casefold()), bound)


@primitive(SRFI69)
def hash_by_identity(obj: object, bound: object = DEFAULT) -> int:
    """(hash-by-identity obj [bound]): a hash consistent with eq?."""
    by_value = type(obj) in _NUMBER_TYPES or type(obj) is Symbol or type(obj) is Char
    return _bounded("hash-by-identity", equal_hash(obj) if by_value else id(obj) >> 4, bound)
