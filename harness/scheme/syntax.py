"""Identifiers and scopes: the data the hygienic expander works with.

An identifier is a ``Symbol`` (written by the user) or an ``Alias`` (a symbol introduced by
a macro template). An alias remembers the scope of the macro's definition: if no binding
form of the expansion binds it, it means what its symbol meant where the macro was
defined. Binding forms bind the identifier object itself, so an alias never captures a
user's variable of the same name, and a user's variable never captures an alias.
"""

from __future__ import annotations

from harness.scheme.datatypes import Symbol, Vector


class Alias:
    """A renamed identifier made by one macro expansion."""

    __slots__ = ("name", "scope")

    def __init__(self, name: Symbol | Alias, scope: Scope) -> None:
        self.name = name
        self.scope = scope

    def base(self) -> Symbol:
        n = self.name
        while isinstance(n, Alias):
            n = n.name
        return n

    def __repr__(self) -> str:
        return f"{self.base().name}"


def is_identifier(x: object) -> bool:
    return x.__class__ is Symbol or x.__class__ is Alias


def base_symbol(x: Symbol | Alias) -> Symbol:
    return x.base() if x.__class__ is Alias else x


def strip(x: object, memo: dict | None = None) -> object:
    """Replace every alias inside a datum by its symbol (for quote and top-level names).

    ``memo`` maps each pair and vector seen to its result, so shared parts are stripped once
    and circular data (#0=(a . #0#), which comes from the reader) terminates.
    """
    if x.__class__ is Alias:
        return x.base()
    if x.__class__ is list:
        if memo is None:
            memo = {}
        # Only copy when an alias is present; quoted data from the reader stays shared.
        items, pairs, tail = [], [], x
        changed = False
        while tail.__class__ is list and id(tail) not in memo:
            memo[id(tail)] = tail  # in progress: a cycle back to it keeps the reader's pair
            pairs.append(tail)
            new = strip(tail[0], memo)
            changed |= new is not tail[0]
            items.append(new)
            tail = tail[1]
        new_tail = memo[id(tail)] if tail.__class__ is list else strip(tail, memo)
        if not changed and new_tail is tail:
            return x
        result = new_tail
        for pair, item in zip(reversed(pairs), reversed(items)):
            result = [item, result]
            memo[id(pair)] = result
        return result
    if x.__class__ is Vector:
        if memo is None:
            memo = {}
        if id(x) in memo:
            return memo[id(x)]
        memo[id(x)] = x
        new_items = [strip(i, memo) for i in x.items]
        if all(a is b for a, b in zip(new_items, x.items)):
            return x
        memo[id(x)] = Vector(new_items)
        return memo[id(x)]
    return x


class Special:
    """A core syntactic keyword (if, lambda, define, …) handled by the expander."""

    __slots__ = ("handler", "name")

    def __init__(self, name: str, handler) -> None:
        self.name = name
        self.handler = handler

    def __repr__(self) -> str:
        return f"#<syntax {self.name}>"


class Rewriter:
    """A keyword whose form is rewritten into other data by a Python function
    (cond-expand, include): like a macro, it works wherever a form may appear."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn) -> None:
        self.name = name
        self.fn = fn

    def rewrite(self, expander, form, scope: Scope, where):
        return self.fn(expander, form, scope, where)

    def __repr__(self) -> str:
        return f"#<syntax {self.name}>"


class Scope:
    """A lexical scope: bindings of identifiers to Vars, Macros or Specials.

    ``env`` is the top-level Environment at the root of the chain. ``toplevel``: the
    definitions made in this scope are global (the root, and the body of a ``let-syntax``
    written at top level).
    """

    __slots__ = ("bindings", "env", "parent", "toplevel")

    def __init__(self, parent: Scope | None, env) -> None:
        self.parent = parent
        self.bindings: dict = {}
        self.env = env
        self.toplevel = parent is None

    def child(self) -> Scope:
        return Scope(self, self.env)

    def bind(self, ident, binding) -> None:
        self.bindings[ident] = binding


_UNBOUND = object()


def resolve(ident, scope: Scope):
    """What ``ident`` means in ``scope``: a Var, Macro or Special, or ``(env, Symbol)``
    for a top-level variable of that environment."""
    while True:
        s = scope
        while s is not None:
            b = s.bindings.get(ident, _UNBOUND)
            if b is not _UNBOUND:
                return b
            s = s.parent
        if ident.__class__ is Alias:
            ident, scope = ident.name, ident.scope
            continue
        env = scope.env
        syn = env.syntax.get(ident)
        if syn is not None:
            return syn
        return (env, ident)


def same_binding(a, scope_a: Scope, b, scope_b: Scope) -> bool:
    """free-identifier=?: do the two identifiers mean the same thing?"""
    ra, rb = resolve(a, scope_a), resolve(b, scope_b)
    if isinstance(ra, tuple) and isinstance(rb, tuple):
        return ra[1] is rb[1]
    return ra is rb
