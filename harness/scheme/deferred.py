"""Procedure definitions of harness's own libraries, compiled when first referenced.

Expanding and compiling every procedure of a scheme_lib library was most of the start-up
of a program that used one of them: (srfi 1) has some sixty, and a guard that calls
``any`` needs four. So a scheme_lib ``define-library`` keeps each top-level
``(define (name . formals) body ...)`` (and ``(define name E)``, E a name, a ``lambda`` or
a ``case-lambda``) as it was read (``Deferred``) and evaluates it when the expander first
meets a reference to ``name`` (or a ``set!`` of it), in the library or
in a program that imported it. Evaluating such a definition has no effect a program
could see, so deferring it changes nothing but when the compiler runs: errors keep their
positions in the library's file, and the compiled code is the same.

An environment keeps its deferred names in ``Environment.lazy`` (name -> ``Deferred``),
apart from ``table``: compiled code never reads them, the expander binds each before the
code that refers to it is compiled (``bind_deferred``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from harness.scheme.reader import SourceMap
from harness.scheme.syntax import Scope

__all__ = ["Deferred", "bind_deferred"]


class Deferred:
    """The definition of ``name`` in the library environment ``env``, not evaluated yet;
    ``evaluate(env, name, form, smap, scope)`` (compiled_definitions.py) evaluates it under
    ``lock`` (the library lock), both given by the interpreter, which this module does not
    import."""

    __slots__ = ("_evaluate", "_form", "_lock", "_scope", "_smap", "env", "name")

    def __init__(self, env, name: str, form: object, smap: SourceMap | None, scope: Scope,
                 evaluate: Callable, lock: AbstractContextManager) -> None:
        self.env = env
        self.name = name
        self._form = form
        self._smap = smap
        self._scope = scope
        self._evaluate = evaluate
        self._lock = lock

    def force(self) -> None:
        """Evaluate the definition in its library, once (a definition being evaluated,
        as when it refers to itself, is left to finish). A failure leaves it to evaluate
        again at the next reference."""
        with self._lock:
            form, self._form = self._form, None
            if form is None:
                return
            try:
                self._evaluate(self.env, self.name, form, self._smap, self._scope)
            except BaseException:
                self._form = form
                raise
            self.env.lazy.pop(self.name, None)


def bind_deferred(env, name: str) -> None:
    """Bind ``name`` in ``env`` if it is deferred there and not bound yet: evaluate its
    definition and, in an environment that imported it, define the value it gave."""
    deferred = env.lazy.get(name)
    if deferred is None or env.is_bound(name):
        return
    deferred.force()
    if deferred.env is not env and deferred.env.is_bound(deferred.name):
        env.define(name, deferred.env.lookup(deferred.name))
