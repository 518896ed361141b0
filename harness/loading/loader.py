"""Loading a tool file, whatever its language: one interface over three loaders.

``.scm`` files are evaluated by the Scheme loader (harness.loading.scheme_loader) in their
tier; ``.py`` and ``.hy`` files run as Python modules (harness.loading.python_loader), in
the unsandboxed tier only. Every loader returns a ``FileRegistration`` (what the file
registered) or raises ``ToolLoadError`` (FILE:LINE:COL: …); the runtime, hot reload,
``harness check`` and the REPL's ``,load`` all come through here.
"""

from __future__ import annotations

from pathlib import Path

from harness.loading.load_error import ToolLoadError
from harness.loading.registry import FileRegistration
from harness.sandbox.scheme_calls import Limits
from harness.scheme.errors import ReadError
from harness.scheme.parse_cache import ParseCache
from harness.scheme.source_text import decode_source

__all__ = ["TOOL_SUFFIXES", "ToolLoadError", "is_tool_file_name", "load_tool_file",
           "load_tool_source"]

#: the suffixes of tool files, in no particular order (files load in path order)
TOOL_SUFFIXES = (".scm", ".hy", ".py")


def is_tool_file_name(name: str) -> bool:
    """True when ``name`` ends with a tool file suffix."""
    return name.endswith(TOOL_SUFFIXES)


def load_tool_source(path: str, text: str, tier: str, limits: Limits,
                     parse_cache: ParseCache | None = None, *,
                     home: Path | None = None) -> FileRegistration:
    """Evaluate ``text`` (the contents of ``path``) with the loader of its suffix and return
    what it registered. ``parse_cache`` spares re-reading an unchanged ``.scm`` text. The
    sources of what it registers name ``path`` relative to ``home`` when it is in it."""
    if path.endswith(".scm"):
        from harness.loading.scheme_loader import load_scheme_source
        return load_scheme_source(path, text, tier, limits, parse_cache, home=home)
    if path.endswith((".py", ".hy")):
        from harness.loading.python_loader import load_python_source
        return load_python_source(path, text, tier, limits, home=home)
    raise ToolLoadError(path, f"{path}: not a tool file (expected one of "
                              f"{', '.join(TOOL_SUFFIXES)})")


def load_tool_file(path: Path, tier: str, limits: Limits,
                   parse_cache: ParseCache | None = None, *,
                   home: Path | None = None) -> FileRegistration:
    """Read and evaluate the tool file ``path`` (see ``load_tool_source``)."""
    try:
        text = decode_source(path.read_bytes(), str(path))
    except OSError as exc:
        raise ToolLoadError(str(path), f"{path}: cannot read: {exc}") from None
    except ReadError as exc:
        raise ToolLoadError(str(path), f"{exc.where}: {exc.message}") from None
    return load_tool_source(str(path), text, tier, limits, parse_cache, home=home)
