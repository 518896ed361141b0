"""Where the folders harness ships beside its package are: ``scheme_lib/`` (the Scheme
libraries), ``tools/`` (the builtin .scm tools) and ``examples/`` (what ``harness demo``
runs).

In a source checkout (and an editable install of one) they sit beside ``harness/``; a
wheel carries them inside the package as ``harness/_shipped/NAME`` (setup.py copies them
there when it builds), since a wheel can install nothing beside a package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def shipped_dir(name: str) -> Path:
    """The shipped folder ``name``: the wheel's copy when there is one, else the source
    checkout's (never a folder of that name that some other distribution installed
    beside the package in site-packages)."""
    installed = _PACKAGE / "_shipped" / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / name
