"""Hash tables: SRFI 69 (plus ``hash-table-contains?`` and ``hash-table-clear!``).

A ``HashTable`` maps a normalised key (see equivalence.py) to the pair (original key,
value), so lookups run at dict speed for the standard equivalences and entries keep
their insertion order. Recognised equivalences: equal? (the default), eqv?, eq?,
string=?, string-ci=? and =. Any other equivalence predicate works too: the table then
keeps each entry under a ``_Slot`` (compared by identity) and finds it by calling the
predicate (and the given hash function, if any) from a Python loop. Calling them from
the dict's C code (``__eq__``/``__hash__``) would grow the C stack on each level of a
Scheme recursion through the table. Every procedure argument is called from Python
frames with plain positional arguments.

SRFI 69 is ``scheme_lib/srfi/69.sld``: this module registers its native part as the
library ``(srfi 69 core)``, which that file imports and re-exports. Issue 28 asked for the
procedures that call a procedure of the program in Scheme; by measurement (sandboxed
library code, 1,000 entries of an ``equal?`` table, a Scheme procedure doing nothing;
time in Scheme / time here, ``bench/resumable_primitives.py`` and side-by-side runs):

* in Scheme: ``hash-table-update!/default`` 1.5-1.56 (a lookup, then a store by a second
  lookup, where this module did one), ``hash-table-merge!`` 1.13 (a Scheme procedure
  passed to ``hash-table-walk``; 1.5-1.95 as a loop over ``hash-table->alist``);
* kept here: ``hash-table-walk`` 6.6 and ``-fold`` 6.2 over a snapshot by
  ``hash-table->alist`` (most of it building the alist: 0.2 us an entry against the
  0.05 us of this module's whole walk), 3.5 over a flat vector of the entries;
  ``hash-table-update!`` 1.65-1.8 (a lookup, then a store by a second lookup: 1.3 with
  no argument checks); ``alist->hash-table`` 2.05 (``hash-table-contains?`` then
  ``hash-table-set!``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from threading import get_ident

from harness.scheme.datatypes import DEFAULT, Char, String, Symbol
from harness.scheme.errors import error, wrong_type
from harness.scheme.limits import charge, charge_alloc
from harness.scheme.primitives import PROCEDURE_NAMES, primitive
from harness.scheme.primitives.equivalence import (
    equal_hash,
    is_equal,
    key_function_for,
    string_hash,
)
from harness.scheme.primitives.lists import (
    check_procedure,
    from_items,
    proper_items,
)
from harness.scheme.primitives.numbers import as_int

#: the native part of (srfi 69): scheme_lib/srfi/69.sld imports and re-exports it and writes
#: hash-table-update!/default and hash-table-merge! in Scheme
SRFI69 = "srfi 69 core"


class HashTable:
    """A Scheme hash table. ``items()`` gives its (key, value) pairs in insertion order.

    ``entries`` maps the slot of each key (see ``slot``) to ``(key, value)``;
    ``equivalence`` and ``hash_function`` are the Scheme procedures the table was made
    with. ``key_of`` normalises keys for a standard equivalence and is None for a custom
    one, whose slots are listed in ``buckets`` by hash value.
    """

    __slots__ = ("buckets", "entries", "equivalence", "hash_function", "key_of", "resumed")

    def __init__(self, equivalence: object = is_equal, hash_function: object = DEFAULT) -> None:
        self.entries: dict[object, tuple[object, object]] = {}
        self.equivalence = equivalence
        self.hash_function = hash_function
        self.key_of = _key_function(equivalence)
        self.buckets: dict[int, list[_Slot]] = {}
        #: (key, slot, thread): the answer of the next lookup of key on that thread, set
        #: by a re-entry that resumes a primitive waiting in it (continuations.py)
        self.resumed: tuple[object, object, int] | None = None

    def slot(self, key: object) -> object:
        """The key of ``entries`` under which ``key`` is (or would be) stored."""
        if self.key_of is not None:
            return self.key_of(key)
        resumed = self.resumed
        if resumed is not None and resumed[2] == get_ident():  # a re-entry's answer
            self.resumed = None
            if resumed[0] is key:
                return resumed[1]
        h = 0 if self.hash_function is DEFAULT else user_hash(self.hash_function, key)
        bucket = tuple(self.buckets.get(h, ()))  # a copy: the predicate may add keys
        if len(bucket) > 16:
            # keys that all hash alike make every operation a scan: each one counts
            charge(len(bucket))
        same = self.equivalence
        entries = self.entries
        walk = iter(bucket)  # a named iterator: its position is where a resume goes on
        for slot in walk:
            entry = entries.get(slot)
            if entry is not None and same(entry[0], key) is not False:
                return slot
        return _Slot(h)

    def slot_in_bucket(self, key: object, h: int, bucket: tuple, start: int) -> object:
        """``slot``'s scan of ``bucket`` (the slots of hash ``h`` when it began) resumed at
        ``start`` (continuations.py), then of the slots added since."""
        same = self.equivalence
        entries = self.entries
        walk = iter(bucket)
        walk.__setstate__(start)
        for slot in walk:
            entry = entries.get(slot)
            if entry is not None and same(entry[0], key) is not False:
                return slot
        seen = set(bucket)
        later = tuple(slot for slot in self.buckets.get(h, ()) if slot not in seen)
        if later:
            return self.slot_in_bucket(key, h, bucket + later, len(bucket))
        return _Slot(h)

    def current_slot(self, slot: object, key: object) -> object:
        """``slot`` (from ``slot(key)``) after Scheme code ran: for a custom equivalence,
        an equivalent key may have been stored meanwhile under another slot."""
        if self.key_of is not None or slot in self.entries:
            return slot
        return self.slot(key)

    def store(self, slot: object, key: object, value: object) -> None:
        """Set the entry at ``slot`` (from ``slot``) to (key, value)."""
        if self.key_of is None and slot not in self.entries:
            self.buckets.setdefault(slot.hash, []).append(slot)
        self.entries[slot] = (key, value)

    def discard(self, slot: object) -> None:
        """Remove the entry at ``slot`` if there is one."""
        if self.entries.pop(slot, None) is not None and self.key_of is None:
            bucket = self.buckets[slot.hash]
            bucket.remove(slot)
            if not bucket:
                del self.buckets[slot.hash]

    def clear(self) -> None:
        self.entries.clear()
        self.buckets.clear()

    def copy(self) -> HashTable:
        """A new table with the same entries."""
        charge_alloc(len(self.entries), 64)
        table = HashTable(self.equivalence, self.hash_function)
        table.entries = dict(self.entries)
        table.buckets = {h: list(bucket) for h, bucket in self.buckets.items()}
        return table

    def items(self) -> list[tuple[object, object]]:
        """The (key, value) pairs, oldest first (a copy: safe to mutate the table meanwhile).
        Every walk of a table goes through here: it counts a step an entry, so a walk with
        a primitive procedure (no steps of its own) cannot be repeated for free."""
        entries = self.entries
        charge(len(entries), len(entries) * 16)
        return list(entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"#<hash-table {len(self.entries)}>"


# -- keys for the equivalence of a table -------------------------------------------------

class _Slot:
    """Where a table with a custom equivalence keeps an entry: compared by identity;
    ``hash`` is the key's value of the table's hash function (0 without one, so all keys
    share one bucket)."""

    __slots__ = ("hash",)

    def __init__(self, h: int) -> None:
        self.hash = h


def user_hash(hash_function: Callable, value: object) -> int:
    """The value of a table's own hash procedure for ``value``."""
    h = as_int(hash_function(value))
    if type(h) is not int:
        raise wrong_type("hash table hash function", "to return an exact integer", h)
    return h


def checked_hash(h: object) -> int:
    """``h`` as user_hash checks it (after a re-entered hash procedure returned it)."""
    return user_hash(_itself, h)


def _itself(x: object) -> object:
    return x


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


def _key_function(equivalence: object) -> Callable[[object], object] | None:
    """The key normaliser of a recognised equivalence, None for a custom one."""
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
    return None


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
    return add_alist("alist->hash-table", table, alist)


def add_alist(who: str, table: HashTable, alist: object) -> HashTable:
    """Add to ``table`` the entries of ``alist`` whose keys it lacks (the first entry for
    a key wins) and return it."""
    entries = proper_items(who, alist)
    for entry in entries:
        if entry.__class__ is not list:
            raise wrong_type(who, "an association list (a list of pairs)", alist)
    return each_pair(add_absent, table, entries, table)


def add_absent(t: HashTable, key: object, value: object) -> None:
    """Sets ``key`` to ``value`` unless ``t`` has it."""
    slot = t.slot(key)
    if slot not in t.entries:
        t.store(slot, key, value)


def each_pair(step: Callable, t: HashTable, pairs: list, result: object = None,
              start: int = 0) -> object:
    """``step(t, a, b)`` for each (a, b) of ``pairs`` from ``start`` on, then ``result``:
    the loops that look keys up in a table, whose own procedures a continuation may be
    captured in (continuations.py resumes the loop after the pair it waits in)."""
    walk = iter(pairs)
    if start:
        walk.__setstate__(start)
    for a, b in walk:
        step(t, a, b)
    return result


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
    entry = t.entries.get(t.slot(key))
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
    entry = t.entries.get(t.slot(key))
    return default if entry is None else entry[1]


@primitive(SRFI69)
def hash_table_set_x(table: object, key: object, value: object) -> None:
    t = check_table("hash-table-set!", table)
    k = t.slot(key)
    old = t.entries.get(k)
    t.store(k, key if old is None else old[0], value)


@primitive(SRFI69)
def hash_table_delete_x(table: object, key: object) -> None:
    t = check_table("hash-table-delete!", table)
    t.discard(t.slot(key))


@primitive(SRFI69)
def hash_table_exists_p(table: object, key: object) -> bool:
    t = check_table("hash-table-exists?", table)
    return t.slot(key) in t.entries


@primitive(SRFI69)
def hash_table_contains_p(table: object, key: object) -> bool:
    t = check_table("hash-table-contains?", table)
    return t.slot(key) in t.entries


@primitive(SRFI69)
def hash_table_update_x(table: object, key: object, updater: object,
                        failure: object = DEFAULT, success: object = DEFAULT) -> None:
    """(hash-table-update! table key updater [failure [success]]): sets key to
    (updater (hash-table-ref table key failure success)); SRFI 69's form is the first four
    (failure: a thunk for a missing key)."""
    t = check_table("hash-table-update!", table)
    check_procedure("hash-table-update!", updater)
    slot = t.slot(key)
    entry = t.entries.get(slot)
    if entry is None:
        if failure is DEFAULT:
            raise error("hash-table-update!: no value for key", key)
        check_procedure("hash-table-update!", failure)
        value = failure()
    elif success is DEFAULT:
        value = entry[1]
    else:
        check_procedure("hash-table-update!", success)
        value = success(entry[1])
    return updated_with(t, slot, key, updater, value)


# The rest of hash-table-update!, in functions of their own so that a continuation
# captured in the failure thunk, success or updater resumes it (continuations.py).
def updated_with(t: HashTable, slot: object, key: object, updater: object,
                 value: object) -> None:
    """Sets ``key`` (at ``slot``) to ``(updater value)``."""
    new_value = updater(value)
    return store_updated(t, slot, key, new_value)


def store_updated(t: HashTable, slot: object, key: object, new_value: object) -> None:
    """Sets ``key`` to ``new_value`` (the table may have changed since ``slot`` was found);
    an existing entry keeps its key."""
    slot = t.current_slot(slot, key)
    old = t.entries.get(slot)
    t.store(slot, key if old is None else old[0], new_value)


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
    return each_entry(proc, check_table("hash-table-walk", table).items())


@primitive(SRFI69)
def hash_table_fold(table: object, kons: object, knil: object) -> object:
    """(hash-table-fold table kons knil): (kons key value acc) over the entries. The
    SRFI 125 order (hash-table-fold kons knil table) is accepted too."""
    if type(table) is not HashTable and type(knil) is HashTable:
        table, kons, knil = knil, table, kons
    check_procedure("hash-table-fold", kons)
    return fold_entries(kons, check_table("hash-table-fold", table).items(), knil)


# The walks of a table's entries, calling (proc key value): their state is in locals, so a
# continuation captured inside proc resumes them (continuations.py).

def map_entries(proc: object, entries: list, finish: Callable[[list], object],
                out: list | None = None) -> object:
    """``finish`` of the list of ``(proc key value)`` for each of ``entries``, those of the
    first ``len(out)`` already in ``out``: the call waited in is on ``entries[len(out)]``."""
    if out is None:
        out = []
    append = out.append
    for k, v in entries[len(out):] if out else entries:
        append(proc(k, v))
    return finish(out)


def each_entry(proc: object, entries: list) -> None:
    """``(proc key value)`` for each of ``entries`` (``walk``'s position tells which one a
    call is on)."""
    walk = iter(entries)
    for k, v in walk:
        proc(k, v)


def fold_entries(kons: object, entries: list, acc: object) -> object:
    """``acc`` passed through ``(kons key value acc)`` for each of ``entries`` (``walk``'s
    position tells which one a call is on)."""
    walk = iter(entries)
    for k, v in walk:
        acc = kons(k, v, acc)
    return acc


@primitive(SRFI69)
def hash_table_to_alist(table: object) -> object:
    return from_items([[k, v] for k, v in _entries("hash-table->alist", table)])


@primitive(SRFI69)
def hash_table_copy(table: object, _mutable: object = DEFAULT) -> HashTable:
    """A new table with the same entries (always mutable)."""
    return check_table("hash-table-copy", table).copy()


@primitive(SRFI69)
def hash_table_clear_x(table: object) -> None:
    check_table("hash-table-clear!", table).clear()


# -- hash functions -----------------------------------------------------------------------

def _bounded(who: str, h: int, bound: object) -> int:
    if bound is DEFAULT:
        return h
    bound = as_int(bound)
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
