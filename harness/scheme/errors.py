"""Scheme conditions and the Python exceptions that carry them.

* ``ErrorObject`` is the Scheme error object (``error-object?``): message, irritants, kind.
* ``SchemeError`` is the Python exception that carries any raised Scheme object through
  Python frames; ``guard`` and ``with-exception-handler`` catch it.
* ``ResourceLimitExceeded`` (a ``BaseException``) is what the sandbox raises when a step,
  time, depth or size budget runs out: Scheme code cannot catch it.
"""

from __future__ import annotations


class MessageWriters:
    """How a message writes a raised object (``describe``) and a value (``write``):
    harness.scheme.printer's describe_condition and write_truncated, which the printer puts
    in ``WRITERS`` when it loads (the package imports it first). This module is the bottom
    of the package, below the printer, so it does not import them."""

    __slots__ = ("describe", "write")


WRITERS = MessageWriters()


class SourcePos:
    """A place in a source text: ``file`` name, 1-based ``line`` and ``col``. Frozen: equal
    places compare and hash alike. (A plain class, not a dataclass: ``dataclasses`` imports
    ``inspect``, a tenth of ``harness run``'s start-up; bench/commands.py.)"""

    __slots__ = ("col", "file", "line")

    file: str
    line: int
    col: int

    def __init__(self, file: str, line: int, col: int) -> None:
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "col", col)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a SourcePos is frozen: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not SourcePos:
            return NotImplemented
        return (self.file, self.line, self.col) == (other.file, other.line, other.col)

    def __hash__(self) -> int:
        return hash((self.file, self.line, self.col))

    def __repr__(self) -> str:
        return f"SourcePos(file={self.file!r}, line={self.line!r}, col={self.col!r})"

    def __reduce__(self):  # copy and pickle build a new one (setting fields would raise)
        return SourcePos, (self.file, self.line, self.col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class ErrorObject:
    """An R7RS error object. ``kind`` is 'error', 'read', 'file' or 'syntax'."""

    __slots__ = ("irritants", "kind", "message", "where")

    def __init__(self, message: str, irritants: tuple = (), kind: str = "error",
                 where: SourcePos | None = None) -> None:
        self.message = message
        self.irritants = tuple(irritants)
        self.kind = kind
        self.where = where

    def __repr__(self) -> str:
        return f"#<error {self.message!r}>"


class SchemeError(Exception):
    """A raised Scheme object travelling through Python frames.

    ``payload`` is the object given to ``raise`` (an ``ErrorObject`` for errors signalled by
    ``error`` or by a primitive). ``where`` is the innermost source position known for it.
    ``handled`` is True once the handlers installed by with-exception-handler have seen it.
    A condition ``raise`` sends to a guard without an else clause carries the index of
    its handler-stack entry (``target``) and what re-enters the raise (``reentry``, None
    where it cannot be): run_support.guard_reraising.
    """

    handled = False
    target: int | None = None
    reentry: object = None

    def __init__(self, payload: object, continuable: bool = False,
                 where: SourcePos | None = None) -> None:
        super().__init__(payload)
        self.payload = payload
        self.continuable = continuable
        self.where = where

    @property
    def message(self) -> str:
        return WRITERS.describe(self.payload)

    def __str__(self) -> str:
        return self.message


def error(message: str, *irritants: object, kind: str = "error",
          where: SourcePos | None = None) -> SchemeError:
    """Build (not raise) a SchemeError carrying an ErrorObject; use as ``raise error(...)``."""
    return SchemeError(ErrorObject(message, irritants, kind, where), where=where)


def wrong_type(who: str, expected: str, value: object) -> SchemeError:
    """``who: expected <expected>, got <value>`` — the standard argument-type error."""
    return error(f"{who}: expected {expected}, got {WRITERS.write(value)}", value)


def syntax_error(message: str, where: SourcePos | None, *irritants: object) -> SchemeError:
    return error(message, *irritants, kind="syntax", where=where)


class ReadError(SchemeError):
    """A lexical or syntactic error in Scheme source text."""

    def __init__(self, message: str, where: SourcePos | None) -> None:
        super().__init__(ErrorObject(message, (), "read", where), where=where)


class ResourceLimitExceeded(BaseException):
    """A sandbox budget ran out. Not catchable from Scheme."""

    kind = "resource"

    def __init__(self, message: str, where: SourcePos | None = None) -> None:
        super().__init__(message)
        self.where = where

    @property
    def message(self) -> str:
        return str(self.args[0])


class StepLimitExceeded(ResourceLimitExceeded):
    kind = "steps"


class TimeLimitExceeded(ResourceLimitExceeded):
    kind = "time"


class DepthLimitExceeded(ResourceLimitExceeded):
    kind = "depth"


class SizeLimitExceeded(ResourceLimitExceeded):
    kind = "size"


#: how much of a long source line an excerpt shows around the caret
EXCERPT_WIDTH = 160


def caret_excerpt(source: str | None, where: SourcePos | None) -> str:
    """The source line of ``where`` with a caret under its column ('' if unknown); of a
    long line, EXCERPT_WIDTH characters around the column ("..." marks a cut)."""
    if source is None or where is None:
        return ""
    lines = source.splitlines()
    if not 1 <= where.line <= len(lines):
        return ""
    text = lines[where.line - 1].expandtabs(1)
    col = max(where.col - 1, 0)
    if len(text) > EXCERPT_WIDTH:
        start = max(0, min(col - EXCERPT_WIDTH // 4, len(text) - EXCERPT_WIDTH))
        head = "..." if start else ""
        tail = "..." if start + EXCERPT_WIDTH < len(text) else ""
        text = head + text[start:start + EXCERPT_WIDTH] + tail
        col = col - start + len(head)
    return f"{text}\n{' ' * col}^"
