"""The core language the expander produces and the compiler consumes.

Every derived form (let, cond, do, guard, …) is expanded into these few nodes. Each node
keeps the source position of the form it came from, so compiled code can report errors at
``file:line:col``.
"""

from __future__ import annotations

import itertools

from harness.scheme.errors import SourcePos

_var_ids = itertools.count()


class Var:
    """A local variable. ``assigned``: target of set! (then it lives in a box, a one-element
    Python list, so every copy of a frame a continuation makes shares it); ``captured``:
    used by an inner lambda. ``known`` and ``raw`` are known_calls.py's findings."""

    __slots__ = ("assigned", "captured", "known", "name", "owner", "raw", "uid")

    def __init__(self, name: str) -> None:
        self.name = name
        self.uid = next(_var_ids)
        self.assigned = False
        self.captured = False
        self.owner: Lambda | None = None
        #: the procedure a let/letrec binds it to, never assigned: its calls can be direct
        self.known: Lambda | None = None
        #: it only ever holds procedure bodies (which may return tail-call markers)
        self.raw = False

    def __repr__(self) -> str:
        return f"<var {self.name}#{self.uid}>"


class Node:
    __slots__ = ("pos",)


class Const(Node):
    __slots__ = ("value",)

    def __init__(self, value: object, pos: SourcePos | None = None) -> None:
        self.value, self.pos = value, pos


class LocalRef(Node):
    __slots__ = ("var",)

    def __init__(self, var: Var, pos: SourcePos | None = None) -> None:
        self.var, self.pos = var, pos


class GlobalRef(Node):
    """A top-level variable ``name`` of environment ``env`` (usually the one being compiled)."""

    __slots__ = ("env", "name")

    def __init__(self, name: str, env: object, pos: SourcePos | None = None) -> None:
        self.name, self.env, self.pos = name, env, pos


class SetLocal(Node):
    __slots__ = ("value", "var")

    def __init__(self, var: Var, value: Node, pos: SourcePos | None = None) -> None:
        self.var, self.value, self.pos = var, value, pos


class SetGlobal(Node):
    """``set!`` (define=False: the variable must exist) or ``define`` (define=True)."""

    __slots__ = ("define", "env", "name", "value")

    def __init__(self, name: str, env: object, value: Node, define: bool,
                 pos: SourcePos | None = None) -> None:
        self.name, self.env, self.value, self.define, self.pos = name, env, value, define, pos


class If(Node):
    __slots__ = ("else_", "test", "then")

    def __init__(self, test: Node, then: Node, else_: Node, pos: SourcePos | None = None):
        self.test, self.then, self.else_, self.pos = test, then, else_, pos


class Seq(Node):
    __slots__ = ("body",)

    def __init__(self, body: list[Node], pos: SourcePos | None = None) -> None:
        self.body, self.pos = body, pos


class Lambda(Node):
    """A procedure. ``rest`` collects extra arguments; ``name`` is for messages only;
    ``bounces`` and ``only_body`` are known_calls.py's findings."""

    __slots__ = ("arrives_boxed", "body", "bounces", "captures", "name", "only_body", "params",
                 "parent", "private", "rest", "self_var")

    def __init__(self, params: list[Var], rest: Var | None, body: Node, name: str | None,
                 pos: SourcePos | None = None) -> None:
        self.params, self.rest, self.body, self.name, self.pos = params, rest, body, name, pos
        self.self_var: Var | str | None = None  # what the lambda is bound to, if anything
        self.parent: Lambda | None = None
        # the callers pass assigned parameters already in their boxes (resume procedures)
        self.arrives_boxed = False
        #: whether its body may return a tail-call marker (None: not analysed)
        self.bounces: bool | None = None
        #: no code outside the trampoline protocol ever calls it: its body is its value
        self.only_body = False
        #: the value never escapes (a known procedure): its body needs no ``h_body`` link
        self.private = False
        #: the variables of enclosing procedures it takes as values when it is made (hidden
        #: parameters with defaults), not as cells
        self.captures: tuple[Var, ...] = ()


class Let(Node):
    """Bind ``vars`` to ``inits`` (evaluated first, outside the new scope) then run body.

    With ``rec`` the inits see the new variables (letrec*, internal defines).
    """

    __slots__ = ("body", "inits", "rec", "vars")

    def __init__(self, vars: list[Var], inits: list[Node], body: Node, rec: bool,
                 pos: SourcePos | None = None) -> None:
        self.vars, self.inits, self.body, self.rec, self.pos = vars, inits, body, rec, pos


class Call(Node):
    """``direct``: a tail call compiled as a Python call of its known callee's body (not a
    tail-call marker), see known_calls.py."""

    __slots__ = ("args", "direct", "fn")

    def __init__(self, fn: Node, args: list[Node], pos: SourcePos | None = None) -> None:
        self.fn, self.args, self.pos = fn, args, pos
        self.direct = False
