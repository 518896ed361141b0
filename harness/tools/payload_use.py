"""What a hook procedure can see of its payload, read from its compiled code, so that the
dispatcher converts no more of the payload than the hook can look at (the conversion is
most of a cheap hook's cost).

* A Scheme ``(lambda (p) ...)`` whose body never refers to ``p`` sees nothing: it gets
  ``'()``.
* One whose every use of ``p`` is ``(assoc "KEY" p)`` with a constant string key sees only
  the entries of those keys (what ``assoc`` returns for them is the same): it gets an alist
  of just those entries. That holds while ``assoc`` is the standard procedure and the key
  strings still read as they did, which ``PayloadKeys.hold`` checks before each call.
* So does one that passes ``p`` to procedures of its file that only look it up so (or
  pass it on alike), ``(define (tool-of p) (cdr (assoc "tool_name" p)))``, while its
  globals still name those procedures (``hold`` checks that too).
"""

from __future__ import annotations

import dis
import inspect
from collections.abc import Iterable

from harness.scheme.datatypes import String, frozen_string, is_frozen
from harness.scheme.limits import charge
from harness.scheme.names import global_name
from harness.scheme.primitives.lists import assoc
from harness.tools.hook_bounds import ANALYSIS_STEPS

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
    ``(assoc "KEY" p)`` (through the global ``assoc``) or, as a plain argument, to a
    procedure of its environment that does only that with it (``(tool-of p)``, non-tail:
    a tail call goes through a trampoline); None (it may see all of it) otherwise."""
    code = getattr(proc, "__code__", None)
    if code is None or code.co_argcount != 1:
        return None
    found = _Uses(getattr(proc, "__globals__", None))
    if not found.parameter(proc, 0):
        return None
    return PayloadKeys(tuple(found.keys.values()), tuple(found.callees.items()))


class _Uses:
    """What the procedures a payload is passed through do with it (``parameter``)."""

    def __init__(self, globals_: dict) -> None:
        self.globals = globals_
        self.keys: dict[int, String] = {}
        self.callees: dict[str, object] = {}
        self.seen: set[tuple[object, int]] = set()

    def parameter(self, proc: object, index: int) -> bool:
        """Whether ``proc``'s parameter ``index`` is only ever passed to ``(assoc "KEY"
        _)`` or to procedures that do the same (``keys`` and ``callees`` gain them)."""
        code = getattr(proc, "__code__", None)
        if code is None or not code.co_filename.startswith("scm:"):
            return False
        if code.co_kwonlyargcount or \
                code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            return False
        name = code.co_varnames[index]
        if name in code.co_cellvars:
            return False  # an inner procedure can reach it
        charge(len(code.co_code) * ANALYSIS_STEPS)  # (see hook_bounds.ANALYSIS_STEPS)
        instructions = [ins for ins in dis.get_instructions(code) if ins.opname != "CACHE"]
        constants = _closure_constants(proc)
        for i, ins in enumerate(instructions):
            # Conservative across Python versions: any instruction naming the parameter
            # (newer ones pack two names into one argument) counts as a use.
            if ins.argval != name and not (type(ins.argval) is tuple and name in ins.argval):
                continue
            if ins.opname == "STORE_FAST":
                continue
            key = _assoc_key(instructions, i, constants)
            if key is not None:
                self.keys[id(key)] = key
            elif not self._passed_on(instructions, i):
                return False
        return True

    def _passed_on(self, instructions: list, i: int) -> bool:
        """Whether instruction ``i`` (a read of the parameter) is an argument of a call of
        a global procedure of the same environment whose parameter there is only looked
        up too."""
        call = _global_call(instructions, i)
        if call is None:
            return False
        global_, position, count = call
        callee = self.globals.get(global_)
        code = getattr(callee, "__code__", None)
        if code is None or callee.__globals__ is not self.globals \
                or code.co_argcount != count:
            return False
        if self.callees.get(global_, callee) is not callee:
            return False
        self.callees[global_] = callee
        if (callee, position) in self.seen:  # being or been read: a recursion adds nothing
            return True
        if len(self.seen) >= MAX_CALLEES:
            return False
        self.seen.add((callee, position))
        return self.parameter(callee, position)


#: instructions that push one value and nothing else (a call's plain arguments)
_PLAIN_LOADS = frozenset({"LOAD_FAST", "LOAD_DEREF", "LOAD_CONST"})


def _global_call(instructions: list, i: int) -> tuple[str, int, int] | None:
    """(the global's name, the argument's position, the number of arguments) when
    instruction ``i`` is one of the
    plain arguments of a call of a global, as the compiler writes ``(f a p b)`` when none
    of its arguments is an expression (``LOAD_GLOBAL NULL + f``, the loads, ``PRECALL n``,
    ``CALL n``, with no jump landing in between); else None."""
    start = i
    while start > 0 and instructions[start - 1].opname in _PLAIN_LOADS:
        start -= 1
    if start == 0:
        return None
    fn = instructions[start - 1]
    end = i + 1
    while end < len(instructions) and instructions[end].opname in _PLAIN_LOADS:
        end += 1
    charge(end - start)  # a call of many arguments is walked once per parameter read
    if fn.opname != "LOAD_GLOBAL" or not fn.arg & 1 or end + 1 >= len(instructions):
        return None  # (the low bit: the load pushes the NULL of a call)
    precall, call = instructions[end], instructions[end + 1]
    n = end - start
    if precall.opname != "PRECALL" or precall.arg != n or call.opname != "CALL" \
            or call.arg != n:
        return None
    if any(ins.is_jump_target for ins in instructions[start:end + 2]):
        return None
    return fn.argval, i - start, n


def _assoc_key(instructions: list, i: int, constants: dict) -> String | None:
    """The key string when instruction ``i`` (a read of the parameter) is the second
    argument of a two-argument call of the global ``assoc`` whose first is a constant
    string, as the compiler writes ``(assoc "KEY" p)``; else None."""
    if i < 2 or i + 2 >= len(instructions):
        return None
    fn, key, read, precall, call = instructions[i - 2:i + 3]
    if read.opname != "LOAD_FAST" or fn.opname != "LOAD_GLOBAL" or fn.argval != ASSOC_GLOBAL:
        return None
    if precall.opname != "PRECALL" or precall.arg != 2 or call.opname != "CALL" \
            or call.arg != 2:
        return None
    if key.opname != "LOAD_DEREF":
        return None
    value = constants.get(key.argval)
    return value if type(value) is String else None


def _closure_constants(proc: object) -> dict:
    """The values of the procedure's free variables by name (compiled constants arrive as
    closure cells)."""
    cells = getattr(proc, "__closure__", None) or ()
    values = {}
    for var, cell in zip(proc.__code__.co_freevars, cells):
        try:
            values[var] = cell.cell_contents
        except ValueError:  # an empty cell
            continue
    return values


def entry_keys(texts: Iterable[str]) -> tuple[tuple[str, String | None], ...]:
    """``texts`` (sorted) as (text, key) pairs for bridge.json_entries_to_scheme: the key
    is the shared immutable String of the text, or None where none can be shared (every
    dispatch then makes its own)."""
    out = []
    for text in sorted(texts):
        key = frozen_string(text)
        out.append((text, key if is_frozen(key) else None))
    return tuple(out)
