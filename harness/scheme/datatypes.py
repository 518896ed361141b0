"""Runtime representation of Scheme values.

The mapping is chosen for speed of the compiled code (see compiler.py):

=================  ==========================================================
Scheme             Python
=================  ==========================================================
pair               ``list`` of exactly two items ``[car, cdr]`` (fast cons)
()                 ``NIL`` (the only ``Nil`` instance)
boolean            ``True`` / ``False``
exact integer      ``int``; exact rational ``fractions.Fraction``
inexact real       ``float``; complex ``complex``
symbol             ``Symbol`` (interned: compare with ``is``)
char               ``Char`` (interned: compare with ``is``)
string             ``String`` (mutable; text in ``.s``)
vector             ``Vector`` (items in ``.items``)
bytevector         ``Bytevector`` (bytes in ``.b``, a ``bytearray``)
procedure          any Python function
unspecified        ``None``
multiple values    ``Values`` (a tuple subclass) unless exactly one value
eof object         ``EOF``
=================  ==========================================================

No Scheme value except a pair is subscriptable, so the compiler can inline
``(car x)`` as ``x[0]`` and still get an error for every non-pair.
"""

from __future__ import annotations

import weakref
from fractions import Fraction

from harness.scheme.errors import error
from harness.scheme.limits import charge

# typing is for type checkers only: importing it costs ~2 ms of every harness
# process's start-up (tests/cli/test_startup_imports.py keeps it out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

__all__ = [
    "DEFAULT",
    "EOF",
    "NIL",
    "NUMBER_TYPES",
    "Bytevector",
    "Char",
    "DefaultObject",
    "Eof",
    "Nil",
    "Promise",
    "Record",
    "RecordType",
    "String",
    "Symbol",
    "Values",
    "Vector",
    "cons",
    "is_exact_integer",
    "is_list",
    "is_number",
    "is_pair",
    "is_true",
    "list_to_py",
    "py_to_list",
    "split_list",
    "sym",
]


class _WeakInterned:
    """A table of interned values by name that keeps no value alive: a symbol or char
    that nothing refers to any more is dropped (no program can tell: a new one made later
    is the only one of its name). A program making a million symbols no longer grows the
    process for good."""

    __slots__ = ("refs",)

    def __init__(self) -> None:
        self.refs: dict[str, weakref.ref] = {}

    def get(self, name: str) -> object:
        ref = self.refs.get(name)
        return None if ref is None else ref()

    def add(self, name: str, value: object) -> object:
        refs = self.refs

        def forget(dead: weakref.ref, name: str = name) -> None:
            if refs.get(name) is dead:
                del refs[name]

        refs[name] = weakref.ref(value, forget)
        return value

    def __len__(self) -> int:
        return len(self.refs)


class Symbol:
    """An identifier; ``Symbol.intern(name)`` returns the unique symbol of that name."""

    __slots__ = ("__weakref__", "name")
    _table: ClassVar[_WeakInterned] = _WeakInterned()

    def __init__(self, name: str) -> None:
        self.name = name

    @classmethod
    def intern(cls, name: str) -> Symbol:
        s = cls._table.get(name)
        if s is None:
            s = cls._table.add(name, cls(name))
        return s

    def is_interned(self) -> bool:
        return Symbol._table.get(self.name) is self

    def __repr__(self) -> str:
        return self.name


sym = Symbol.intern


class Nil:
    """The empty list. There is exactly one instance, ``NIL``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "()"

    def __bool__(self) -> bool:  # Python-side convenience only; Scheme truth is `is not False`
        return True


NIL = Nil()


class Char:
    """A character. ``Char.of(c)`` returns the unique Char for the one-character string c."""

    __slots__ = ("__weakref__", "c")
    _table: ClassVar[_WeakInterned] = _WeakInterned()
    _ascii: ClassVar[dict[str, Char]] = {}  # kept for good: the common ones stay fast

    def __init__(self, c: str) -> None:
        self.c = c

    @classmethod
    def of(cls, c: str) -> Char:
        ch = cls._ascii.get(c)
        if ch is None:
            ch = cls._table.get(c)
            if ch is None:
                ch = cls._table.add(c, cls(c))
        return ch

    @classmethod
    def of_each(cls, text: str) -> list[Char]:
        """``[Char.of(c) for c in text]``; an ASCII text at C speed (10x faster)."""
        chars = list(map(cls._ascii.get, text))
        return chars if all(chars) else list(map(cls.of, text))

    def __repr__(self) -> str:
        return f"#\\{self.c}"


for _code in range(128):
    Char._ascii[chr(_code)] = Char._table.add(chr(_code), Char(chr(_code)))


class String:
    """A mutable Scheme string. ``s`` holds the text; mutation replaces it (O(n) per set)."""

    __slots__ = ("s",)

    def __init__(self, s: str) -> None:
        self.s = s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, String) and other.s == self.s

    __hash__ = None  # mutable: never a raw dict key

    def __repr__(self) -> str:
        return f"String({self.s!r})"


# The strings nothing may change: the keys of hook payload objects. Every dispatch shares
# one String per key text instead of making one per key per dispatch (most of the cost of
# converting a payload); string-set!, string-fill! and string-copy! refuse them.
_FROZEN_STRINGS: dict[str, String] = {}
_FROZEN_MAX = 4096  # distinct texts kept; past that, keys are fresh mutable Strings
_FROZEN_LONGEST = 256


def frozen_string(text: str) -> String:
    """The shared, immutable String of ``text`` (a fresh one if ``text`` is too long or
    too many texts are kept already)."""
    string = _FROZEN_STRINGS.get(text)
    if string is None:
        string = String(text)
        if len(text) <= _FROZEN_LONGEST and len(_FROZEN_STRINGS) < _FROZEN_MAX:
            string = _FROZEN_STRINGS.setdefault(text, string)
    return string


def is_frozen(string: String) -> bool:
    return _FROZEN_STRINGS.get(string.s) is string


class Vector:
    """A Scheme vector; ``items`` is a Python list."""

    __slots__ = ("items",)

    def __init__(self, items: list) -> None:
        self.items = items

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vector) and other.items == self.items

    __hash__ = None

    def __repr__(self) -> str:
        return f"Vector({self.items!r})"


class Bytevector:
    """A Scheme bytevector; ``b`` is a bytearray."""

    __slots__ = ("b",)

    def __init__(self, b: bytearray) -> None:
        self.b = b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bytevector) and other.b == self.b

    __hash__ = None

    def __repr__(self) -> str:
        return f"Bytevector({bytes(self.b)!r})"


class Values(tuple):
    """Zero or several values returned by ``values`` (one value is returned as itself)."""

    __slots__ = ()


class Eof:
    __slots__ = ()

    def __repr__(self) -> str:
        return "#<eof>"


EOF = Eof()


class DefaultObject:
    """Marks an optional argument that was not passed."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "#<default>"


DEFAULT = DefaultObject()


class Promise:
    """A promise from ``delay``/``delay-force``/``make-promise``.

    ``box`` is shared between promises chained by delay-force so that forcing is iterative
    (R7RS 4.2.5); ``box[0]`` is True when ``box[1]`` is the value, else box[1] is a thunk.
    """

    __slots__ = ("box",)

    def __init__(self, done: bool, value: object) -> None:
        self.box = [done, value]


class RecordType:
    """A record type made by ``define-record-type``."""

    __slots__ = ("fields", "instance_class", "name")

    def __init__(self, name: str, fields: tuple[str, ...]) -> None:
        self.name = name
        self.fields = fields
        # One Python class per record type; slot names are positional so no user-chosen
        # field name can collide with a Python attribute.
        self.instance_class = type(
            f"record:{name}", (Record,), {"__slots__": tuple(f"f{i}" for i in range(len(fields)))}
        )
        self.instance_class.rtd = self

    def __repr__(self) -> str:
        return f"#<record-type {self.name}>"


class Record:
    __slots__ = ()
    rtd: RecordType


NUMBER_TYPES = (int, float, Fraction, complex)


def is_number(x: object) -> bool:
    t = type(x)
    return t is int or t is float or t is Fraction or t is complex


def is_exact_integer(x: object) -> bool:
    t = type(x)
    return t is int or (t is Fraction and x.denominator == 1)


def cons(a: object, d: object) -> list:
    return [a, d]


def is_pair(x: object) -> bool:
    return x.__class__ is list


def is_true(x: object) -> bool:
    return x is not False


def is_list(x: object) -> bool:
    """True for a proper (finite, NIL-terminated) list."""
    slow = x
    while True:
        if x is NIL:
            return True
        if x.__class__ is not list:
            return False
        x = x[1]
        if x is NIL:
            return True
        if x.__class__ is not list:
            return False
        x = x[1]
        slow = slow[1]
        if x is slow:
            return False


def py_to_list(items, tail: object = NIL) -> object:
    """Build a Scheme list from a Python iterable (optionally with an improper tail)."""
    result = tail
    for item in reversed(list(items)):
        result = [item, result]
    return result


def split_list(x: object) -> tuple[list, object]:
    """The elements of a (possibly dotted) Scheme list and what it ends in (``NIL`` for a
    proper list).

    A circular list is an error (Brent's algorithm finds the cycle within twice its
    length): source text can make one with datum labels, and a hostile program any time.
    Walking a long list counts against the running budget."""
    out = []
    append = out.append
    tortoise = x
    power = steps = 1
    while x.__class__ is list:
        append(x[0])
        x = x[1]
        if x is tortoise:
            raise error("expected a finite list, got a circular list")
        if steps == power:
            tortoise = x
            power += power
            steps = 0
        steps += 1
    if len(out) > 1000:
        charge(len(out))
    return out, x


def list_to_py(x: object) -> list:
    """The elements of a Scheme list as a Python list, up to its first non-pair (a
    circular list is an error: see ``split_list``)."""
    return split_list(x)[0]
