"""Top-level environments: the variables and syntax a program sees.

An environment's ``table`` is the globals dict of its compiled code (Scheme names are
stored under ``s_…`` names, runtime helpers under ``h_…``; ``__builtins__`` is empty so no
Python builtin is reachable). ``syntax`` maps symbols to macros and special forms.
"""

from __future__ import annotations

from types import FunctionType

from harness.scheme import limits, linear_recursion, run_support
from harness.scheme.datatypes import (
    NIL,
    Bytevector,
    Char,
    String,
    Symbol,
    Vector,
    py_to_list,
)
from harness.scheme.deferred import Deferred
from harness.scheme.inline import build_effect_table, build_inline_table
from harness.scheme.libraries import find_library, library_key, load_pending
from harness.scheme.names import global_name, scheme_name, twin_name
from harness.scheme.primitives import LIBRARIES
from harness.scheme.primitives.bytevectors import bytevector_length
from harness.scheme.primitives.control import procedure_p
from harness.scheme.primitives.numbers import modulo, mul, quotient, remainder
from harness.scheme.primitives.strings import string_length
from harness.scheme.primitives.vectors import vector_length, vector_ref, vector_set_x

FEATURES = ("r7rs", "exact-closed", "ieee-float", "full-unicode", "ratios",
            "harness", "python")


def _tuple_to_list(t: tuple) -> object:
    result = NIL
    for x in reversed(t):
        result = [x, result]
    return result


class Environment:
    """A top-level environment of one tier.

    ``budget_check`` is how compiled code checks limits ("none", "flag", "steps");
    ``allowed_libraries`` is None (all) or the set of library names this tier may import.
    """

    def __init__(self, name: str = "user", budget_check: str = "none",
                 allowed_libraries: frozenset | None = None, allow_include: bool = True,
                 tier: str = "unsandboxed") -> None:
        self.name = name
        self.budget_check = budget_check
        self.allowed_libraries = allowed_libraries
        self.allow_include = allow_include
        self.tier = tier
        self.syntax: dict[Symbol, object] = {}
        #: libraries this environment defined with define-library (visible only here, so
        #: one tool file cannot change what another file imports)
        self.libraries: dict[tuple, object] = {}
        #: True only for scheme_lib/ loading: its define-library forms register globally
        self.trusted = False
        #: read-only globals whose value is computed at each reference (name -> getter),
        #: e.g. %context-name%, which differs per dispatch and per thread
        self.dynamic: dict[str, object] = {}
        self.declared: set[str] = set()
        #: globals (Python names) that compiled ``set!`` assigns: a procedure of one of
        #: these names is never compiled as twins (compiler.py), since a ``set!`` compiled
        #: before the twins existed would not update the twin
        self.assigned: set[str] = set()
        self.imported: set[tuple] = set()
        #: prelude libraries whose Scheme half is bound on first need (libraries.load_pending)
        self.pending: tuple = ()
        #: names bound when the expander first meets them (deferred.py)
        self.lazy: dict[str, Deferred] = {}
        self._inline: dict | None = None
        self._effect_inline: dict | None = None
        self.table: dict = {
            "__builtins__": {},
            "h_NIL": NIL, "h_list": list, "h_tuple": tuple, "h_IndexError": IndexError,
            "h_step": limits.step, "h_refill": limits.refill, "h_limits": limits.flags,
            "h_step_twin": limits.twin_step, "h_refill_twin": limits.refill_twin,
            "h_interrupt": limits.interrupt, "h_trampoline": run_support.trampoline,
            "h_apply_marker": run_support.apply_marker, "h_tuple_to_list": _tuple_to_list,
            "h_call_n": run_support.call_n, linear_recursion.ROOM: linear_recursion.depth_room,
            # the procedures and types of inlined primitives (inline.py)
            "h_Vector": Vector, "h_int": int, "h_len": len, "h_type": type, "h_vector_ref": vector_ref,
            "h_vector_length": vector_length, "h_vector_set": vector_set_x,
            "h_Symbol": Symbol, "h_Char": Char,
            "h_String": String, "h_string_length": string_length,
            "h_Bytevector": Bytevector, "h_bytevector_length": bytevector_length,
            "h_float": float, "h_mul": mul, "h_quotient": quotient,
            "h_remainder": remainder, "h_modulo": modulo,
            "h_function": FunctionType, "h_procedure_p": procedure_p,
        }

    # -- variables ----------------------------------------------------------------------
    def define(self, name: str, value: object) -> None:
        """Bind ``name`` to ``value``; a ``Deferred`` value (an import of a library
        procedure not compiled yet) is bound when first referenced, or now when ``name``
        is bound already (code compiled earlier refers to it)."""
        if value.__class__ is Deferred:
            if not self.is_bound(name):
                self.lazy[name] = value
                return
            value.force()
            value = value.env.lookup(value.name)
        self.lazy.pop(name, None)
        py = global_name(name)
        self.table[py] = value
        twin = twin_name(py)
        if twin in self.table:  # a procedure compiled earlier calls the new value by it
            self.table[twin] = value

    def lookup(self, name: str, default: object = None) -> object:
        return self.table.get(global_name(name), default)

    def is_bound(self, name: str) -> bool:
        return global_name(name) in self.table

    def declare(self, name: str) -> None:
        """Note that the program defines ``name`` (so it is never inlined as a primitive)."""
        self.declared.add(name)

    def stable_value(self, name: str) -> object:
        if name in self.declared:
            return None
        return self.table.get(global_name(name))

    def names(self) -> list[str]:
        return sorted({scheme_name(k) for k in self.table if k.startswith("s_")} | set(self.lazy))

    # -- compiler support -----------------------------------------------------------------
    def inline_table(self) -> dict:
        if self._inline is None:
            self._inline = build_inline_table(LIBRARIES)
        return self._inline

    def effect_inline_table(self) -> dict:
        """Like inline_table, for primitives written as statements where their value is
        not used (inline.EFFECT_TEMPLATES)."""
        if self._effect_inline is None:
            self._effect_inline = build_effect_table(LIBRARIES)
        return self._effect_inline

    @property
    def apply_procedure(self):
        return run_support.apply

    # -- libraries --------------------------------------------------------------------------
    def features(self) -> tuple[str, ...]:
        return FEATURES

    def has_library(self, spec: object) -> bool:
        try:
            key = library_key(spec)
        except ValueError:
            return False
        return self.may_import(key) and (key in self.libraries or find_library(key) is not None)

    def load_pending(self, name: str | None = None) -> None:
        """Bind the names of the pending prelude libraries this environment has not bound,
        until ``name`` is bound (libraries.load_pending; the expander calls it and imports
        nothing of libraries)."""
        load_pending(self, name)

    def may_import(self, key: tuple) -> bool:
        return self.allowed_libraries is None or key in self.allowed_libraries

    def command_line(self) -> object:
        return py_to_list([])

    def __repr__(self) -> str:
        return f"#<environment {self.name}>"
