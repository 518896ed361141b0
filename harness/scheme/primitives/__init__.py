"""Registry of the procedures that make up the standard libraries.

Each module in this package registers its procedures with ``@primitive("scheme base")``
(or any library name written as in an ``import`` spec, without the parentheses). A name
may be registered in several libraries (``(srfi 1)`` re-exports ``map``).

Conventions every primitive follows (see datatypes.py for the value mapping):
* Scheme procedures passed in are plain Python callables: call them as ``f(x)``.
* Signal errors with ``raise wrong_type(who, "a pair", x)`` or ``raise error(msg, *irritants)``
  from harness.scheme.errors; never let a bare Python exception describe a user error.
* Return ``None`` for an unspecified value, ``String`` for strings, ``NIL`` for ().
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

LibraryName = tuple[str, ...]

#: library name -> {scheme name -> value}
LIBRARIES: dict[LibraryName, dict[str, object]] = {}

#: the Scheme name of every registered procedure, for error messages
PROCEDURE_NAMES: dict[object, str] = {}

_MODULES = (
    "numbers", "chars", "strings", "lists", "vectors", "bytevectors", "hashtables",
    "hashtables_srfi125", "sorting", "equivalence", "control", "ports", "system",
    "charsets", "comparators", "division", "bitwise", "fixnums", "flonums",
)
#: what registers the libraries of the layers above this package (the (harness …)
#: libraries: harness.host_libraries.offer_to_scheme); load_all calls each
_LIBRARY_SOURCES: list[Callable[[], object]] = []


def library_name(spec: str) -> LibraryName:
    """'scheme base' -> ('scheme', 'base'); 'srfi 1' -> ('srfi', '1')."""
    return tuple(spec.split())


def define(lib: str, name: str, value: object) -> None:
    LIBRARIES.setdefault(library_name(lib), {})[name] = value
    if callable(value) and value not in PROCEDURE_NAMES:
        PROCEDURE_NAMES[value] = name
        try:
            value.__qualname__ = name  # Python's arity errors then name the Scheme procedure
        except (AttributeError, TypeError):
            pass


def primitive(*libs: str, name: str | None = None) -> Callable:
    """Register the decorated function in each of ``libs`` under ``name``.

    Without ``name`` the Scheme name is derived from the Python one: a trailing ``_p``
    becomes ``?``, a trailing ``_x`` becomes ``!``, ``_to_`` becomes ``->`` and ``_`` ``-``
    (``string_to_list`` -> ``string->list``, ``null_p`` -> ``null?``).
    """

    def register(fn: Callable) -> Callable:
        scheme_name = name or scheme_name_of(fn.__name__)
        for lib in libs:
            define(lib, scheme_name, fn)
        return fn

    return register


def scheme_name_of(py_name: str) -> str:
    n = py_name.rstrip("_") if py_name.endswith("__") else py_name
    suffix = ""
    if n.endswith("_p"):
        n, suffix = n[:-2], "?"
    elif n.endswith("_x"):
        n, suffix = n[:-2], "!"
    return n.replace("_to_", "->").replace("_", "-") + suffix


def add_library_source(register: Callable[[], object]) -> None:
    """Have ``load_all`` call ``register`` too: how a layer above the Scheme package (which
    imports nothing of them) gives Scheme libraries of its own. Adding one twice adds it
    once."""
    if register not in _LIBRARY_SOURCES:
        _LIBRARY_SOURCES.append(register)


def load_all() -> dict[LibraryName, dict[str, object]]:
    """Import every primitive module (each registers itself), call every library source
    (``add_library_source``) and return the registry."""
    for mod in _MODULES:
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{mod}":
                raise
    for register in _LIBRARY_SOURCES:
        register()
    return LIBRARIES
