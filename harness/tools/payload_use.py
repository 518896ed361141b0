"""What a hook procedure can see of its payload, read from its compiled code, so that the
dispatcher converts no more of the payload than the hook can look at (the conversion is
most of a cheap hook's cost).

* A Scheme ``(lambda (p) ...)`` whose body never refers to ``p`` sees nothing: it gets
  ``'()``.
* One whose every use of ``p`` is ``(assoc "KEY" p)`` with a constant string key sees only
  the entries of those keys (what ``assoc`` returns for them is the same): it gets an alist
  of just those entries. That holds while ``assoc`` is the standard procedure and the key
  strings still read as they did, which ``PayloadKeys.hold`` checks before each call.
"""

from __future__ import annotations

import dis
import inspect
from collections.abc import Iterable

from harness.scheme.datatypes import String, frozen_string, is_frozen
from harness.scheme.names import global_name
from harness.scheme.primitives.lists import assoc

#: the global a compiled call to ``assoc`` loads
ASSOC_GLOBAL = global_name("assoc")


class PayloadKeys:
    """The payload keys a hook can look up (``texts``), while ``hold`` is true."""

    __slots__ = ("strings", "texts")

    def __init__(self, strings: tuple[String, ...]) -> None:
        self.strings = strings
        self.texts = frozenset(string.s for string in strings)

    def hold(self, globals_: dict) -> bool:
        """Whether ``assoc`` in the hook's environment is still the standard procedure
        and the key strings (mutable Scheme strings) still read as they did."""
        if globals_.get(ASSOC_GLOBAL) is not assoc:
            return not self.strings  # a hook that never reads its payload needs no assoc
        texts = self.texts
        for string in self.strings:  # a loop, not all(): this runs on every dispatch
            if string.s not in texts:
                return False
        return True


def ignores_argument(proc: object) -> bool:
    """True only for a compiled Scheme procedure of exactly one parameter that its code
    never reads (not even through a closure). Anything else: False (convert as usual)."""
    keys = payload_keys(proc)
    return keys is not None and not keys.strings


def payload_keys(proc: object) -> PayloadKeys | None:
    """The payload keys a one-parameter compiled Scheme procedure can look up: none when
    it never reads its parameter, each ``KEY`` when it only ever passes it to
    ``(assoc "KEY" p)`` (through the global ``assoc``); None (it may see all of it)
    otherwise."""
    code = getattr(proc, "__code__", None)
    if code is None or not code.co_filename.startswith("scm:"):
        return None
    if code.co_argcount != 1 or code.co_kwonlyargcount or \
            code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    name = code.co_varnames[0]
    if name in code.co_cellvars:
        return None  # an inner procedure can reach it
    instructions = [ins for ins in dis.get_instructions(code) if ins.opname != "CACHE"]
    constants = _closure_constants(proc)
    keys: dict[int, String] = {}
    for i, ins in enumerate(instructions):
        # Conservative across Python versions: any instruction naming the parameter (newer
        # ones pack two names into one argument) counts as a use.
        if ins.argval != name and not (type(ins.argval) is tuple and name in ins.argval):
            continue
        if ins.opname == "STORE_FAST":
            continue
        key = _assoc_key(instructions, i, constants)
        if key is None:
            return None
        keys[id(key)] = key
    return PayloadKeys(tuple(keys.values()))


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
