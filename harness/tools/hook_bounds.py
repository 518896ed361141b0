"""Hooks that cannot run away, read from their compiled code: they run without a budget.

A hook call normally runs under its tier's budget (steps, deadline, memory), with its
output captured and the recursion window open: more than half of what a cheap hook costs
a dispatch. Some hooks need none of it, because their code bounds what they can do::

    (lambda (p)
      (if (equal? (cdr (assoc "tool_name" p)) "rm")
          (list (cons "block" #t) (cons "message" "no rm"))
          '()))

``straight_line(proc)`` accepts a compiled one-parameter Scheme procedure only when:

* its code runs straight through: no backward jump (no loop), no inner procedure, no
  local variable besides its parameter (a ``let`` could build shared structure whose
  walk by ``equal?`` or the answer conversion grows exponentially with the code), no
  attribute access, nothing but the instructions listed in ``_OPCODES``;
* every procedure it calls is a global bound to one of the primitives of
  ``BOUNDED_PRIMITIVES`` (checked again before each call by ``StraightLine.holds``:
  globals can be redefined), each of which takes time linear in its arguments, writes
  nothing, and calls no procedure;
* its constants are acyclic and small, and it has at most ``MAX_INSTRUCTIONS``
  instructions.

Its work is then at most linear in the code size times the size of its payload (a fresh
tree the dispatcher converted from the host's JSON), and it writes no output: the
dispatcher calls it plainly. Anything else (a loop, a ``let``, a call of a procedure of
the file, ``display``) runs under the budget as before.
"""

from __future__ import annotations

import dis
import inspect
import re

from harness.scheme.datatypes import NIL, String, Symbol
from harness.scheme.names import global_name
from harness.scheme.primitives.control import not_
from harness.scheme.primitives.equivalence import is_eq, is_equal, is_eqv
from harness.scheme.primitives.lists import assoc, assq, assv, car, cdr, cons, list_

#: Scheme name -> the primitive a bounded hook may call under that name
BOUNDED_PRIMITIVES = {"assoc": assoc, "assq": assq, "assv": assv, "car": car, "cdr": cdr,
                      "cons": cons, "list": list_, "not": not_, "eq?": is_eq,
                      "eqv?": is_eqv, "equal?": is_equal}
_BY_GLOBAL = {global_name(name): proc for name, proc in BOUNDED_PRIMITIVES.items()}
#: the globals of the compiled step check (``h_step()``, refilled on IndexError)
_STEP_CHECK = frozenset({"h_step", "h_IndexError", "h_refill"})
MAX_INSTRUCTIONS = 400
_MAX_CONSTANT_ITEMS = 1000
_OPCODES = frozenset({
    "RESUME", "NOP", "COPY_FREE_VARS", "LOAD_FAST", "LOAD_DEREF", "LOAD_CONST",
    "LOAD_GLOBAL", "PUSH_NULL", "PRECALL", "CALL", "BINARY_SUBSCR", "BUILD_LIST", "IS_OP",
    "POP_TOP", "JUMP_FORWARD",
    "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE", "POP_JUMP_FORWARD_IF_NONE",
    "POP_JUMP_FORWARD_IF_NOT_NONE", "RETURN_VALUE",
    # the step check's IndexError handler (and COPY only in its ``COPY 3; POP_EXCEPT``)
    "PUSH_EXC_INFO", "CHECK_EXC_MATCH", "POP_EXCEPT", "RERAISE", "COPY",
})
_CONSTANT_CELL = re.compile(r"k\d+\Z")  # how the compiler names constant cells


class StraightLine:
    """The primitives a straight-line hook calls, by global name (see ``holds``)."""

    __slots__ = ("calls",)

    def __init__(self, calls: tuple[tuple[str, object], ...]) -> None:
        self.calls = calls

    def holds(self, globals_: dict) -> bool:
        """Whether every global the hook calls is still the primitive it was."""
        for name, proc in self.calls:  # a loop, not all(): this runs on every dispatch
            if globals_.get(name) is not proc:
                return False
        return True


def straight_line(proc: object) -> StraightLine | None:
    """A ``StraightLine`` when ``proc`` is a compiled one-parameter Scheme procedure that
    cannot run away (see the module docstring); None otherwise."""
    code = getattr(proc, "__code__", None)
    if code is None or not code.co_filename.startswith("scm:"):
        return None
    if code.co_argcount != 1 or code.co_kwonlyargcount or code.co_nlocals != 1 or \
            code.co_cellvars or code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    if any(inspect.iscode(c) for c in code.co_consts):
        return None  # an inner procedure
    instructions = [ins for ins in dis.get_instructions(code) if ins.opname != "CACHE"]
    if len(instructions) > MAX_INSTRUCTIONS:
        return None
    calls: dict[str, object] = {}
    for i, ins in enumerate(instructions):
        if ins.opname not in _OPCODES:
            return None
        if ins.opname == "COPY" and (i + 1 == len(instructions)
                                     or instructions[i + 1].opname != "POP_EXCEPT"):
            return None  # a value used twice could double a structure at each use
        if ins.opname == "LOAD_DEREF" and not _CONSTANT_CELL.match(ins.argval):
            return None  # a variable of an enclosing procedure: anyone may change it
        if ins.opname == "LOAD_GLOBAL" and ins.argval not in _STEP_CHECK:
            primitive = _BY_GLOBAL.get(ins.argval)
            if primitive is None:
                return None
            calls[ins.argval] = primitive
    for var, cell in zip(code.co_freevars, proc.__closure__ or ()):
        if _CONSTANT_CELL.match(var) and not _small_tree(cell):
            return None
    return StraightLine(tuple(calls.items()))


def _small_tree(cell) -> bool:
    """Whether a constant cell holds an acyclic value of at most _MAX_CONSTANT_ITEMS
    pairs and atoms, with no vector or other container."""
    try:
        value = cell.cell_contents
    except ValueError:
        return False
    seen: set[int] = set()
    stack = [value]
    while stack:
        x = stack.pop()
        if type(x) is list:
            if id(x) in seen or len(seen) >= _MAX_CONSTANT_ITEMS:
                return False
            seen.add(id(x))
            stack.extend(x)
        elif x is not NIL and type(x) not in (String, Symbol, bool, int, float, str) \
                and x is not None:
            return False
    return True
