"""Scheme identifiers <-> Python identifiers in compiled code.

Globals are ``s_`` + an escaped name, locals ``v<uid>_`` + an escaped name, runtime helpers
``h_…``: the three can never collide. ASCII letters and digits stay; ``_`` is doubled;
any other character becomes ``_<hex>_``.
"""

from __future__ import annotations

import re

#: the start of the file name of compiled Scheme code (then the Scheme file's name)
SCHEME_CODE_PREFIX = "scm:"

_cache: dict[str, str] = {}
_ESC = re.compile(r"__|_([0-9a-f]+)_")


#: the escape of every ASCII character (str.translate does an ASCII name in one call: a
#: default environment escapes ~800 names, a millisecond of harness run's start char by char)
_ASCII_ESCAPES = {code: (chr(code) if chr(code).isalnum() else "__" if code == 95
                         else f"_{code:x}_") for code in range(128)}


def escape(name: str) -> str:
    if name.isascii():
        return name.translate(_ASCII_ESCAPES)
    out = []
    for ch in name:
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif ch == "_":
            out.append("__")
        else:
            out.append(f"_{ord(ch):x}_")
    return "".join(out)


#: prefix of the globals that hold the unchecked twins of a recursive procedure
#: (``h_twin_1_s_NAME``, ``h_twin_2_s_NAME``..., compiler.py)
TWIN_PREFIX = "h_twin_"


def twin_name(py: str, level: int = 1) -> str:
    """The global that holds the unchecked twin ``level`` of the procedure in global
    ``py`` (level 1: the one the procedure calls, which a new value of ``py`` replaces)."""
    return f"{TWIN_PREFIX}{level}_{py}"


def global_name(name: str) -> str:
    py = _cache.get(name)
    if py is None:
        py = _cache[name] = "s_" + escape(name)
    return py


def unescape(text: str) -> str:
    return _ESC.sub(lambda m: "_" if m.group(0) == "__" else chr(int(m.group(1), 16)), text)


def scheme_name(py: str) -> str:
    """The Scheme name behind a compiled Python name (or the name itself if not ours)."""
    if py.startswith(TWIN_PREFIX):
        py = py.split("_", 3)[3]  # h_twin_2_s_name -> s_name
    if py.startswith("s_"):
        return unescape(py[2:])
    m = re.match(r"v\d+_(.*)$", py)
    if m:
        return unescape(m.group(1))
    return py
