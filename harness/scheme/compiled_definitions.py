"""The compiled code of scheme_lib definitions, kept across processes in the parse cache.

A scheme_lib procedure definition is expanded and compiled when first referenced
(deferred.py), ~1 ms each; the shipped guards need ~20 of them (SRFI 1's ``any``,
``every``, ``find`` and their helpers, (harness guards)), a third of a guard home's
``Runtime()``. A start whose scheme_lib and harness files have not changed reads that
code back from the parse cache's directory instead (``ParseCache.load_blob``).

An entry is the definition's code object (``marshal``), the constants the code receives
as arguments (compiler.py: the code object itself holds no live object), the names of
the definitions its code refers to, and its compiled unit (sites.py: the core AST, for
continuations resumed inside the code and for the analyses of hooks that call it),
rebuilt only when something asks for it. Constants and unit are pickled with the live
objects they refer to written as names resolved when read: the library's environment
and globals table, another scheme_lib library's, a primitive (its library and name), an
interned symbol or character, NIL, EOF, DEFAULT. Anything else (a macro, a record, an
uninterned symbol) leaves the definition uncached, as does compiling a ``set!`` of a
global (it changes ``Environment.assigned``, which this entry would not replay).

The entries of one library are kept together, in one pack (one file to read per library,
not one per definition: a guard home needs ~20 definitions of 2 libraries), a ``marshal``
dict from the definition's name, the environment's budget check and whether the name is
assigned to its entry. The pack's key hashes what else decides the compiled code: the
Python version; the path, size and modification time of every file of harness/scheme/,
harness/host_libraries/ and scheme_lib/ (as Python checks its own .pyc files: hashing
their contents would cost more than the entries save); the library file's text and name.
A missing, truncated, corrupt or stale pack or entry is a miss: the definition is
compiled and the pack rewritten with it (whole, by rename: concurrent writers never
leave half of one; a pack written meanwhile by another process is merged first). An entry's pickles may
name only plain data classes and the live objects above (never a function to call).
Its code object runs as it is: the cache directory is trusted as the home holding it
is (a home's tools/*.py run in the harness process too). Measured on a home of the
shipped guards: bench/startup.py.
"""

from __future__ import annotations

import io
import marshal
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from types import CodeType

try:  # the C pickler alone: the pickle module costs ~2 ms of a start that reads entries
    from _pickle import Pickler, Unpickler, UnpicklingError
except ImportError:
    from pickle import Pickler, Unpickler, UnpicklingError

try:  # hashlib's own blake2b, without hashlib loading OpenSSL (see parse_cache.py)
    from _blake2 import blake2b
except ImportError:
    from hashlib import blake2b

from harness.scheme import ast_nodes
from harness.scheme.datatypes import (
    DEFAULT,
    EOF,
    NIL,
    Bytevector,
    Char,
    String,
    Symbol,
    Vector,
)
from harness.scheme.deferred import bind_deferred
from harness.scheme.errors import SourcePos
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.libraries import loaded_libraries, loaded_library
from harness.scheme.parse_cache import ParseCache
from harness.scheme.primitives import load_all
from harness.scheme.reader import SourceMap
from harness.scheme.sites import CALL, WRAPPER, CompiledUnit, Site, UnitLoader, register
from harness.scheme.sources_fingerprint import sources_fingerprint

__all__ = ["LibraryDefinitions"]

_MAGIC = b"harness-compiled-definitions 2\n"
_PROTOCOL = 5  # (pickle.HIGHEST_PROTOCOL of Python 3.8 to 3.13)
_SITE_KINDS = {CALL: CALL, WRAPPER: WRAPPER}
_SINGLETONS = {"nil": NIL, "eof": EOF, "default": DEFAULT}
#: classes pickled as they are (everything else is a named live object or uncacheable)
_PLAIN = frozenset({
    list, tuple, dict, set, frozenset, str, int, float, complex, bool, type(None), bytes,
    bytearray, String, Vector, Bytevector, Fraction, ExactComplex, SourcePos,
    *(c for c in vars(ast_nodes).values()
      if isinstance(c, type) and c.__module__ == ast_nodes.__name__),
})


class _Uncacheable(Exception):
    """The definition's code refers to an object no entry can name."""


class LibraryDefinitions:
    """Evaluates the deferred definitions of library ``key`` read from ``smap`` (its whole
    file), through the cache ``current_cache()`` gives when one is forced (the parse
    cache of the load that needs it; None: compiled, not kept). See the module docstring."""

    def __init__(self, key: tuple, smap: SourceMap | None,
                 current_cache: Callable[[], ParseCache | None], eval_form,
                 run_compiled) -> None:
        self._key = key
        self._smap = smap
        self._current_cache = current_cache
        self._eval_form = eval_form
        self._run_compiled = run_compiled
        self._pack_key: str | None = None
        self._pack: dict | None = None
        self._pack_cache: ParseCache | None = None

    def evaluate(self, env, name: str, form: object, smap: SourceMap | None, scope) -> None:
        """Evaluate the definition ``form`` of ``name`` in the library environment ``env``:
        run the code an earlier process compiled for it, or compile it and keep the code."""
        cache = self._current_cache()
        pack_key = None if cache is None else self._key_of_pack()
        if pack_key is None:
            self._eval_form(env, form, smap, scope)
            return
        entry_key = "\0".join((name, env.budget_check, str(name in env.assigned)))
        payload = self._entries(cache, pack_key).get(entry_key)
        if payload is not None and self._run_entry(env, payload):
            return
        assigned = len(env.assigned)

        def keep(unit: CompiledUnit, code: CodeType, constants: list) -> None:
            if len(env.assigned) == assigned:
                blob = _encode(env, unit, code, constants)
                if blob is not None:
                    self._keep(cache, pack_key, entry_key, blob)

        self._eval_form(env, form, smap, scope, keep)

    def _key_of_pack(self) -> str | None:
        if self._smap is None:
            return None
        if self._pack_key is None:
            digest = blake2b(_MAGIC + sources_fingerprint(), digest_size=32)
            for part in (self._smap.name, self._smap.text, " ".join(self._key)):
                digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
            self._pack_key = digest.hexdigest()
        return self._pack_key

    def _entries(self, cache: ParseCache, pack_key: str) -> dict:
        """The pack of this library in ``cache``, read once."""
        if self._pack is None or self._pack_cache is not cache:
            self._pack, self._pack_cache = _read_pack(cache, pack_key), cache
        return self._pack

    def _keep(self, cache: ParseCache, pack_key: str, entry_key: str, blob: bytes) -> None:
        pack = {**_read_pack(cache, pack_key), **self._entries(cache, pack_key),
                entry_key: blob}
        cache.store_blob(pack_key, marshal.dumps(pack))
        self._pack, self._pack_cache = pack, cache

    def _run_entry(self, env, payload: bytes) -> bool:
        """Run the code of an entry; False when the entry cannot be used (a miss)."""
        try:
            code, constants_blob, refs, unit_blob = marshal.loads(payload)
            if code.__class__ is not CodeType:
                return False
            constants = _Unpickler(constants_blob, env, ()).load()
            targets = [(_live_object(env, where), name) for where, name in refs]
        except Exception:  # noqa: BLE001 - whatever a damaged entry does, it is only a miss
            return False
        for target, name in targets:  # what expanding the definition would have bound
            bind_deferred(target, name)
        filename = self._smap.name
        register(code, UnitLoader(lambda: _decode_unit(unit_blob, env, constants, filename)))
        self._run_compiled(env, code, constants)
        return True


def _read_pack(cache: ParseCache, pack_key: str) -> dict:
    """The entries stored under ``pack_key`` by key (empty when there are none or the pack
    is not a dict of entries)."""
    payload = cache.load_blob(pack_key)
    if payload is None:
        return {}
    try:
        pack = marshal.loads(payload)
    except Exception:  # noqa: BLE001 - a damaged pack is only a miss
        return {}
    if pack.__class__ is not dict or not all(
            k.__class__ is str and v.__class__ is bytes for k, v in pack.items()):
        return {}
    return pack


# -- entries ----------------------------------------------------------------------------------
def _encode(env, unit: CompiledUnit, code: CodeType, constants: list) -> bytes | None:
    """The entry of a compiled definition, or None when it cannot be kept."""
    try:
        names = _NamedObjects(env, constants)
        constants_blob = names.dumps(constants, with_constants=False)
        refs = [(names.name_of(where), name) for where, name in _references(unit.root)]
        nodes = {id(n): n for n in _nodes(unit.root)}
        state = (unit.root, [(s.kind, s.node, s.lam) for s in unit.sites],
                 [(nodes[k], t) for k, t in unit.spilled.items()], unit.procedures,
                 [(nodes[k], p) for k, p in unit.inlined.items()])
        unit_blob = names.dumps(state, with_constants=True)
        return marshal.dumps((code, constants_blob, refs, unit_blob))
    except Exception:  # noqa: BLE001 - a definition no entry can hold is compiled each time
        return None


def _decode_unit(blob: bytes, env, constants: list, filename: str) -> CompiledUnit:
    root, sites, spilled, procedures, inlined = _Unpickler(blob, env, constants).load()
    unit = CompiledUnit(root, env, filename, env.budget_check)
    # (a site's kind is compared by identity: the module's own string, not a copy)
    unit.sites = [Site(_SITE_KINDS[kind], node, lam) for kind, node, lam in sites]
    unit.spilled = {id(node): t for node, t in spilled}
    unit.procedures = procedures
    unit.inlined = {id(node): proc for node, proc in inlined}
    return unit


def _nodes(root: object) -> list:
    """Every core AST node and variable reachable from ``root``."""
    out, seen, stack = [], set(), [root]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, (ast_nodes.Node, ast_nodes.Var)):
            out.append(x)
            for slot in _slots(type(x)):
                stack.append(getattr(x, slot, None))
        elif x.__class__ in (list, tuple):
            stack.extend(x)
    return out


@cache
def _slots(cls: type) -> tuple[str, ...]:
    return tuple(s for c in cls.__mro__ for s in getattr(c, "__slots__", ()))


def _references(root: object) -> list[tuple[object, str]]:
    """(environment, name) of every global the core AST refers to or assigns."""
    return [(n.env, n.name) for n in _nodes(root)
            if n.__class__ in (ast_nodes.GlobalRef, ast_nodes.SetGlobal)]


# -- live objects by name -----------------------------------------------------------------------
class _NamedObjects:
    """Names the live objects an entry refers to (see the module docstring)."""

    def __init__(self, env, constants: list) -> None:
        self.env = env
        self.constants = {id(c): i for i, c in enumerate(constants)}
        self.primitives = {id(v): ("primitive", lib, name)
                           for lib, table in load_all().items() for name, v in table.items()
                           if callable(v)}
        self.environments = {}
        for lib in loaded_libraries():
            if lib.env is not None and lib.env is not env:
                self.environments[id(lib.env)] = ("library", lib.name)
                self.environments[id(lib.env.table)] = ("library table", lib.name)

    def name_of(self, obj: object, with_constants: bool = False) -> tuple | None:
        """The name of a live object, None for a plain one; _Uncacheable otherwise."""
        cls = obj.__class__
        if with_constants and id(obj) in self.constants and cls not in (str, int, bool):
            return ("constant", self.constants[id(obj)])
        if obj is self.env:
            return ("environment",)
        if obj is self.env.table:
            return ("table",)
        if cls is Symbol:
            if not obj.is_interned():
                raise _Uncacheable
            return ("symbol", obj.name)
        if cls is Char:
            return ("char", obj.c)
        for name, single in _SINGLETONS.items():
            if obj is single:
                return ("singleton", name)
        named = self.environments.get(id(obj)) or self.primitives.get(id(obj))
        if named is not None:
            return named
        if cls is dict and "__builtins__" in obj:  # the globals of an environment not named
            raise _Uncacheable
        if cls in _PLAIN or (cls is type and obj in _PLAIN):  # (a class: pickled by name)
            return None
        raise _Uncacheable

    def dumps(self, obj: object, with_constants: bool) -> bytes:
        out = io.BytesIO()
        _Pickler(out, lambda x: self.name_of(x, with_constants)).dump(obj)
        return out.getvalue()


class _Pickler(Pickler):
    """A pickler that writes live objects by the name ``name_of`` gives them (a method:
    Python 3.13 no longer lets an instance's ``persistent_id`` be assigned)."""

    def __init__(self, out: io.BytesIO, name_of: Callable[[object], tuple | None]) -> None:
        super().__init__(out, protocol=_PROTOCOL)
        self._name_of = name_of

    def persistent_id(self, obj: object) -> tuple | None:
        return self._name_of(obj)


class _Unpickler(Unpickler):
    def __init__(self, blob: bytes, env, constants: list | tuple) -> None:
        super().__init__(io.BytesIO(blob))
        self.env = env
        self.constants = constants

    def persistent_load(self, pid: tuple) -> object:
        return _live_object(self.env, pid, self.constants)

    def find_class(self, module: str, name: str) -> object:
        cls = super().find_class(module, name)
        if cls not in _PLAIN:  # an entry holds nothing else: never run what one names
            raise UnpicklingError(f"{module}.{name} is not allowed in an entry")
        return cls


def _live_object(env, pid: tuple, constants: list | tuple = ()) -> object:
    kind = pid[0]
    if kind == "environment":
        return env
    if kind == "table":
        return env.table
    if kind == "constant":
        return constants[pid[1]]
    if kind == "symbol":
        return Symbol.intern(pid[1])
    if kind == "char":
        return Char.of(pid[1])
    if kind == "singleton":
        return _SINGLETONS[pid[1]]
    if kind == "primitive":
        return load_all()[pid[1]][pid[2]]
    if kind in ("library", "library table"):
        lib = loaded_library(pid[1])
        if lib is None or lib.env is None:
            raise LookupError(f"library {pid[1]} is not loaded")
        return lib.env if kind == "library" else lib.env.table
    raise ValueError(f"unknown object {pid!r}")
