"""Libraries: the built-in ones, ``define-library`` and ``import``.

Built-in libraries combine the procedures registered in primitives/ with the syntax
keywords listed here. Libraries written in Scheme live in ``scheme_lib/`` as
``NAME/PART.sld`` (``(harness tools)`` -> ``scheme_lib/harness/tools.sld``) and are loaded
on first import.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

from harness.scheme.datatypes import NIL, Symbol, list_to_py, split_list
from harness.scheme.deferred import Deferred
from harness.scheme.errors import SourcePos, syntax_error
from harness.scheme.names import global_name, twin_name
from harness.scheme.syntax import base_symbol, is_identifier, strip
from harness.shipped import shipped_dir

SCHEME_LIB = shipped_dir("scheme_lib")

SYNTAX_EXPORTS: dict[tuple, tuple[str, ...]] = {
    ("scheme", "base"): (
        "quote", "lambda", "define", "set!", "if", "begin", "let", "let*", "letrec", "letrec*",
        "do", "and", "or", "when", "unless", "cond", "case", "define-syntax", "let-syntax",
        "letrec-syntax", "syntax-rules", "syntax-error", "quasiquote", "unquote",
        "unquote-splicing", "define-record-type", "let-values", "let*-values",
        "define-values", "parameterize", "guard", "cond-expand", "include", "include-ci",
        "assert",
    ),
    ("scheme", "lazy"): ("delay", "delay-force"),
    ("scheme", "case-lambda"): ("case-lambda",),
}

#: what the sandboxed tier may import
SANDBOX_LIBRARIES = frozenset(tuple(n.split()) for n in (
    "scheme base", "scheme char", "scheme cxr", "scheme lazy", "scheme case-lambda",
    "scheme inexact", "scheme complex", "scheme write", "scheme read", "scheme time",
    "srfi 1", "srfi 2", "srfi 8", "srfi 14", "srfi 69", "srfi 111", "srfi 125", "srfi 128", "srfi 130",
    "srfi 132", "scheme list", "scheme sort", "scheme hash-table", "scheme box",
    "scheme char-set", "scheme charset", "scheme comparator",
    "harness hooks", "harness tools", "harness json", "tein json", "harness docs",
    "harness strings", "harness sort", "harness ports",
    "chibi diff", "harness diff", "harness lines", "harness guards",
    "srfi 141", "scheme division", "srfi 151", "scheme bitwise", "srfi 143", "scheme fixnum",
    "srfi 144", "scheme flonum",
))

#: every standard library (the default environment of `harness run` and the REPL)
STANDARD_LIBRARIES = tuple(tuple(n.split()) for n in (
    "scheme base", "scheme char", "scheme cxr", "scheme lazy", "scheme case-lambda",
    "scheme inexact", "scheme complex", "scheme write", "scheme read", "scheme time",
    "scheme file", "scheme process-context", "scheme eval", "scheme repl", "scheme load",
))

#: imported into every environment of `harness run`, `harness eval`, the REPL and tool files
#: (R7RS programs may still import what they use; re-importing is harmless)
PRELUDE_LIBRARIES = tuple(tuple(n.split()) for n in (
    "scheme base", "scheme char", "scheme cxr", "scheme lazy", "scheme case-lambda",
    "scheme inexact", "scheme complex", "scheme write", "scheme read", "scheme time",
    "srfi 1", "srfi 69", "srfi 130", "srfi 132", "harness strings", "harness sort",
    "harness ports",
))

#: prelude libraries written partly in Scheme, and their native part: a prelude binds the
#: native part at once and the rest when its environment first meets a name it has not
#: bound (``load_pending``), so a start that does not use them does not compile them. They
#: are loaded in this order, until one has the name: (srfi 69) (~2 ms) and (srfi 130) (7 ms
#: with a warm parse cache) before (srfi 1) (21 ms)
LAZY_PRELUDE = {("srfi", "69"): ("srfi", "69", "core"),
                ("srfi", "130"): ("srfi", "130", "core"),
                ("harness", "strings"): ("srfi", "130", "core"),
                ("srfi", "1"): ("srfi", "1", "core"),
                ("srfi", "132"): ("srfi", "132", "core")}

#: built-in libraries some of whose procedures are written in Scheme: name -> (the
#: scheme_lib library that writes them, their names). The built-in library exports each as
#: a Deferred that loads that library when a program first refers to the name, so a start
#: that does not use them neither reads nor compiles it.
SCHEME_WRITTEN: dict[tuple, tuple[tuple, tuple[str, ...]]] = {
    ("scheme", "base"): (("scheme", "base", "walks"), ("vector-for-each", "string-for-each")),
}

UNSANDBOXED_ONLY = {("harness", "io"): "(harness io) needs the unsandboxed tier",
                    ("harness", "vfs"): "(harness vfs) needs the unsandboxed tier",
                    ("scheme", "file"): "(scheme file) needs the unsandboxed tier",
                    ("scheme", "process-context"):
                        "(scheme process-context) needs the unsandboxed tier",
                    ("scheme", "load"): "(scheme load) needs the unsandboxed tier",
                    ("scheme", "eval"): "(scheme eval) needs the unsandboxed tier",
                    ("scheme", "repl"): "(scheme repl) needs the unsandboxed tier",
                    ("scheme", "r5rs"): "(scheme r5rs) needs the unsandboxed tier"}


#: how ``bind_exports`` binds an export (``Library.bindings``)
SYNTAX, DEFERRED, VALUE = "syntax", "deferred", "value"


class Library:
    """A library: its name and its exports (name -> value or syntax; a procedure of a
    scheme_lib library not compiled yet is a ``deferred.Deferred``: see ``value``);
    ``env``: the environment of one written in Scheme (None for a built-in one)."""

    def __init__(self, name: tuple, exports: dict[str, object], env=None) -> None:
        self.name = name
        self.exports = exports
        self.env = env
        self._bindings: list[tuple] | None = None

    def bindings(self) -> list[tuple]:
        """Each export as an environment binds it (``bind_exports``): (name, its symbol,
        its global, its first twin's global, value, kind: SYNTAX, DEFERRED or VALUE).
        Computed once: a library's exports do not change once it is made."""
        if self._bindings is None:
            from harness.scheme.syntax import Rewriter, Special
            from harness.scheme.syntax_rules import Macro
            out = []
            for name, value in self.exports.items():
                py = global_name(name)
                kind = (SYNTAX if isinstance(value, (Special, Macro, Rewriter))
                        else DEFERRED if value.__class__ is Deferred else VALUE)
                out.append((name, Symbol.intern(name), py, twin_name(py), value, kind))
            self._bindings = out
        return self._bindings

    def value(self, name: str) -> object:
        """The value or syntax this library exports as ``name`` (compiled now if it was
        deferred); KeyError when it exports no such name."""
        value = self.exports[name]
        if value.__class__ is Deferred:
            value.force()
            value = value.env.lookup(value.name)
        return value


#: libraries made of others: R7RS-large names (as chibi-scheme ships them) of libraries
#: harness has under their SRFI names. Each is the union of the libraries listed and the
#: procedures registered under its own name.
LARGE_NAMES: dict[tuple, tuple[tuple, ...]] = {
    ("scheme", "list"): (("srfi", "1"),),
    ("scheme", "sort"): (("srfi", "132"),),
    ("scheme", "box"): (("srfi", "111"),),
    ("scheme", "r5rs"): tuple(tuple(n.split()) for n in (
        "scheme base", "scheme char", "scheme complex", "scheme cxr", "scheme eval",
        "scheme file", "scheme inexact", "scheme lazy", "scheme load", "scheme read",
        "scheme repl", "scheme write")),  # plus its two environment procedures
}

_libraries: dict[tuple, Library] = {}
_lock = threading.RLock()
#: held while a library loads or a deferred definition of one is evaluated (deferred.py)
library_lock = _lock
#: other names of a library: the very same library (chibi-scheme's define-library-alias)
_ALIASES = {("tein", "json"): ("harness", "json"), ("harness", "strings"): ("srfi", "130"),
            ("scheme", "char-set"): ("srfi", "14"), ("scheme", "charset"): ("srfi", "14"),
            ("scheme", "comparator"): ("srfi", "128"),
            ("scheme", "hash-table"): ("srfi", "125"),
            ("scheme", "division"): ("srfi", "141"), ("scheme", "bitwise"): ("srfi", "151"),
            ("scheme", "fixnum"): ("srfi", "143"), ("scheme", "flonum"): ("srfi", "144")}


def aliases() -> dict[tuple, tuple]:
    """The other names of libraries: alias -> the library's own name."""
    return dict(_ALIASES)


def library_key(spec: object) -> tuple:
    """(scheme base) -> ('scheme', 'base'); numbers become strings: (srfi 1) -> ('srfi', '1')."""
    parts = list_to_py(spec)
    if not parts or _list_end(spec) is not NIL:
        raise ValueError("bad library name")
    out = []
    for p in parts:
        p = strip(p)
        if isinstance(p, Symbol):
            out.append(p.name)
        elif type(p) is int and p >= 0:
            out.append(str(p))
        else:
            raise ValueError("bad library name")
    return tuple(out)


def _list_end(x):
    return split_list(x)[1]


def _builtin(key: tuple) -> Library | None:
    from harness.scheme import forms
    from harness.scheme.expander import SPECIALS
    from harness.scheme.primitives import load_all
    libs = load_all()
    parts = LARGE_NAMES.get(key)
    if parts is not None:
        exports: dict[str, object] = {}
        for part in parts:
            exports.update(find_library(part).exports)
        exports.update(libs.get(key, {}))
        return Library(key, exports)
    syntax_names = SYNTAX_EXPORTS.get(key, ())
    if key not in libs and not syntax_names:
        return None
    exports: dict[str, object] = dict(libs.get(key, {}))
    for name in syntax_names:
        exports[name] = SPECIALS.get(name) or forms.REWRITERS[name]
    part, names = SCHEME_WRITTEN.get(key, (None, ()))
    for name in names:
        exports[name] = _written_in(part, name)
    return Library(key, exports)


def _written_in(part: tuple, name: str) -> Deferred:
    """The procedure ``name`` of the scheme_lib library ``part``, as a Deferred whose
    evaluation loads that library and binds the value it exports in an environment of its
    own (which Deferred's users read it from)."""
    def load(env, _name, _form, _smap, _scope) -> None:
        env.define(name, find_library(part).value(name))

    return Deferred(LIBRARY_FILES.environment(name=" ".join(part)), name, part, None, None,
                    load, _lock)


def library_path(key: tuple) -> Path | None:
    """``scheme_lib/PART/.../LAST.sld`` when that file exists for a library name (or the
    name it is another name of) whose parts are plain names, else None: a part like
    ``..`` or ``a/b`` must not reach outside scheme_lib/."""
    key = _ALIASES.get(key, key)
    for part in key:
        if not part or part.startswith(".") or any(c in part for c in "/\\\0:"):
            return None
    path = SCHEME_LIB.joinpath(*key[:-1], key[-1] + ".sld")
    if not path.is_file():  # most names (every built-in library): no file, nothing to resolve
        return None
    try:
        path.resolve().relative_to(SCHEME_LIB.resolve())
    except (ValueError, OSError):
        return None
    return path


def library_exists(key: tuple) -> bool:
    """Whether ``key`` names a library harness has, without loading it."""
    from harness.scheme.primitives import load_all
    key = _ALIASES.get(key, key)
    return (key in _libraries or key in SYNTAX_EXPORTS or key in load_all()
            or key in LARGE_NAMES or library_path(key) is not None)


class LibraryFiles:
    """How a scheme_lib ``.sld`` file is run (its define-library forms register
    themselves): the interpreter's load_library_file (``run``), the Environment class
    that holds a deferred export (``environment``), and the names a library file exports
    without loading it when they are known (``exports(key)``: a frozenset, or None),
    which the interpreter puts in ``LIBRARY_FILES`` when it loads (it imports this
    module, so this module does not import it)."""

    __slots__ = ("environment", "exports", "run")


LIBRARY_FILES = LibraryFiles()


def find_library(key: tuple) -> Library | None:
    key = _ALIASES.get(key, key)
    with _lock:
        lib = _libraries.get(key)
        if lib is not None:
            return lib
        path = library_path(key)
        if path is not None:
            LIBRARY_FILES.run(path)
            lib = _libraries.get(key)
            if lib is not None:
                return lib
        lib = _builtin(key)
        if lib is not None:
            _libraries[key] = lib
        return lib


#: library name prefixes that only harness itself may define
RESERVED_PREFIXES = ("scheme", "srfi", "harness", "tein")


def register_library(lib: Library) -> None:
    with _lock:
        _libraries[lib.name] = lib


def loaded_library(key: tuple) -> Library | None:
    """The library ``key`` if it is loaded already (never loads one)."""
    return _libraries.get(key)


def loaded_libraries() -> list[Library]:
    """Every library loaded so far."""
    with _lock:
        return list(_libraries.values())


def builtin_exports(key: tuple) -> dict[str, object]:
    """The exports of a built-in library (used when a .sld file extends one)."""
    lib = _builtin(key)
    return dict(lib.exports) if lib else {}


def resolve_import_set(spec, env, where: SourcePos | None) -> dict[str, object]:
    """Names and bindings an import set (with only/except/prefix/rename) brings in."""
    if spec.__class__ is not list:
        raise syntax_error("import: bad import set", where)
    modified = _modifier(spec)
    if modified is not None:
        kind, args = modified
        inner = resolve_import_set(args[0], env, where)
        rest = [strip(a) for a in args[1:]]
        if kind == "only":
            names = [a.name for a in rest]
            missing = [n for n in names if n not in inner]
            if missing:
                raise syntax_error(f"import: only: {', '.join(missing)} not exported", where)
            return {n: inner[n] for n in names}
        if kind == "except":
            drop = {a.name for a in rest}
            return {n: v for n, v in inner.items() if n not in drop}
        if kind == "prefix":
            return {rest[0].name + n: v for n, v in inner.items()}
        out = dict(inner)
        for pair in rest:
            old, new = list_to_py(pair)
            if old.name not in out:
                raise syntax_error(f"import: rename: {old.name} not exported", where)
            out[new.name] = out.pop(old.name)
        return out
    return _imported_library(spec, env, where).exports


def _modifier(spec: list) -> tuple[str, list] | None:
    """(only/except/prefix/rename, its operands) of an import set that modifies another;
    None for a library name."""
    head = spec[0]
    kind = base_symbol(head).name if is_identifier(head) else None
    if kind not in ("only", "except", "prefix", "rename"):
        return None
    args = list_to_py(spec[1])
    return (kind, args) if args and args[0].__class__ is list else None


def _imported_library(spec, env, where: SourcePos | None) -> Library:
    """The library an import set that is a library name names, as ``env`` imports it."""
    try:
        key = library_key(spec)
    except ValueError:
        raise syntax_error("import: bad library name", where) from None
    key = _ALIASES.get(key, key)
    if not env.may_import(key):
        if key not in env.libraries and not library_exists(key):
            raise syntax_error(f"import: unknown library ({' '.join(key)})", where)
        reason = UNSANDBOXED_ONLY.get(key, f"({' '.join(key)}) is not available in the "
                                           f"{env.tier} tier")
        raise syntax_error(f"import: {reason}", where)
    lib = env.libraries.get(key)
    if lib is None:
        lib = find_library(key)
        if lib is None:
            raise syntax_error(f"import: unknown library ({' '.join(key)})", where)
        if key in OWN_STATE:
            lib = env.libraries[key] = Library(key, {**lib.exports, **_own_state(key)})
    return lib


#: libraries with state a program may change (a registry, parameters): each environment
#: that imports one gets its own instance of the names returned by the function named
#: here, so that one tool file never changes what another sees (the same environment
#: shares its instance with the libraries it defines). Never put one in a prelude.
OWN_STATE = {("srfi", "128"): "harness.scheme.comparator_syntax:srfi128_environment_exports"}


def _own_state(key: tuple) -> dict[str, object]:
    module, function = OWN_STATE[key].split(":")
    return getattr(importlib.import_module(module), function)()


def load_pending(env, name: str | None = None) -> None:
    """Bind in ``env`` the names of its pending prelude libraries (``env.pending``: see
    LAZY_PRELUDE) that it has not bound, defined or made syntax itself: of one library
    after another until ``name`` is bound, of all of them without a name. A library
    known not to export ``name`` (``LIBRARY_FILES.exports``) stays pending, unloaded."""
    skipped: list[tuple] = []
    try:
        while env.pending:
            key, env.pending = env.pending[0], env.pending[1:]
            if name is not None and not _may_export(key, name):
                skipped.append(key)
                continue
            bind_exports(env, find_library(key), only_new=True)
            if name is not None and (env.is_bound(name) or name in env.lazy):
                return
    finally:
        env.pending = (*skipped, *env.pending)


def _may_export(key: tuple, name: str) -> bool:
    names = LIBRARY_FILES.exports(key)
    return names is None or name in names


def import_into(env, spec, where: SourcePos | None = None) -> None:
    if spec.__class__ is list and _modifier(spec) is None:  # a library name: all its exports
        bind_exports(env, _imported_library(spec, env, where))
        return
    from harness.scheme.syntax import Rewriter, Special
    from harness.scheme.syntax_rules import Macro
    for name, value in resolve_import_set(spec, env, where).items():
        s = Symbol.intern(name)
        if isinstance(value, (Special, Macro, Rewriter)):
            env.syntax[s] = value
        else:
            env.syntax.pop(s, None)
            env.define(name, value)


def bind_exports(env, lib: Library, only_new: bool = False) -> None:
    """Bind every export of ``lib`` in ``env`` as ``import_into`` binds the names of an
    import set (syntax as syntax; a variable replaces syntax of its name), or with
    ``only_new`` define those ``env`` has not bound, defined, imported or made syntax itself. One
    loop over ``Library.bindings`` doing what ``Environment.define`` does: an import
    binds hundreds of names, and a call of ``define`` each was most of its time."""
    table, syntax, lazy, declared = env.table, env.syntax, env.lazy, env.declared
    for name, symbol, py, twin, value, kind in lib.bindings():
        if only_new:
            # (a name in lazy was imported, as a procedure of a library not compiled yet)
            if py in table or name in declared or symbol in syntax or name in lazy:
                continue
        elif kind is SYNTAX:
            syntax[symbol] = value
            continue
        elif symbol in syntax:
            del syntax[symbol]
        if kind is DEFERRED:
            if py not in table:
                lazy[name] = value
            else:
                env.define(name, value)  # bound already: compiled now
            continue
        if name in lazy:
            del lazy[name]
        table[py] = value
        if twin in table:
            table[twin] = value
