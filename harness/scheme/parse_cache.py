"""What the reader made of a source text, kept on disk and keyed by a hash of the text.

Reading with lark was the largest part of loading an unchanged tool file, so a start
whose files have not changed reads them back from here instead (and never imports lark).
Only the read is cached: every load still expands, compiles and runs every form, so
what a file does when it loads (``register-hook``, ``define-tool``, output, errors)
happens each time.

An entry is the data and the position of each of their pairs, encoded as nested tuples
of plain values, written with ``marshal`` after a digest of the payload. The key hashes
the text with the sources that decide the reader's output (grammar, reader, number
syntax, data types, this encoding), so changing any of them invalidates every entry.
A missing, truncated, corrupt or foreign entry is a miss: the text is read again and
the entry rewritten. Read errors are never cached. Data with shared structure (datum
labels) or deeper than ``MAX_CACHED_DEPTH`` is read each time. Entries are written to a
temporary file and renamed, so concurrent writers never leave half an entry.

A scheme_lib file is read through ``read_library``: read back from an entry, each
definition in the ``(begin ...)`` of its ``define-library`` forms is left encoded
(``Folded``, with what the interpreter needs to defer it: the name, whether it defines a
procedure) and decoded only when it is compiled: a warm start runs the cached code of
the few it needs (compiled_definitions.py) and decodes none.

The same directory keeps other derived data under the same rules (``load_blob`` and
``store_blob``: a digest-checked payload per key): the compiled code of scheme_lib
definitions (compiled_definitions.py).
"""

from __future__ import annotations

import marshal
import os
import time
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path

try:  # hashlib's own blake2b, without hashlib loading OpenSSL (~2.5 ms of every start)
    from _blake2 import blake2b
except ImportError:  # a Python without that module: the public name
    from hashlib import blake2b

from harness.atomic_file import write_atomically
from harness.scheme.datatypes import NIL, Bytevector, Char, String, Symbol, Vector
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.reader import SourceMap, read_all

__all__ = ["MAX_CACHED_DEPTH", "PRUNE_AFTER", "Folded", "ParseCache"]

#: data nested deeper than this are read each time (the decoder recurses once per level)
MAX_CACHED_DEPTH = 200
#: seconds an entry no start has read is kept (see ``ParseCache.prune``)
PRUNE_AFTER = 24 * 3600.0

_MAGIC = b"harness-read 1\n"
_DIGEST_SIZE = 16
_SUFFIX = ".read"
_BLOB_MAGIC = b"harness-blob 1\n"
_BLOB_SUFFIX = ".blob"
# tags of the encoded compound values (atoms marshal as themselves; a symbol is its name)
_PAIRS, _STRING, _CHAR, _VECTOR, _FRACTION, _EXACT_COMPLEX = range(6)
_HERE = Path(__file__).parent
_READER_SOURCES = ("grammar.lark", "reader.py", "numparse.py", "exact_complex.py", "datatypes.py",
                   "parse_cache.py")


class _Uncacheable(Exception):
    """The data cannot be encoded faithfully (shared structure, too deep, unknown type)."""


class ParseCache:
    """Read results of source texts, stored as one file per distinct text in ``directory``.

    ``hits`` and ``misses`` count the reads this cache answered and the reads it passed to
    the reader; ``used`` holds the keys of every text read so far (see ``prune``).
    """

    def __init__(self, directory: str | os.PathLike) -> None:
        self.directory = Path(directory)
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()

    def read(self, text: str, name: str) -> tuple[list, SourceMap]:
        """Like ``reader.read_all(text, name)``: the data of ``text`` and their positions."""
        return self._read(text, name, False)

    def read_library(self, text: str, name: str) -> tuple[list, SourceMap]:
        """Like ``read``, for a scheme_lib file: read back from the cache, the definitions
        in the ``(begin ...)`` of its ``define-library`` forms are ``Folded`` (decoded when
        evaluated: most are never needed, or run from compiled code kept in the cache)."""
        return self._read(text, name, True)

    def _read(self, text: str, name: str, fold: bool) -> tuple[list, SourceMap]:
        fingerprint = _reader_fingerprint()
        if fingerprint is None:
            return read_all(text, name)
        key = blake2b(fingerprint + text.encode("utf-8", "surrogatepass"),
                      digest_size=32).hexdigest()
        self.used.add(key)
        path = self.directory / (key + _SUFFIX)
        cached = _load(path, text, name, fold)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        forms, smap = read_all(text, name)  # a ReadError leaves here: errors are not cached
        blob = _encode_entry(forms, smap)
        if blob is not None:
            try:
                write_atomically(path, blob)
            except OSError:
                pass  # a read-only or full disk only costs the next start a read
        return forms, smap

    def load_blob(self, key: str) -> bytes | None:
        """The payload stored under ``key`` (a hex digest), or None when there is none or
        it is truncated, corrupt or foreign (a damaged entry is never trusted)."""
        self.used.add(key)
        try:  # (os.path, not pathlib: a start reads ~20 of these)
            with open(os.path.join(self.directory, key + _BLOB_SUFFIX), "rb") as f:
                blob = f.read()
        except OSError:
            return None
        header = len(_BLOB_MAGIC) + _DIGEST_SIZE
        if not blob.startswith(_BLOB_MAGIC):
            return None
        payload = blob[header:]
        if blake2b(payload, digest_size=_DIGEST_SIZE).digest() != blob[len(_BLOB_MAGIC):header]:
            return None
        return payload

    def store_blob(self, key: str, payload: bytes) -> None:
        """Keep ``payload`` under ``key`` (written whole or not at all; a disk that refuses
        only costs the next start the work again)."""
        self.used.add(key)
        blob = _BLOB_MAGIC + blake2b(payload, digest_size=_DIGEST_SIZE).digest() + payload
        try:
            write_atomically(self.directory / (key + _BLOB_SUFFIX), blob)
        except OSError:
            pass

    def prune(self, min_age: float = PRUNE_AFTER) -> None:
        """Delete the entries this cache did not read that are older than ``min_age`` seconds
        (older versions of files; the age spares what another runtime of the process read,
        such as a library only the first runtime loads)."""
        try:
            names = os.listdir(self.directory)
        except OSError:
            return
        too_old = time.time() - min_age
        for name in names:
            stem, dot, suffix = name.rpartition(".")
            if "." + suffix not in (_SUFFIX, _BLOB_SUFFIX) or not dot or stem in self.used:
                continue
            path = self.directory / name
            try:
                if path.stat().st_mtime < too_old:
                    path.unlink()
            except OSError:
                pass  # another process removed or replaced it first


@cache
def _reader_fingerprint() -> bytes | None:
    """A digest of the sources that decide what the reader returns (None when they cannot
    be read, as in a bytecode-only install: then nothing is cached)."""
    digest = blake2b(_MAGIC)
    try:
        for name in _READER_SOURCES:
            digest.update((_HERE / name).read_bytes())
    except OSError:
        return None
    return digest.digest()


# -- entries ----------------------------------------------------------------------------------
def _load(path: Path, text: str, name: str, fold: bool) -> tuple[list, SourceMap] | None:
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    header = len(_MAGIC) + _DIGEST_SIZE
    if not blob.startswith(_MAGIC):
        return None
    payload = blob[header:]
    if blake2b(payload, digest_size=_DIGEST_SIZE).digest() != blob[len(_MAGIC):header]:
        return None
    smap = SourceMap(name, text)
    try:
        positions = smap.entries
        symbols = _Symbols()
        top = _decode_library if fold else _decode
        forms = [top(x, positions, symbols) for x in marshal.loads(payload)]
    except Exception:  # noqa: BLE001 - whatever a damaged entry does, it is only a miss
        return None
    return forms, smap


def _encode_entry(forms: list, smap: SourceMap) -> bytes | None:
    try:
        payload = marshal.dumps(tuple(_encode(f, smap, 0, set()) for f in forms))
    except (_Uncacheable, ValueError):  # ValueError: marshal's own nesting limit
        return None
    return _MAGIC + blake2b(payload, digest_size=_DIGEST_SIZE).digest() + payload


# -- encoding -----------------------------------------------------------------------------------
def _encode(x: object, smap: SourceMap, depth: int, seen: set[int]) -> object:
    cls = x.__class__
    if cls is Symbol:
        return x.name
    if cls is bool or cls is int or cls is float or cls is complex:
        return x
    if x is NIL:
        return None
    if depth >= MAX_CACHED_DEPTH:
        raise _Uncacheable
    if cls is list:
        items: list = []
        where: list[int] = []
        while x.__class__ is list:
            _visit(x, seen)
            pos = smap.pos_of(x)
            where += (pos.line, pos.col) if pos is not None else (-1, -1)
            items.append(_encode(x[0], smap, depth + 1, seen))
            x = x[1]
        tail = None if x is NIL else _encode(x, smap, depth + 1, seen)
        return (_PAIRS, tuple(items), tuple(where), tail)
    if cls is String:
        return (_STRING, x.s)
    if cls is Char:
        return (_CHAR, x.c)
    if cls is Vector:
        _visit(x, seen)
        return (_VECTOR, tuple(_encode(v, smap, depth + 1, seen) for v in x.items))
    if cls is Bytevector:
        return bytes(x.b)
    if cls is Fraction:
        return (_FRACTION, x.numerator, x.denominator)
    if cls is ExactComplex:
        return (_EXACT_COMPLEX, _encode(x.real, smap, depth, seen),
                _encode(x.imag, smap, depth, seen))
    raise _Uncacheable  # a kind of datum this encoding does not know: read it each time


def _visit(x: object, seen: set[int]) -> None:
    if id(x) in seen:
        raise _Uncacheable  # shared or cyclic structure (datum labels)
    seen.add(id(x))


class _Symbols(dict):
    """The symbols of one entry by name: a name met again (most are) costs a dict lookup,
    not an interning (~10% of reading srfi/1.sld back)."""

    def __missing__(self, name: str) -> Symbol:
        value = self[name] = _intern(name)
        return value


def _decode(x: object, positions: dict, symbols: _Symbols) -> object:
    cls = x.__class__
    if cls is str:
        return symbols[x]
    if cls is tuple:
        tag = x[0]
        if tag == _PAIRS:
            return _decode_pairs(x, positions, symbols)
        if tag == _STRING:
            return String(x[1])
        if tag == _CHAR:
            return Char.of(x[1])
        if tag == _VECTOR:
            return Vector([_decode(v, positions, symbols) for v in x[1]])
        if tag == _FRACTION:
            return Fraction(x[1], x[2])
        if tag == _EXACT_COMPLEX:
            return ExactComplex(_decode(x[1], positions, symbols),
                                _decode(x[2], positions, symbols))
        raise ValueError(f"unknown tag {tag!r}")
    if x is None:
        return NIL
    if cls is bytes:
        return Bytevector(bytearray(x))
    if cls is bool or cls is int or cls is float or cls is complex:
        return x
    raise ValueError(f"unexpected {cls.__name__} in a cache entry")


def _decode_pairs(x: tuple, positions: dict, symbols: _Symbols) -> list:
    _, items, where, tail = x
    result = NIL if tail is None else _decode(tail, positions, symbols)
    for i in range(len(items) - 1, -1, -1):
        item = items[i]
        # symbols are most of the atoms: decoded here, not by a call
        value = symbols[item] if item.__class__ is str else _decode(item, positions, symbols)
        result = [value, result]
        line = where[2 * i]
        if line >= 0:
            positions[id(result)] = (result, line, where[2 * i + 1])
    return result


_intern = Symbol.intern


# -- library files: definitions folded ------------------------------------------------------------
class Folded:
    """A ``(define ...)`` of a library body, read back from the cache and not decoded yet.
    ``name`` is the name it defines; ``procedure`` whether it is ``(define (name ...) ...)``;
    for ``(define name E)``, ``value`` is True when E is a name, the symbol at its head
    when E is a list starting with one, else None. ``unfold()`` is the datum (decoded once,
    with its positions), which the interpreter evaluates."""

    __slots__ = ("_datum", "_encoded", "_positions", "_symbols", "name", "procedure", "value")

    def __init__(self, encoded: tuple, positions: dict, symbols: _Symbols, name: str,
                 procedure: bool, value: object) -> None:
        self._encoded = encoded
        self._positions = positions
        self._symbols = symbols
        self._datum = None
        self.name = name
        self.procedure = procedure
        self.value = value

    def unfold(self) -> list:
        if self._datum is None:
            self._datum = _decode(self._encoded, self._positions, self._symbols)
            self._encoded = self._positions = self._symbols = None
        return self._datum


def _head(x: object) -> str | None:
    """The name at the head of an encoded list, if it starts with a symbol."""
    if x.__class__ is tuple and x[0] == _PAIRS and x[1] and x[1][0].__class__ is str:
        return x[1][0]
    return None


def _decode_library(x: object, positions: dict, symbols: _Symbols) -> object:
    """A top-level form of a library file, with the definitions of a ``define-library``'s
    ``(begin ...)`` declarations folded."""
    if _head(x) != "define-library":
        return _decode(x, positions, symbols)

    def declaration(d: object) -> object:
        if _head(d) != "begin":
            return _decode(d, positions, symbols)
        return _decode_spine(d, positions, symbols, lambda f: _fold(f, positions, symbols))

    return _decode_spine(x, positions, symbols, declaration)


def _decode_spine(x: tuple, positions: dict, symbols: _Symbols,
                  item: Callable[[object], object]) -> list:
    """An encoded list whose elements ``item`` decodes."""
    _, items, where, tail = x
    result = NIL if tail is None else _decode(tail, positions, symbols)
    for i in range(len(items) - 1, -1, -1):
        result = [item(items[i]), result]
        if where[2 * i] >= 0:
            positions[id(result)] = (result, where[2 * i], where[2 * i + 1])
    return result


def _fold(x: object, positions: dict, symbols: _Symbols) -> object:
    if _head(x) != "define" or x[3] is not None or len(x[1]) < 3:
        return _decode(x, positions, symbols)
    items = x[1]
    target = items[1]
    if target.__class__ is str:
        value = None
        if len(items) == 3:
            value = True if items[2].__class__ is str else _head(items[2])
            value = symbols[value] if value.__class__ is str else value
        return Folded(x, positions, symbols, target, False, value)
    name = _head(target)
    if name is None:
        return _decode(x, positions, symbols)
    return Folded(x, positions, symbols, name, True, None)
