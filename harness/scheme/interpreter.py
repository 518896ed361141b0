"""Running Scheme: read -> expand -> compile -> execute, one top-level form at a time.

``Interpreter`` is the embedding API: an environment of a tier plus ``eval_string`` and
``load_file``. Errors leave as ``SchemeError`` (or ``ResourceLimitExceeded``) with a
source position; ``format_error`` renders ``FILE:LINE:COL: message`` with a caret.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import CodeType

import harness.scheme.forms
from harness.scheme.ast_nodes import Const
from harness.scheme.compiled_definitions import LibraryDefinitions
from harness.scheme.compiler import Compiler
from harness.scheme.continuations import prompt
from harness.scheme.datatypes import NIL, String, Symbol, list_to_py, py_to_list
from harness.scheme.deferred import Deferred
from harness.scheme.environment import FEATURES, Environment
from harness.scheme.errors import (
    DepthLimitExceeded,
    ErrorObject,
    ReadError,
    ResourceLimitExceeded,
    SchemeError,
    caret_excerpt,
    syntax_error,
    wrong_type,
)
from harness.scheme.expander import MAX_CURRIED, SPECIALS, Expander, special
from harness.scheme.libraries import (
    LAZY_PRELUDE,
    LIBRARY_FILES,
    PRELUDE_LIBRARIES,
    RESERVED_PREFIXES,
    SANDBOX_LIBRARIES,
    STANDARD_LIBRARIES,
    Library,
    find_library,
    import_into,
    library_key,
    library_lock,
    register_library,
)
from harness.scheme.library_exports import library_exports
from harness.scheme.limits import MAX_C_NESTING, deep_recursion
from harness.scheme.parse_cache import Folded, ParseCache
from harness.scheme.primitives import primitive
from harness.scheme.reader import SourceMap, read_all
from harness.scheme.run_support import NATIVE_ERRORS
from harness.scheme.sites import CompiledUnit
from harness.scheme.source_text import BYTE_ORDER_MARK, decode_source
from harness.scheme.syntax import Rewriter, Scope, Special, base_symbol, is_identifier, resolve
from harness.scheme.syntax_rules import Macro
from harness.scheme.translate import SOURCES, condition_from_native, locate, register_source

S_DEFINE = Symbol.intern("define")
S_BEGIN = Symbol.intern("begin")


def _spec(key: tuple) -> object:
    result = NIL
    for part in reversed(key):
        result = [int(part) if part.isdigit() else Symbol.intern(part), result]
    return result


def make_environment(tier: str = "unsandboxed", budget_check: str | None = None,
                     imports=STANDARD_LIBRARIES, name: str = "user") -> Environment:
    """A fresh environment of ``tier`` with the libraries ``imports`` imported."""
    sandboxed = tier == "sandboxed"
    if budget_check is None:
        budget_check = "steps" if sandboxed else "flag"
    env = Environment(name=name, budget_check=budget_check,
                      allowed_libraries=SANDBOX_LIBRARIES if sandboxed else None,
                      allow_include=not sandboxed, tier=tier)
    env.syntax[Symbol.intern("import")] = SPECIALS["import"]
    env.syntax[Symbol.intern("define-library")] = SPECIALS["define-library"]
    values, syntax, lazy = _prelude(tuple(imports), tier, env)
    env.table.update(values)
    env.syntax.update(syntax)
    env.lazy.update(lazy)
    env.pending = tuple(key for key in LAZY_PRELUDE  # (in its order: see there)
                        if key in imports and env.may_import(key))
    return env


# (imports, tier) -> the bindings those imports give: every tool file of a home starts from
# the same prelude, and importing ~20 libraries name by name was most of a file's load time.
_preludes: dict[tuple, tuple[dict, dict]] = {}


def _prelude(imports: tuple, tier: str,
             template: Environment) -> tuple[dict, dict, dict]:
    cached = _preludes.get((imports, tier))
    if cached is None:
        scratch = Environment(name="prelude", budget_check=template.budget_check,
                              allowed_libraries=template.allowed_libraries,
                              allow_include=template.allow_include, tier=tier)
        for key in imports:
            if key in LAZY_PRELUDE and scratch.may_import(key):
                for name, value in find_library(LAZY_PRELUDE[key]).exports.items():
                    scratch.define(name, value)  # the rest when needed: load_pending
            elif scratch.may_import(key):
                import_into(scratch, _spec(key))
        values = {k: v for k, v in scratch.table.items() if k.startswith("s_")}
        cached = _preludes[(imports, tier)] = (values, dict(scratch.syntax), dict(scratch.lazy))
    return cached


def prescan(env: Environment, forms: list) -> None:
    """Declare every name the forms define at top level, so none is inlined as a primitive."""
    stack = list(forms)
    while stack:
        f = stack.pop()
        if f.__class__ is Folded:
            env.declare(f.name)
            continue
        if f.__class__ is not list or not is_identifier(f[0]):
            continue
        head = base_symbol(f[0])
        if head is S_BEGIN:
            stack.extend(list_to_py(f[1]))
        elif head is S_DEFINE and f[1].__class__ is list:
            target = f[1][0]
            for _ in range(MAX_CURRIED):  # a datum label can make the nesting endless
                if target.__class__ is not list:
                    break
                target = target[0]
            if is_identifier(target):
                env.declare(base_symbol(target).name)


_nesting = threading.local()


#: what ``eval_form`` may be given to see a form's compiled code before it runs: called
#: with the compiled unit (sites.py), the code object and its constants
CompiledHook = Callable[[CompiledUnit, CodeType, list], None]


def eval_form(env: Environment, form: object, smap: SourceMap | None,
              scope: Scope | None = None, compiled: CompiledHook | None = None) -> object:
    """Expand, compile and run one top-level form (with the recursion window open: see
    limits.py). A form evaluated inside another (``eval``, ``load``, an import) starts its
    code through C calls: that nesting is bounded like any other C-level recursion."""
    if form.__class__ is Folded:  # (a definition of a library file: parse_cache.py)
        form = form.unfold()
    with _nested():
        return _eval_form(env, form, smap, scope, compiled)


def run_compiled(env: Environment, code: CodeType, constants: list) -> object:
    """Run the code object of a top-level form compiled earlier (as ``eval_form`` runs the
    code it compiles)."""
    with _nested():
        return _run_code(env, code, constants)


@contextmanager
def _nested() -> Iterator[None]:
    depth = getattr(_nesting, "depth", 0)
    if depth >= MAX_C_NESTING:
        raise DepthLimitExceeded(f"recursion too deep: eval, load or import nested more "
                                 f"than {MAX_C_NESTING} deep")
    _nesting.depth = depth + 1
    try:
        with deep_recursion:
            yield
    finally:
        _nesting.depth = depth


def _eval_form(env: Environment, form: object, smap: SourceMap | None,
               scope: Scope | None, compiled: CompiledHook | None) -> object:
    exp = Expander(env, smap)
    try:
        node = exp.expand_toplevel(form, scope or Scope(None, env))
    except (SchemeError, ResourceLimitExceeded) as exc:
        if error_position(exc) is None and smap is not None:
            # an error of a data walk or a limit: the position of the form being expanded
            exc.where = smap.pos_of(form)
        raise
    if node.__class__ is Const:  # (define-syntax, import, a literal): nothing to compile
        return node.value
    filename = smap.name if smap is not None else "<eval>"
    compiler = Compiler(env, filename, env.budget_check)
    code, constants = compiler.compile(node)
    if compiled is not None:
        compiled(compiler.unit, code, constants)
    return _run_code(env, code, constants)


def _run_code(env: Environment, code: CodeType, constants: list) -> object:
    namespace: dict = {}
    exec(code, env.table, namespace)  # noqa: S102 - code the compiler generated
    try:
        return prompt(namespace["h_make"](*constants))
    except NATIVE_ERRORS as exc:
        # A Python-level failure of compiled code (an inlined primitive's TypeError, an
        # unbound variable's NameError): embedders only ever see Scheme conditions.
        condition = condition_from_native(exc)
        raise SchemeError(condition, where=condition.where) from None


#: what turns a source text and its name into data and their positions (``read_all``, or a
#: cache of its results: see parse_cache.py)
Reader = Callable[[str, str], tuple[list, SourceMap]]


def run_source(env: Environment, text: str, name: str = "<string>",
               read: Reader = read_all) -> object:
    """Evaluate every form of ``text`` in ``env`` (read with ``read``); return the last
    value. A leading byte order mark is skipped."""
    text = text.removeprefix(BYTE_ORDER_MARK)
    register_source(name, text)
    forms, smap = read(text, name)
    prescan(env, forms)
    result = None
    for form in forms:
        result = eval_form(env, form, smap)
    return result


def run_file(env: Environment, path: str | Path, read: Reader = read_all) -> object:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SchemeError(ErrorObject(f"cannot read {path}: {e.strerror}", (), "file")) from None
    return run_source(env, decode_source(data, str(path)), str(path), read)


def eval_datum(env: Environment, datum: object) -> object:
    return eval_form(env, datum, None)


_interaction: Environment | None = None


def interaction_environment() -> Environment:
    global _interaction
    if _interaction is None:
        _interaction = make_environment("unsandboxed", name="interaction")
    return _interaction


# The parse cache through which library files that imports load are read and their
# definitions compiled when first referenced (tool loading sets it: the first tool file
# of a start imports (harness tools) from a .sld file).
_library_cache: ContextVar[ParseCache | None] = ContextVar("library_cache", default=None)


@contextmanager
def libraries_cached_in(cache: ParseCache | None) -> Iterator[None]:
    """Within this block, scheme_lib files that imports load are read through ``cache``
    and their definitions compiled through it (compiled_definitions.py)."""
    token = _library_cache.set(cache)
    try:
        yield
    finally:
        _library_cache.reset(token)


def load_library_file(path: Path) -> None:
    """Evaluate a scheme_lib .sld file (its define-library forms register themselves).
    Library code counts steps whoever calls it: a sandboxed file's step budget must cover
    a loop it runs inside a library procedure (where no step budget is set, counting only
    checks the deadline)."""
    env = make_environment("unsandboxed", budget_check="steps", imports=(), name=str(path))
    env.trusted = True
    cache = _library_cache.get()
    run_file(env, path, read=read_all if cache is None else cache.read_library)


LIBRARY_FILES.run = load_library_file
LIBRARY_FILES.exports = lambda key: library_exports(_library_cache.get(), key)
LIBRARY_FILES.environment = Environment


# -- eval, environment, load: the interpreter as Scheme code calls it ----------------------------
# (registered here, not with the primitives: they sit below the interpreter)
@primitive("scheme base")
def features():
    return py_to_list([Symbol.intern(f) for f in FEATURES])


@primitive("scheme eval", name="environment")
def environment_of(*specs):
    env = make_environment("unsandboxed", imports=())
    for spec in specs:
        import_into(env, spec)
    return env


@primitive("scheme eval", name="eval")
def eval_(expr, env=None):
    if env is None:
        env = interaction_environment()
    if not isinstance(env, Environment):
        raise wrong_type("eval", "an environment", env)
    return eval_datum(env, expr)


@primitive("scheme repl", name="interaction-environment")
def interaction_environment_of():
    return interaction_environment()


@primitive("scheme load")
def load(filename, env=None):
    if not isinstance(filename, String):
        raise wrong_type("load", "a string", filename)
    run_file(env or interaction_environment(), filename.s)


R5RS = "scheme r5rs"

#: the libraries of each report version: R5RS's bindings, or R7RS-small's (R7RS 6.12 lets
#: an implementation support versions besides 5; chibi-scheme accepts 7 too)
REPORT_LIBRARIES = {
    5: (("scheme", "r5rs"),),
    7: tuple(("scheme", name) for name in (
        "base", "case-lambda", "char", "complex", "cxr", "eval", "file", "inexact", "lazy",
        "load", "process-context", "read", "repl", "time", "write")),
}


def _report_libraries(who: str, version: object) -> tuple:
    if type(version) is not int or version not in REPORT_LIBRARIES:
        raise wrong_type(who, "the version 5 or 7", version)
    return REPORT_LIBRARIES[version]


def _import_set(key: tuple) -> object:
    return py_to_list([Symbol.intern(part) for part in key])


@primitive(R5RS)
def scheme_report_environment(version):
    """(scheme-report-environment 5): a fresh environment of R5RS's bindings; with 7, of
    R7RS-small's."""
    return environment_of(*map(_import_set,
                               _report_libraries("scheme-report-environment", version)))


@primitive(R5RS)
def null_environment(version):
    """(null-environment 5): a fresh environment with only the syntax keywords (of R5RS,
    or with 7 of R7RS-small)."""
    keys = _report_libraries("null-environment", version)
    env = make_environment("unsandboxed", imports=())
    for key in keys:
        for name, value in find_library(key).exports.items():
            if isinstance(value, (Special, Macro, Rewriter)):
                env.syntax[Symbol.intern(name)] = value
    return env


# -- import and define-library -------------------------------------------------------------------
@special("import")
def _import(exp: Expander, x, scope, where):
    if scope.parent is not None:
        raise syntax_error("import: only allowed at top level", where)
    for spec in list_to_py(x[1]):
        import_into(exp.env, spec, exp.pos(spec, where))
    return Const(None, where)


@special("define-library")
def _define_library(exp: Expander, x, scope, where):
    parts = list_to_py(x[1])
    if not parts:
        raise syntax_error("define-library: expected a library name", where)
    try:
        key = library_key(parts[0])
    except ValueError:
        raise syntax_error("define-library: bad library name", where) from None
    parent = exp.env
    if not parent.trusted and key[0] in RESERVED_PREFIXES:
        raise syntax_error(f"define-library: ({' '.join(key)}): names starting with "
                           f"{key[0]} are reserved for harness's own libraries", where)
    env = Environment(name=" ".join(key), budget_check=parent.budget_check,
                      allowed_libraries=parent.allowed_libraries,
                      allow_include=parent.allow_include, tier=parent.tier)
    env.libraries = parent.libraries  # a library may import the file's other libraries
    env.syntax[Symbol.intern("import")] = SPECIALS["import"]
    exports: list[tuple[str, str]] = []
    lib_scope = Scope(None, env)
    definitions: LibraryDefinitions | None = None
    decls = parts[1:]
    while decls:
        decl = decls.pop(0)
        if decl.__class__ is not list or not is_identifier(decl[0]):
            raise syntax_error("define-library: bad declaration", where)
        kind = base_symbol(decl[0]).name
        body = list_to_py(decl[1])
        if kind == "export":
            for spec in body:
                if spec.__class__ is list:
                    old, new = list_to_py(spec)[1:3]
                    exports.append((base_symbol(old).name, base_symbol(new).name))
                else:
                    exports.append((base_symbol(spec).name, base_symbol(spec).name))
        elif kind == "import":
            for spec in body:
                import_into(env, spec, exp.pos(spec, where))
        elif kind in ("begin", "include", "include-ci", "include-library-declarations",
                      "cond-expand"):
            if kind == "begin":
                forms = body
            else:
                rewritten = harness.scheme.forms.REWRITERS.get(kind)
                if rewritten is None:
                    raise syntax_error(f"define-library: {kind} is not supported", where)
                inner = Expander(env, exp.smap)
                new = rewritten.rewrite(inner, decl, lib_scope, where)
                if kind == "cond-expand":
                    decls[0:0] = list_to_py(new[1]) if new.__class__ is list else []
                    continue
                forms = list_to_py(new[1])
            prescan(env, forms)
            deferrable = _deferrable(env, forms, lib_scope) if parent.trusted else {}
            if deferrable and definitions is None:
                definitions = LibraryDefinitions(key, exp.smap, _library_cache.get,
                                                 eval_form, run_compiled)
            for form in forms:
                name = deferrable.get(id(form))
                if name is not None:
                    env.lazy[name] = Deferred(env, name, form, exp.smap, lib_scope,
                                              definitions.evaluate, library_lock)
                else:
                    eval_form(env, form, exp.smap, lib_scope)
        else:
            raise syntax_error(f"define-library: unknown declaration {kind}", where)
    values: dict[str, object] = {}
    for internal, external in exports:
        sym = Symbol.intern(internal)
        if sym in env.syntax:
            values[external] = env.syntax[sym]
        elif env.is_bound(internal):
            values[external] = env.lookup(internal)
        elif internal in env.lazy:
            values[external] = env.lazy[internal]  # compiled when a program refers to it
        else:
            raise syntax_error(f"define-library: exported name {internal} is not defined", where)
    library = Library(key, values, env)
    if parent.trusted:
        register_library(library)
    else:
        parent.libraries[key] = library
    return Const(None, where)


def _deferrable(env: Environment, forms: list, scope: Scope) -> dict[int, str]:
    """The forms of a library body that may be evaluated when their name is first
    referenced (see deferred.py), by id, with that name: ``(define (name . formals) ...)``
    or ``(define name expression)`` where the expression is a name, a ``lambda`` or a
    ``case-lambda``, with the standard ``define``, of a name no other ``define`` of the
    body defines (a library defining a name twice is in error anyway) that the library
    has not bound."""
    define = SPECIALS["define"]
    found: dict[int, str] = {}
    defined: dict[str, int] = {}
    for form in forms:
        if form.__class__ is Folded:  # (a ``define`` already: parse_cache.py)
            name = form.name
            no_effect = form.procedure or form.value is True or (
                form.value is not None and resolve(form.value, scope) in _PROCEDURE_MAKERS)
        else:
            if (form.__class__ is not list or form[0] is not S_DEFINE
                    or form[1].__class__ is not list):
                continue
            target = form[1][0]
            ident = target[0] if target.__class__ is list else target
            if ident.__class__ is not Symbol:
                continue
            name = ident.name
            no_effect = target.__class__ is list or _has_no_effect(form[1][1], scope)
        defined[name] = defined.get(name, 0) + 1
        if no_effect and resolve(S_DEFINE, scope) is define:
            found[id(form)] = name
    return {key: name for key, name in found.items()
            if defined[name] == 1 and not env.is_bound(name)
            and Symbol.intern(name) not in env.syntax}


def _has_no_effect(rest: object, scope: Scope) -> bool:
    """Whether ``rest`` (what follows a definition's target) is one expression whose
    evaluation has no effect: a name, a ``lambda`` or a ``case-lambda``."""
    if rest.__class__ is not list or rest[1] is not NIL:
        return False
    value = rest[0]
    if value.__class__ is Symbol:
        return True
    return (value.__class__ is list and value[0].__class__ is Symbol
            and resolve(value[0], scope) in _PROCEDURE_MAKERS)


_PROCEDURE_MAKERS = (SPECIALS["lambda"], SPECIALS["case-lambda"])


# -- errors ---------------------------------------------------------------------------------------
def error_position(exc: BaseException):
    where = getattr(exc, "where", None)
    if where is None and isinstance(exc, SchemeError):
        payload = exc.payload
        if isinstance(payload, ErrorObject) and payload.where is not None:
            where = payload.where
    if where is None:
        where = locate(exc)
    return where


def error_message(exc: BaseException) -> str:
    if isinstance(exc, (SchemeError, ResourceLimitExceeded)):
        return exc.message
    if isinstance(exc, RecursionError):
        return "recursion too deep"
    if isinstance(exc, MemoryError):
        return "out of memory"
    return condition_from_native(exc).message


def format_error(exc: BaseException) -> str:
    """``FILE:LINE:COL: message`` followed by the source line and a caret."""
    where = error_position(exc)
    message = error_message(exc)
    if where is None:
        return f"error: {message}"
    excerpt = caret_excerpt(SOURCES.get(where.file), where)
    return f"{where}: {message}" + (f"\n{excerpt}" if excerpt else "")


class Interpreter:
    """An embeddable Scheme: one environment of one tier."""

    def __init__(self, tier: str = "unsandboxed", budget_check: str | None = None,
                 imports=PRELUDE_LIBRARIES + STANDARD_LIBRARIES) -> None:
        self.env = make_environment(tier, budget_check, imports)
        self._counter = 0

    def eval_string(self, text: str, name: str | None = None) -> object:
        if name is None:
            self._counter += 1
            name = f"<string-{self._counter}>"
        return run_source(self.env, text, name)

    def load_file(self, path: str | Path) -> object:
        return run_file(self.env, path)


__all__ = [
    "Interpreter",
    "ReadError",
    "eval_form",
    "format_error",
    "make_environment",
    "run_file",
    "run_source",
]
