"""Whether a hook procedure can see its payload: a Scheme ``(lambda (p) ...)`` whose body
never refers to ``p`` cannot, so the dispatcher need not convert the payload for it."""

from __future__ import annotations

import dis
import inspect


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
    # Conservative across Python versions: any instruction naming the parameter (newer
    # ones pack two names into one argument) counts as a read, unless it only stores.
    return all(ins.opname == "STORE_FAST" for ins in dis.get_instructions(code)
               if ins.argval == name or (type(ins.argval) is tuple and name in ins.argval))
