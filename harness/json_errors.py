"""A JSON syntax error as harness reports every error in a text: ``WHERE:LINE:COL: invalid
JSON: message``, the line and a caret. Every JSON harness reads goes through orjson (or
harness.bridge.loads, which is orjson too), and every place that reports bad JSON says it
this way: a payload given to ``harness fire`` (WHERE ``payload``), a fixture, a REPL
``,fire``, a plugin's ``--schema`` output, hooks.toml-declared JSON files, serve's input.
"""

from __future__ import annotations

import orjson

from harness.scheme.errors import SourcePos, caret_excerpt


def json_error(where: object, text: str | bytes, exc: ValueError) -> str:
    """orjson's error ``exc`` on ``text`` (the contents of ``where``: a file path, or a name
    such as ``payload``) as ``WHERE:LINE:COL: invalid JSON: message`` with the line and a
    caret. A trailing comma, which orjson at times reports past the closing bracket, is named and
    pointed at."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if not isinstance(exc, orjson.JSONDecodeError):
        return f"{where}: invalid JSON: {exc}"
    message, pos = exc.msg, exc.pos
    comma = _trailing_comma(text, pos)
    if comma is not None:
        message, pos = "trailing comma is not allowed", comma
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    excerpt = caret_excerpt(text, SourcePos(str(where), line, col))
    return f"{where}:{line}:{col}: invalid JSON: {message}" + (f"\n{excerpt}" if excerpt
                                                                else "")


def _trailing_comma(text: str, pos: int) -> int | None:
    """The index of a comma just before the closing bracket at or before ``pos``, if any."""
    head = text[:pos + 1].rstrip()
    if not head.endswith(("}", "]")):
        return None
    head = head[:-1].rstrip()
    return len(head) - 1 if head.endswith(",") else None
