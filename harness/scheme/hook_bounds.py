"""Hooks whose code bounds what they can do: they run with less of the budget machinery,
or none of it.

A hook call normally runs under its tier's budget (steps, deadline, memory), with its
output captured, a continuation prompt under it and the recursion window open: more than
half of what a cheap hook costs a dispatch. Some hooks need less, because of what their
code can call::

    (lambda (p)
      (let ((tool (cdr (assoc "tool_name" p))))
        (if (equal? tool "rm")
            (list (cons "block" #t) (cons "message" "no rm"))
            '())))

The analysis reads the core AST the procedure was compiled from (``sites.procedure_of``),
as known_calls.py does, so it means the same on every Python version. ``leaf_hook(proc)``
accepts a compiled one-parameter Scheme procedure only when:

* its body is made of constants, its own variables (never assigned), ``if``, ``begin``,
  ``let`` and calls, at most ``MAX_NODES`` nodes of them: no inner ``lambda`` (a loop is
  one), no ``set!`` or ``define``, no variable of an enclosing procedure (anyone may change
  it), no global read as a value, and it returns no tail-call marker
  (``Lambda.bounces``: a tail call of a procedure of its file goes through the trampoline);
* every call's operator is a global bound to one of the primitives of
  ``BOUNDED_PRIMITIVES`` (a primitive's own name must name that primitive, whatever it
  names when the hook is read), each of which writes nothing, captures no continuation,
  calls no procedure, walks its arguments without recursion and charges the budget for
  big walks, or to a procedure of its environment (``(define (tool-of p) ...)``) that is leaf
  code by these same rules, with any number of parameters, and does not call back into
  itself (no recursion, at most ``MAX_PROCEDURES`` of them); ``CallsCheck.holds`` checks
  every such name again before each dispatch: globals can be redefined. A call the
  compiler wrote inline (``car`` as ``x[0]``: ``CompiledUnit.inlined``) is accepted only
  for those primitives, and one whose operator is a constant only for them and for the
  ``cons``, ``eq?`` and ``eqv?`` that quasiquote and ``case`` expand into;
* its constants are data (pairs and atoms, at most ``_MAX_CONSTANT_PAIRS`` pairs).

Such a *leaf hook* writes no output, captures no continuation and cannot recurse: the
dispatcher runs it under its budget (which still stops an ``equal?`` that walks a huge
structure) but without output capture, prompt or recursion window.

``member`` is bounded only with two arguments (a third is a procedure it calls): each of
its uses must be a call with two.

``straight_line(proc)`` accepts a leaf hook that calls no procedure of its file, reads
each of its local variables (besides its parameter) at most once (a ``let`` read twice,
or a procedure's parameters, could build shared structure whose walk by ``equal?`` or the
answer conversion grows exponentially with the code), has only small acyclic constants
and was compiled without the flag budget check (the unsandboxed tier's). With no loop and
no call back into Scheme code, each node runs at most once, so its work is at most linear
in the code size times the size of its payload (a fresh tree the dispatcher converted from
the host's JSON): the dispatcher calls it plainly, with no budget at all, while its tier's
limits leave room (``Limits.leave_room``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable

from harness.scheme import run_support as rt
from harness.scheme.ast_nodes import Call, Const, GlobalRef, If, Lambda, Let, LocalRef, Seq
from harness.scheme.datatypes import NIL, Char, String, Symbol
from harness.scheme.limits import charge
from harness.scheme.names import global_name
from harness.scheme.primitives import LIBRARIES
from harness.scheme.primitives.control import not_
from harness.scheme.primitives.equivalence import is_eq, is_equal, is_eqv
from harness.scheme.primitives.lists import (
    assoc,
    assq,
    assv,
    car,
    cdr,
    cons,
    list_,
    member,
    memq,
    memv,
    null_p,
    pair_p,
)
from harness.scheme.sites import CompiledUnit, procedure_of

#: the accessors caar ... cddddr: each walks at most four pairs
_CXRS = {name: proc for lib in (("scheme", "base"), ("scheme", "cxr"))
         for name, proc in LIBRARIES[lib].items()
         if len(name) > 3 and name[0] == "c" and name[-1] == "r" and set(name[1:-1]) <= {"a", "d"}}
#: Scheme name -> the primitive a bounded hook may call under that name
BOUNDED_PRIMITIVES = {"assoc": assoc, "assq": assq, "assv": assv, "car": car, "cdr": cdr,
                      "cons": cons, "list": list_, "not": not_, "eq?": is_eq,
                      "eqv?": is_eqv, "equal?": is_equal, "member": member, "memq": memq,
                      "memv": memv, "null?": null_p, "pair?": pair_p, **_CXRS}
#: id -> the procedures a leaf may call, by a global or as a constant operator (the
#: ``cons``, ``eq?`` and ``eqv?`` of quasiquote and ``case``), or have written inline
_BOUNDED = {id(p): p for p in (*BOUNDED_PRIMITIVES.values(), rt.cons, rt.eq, rt.eqv)}
MAX_NODES = 400
#: steps charged per node an analysis reads (a file's load pays for the analyses of its
#: hooks, so many registrations of a big lambda end inside the load budget: issue 23)
ANALYSIS_STEPS = 4
#: procedures of its file one leaf hook may call, directly or not
MAX_PROCEDURES = 32
_MAX_CONSTANT_ITEMS = 1000
_MAX_CONSTANT_PAIRS = 100_000
_DATA_ATOMS = (String, Symbol, Char, bool, int, float, str)


class PrimitiveCalls:
    """The primitives a leaf hook calls, by global name, and whether it is also
    straight-line."""

    __slots__ = ("calls", "straight")

    def __init__(self, calls: tuple[tuple[str, object], ...], straight: bool) -> None:
        self.calls = calls
        self.straight = straight


class CallsCheck:
    """Whether the leaf hooks of a run still call only the primitives they were read to
    call (a file may redefine ``equal?`` at any time): made once per run of hooks, asked
    on every dispatch, so it is one C-level lookup of all the names per environment."""

    __slots__ = ("checks",)

    def __init__(self, hooks: Iterable[tuple[object, PrimitiveCalls]]) -> None:
        """``hooks``: (environment, what it calls) per hook of the run."""
        wanted: dict[int, tuple[object, dict[str, object]]] = {}
        for env, calls in hooks:
            wanted.setdefault(id(env), (env, {}))[1].update(calls.calls)
        # itemgetter of one name gives the value, of several a tuple: ``expected`` alike
        self.checks = tuple(
            (env, operator.itemgetter(*names),
             names[next(iter(names))] if len(names) == 1 else tuple(names.values()))
            for env, names in wanted.values() if names)

    def holds(self) -> bool:
        for env, get, expected in self.checks:
            try:
                # != compares by identity first; no value Scheme code can bind equals a
                # primitive it is not (their __eq__ all say no to a function)
                if get(env.table) != expected:
                    return False
            except KeyError:
                return False
        return True


def leaf_hook(proc: object) -> PrimitiveCalls | None:
    """A ``PrimitiveCalls`` when ``proc`` is a compiled one-parameter Scheme procedure
    that calls only bounded primitives, or procedures of its environment that are leaf
    code themselves, and runs straight through (a leaf hook: see the module docstring);
    None otherwise."""
    found = procedure_of(proc)
    if found is None or len(found[1].params) != 1:
        return None
    reader = _LeafReader(proc.__globals__)
    straight = reader.procedure(*found)
    if straight is None:
        return None
    return PrimitiveCalls(tuple(reader.calls.items()), straight and not reader.done)


def straight_line(proc: object) -> PrimitiveCalls | None:
    """A leaf hook's ``PrimitiveCalls`` when it is also straight-line (no procedure of its
    file, no local read twice, small acyclic constants, no flag check: it may run without
    a budget); None otherwise."""
    calls = leaf_hook(proc)
    return calls if calls is not None and calls.straight else None


class _LeafReader:
    """Reads a leaf hook and the procedures of its file it calls: ``calls`` gathers every
    global they call (name -> the primitive or procedure it must still be), ``done`` the
    procedures found to be leaf code."""

    def __init__(self, globals_: dict) -> None:
        self.globals = globals_
        self.calls: dict[str, object] = {}
        self.done: set[object] = set()
        self.reading: set[object] = set()  # the procedures being read: a call back recurses

    def procedure(self, unit: CompiledUnit, lam: Lambda) -> bool | None:
        """None unless ``lam`` (compiled in ``unit``) is leaf code; else whether it is
        also straight-line by itself (no local but its parameters read twice, small
        constants, no flag check)."""
        if lam.rest is not None or lam.captures or lam.bounces is not False:
            return None
        small = True
        reads: dict[object, int] = {}  # local (not a parameter) -> how often it is read
        nodes = 0
        stack = [lam.body]
        while stack:
            node = stack.pop()
            nodes += 1
            if nodes > MAX_NODES:
                charge(nodes * ANALYSIS_STEPS)
                return None
            cls = node.__class__
            if cls is Const:
                data, small_tree = _constant_data(node.value)
                if not data:
                    return None
                small = small and small_tree
            elif cls is LocalRef:
                var = node.var
                if var.owner is not lam or var.assigned:
                    return None
                if var not in lam.params:
                    reads[var] = reads.get(var, 0) + 1
            elif cls is Call:
                if not self._bounded_call(unit, node):
                    return None
                stack.extend(node.args)
            elif cls is If:
                stack += (node.test, node.then, node.else_)
            elif cls is Seq:
                stack.extend(node.body)
            elif cls is Let:
                stack.extend(node.inits)
                stack.append(node.body)
            else:  # a lambda, an assignment, a definition, a global read as a value
                return None
        charge(nodes * ANALYSIS_STEPS)
        # a local read once stands for its value at that one place (it shares nothing: no
        # loop runs the read again); a parameter is read where the code says
        return small and unit.budget_check != "flag" and all(n <= 1 for n in reads.values())

    def _bounded_call(self, unit: CompiledUnit, call: Call) -> bool:
        """Whether ``call``'s operator is a bounded primitive (written inline, a constant or
        a global, then recorded in ``calls``) or a global naming a procedure of the same
        environment that is leaf code."""
        inlined = unit.inlined.get(id(call))
        if inlined is not None:
            return id(inlined) in _BOUNDED
        fn = call.fn
        if fn.__class__ is Const:
            return _bounded(fn.value, len(call.args))
        if fn.__class__ is not GlobalRef or fn.env.table is not self.globals:
            return False
        name = global_name(fn.name)
        # a primitive's own name must still name it (then ``PayloadKeys.hold``, which
        # wants the standard assoc, holds whenever ``CallsCheck.holds`` does); another
        # name, what it names now
        value = BOUNDED_PRIMITIVES.get(fn.name) or self.globals.get(name)
        if _bounded(value, len(call.args)):
            self.calls[name] = value
            return True
        found = procedure_of(value)
        if found is None or value.__globals__ is not self.globals:
            return False
        if value not in self.done:
            if value in self.reading or \
                    len(self.done) + len(self.reading) >= MAX_PROCEDURES:
                return False  # a recursion, or too many procedures
            self.reading.add(value)
            leaf = self.procedure(*found) is not None
            self.reading.discard(value)
            if not leaf:
                return False
            self.done.add(value)
        self.calls[name] = value
        return True


def _bounded(proc: object, arguments: int) -> bool:
    """Whether calling ``proc`` with that many arguments is a bounded primitive's call
    (``member`` with a third argument calls it)."""
    return id(proc) in _BOUNDED and _BOUNDED[id(proc)] is proc and \
        (proc is not member or arguments == 2)


def _constant_data(value: object) -> tuple[bool, bool]:
    """(data, small) for a constant of a hook: ``data`` when it holds only pairs and
    atoms, at most _MAX_CONSTANT_PAIRS pairs (a constant may be a procedure: the getter
    of ``%context-name%``, say); ``small`` when it is also acyclic and unshared, with at
    most _MAX_CONSTANT_ITEMS pairs."""
    seen: set[int] = set()
    small = True
    stack = [value]
    while stack:
        x = stack.pop()
        if type(x) is list:
            if id(x) in seen:
                small = False
                continue
            if len(seen) >= _MAX_CONSTANT_PAIRS:
                return False, False
            seen.add(id(x))
            stack.extend(x)
        elif x is not NIL and x is not None and type(x) not in _DATA_ATOMS:
            return False, False
    return True, small and len(seen) <= _MAX_CONSTANT_ITEMS
