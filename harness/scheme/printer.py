"""External representations of Scheme values: ``write``, ``write-shared``, ``write-simple``,
``display``, and the text of a raised condition.

Printing never recurses in Python: a work stack drives it, so a list of a million
elements or a hundred thousand levels of nesting prints. Shared structure is found by a
first pass over the value (also iterative); only values that contain some shared pair,
vector or record pay for the second pass that finds which of them close a cycle.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from harness.scheme import limits
from harness.scheme.datatypes import (
    DEFAULT,
    EOF,
    NIL,
    Bytevector,
    Char,
    Nil,
    Promise,
    Record,
    RecordType,
    String,
    Symbol,
    Values,
    Vector,
)
from harness.scheme.errors import WRITERS, ErrorObject, SizeLimitExceeded, error
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.names import scheme_name
from harness.scheme.parameters import is_parameter
from harness.scheme.primitives import PROCEDURE_NAMES

__all__ = [
    "MAX_MESSAGE_CHARS",
    "MAX_WRITTEN_CHARS",
    "char_literal",
    "describe_condition",
    "display_string",
    "string_literal",
    "symbol_literal",
    "write_shared_string",
    "write_simple_string",
    "write_string",
    "write_truncated",
]

#: the longest text one call may produce (a shared DAG can stand for an exponential tree)
MAX_WRITTEN_CHARS = 64 * 1024 * 1024

CHAR_NAMES_BY_CHAR = {
    "\a": "alarm", "\b": "backspace", "\x7f": "delete", "\x1b": "escape", "\n": "newline",
    "\0": "null", "\r": "return", " ": "space", "\t": "tab",
}
_STRING_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r",
                   "\a": "\\a", "\b": "\\b"}
_SYMBOL_ESCAPES = {"|": "\\|", "\\": "\\\\"}
# Characters that end an identifier in the reader's grammar (ATOM in grammar.lark).
# and the backslash, which no identifier has, and the reserved brackets and braces
_SYMBOL_DELIMITERS = frozenset('()";\'`,|\\[]{}')

# Opaque runtime values defined elsewhere, recognised by class name so that the printer
# depends on nothing but the data model.
_OPAQUE_NAMES = {"Environment": "environment", "Port": "port", "CharSet": "char-set",
                 "Comparator": "comparator"}


# -- public entry points -------------------------------------------------------------------

def write_string(obj: object, limit: int = MAX_WRITTEN_CHARS) -> str:
    """R7RS ``write``: a readable text; datum labels only where a cycle needs one."""
    return _render(obj, True, _labels_for_cycles(obj), limit)


def write_shared_string(obj: object, limit: int = MAX_WRITTEN_CHARS) -> str:
    """R7RS ``write-shared``: like write, labelling every pair/vector seen more than once."""
    return _render(obj, True, _shared_nodes(obj), limit)


def write_simple_string(obj: object, limit: int = MAX_WRITTEN_CHARS) -> str:
    """R7RS ``write-simple``: no datum labels. Circular data, which would print forever,
    is refused with an error before anything is printed."""
    if _labels_for_cycles(obj):
        raise error("write-simple: cannot write circular data", obj)
    return _render(obj, True, frozenset(), limit)


def display_string(obj: object, limit: int = MAX_WRITTEN_CHARS) -> str:
    """R7RS ``display``: strings, characters and symbols as their raw text; cycles labelled."""
    return _render(obj, False, _labels_for_cycles(obj), limit)


#: the longest message a condition gives (its irritants are cut shorter)
MAX_MESSAGE_CHARS = 2000
#: how much of a value an error message shows
IRRITANT_CHARS = 300
#: nodes of a value looked at for datum labels before a truncated text is written
_LABEL_BUDGET = 10_000


def write_truncated(obj: object, limit: int = IRRITANT_CHARS) -> str:
    """``write`` text for messages: at most about ``limit`` characters (a longer text is
    cut, ending in "..."), never an error, and bounded work: cycles are labelled if they
    show within the first nodes of the value, else printed until the cut."""
    return _render(obj, True, _labels_for_cycles(obj, _LABEL_BUDGET), limit, truncate=True)


def describe_condition(payload: object) -> str:
    """The message a user sees for a raised object, at most about MAX_MESSAGE_CHARS long.

    An error object gives its message followed by its written irritants, except that an
    irritant the message already ends with (as in primitive errors "car: expected a pair,
    got ()") is not repeated. Any other raised object gives "uncaught exception: <written>".
    """
    if not isinstance(payload, ErrorObject):
        return "uncaught exception: " + write_truncated(payload, MAX_MESSAGE_CHARS)
    message = payload.message
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS] + "..."
    irritants = [write_truncated(x) for x in payload.irritants[:8]]
    if len(payload.irritants) > 8:
        irritants.append("...")
    if irritants and message.endswith(irritants[-1]):
        return message
    text = " ".join([message, *irritants])
    return text if len(text) <= 2 * MAX_MESSAGE_CHARS else text[:2 * MAX_MESSAGE_CHARS] + "..."


# -- literals of atoms ---------------------------------------------------------------------

def string_literal(s: str) -> str:
    """A Scheme string literal for ``s``: quoted, with R7RS escapes."""
    return _quoted(s, '"', _STRING_ESCAPES)


def _quoted(text: str, quote: str, escapes: dict[str, str]) -> str:
    """``text`` between ``quote`` marks, with ``escapes`` and ``\\x<hex>;`` for what is
    unprintable (the shared form of string literals and ``|symbols|``)."""
    out = [quote]
    for c in text:
        esc = escapes.get(c)
        if esc is not None:
            out.append(esc)
        elif c.isprintable():
            out.append(c)
        else:
            out.append(f"\\x{ord(c):x};")
    out.append(quote)
    return "".join(out)


def char_literal(c: str) -> str:
    """``#\\a``, ``#\\space``, ``#\\λ``; ``#\\x<hex>`` for an unnamed unprintable char."""
    name = CHAR_NAMES_BY_CHAR.get(c)
    if name is not None:
        return "#\\" + name
    if c.isprintable():
        return "#\\" + c
    return f"#\\x{ord(c):x}"


@lru_cache(maxsize=4096)
def symbol_literal(name: str) -> str:
    """The symbol as the reader would read it back: in ``|bars|`` when the bare name would
    not read as this symbol (empty, '.', a delimiter or space inside, a leading '#', a name
    that reads as a number, or an unprintable character)."""
    if not _symbol_needs_bars(name):
        return name
    return _quoted(name, "|", _SYMBOL_ESCAPES)


def _symbol_needs_bars(name: str) -> bool:
    if not name or name == "." or name[0] == "#":
        return True
    for c in name:
        if c in _SYMBOL_DELIMITERS or c.isspace() or not c.isprintable():
            return True
    return _starts_like_number(name)


def _starts_like_number(name: str) -> bool:
    """Whether ``name`` begins as a number would (as chibi-scheme judges it): a digit, a
    sign or dot before a digit, or a sign before ``i``, ``inf.0`` or ``nan.0``."""
    first = name[0]
    if first.isdigit():
        return True
    if first == ".":
        return len(name) > 1 and name[1].isdigit()
    if first not in "+-" or len(name) == 1:
        return False
    rest = name[1:].lower()
    if rest[0].isdigit() or (rest[0] == "." and len(rest) > 1 and rest[1].isdigit()):
        return True
    return rest == "i" or rest.startswith(("inf.0", "nan.0"))


def _number_text(x: object) -> str:
    if type(x) is int:
        try:
            return str(x)
        except ValueError:  # beyond Python's int->str digit limit
            pass
    from harness.scheme.numparse import format_number
    return format_number(x)


def _procedure_text(fn: object) -> str:
    try:
        name = PROCEDURE_NAMES.get(fn)
    except TypeError:  # an unhashable callable
        name = None
    if name is None:
        name = _compiled_procedure_name(getattr(fn, "__qualname__", "") or "")
    if not name or name.startswith("<"):
        return "#<procedure>"
    return f"#<procedure {name}>"


def _compiled_procedure_name(qualname: str) -> str:
    """The Scheme name behind a Python function name ('' for an anonymous procedure).

    Compiled code names a procedure after its variable (``s_foo``, ``v3_loop``, see
    names.py) or a temporary (``t7``, or ``t7_foo`` for one bound to ``foo``).
    """
    py = qualname.rsplit("<locals>.", 1)[-1]  # never show the Python nesting
    temporary = _TEMPORARY_NAME.fullmatch(py)
    if temporary:
        return scheme_name("s_" + temporary[1]) if temporary[1] else ""
    return scheme_name(py)


_TEMPORARY_NAME = re.compile(r"t\d+(?:_(.*))?")


def _opaque_text(x: object) -> str:
    """Values with no external representation: procedures, parameters, tables, ports…"""
    if isinstance(x, Promise):
        return "#<promise>"
    if isinstance(x, RecordType):
        return f"#<record-type {_record_type_name(x)}>"
    if is_parameter(x):
        return "#<parameter>"
    if isinstance(x, dict):
        return f"#<hash-table {len(x)}>"
    for klass in type(x).__mro__:
        tag = _OPAQUE_NAMES.get(klass.__name__)
        if tag is not None:
            return f"#<{tag}>"
        if "hashtable" in klass.__name__.lower():
            return f"#<hash-table {_hash_table_size(x)}>"
    if callable(x):
        return _procedure_text(x)
    return f"#<{type(x).__name__.lower()}>"


def _hash_table_size(table: object) -> int:
    try:
        return len(table)
    except TypeError:
        for attr in ("table", "entries", "data"):
            inner = getattr(table, attr, None)
            if isinstance(inner, dict):
                return len(inner)
        return 0


def _record_type_name(rtd: RecordType) -> str:
    name = rtd.name.name if isinstance(rtd.name, Symbol) else str(rtd.name)
    if len(name) > 2 and name[0] == "<" and name[-1] == ">":  # (define-record-type <point> …)
        name = name[1:-1]
    return name


def _atom_text(x: object, readable: bool) -> str:
    write = (_WRITE_ATOM if readable else _DISPLAY_ATOM).get(x.__class__)
    if write is not None:
        return write(x)
    if x is EOF:
        return "#<eof>"
    if x is DEFAULT:
        return "#<default>"
    if x.__class__ is Bytevector:
        return "#u8(" + " ".join(map(str, x.b)) + ")"
    return _opaque_text(x)


def _short_atom_text(x: object, limit: int) -> str:
    """An atom's ``write`` text for a truncated rendering: big strings, symbols,
    bytevectors and numbers are cut before they are written out in full."""
    cls = x.__class__
    if cls is String:
        return string_literal(x.s[:limit + 1])
    if cls is Symbol:
        return symbol_literal(x.name[:limit + 1])
    if cls is Bytevector:
        return "#u8(" + " ".join(map(str, x.b[:limit // 2 + 1])) + ")"
    if cls is int and x.bit_length() > 4000:
        return f"#<exact integer of {x.bit_length()} bits>"
    if cls is Fraction and x.numerator.bit_length() + x.denominator.bit_length() > 4000:
        return "#<exact rational number of " \
               f"{x.numerator.bit_length() + x.denominator.bit_length()} bits>"
    if cls is complex or cls is int or cls is Fraction or cls is float:
        return _number_text(x)
    return _atom_text(x, True)


@lru_cache(maxsize=8)
def _short_atoms(limit: int) -> dict[type, Callable[[object], str]]:
    """The atom table of a truncated rendering with cut ``limit``."""
    table: dict[type, Callable[[object], str]] = dict(_WRITE_ATOM)
    for cls in (String, Symbol, int, Fraction):
        table[cls] = lambda x, limit=limit: _short_atom_text(x, limit)
    return table


def _bool_text(x: bool) -> str:
    return "#t" if x else "#f"


# The common atoms by exact class, for one dict lookup per element in the printing loop.
_DISPLAY_ATOM: dict[type, Callable[[object], str]] = {
    bool: _bool_text, int: _number_text, float: _number_text, Fraction: _number_text,
    complex: _number_text, ExactComplex: _number_text, Nil: lambda _: "()", type(None): lambda _: "#<unspecified>",
    Symbol: lambda x: x.name, String: lambda x: x.s, Char: lambda x: x.c,
}
_WRITE_ATOM = {**_DISPLAY_ATOM, Symbol: lambda x: symbol_literal(x.name),
               String: lambda x: string_literal(x.s), Char: lambda x: char_literal(x.c)}


# -- structure: which nodes get labels ----------------------------------------------------

def _is_node(x: object) -> bool:
    """Values whose parts are printed, so they can be shared or cyclic."""
    cls = x.__class__
    return (cls is list or cls is Vector or cls is Values or cls is ErrorObject
            or isinstance(x, Record))


def _parts(x: object) -> list | tuple:
    cls = x.__class__
    if cls is list:
        return x
    if cls is Vector:
        return x.items
    if cls is Values:
        return x
    if cls is ErrorObject:
        return x.irritants
    return _record_fields(x)


def _record_fields(r: Record) -> list:
    return [getattr(r, f"f{i}", None) for i in range(len(r.rtd.fields))]


def _shared_nodes(root: object, budget: int | None = None) -> frozenset[int]:
    """Ids of the nodes reachable from ``root`` more than once (among the first ``budget``
    nodes met, when given)."""
    if not _is_node(root):
        return frozenset()
    seen: set[int] = set()
    shared: set[int] = set()
    stack = [root]
    while stack:
        if budget is not None and len(seen) > budget:
            break
        x = stack.pop()
        while x.__class__ is list:  # walk a list's spine in place
            if budget is not None and len(seen) > budget:
                break
            i = id(x)
            if i in seen:
                shared.add(i)
                x = NIL
                break
            seen.add(i)
            car = x[0]
            if car.__class__ not in _DISPLAY_ATOM and _is_node(car):
                stack.append(car)
            x = x[1]
        if not _is_node(x):  # the end of the spine, or an atom
            continue
        i = id(x)
        if i in seen:
            shared.add(i)
            continue
        seen.add(i)
        stack.extend(p for p in _parts(x) if _is_node(p))
    return frozenset(shared)


def _labels_for_cycles(root: object, budget: int | None = None) -> frozenset[int]:
    """Ids of the nodes a depth-first walk reaches again while still inside them: labelling
    exactly these breaks every cycle (each cycle has such a back edge). With ``budget``,
    only cycles among the first nodes met are looked for."""
    shared = _shared_nodes(root, budget)
    if not shared:
        return shared
    inside: set[int] = set()
    finished: set[int] = set()
    targets: set[int] = set()
    # Entries are nodes to enter, or the int id of a node to leave (no node is an int).
    stack: list = [root]
    entered = 0
    while stack:
        x = stack.pop()
        if x.__class__ is int:
            inside.discard(x)
            finished.add(x)
            continue
        entered += 1
        if budget is not None and entered > budget:
            break
        i = id(x)
        if i in inside:
            targets.add(i)
            continue
        if i in finished:
            continue
        inside.add(i)
        stack.append(i)
        parts = _parts(x)
        for k in range(len(parts) - 1, -1, -1):  # push in reverse so the first part goes first
            if _is_node(parts[k]):
                stack.append(parts[k])
    return frozenset(targets)


# -- the printing loop ---------------------------------------------------------------------

_DATUM, _TAIL, _TEXT = 0, 1, 2  # print a value / continue a list at this cdr / emit text
_CHUNK = 4096  # join pieces this often so a long text costs its characters, not objects


def _render(root: object, readable: bool, labelled: frozenset[int], limit: int,
            truncate: bool = False) -> str:
    try:
        return _render_text(root, readable, labelled, limit, truncate)
    except _Cut as cut:
        return cut.text


def _render_text(root: object, readable: bool, labelled: frozenset[int], limit: int,
                 truncate: bool) -> str:
    if not _is_node(root):
        text = _short_atom_text(root, limit) if truncate else _atom_text(root, readable)
        if len(text) > limit:
            if truncate:
                return text[:limit] + "..."
            raise _too_long(limit)
        return text
    if truncate:
        atom_text = _short_atoms(limit)
    else:
        atom_text = _WRITE_ATOM if readable else _DISPLAY_ATOM
    numbers: dict[int, int] = {}
    out = _Text(limit, truncate)
    pieces = out.pieces
    stack: list[tuple[int, object]] = [(_DATUM, root)]
    while stack:
        op, x = stack.pop()
        if op == _TAIL:
            # The usual list: print its atoms right here, without the stack.
            while x.__class__ is list and not (labelled and id(x) in labelled):
                write = atom_text.get(x[0].__class__)
                if write is None:
                    break
                pieces.append(" ")
                pieces.append(write(x[0]))
                if len(pieces) >= out.chunk:
                    out.flush()
                x = x[1]
            if x is NIL:
                piece = ")"
            elif x.__class__ is list and not (labelled and id(x) in labelled):
                stack.append((_TAIL, x[1]))
                stack.append((_DATUM, x[0]))
                piece = " "
            else:  # an improper tail, or a labelled pair that must be printed as a datum
                stack.append((_TEXT, ")"))
                stack.append((_DATUM, x))
                piece = " . "
        elif op == _TEXT:
            piece = x
        elif x.__class__ in atom_text:
            piece = atom_text[x.__class__](x)
        elif not _is_node(x):
            piece = _short_atom_text(x, limit) if truncate else _atom_text(x, readable)
        elif labelled and id(x) in numbers:
            piece = f"#{numbers[id(x)]}#"
        else:
            piece = ""
            if labelled and id(x) in labelled:
                numbers[id(x)] = len(numbers)
                piece = f"#{numbers[id(x)]}="
            piece += _open_node(x, stack)
        pieces.append(piece)
        if len(pieces) >= out.chunk:
            out.flush()
    return out.text()


class _Cut(Exception):
    """A truncated rendering reached its limit; ``text`` is what it shows."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class _Text:
    """Printed pieces, joined into chunks as they come, with a cap on the total length
    (past it: an error, or with ``truncate`` the text so far ending in "...")."""

    __slots__ = ("chunk", "chunks", "limit", "pieces", "size", "truncate")

    def __init__(self, limit: int, truncate: bool = False) -> None:
        self.pieces: list[str] = []
        self.chunks: list[str] = []
        self.size = 0
        self.limit = limit
        self.truncate = truncate
        self.chunk = 16 if truncate else _CHUNK  # pieces joined at a time

    def flush(self) -> None:
        pieces = len(self.pieces)
        chunk = "".join(self.pieces)
        self.pieces.clear()
        self.size += len(chunk)
        if self.size > self.limit:
            if self.truncate:
                text = "".join(self.chunks) + chunk
                raise _Cut(text[:self.limit] + "...")
            raise _too_long(self.limit)
        self.chunks.append(chunk)
        if self.truncate:
            return  # (error messages are written after a budget ran out: never charged)
        if limits.flags.stop:  # a long print still obeys the caller's time limit
            limits.interrupt()
        limits.charge(pieces)  # and its step budget and deadline

    def text(self) -> str:
        self.flush()
        return "".join(self.chunks)


def _open_node(x: object, stack: list) -> str:
    """Push the parts of node ``x`` (and its closing text) on ``stack``; return its opener."""
    cls = x.__class__
    if cls is list:
        stack.append((_TAIL, x[1]))
        stack.append((_DATUM, x[0]))
        return "("
    if cls is Vector:
        opener, closer, parts = "#(", ")", x.items
    elif cls is Values:
        opener, closer, parts = "", "", x
    elif cls is ErrorObject:
        opener, closer, parts = "#<error " + string_literal(x.message), ">", x.irritants
    else:
        opener, closer, parts = "#<" + _record_type_name(x.rtd), ">", _record_fields(x)
    stack.append((_TEXT, closer))
    # Vector and values elements are separated by spaces; record and error parts follow
    # their name, so each is preceded by one.
    space_first = cls is not Vector and cls is not Values
    for k in range(len(parts) - 1, -1, -1):
        stack.append((_DATUM, parts[k]))
        if k or space_first:
            stack.append((_TEXT, " "))
    return opener


def _too_long(limit: int) -> SizeLimitExceeded:
    return SizeLimitExceeded(f"printed representation exceeds {limit} characters")


WRITERS.describe = describe_condition
WRITERS.write = write_truncated
