"""Hooks whose compiled code bounds what they can do: they run with less of the budget
machinery, or none of it.

A hook call normally runs under its tier's budget (steps, deadline, memory), with its
output captured, a continuation prompt under it and the recursion window open: more than
half of what a cheap hook costs a dispatch. Some hooks need less, because of what their
code can call::

    (lambda (p)
      (let ((tool (cdr (assoc "tool_name" p))))
        (if (equal? tool "rm")
            (list (cons "block" #t) (cons "message" "no rm"))
            '())))

``leaf_hook(proc)`` accepts a compiled one-parameter Scheme procedure only when:

* its code runs straight through: no backward jump (no loop), no inner procedure (a loop
  is one), no attribute access but its budget check, nothing but the instructions listed
  in ``_OPCODES``, at most ``MAX_INSTRUCTIONS`` of them;
* every procedure it calls is a global bound to one of the primitives of
  ``BOUNDED_PRIMITIVES``, each of which writes nothing, captures no continuation, calls
  no procedure, walks its arguments without recursion and charges the budget for big
  walks, or to a procedure of its environment (``(define (tool-of p) ...)``) that is
  leaf code by these same rules, with any number of parameters, and does not call back
  into itself (no recursion, at most ``MAX_PROCEDURES`` of them); ``CallsCheck.holds``
  checks every such name again before each dispatch: globals can be redefined;
* its constants are data (pairs and atoms, at most ``_MAX_CONSTANT_PAIRS`` pairs): a
  constant can also be a procedure (``%context-name%`` reads through one), which it
  could call.

Such a *leaf hook* writes no output, captures no continuation and cannot recurse: the
dispatcher runs it under its budget (which still stops an ``equal?`` that walks a huge
structure) but without output capture, prompt or recursion window.

``member`` is bounded only with two arguments (a third is a procedure it calls): each of
its uses must be a call with two (``_call_arity``).

``straight_line(proc)`` accepts a leaf hook that calls no procedure of its file, reads
each of its local variables (besides its parameter) at most once (a ``let`` read twice,
or a procedure's parameters, could build shared structure whose walk by ``equal?`` or the
answer conversion grows exponentially with the code), has only small acyclic constants
and no flag
budget check (the unsandboxed tier's). Its work is then at most linear in the code size
times the size of its payload (a fresh tree the dispatcher converted from the host's
JSON): the dispatcher calls it plainly, with no budget at all, while its tier's limits
leave room (``Limits.leave_room``).
"""

from __future__ import annotations

import dis
import inspect
import operator
import re
from collections.abc import Iterable

from harness.scheme.datatypes import NIL, String, Symbol
from harness.scheme.limits import charge
from harness.scheme.names import global_name
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
)

#: Scheme name -> the primitive a bounded hook may call under that name
BOUNDED_PRIMITIVES = {"assoc": assoc, "assq": assq, "assv": assv, "car": car, "cdr": cdr,
                      "cons": cons, "list": list_, "not": not_, "eq?": is_eq,
                      "eqv?": is_eqv, "equal?": is_equal, "member": member, "memq": memq,
                      "memv": memv}
_BY_GLOBAL = {global_name(name): proc for name, proc in BOUNDED_PRIMITIVES.items()}
#: the globals of primitives that are bounded only when called with two arguments (a
#: third is a procedure they call): each use must be such a call
_TWO_ARGUMENTS = frozenset({global_name("member")})
#: the globals of the compiled step check (``h_step()``, refilled on IndexError)
_STEP_CHECK = frozenset({"h_step", "h_IndexError", "h_refill", "h_step_twin",
                         "h_refill_twin"})
#: the globals of the compiled flag check (``if h_limits.stop: h_interrupt()``)
_FLAG_CHECK = frozenset({"h_limits", "h_interrupt"})
MAX_INSTRUCTIONS = 400
_MAX_CONSTANT_ITEMS = 1000
_MAX_CONSTANT_PAIRS = 100_000
_DATA_ATOMS = (String, Symbol, bool, int, float, str)
#: what the code's own constants may be (the compiler puts Scheme data in closure cells)
_PLAIN_CONSTANTS = frozenset({type(None), bool, int, float, str})
_OPCODES = frozenset({
    "RESUME", "NOP", "COPY_FREE_VARS", "LOAD_FAST", "LOAD_DEREF", "LOAD_CONST",
    "LOAD_GLOBAL", "PUSH_NULL", "PRECALL", "CALL", "BINARY_SUBSCR", "BUILD_LIST", "IS_OP",
    "POP_TOP", "JUMP_FORWARD",
    "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE", "RETURN_VALUE",
    # the step check's IndexError handler (and COPY only in its ``COPY 3; POP_EXCEPT``)
    "PUSH_EXC_INFO", "CHECK_EXC_MATCH", "POP_EXCEPT", "RERAISE", "COPY",
    # leaf hooks only: locals, and the flag check's ``h_limits.stop``
    "STORE_FAST", "LOAD_ATTR",
})
_CONSTANT_CELL = re.compile(r"k\d+\Z")  # how the compiler names constant cells


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
    code = getattr(proc, "__code__", None)
    if code is None or code.co_argcount != 1:
        return None
    reader = _LeafReader(getattr(proc, "__globals__", None))
    straight = reader.procedure(proc)
    if straight is None:
        return None
    return PrimitiveCalls(tuple(reader.calls.items()), straight and not reader.done)


#: procedures of its file one leaf hook may call, directly or not
MAX_PROCEDURES = 32
#: steps charged per byte of code an analysis reads (dis makes an object per instruction:
#: ~1 µs for two bytes, as much as 10 plain steps a byte)
ANALYSIS_STEPS = 10


class _LeafReader:
    """Reads a leaf hook and the procedures of its file it calls: ``calls`` gathers every
    global they call (name -> the primitive or procedure it must still be), ``done`` the
    procedures found to be leaf code."""

    def __init__(self, globals_: dict | None) -> None:
        self.globals = globals_
        self.calls: dict[str, object] = {}
        self.done: set[object] = set()
        self.reading: set[object] = set()  # the procedures being read: a call back recurses

    def procedure(self, proc: object) -> bool | None:
        """None unless ``proc`` is leaf code; else whether it is also straight-line by
        itself (one parameter, no other local read twice, small constants, no flag
        check)."""
        code = getattr(proc, "__code__", None)
        if code is None or not code.co_filename.startswith("scm:"):
            return None
        if code.co_kwonlyargcount or code.co_cellvars or \
                code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            return None
        if any(type(c) not in _PLAIN_CONSTANTS for c in code.co_consts):
            return None  # an inner procedure (a code object), or anything it could call
        charge(len(code.co_code) * ANALYSIS_STEPS)
        instructions = [ins for ins in dis.get_instructions(code) if ins.opname != "CACHE"]
        if len(instructions) > MAX_INSTRUCTIONS:
            return None
        flag_check = False
        reads: dict[str, int] = {}  # local (not the parameter) -> how often it is read
        for i, ins in enumerate(instructions):
            if ins.opname not in _OPCODES:
                return None
            if ins.opname == "COPY" and (i + 1 == len(instructions)
                                         or instructions[i + 1].opname != "POP_EXCEPT"):
                return None  # a value used twice could double a structure at each use
            if ins.opname == "LOAD_ATTR" and (ins.argval != "stop" or i == 0 or
                                              instructions[i - 1].argval != "h_limits"):
                return None  # only the flag check reads an attribute
            if ins.opname == "LOAD_FAST" and \
                    ins.argval not in code.co_varnames[:code.co_argcount]:
                reads[ins.argval] = reads.get(ins.argval, 0) + 1
            if ins.opname == "LOAD_DEREF" and not _CONSTANT_CELL.match(ins.argval):
                return None  # a variable of an enclosing procedure: anyone may change it
            if ins.opname == "LOAD_GLOBAL" and ins.argval not in _STEP_CHECK:
                if ins.argval in _FLAG_CHECK:
                    flag_check = True
                elif not self._callable(ins.argval) or (
                        ins.argval in _TWO_ARGUMENTS and _call_arity(instructions, i) != 2):
                    return None
        small = True
        for var, cell in zip(code.co_freevars, proc.__closure__ or ()):
            if _CONSTANT_CELL.match(var):
                data, small_tree = _constant_data(cell)
                if not data:
                    return None
                small = small and small_tree
        # a local read once stands for its value at that one place (it shares nothing: no
        # loop runs the read again); the parameter is the payload, a tree, read where the
        # code says (a set! of it would box it: no leaf hook)
        return small and not flag_check and code.co_argcount == 1 and \
            all(n <= 1 for n in reads.values())

    def _callable(self, name: str) -> bool:
        """Whether global ``name`` is a bounded primitive or a procedure of the same
        environment that is leaf code (recorded in ``calls``)."""
        primitive = _BY_GLOBAL.get(name)
        if primitive is not None:
            self.calls[name] = primitive
            return True
        callee = None if self.globals is None else self.globals.get(name)
        if getattr(callee, "__globals__", None) is not self.globals:
            return False
        if callee not in self.done:
            if callee in self.reading or \
                    len(self.done) + len(self.reading) >= MAX_PROCEDURES:
                return False  # a recursion, or too many procedures
            self.reading.add(callee)
            leaf = self.procedure(callee) is not None
            self.reading.discard(callee)
            if not leaf:
                return False
            self.done.add(callee)
        self.calls[name] = callee
        return True


def _call_arity(instructions: list, i: int) -> int | None:
    """How many arguments the call of the callable loaded by instruction ``i`` (``LOAD_GLOBAL
    NULL + name``) passes, found by following the stack up to its ``PRECALL``; None when
    it is not called there or a jump comes first."""
    if not instructions[i].arg & 1:
        return None  # loaded as a value, not for a call
    depth = 0  # values pushed above the callable since
    for ins in instructions[i + 1:]:
        if ins.is_jump_target or ins.opcode in _JUMPS:
            return None
        if ins.opname == "PRECALL" and ins.arg == depth:
            return depth  # (an inner call's PRECALL has its own callable above ours)
        depth += dis.stack_effect(ins.opcode, ins.arg, jump=False)
        if depth < 0:
            return None
    return None


_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs)


def straight_line(proc: object) -> PrimitiveCalls | None:
    """A leaf hook's ``PrimitiveCalls`` when it is also straight-line (no procedure of its
    file, no local read twice, small acyclic constants, no flag check: it may run without
    a budget); None otherwise."""
    calls = leaf_hook(proc)
    return calls if calls is not None and calls.straight else None


def _constant_data(cell) -> tuple[bool, bool]:
    """(data, small) for a constant cell of a hook: ``data`` when it holds only pairs and
    atoms, at most _MAX_CONSTANT_PAIRS pairs (a constant cell may hold a procedure: the
    getter of ``%context-name%``, say); ``small`` when it is also acyclic and unshared,
    with at most _MAX_CONSTANT_ITEMS pairs."""
    try:
        value = cell.cell_contents
    except ValueError:
        return False, False
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
