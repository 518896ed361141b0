"""Whether a hook procedure can see its payload: a Scheme ``(lambda (p) ...)`` whose body
never refers to ``p`` cannot, so the dispatcher need not convert the payload for it."""

from __future__ import annotations

import dis
import inspect

_READS = frozenset({"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_AND_CLEAR", "LOAD_CLOSURE",
                    "LOAD_DEREF", "DELETE_FAST"})


def ignores_argument(proc: object) -> bool:
    """True only for a compiled Scheme procedure of exactly one parameter that its code
    never reads (not even through a closure). Anything else: False (convert as usual)."""
    code = getattr(proc, "__code__", None)
    if code is None or not code.co_filename.startswith("scm:"):
        return False
    if code.co_argcount != 1 or code.co_kwonlyargcount or \
            code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return False
    name = code.co_varnames[0]
    if name in code.co_cellvars:
        return False
    return not any(ins.opname in _READS and ins.argval == name
                   for ins in dis.get_instructions(code))
