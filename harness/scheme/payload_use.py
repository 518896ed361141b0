"""What a hook procedure can see of its payload, read from the core AST it was compiled
from (``sites.procedure_of``, as known_calls.py reads it), so that the dispatcher converts
no more of the payload than the hook can look at (the conversion is most of a cheap
hook's cost).

* A Scheme ``(lambda (p) ...)`` whose body never refers to ``p`` sees nothing: it gets
  ``'()``.
* One whose every use of ``p`` is ``(assoc "KEY" p)`` with a constant string key sees only
  the entries of those keys (what ``assoc`` returns for them is the same): it gets an alist
  of just those entries. That holds while ``assoc`` is the standard procedure and the key
  strings still read as they did, which ``PayloadKeys.hold`` checks before each call.
* So does one that passes ``p`` to procedures of its file that only look it up so (or
  pass it on alike), ``(define (tool-of p) (cdr (assoc "tool_name" p)))``, while its
  globals still name those procedures (``hold`` checks that too).

Anything else is a use that may see all of it: ``p`` as a value, in a variable, assigned
(``set!``), read by an inner ``lambda``, passed to a procedure in tail position (the
trampoline calls it) or to any other procedure.
"""

from __future__ import annotations

from collections.abc import Iterable

from harness.scheme.ast_nodes import (
    Call,
    Const,
    GlobalRef,
    If,
    Lambda,
    Let,
    LocalRef,
    Node,
    Seq,
    SetGlobal,
    SetLocal,
)
from harness.scheme.datatypes import String, frozen_string, is_frozen
from harness.scheme.hook_bounds import ANALYSIS_STEPS
from harness.scheme.limits import charge
from harness.scheme.names import global_name
from harness.scheme.primitives.lists import assoc
from harness.scheme.sites import CompiledUnit, procedure_of

#: the global a compiled call to ``assoc`` loads
ASSOC_GLOBAL = global_name("assoc")


class PayloadKeys:
    """The payload keys a hook can look up (``texts``), while ``hold`` is true.
    ``callees``: (global name, procedure) for each procedure of the hook's file it passes
    its payload to, which looks it up the same way."""

    __slots__ = ("callees", "strings", "texts")

    def __init__(self, strings: tuple[String, ...],
                 callees: tuple[tuple[str, object], ...] = ()) -> None:
        self.strings = strings
        self.texts = frozenset(string.s for string in strings)
        self.callees = callees

    def hold(self, globals_: dict) -> bool:
        """Whether ``assoc`` in the hook's environment is still the standard procedure,
        its names still name the procedures it passes the payload to, and the key strings
        (mutable Scheme strings) still read as they did."""
        if globals_.get(ASSOC_GLOBAL) is not assoc:
            return not self.strings  # a hook that never reads its payload needs no assoc
        for name, callee in self.callees:
            if globals_.get(name) is not callee:
                return False
        texts = self.texts
        for string in self.strings:  # a loop, not all(): this runs on every dispatch
            if string.s not in texts:
                return False
        return True


def ignores_argument(proc: object) -> bool:
    """True only for a compiled Scheme procedure of exactly one parameter that its code
    never reads (not even through a closure). Anything else: False (convert as usual)."""
    keys = payload_keys(proc)
    return keys is not None and not keys.strings and not keys.callees


#: procedures of a file one hook's payload may be passed through (more: it may see all)
MAX_CALLEES = 32


def payload_keys(proc: object) -> PayloadKeys | None:
    """The payload keys a one-parameter compiled Scheme procedure can look up: none when
    it never reads its parameter, each ``KEY`` when it only ever passes it to
    ``(assoc "KEY" p)`` (through the global ``assoc``) or, as an argument of a call that is
    not in tail position, to a procedure of its environment that does only that with it
    (``(tool-of p)``); None (it may see all of it) otherwise."""
    found = procedure_of(proc)
    if found is None or len(found[1].params) != 1 or found[1].rest is not None:
        return None
    uses = _Uses(proc.__globals__)
    if not uses.parameter(*found, 0):
        return None
    return PayloadKeys(tuple(uses.keys.values()), tuple(uses.callees.items()))


class _Uses:
    """What the procedures a payload is passed through do with it (``parameter``)."""

    def __init__(self, globals_: dict) -> None:
        self.globals = globals_
        self.keys: dict[int, String] = {}
        self.callees: dict[str, object] = {}
        self.seen: set[tuple[object, int]] = set()

    def parameter(self, unit: CompiledUnit, lam: Lambda, index: int) -> bool:
        """Whether ``lam``'s parameter ``index`` is only ever passed to ``(assoc "KEY" _)``
        or to procedures that do the same (``keys`` and ``callees`` gain them)."""
        var = lam.params[index]
        if var.assigned:
            return False  # it lives in a box, and may come to hold anything
        stack: list[tuple[Node, bool, bool]] = [(lam.body, True, False)]  # (node, tail, inner)
        read = 0
        while stack:
            node, tail, inner = stack.pop()
            read += 1
            if read % 256 == 0:  # (hook_bounds.ANALYSIS_STEPS: the load pays for it)
                charge(256 * ANALYSIS_STEPS)
            cls = node.__class__
            if cls is LocalRef:
                if node.var is var:
                    return False  # a value: anything may be done with it
            elif cls is Call:
                for i, arg in enumerate(node.args):
                    if arg.__class__ is LocalRef and arg.var is var:
                        if inner or not self._looked_up(unit, node, i, tail):
                            return False
                    else:
                        stack.append((arg, False, inner))
                stack.append((node.fn, False, inner))
            elif cls is Lambda:
                stack.append((node.body, True, True))
            else:
                stack.extend(_children(node, tail, inner))
        return True

    def _looked_up(self, unit: CompiledUnit, call: Call, i: int, tail: bool) -> bool:
        """Whether argument ``i`` of ``call`` (the parameter) is only looked up: the key
        of ``(assoc "KEY" p)``, or a parameter of a procedure of the same environment
        (called not in tail position) that is only looked up too."""
        fn = call.fn
        if fn.__class__ is not GlobalRef or fn.env.table is not self.globals \
                or id(call) in unit.inlined:
            return False
        args = call.args
        if fn.name == "assoc" and len(args) == 2 and i == 1:
            key = args[0]
            if key.__class__ is not Const or type(key.value) is not String:
                return False
            self.keys[id(key.value)] = key.value
            return True
        if tail:
            return False  # the trampoline calls it (the marker holds the payload)
        name = global_name(fn.name)
        callee = self.globals.get(name)
        found = procedure_of(callee)
        if found is None or callee.__globals__ is not self.globals:
            return False
        lam = found[1]
        if lam.rest is not None or len(lam.params) != len(args):
            return False
        if self.callees.setdefault(name, callee) is not callee:
            return False
        if (callee, i) in self.seen:  # being or been read: a recursion adds nothing
            return True
        if len(self.seen) >= MAX_CALLEES:
            return False
        self.seen.add((callee, i))
        return self.parameter(*found, i)


def _children(node: Node, tail: bool, inner: bool) -> list[tuple[Node, bool, bool]]:
    """The sub-nodes of an ``if``, ``begin``, ``let`` or assignment, with whether each is
    in tail position."""
    cls = node.__class__
    if cls is If:
        return [(node.test, False, inner), (node.then, tail, inner), (node.else_, tail, inner)]
    if cls is Seq:
        return [(n, False, inner) for n in node.body[:-1]] + [(node.body[-1], tail, inner)]
    if cls is Let:
        return [(n, False, inner) for n in node.inits] + [(node.body, tail, inner)]
    if cls is SetLocal or cls is SetGlobal:
        return [(node.value, False, inner)]
    return []  # a constant, a global


def entry_keys(texts: Iterable[str]) -> tuple[tuple[str, String | None], ...]:
    """``texts`` (sorted) as (text, key) pairs for bridge.json_entries_to_scheme: the key
    is the shared immutable String of the text, or None where none can be shared (every
    dispatch then makes its own)."""
    out = []
    for text in sorted(texts):
        key = frozen_string(text)
        out.append((text, key if is_frozen(key) else None))
    return tuple(out)
