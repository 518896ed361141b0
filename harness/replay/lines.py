"""Reading a JSONL file line by line, where any line may be broken.

`json_lines(path)` yields ``(line_number, object)`` for every line that is a JSON object
and a `Problem` for every other non-blank line: not JSON, not an object, not UTF-8, or
cut short (the last line of a file still being written). Nothing here raises for what is
in the file; a file that cannot be opened is one problem at line 0.
"""

from __future__ import annotations

from collections.abc import Iterator

from harness.bridge import loads
from harness.replay.events import Problem

__all__ = ["json_lines"]


def json_lines(path: str) -> Iterator[tuple[int, dict] | Problem]:
    """The lines of ``path`` as objects or problems (see the module doc)."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as exc:
        yield Problem(path, 0, f"cannot read: {exc.strerror or exc}")
        return
    lines = data.split(b"\n")
    last = len(lines)
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            value = loads(raw)
        except ValueError as exc:
            if number == last:  # no newline after it: the writer stopped mid-line
                yield Problem(path, number, "truncated line (the file ends inside a JSON "
                                            "value): skipped")
            else:
                yield Problem(path, number, f"not JSON ({_short(exc)}): skipped")
            continue
        if not isinstance(value, dict):
            yield Problem(path, number, f"a JSON {type(value).__name__}, not an object: "
                                        "skipped")
            continue
        yield number, value


def _short(exc: ValueError) -> str:
    return str(exc).splitlines()[0][:120]
