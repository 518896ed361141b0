"""Turn Python-level failures inside compiled code into Scheme conditions with positions.

Compiled code carries Scheme positions (compiler.py), so the innermost compiled frame of a
traceback tells where in the Scheme source an error happened. Inlined primitives fail with
Python's own TypeError; the source text at that position names the primitive.
"""

from __future__ import annotations

import re
from types import FrameType, TracebackType

from harness.scheme.errors import ErrorObject, SchemeError, SourcePos
from harness.scheme.names import SCHEME_CODE_PREFIX, scheme_name
from harness.scheme.printer import MAX_MESSAGE_CHARS

#: source name -> text, for carets and for naming inlined primitives
SOURCES: dict[str, str] = {}

_TYPE_NAMES = {
    "int": "an integer", "float": "a real number", "Fraction": "a rational number",
    "complex": "a complex number", "ExactComplex": "a complex number", "bool": "a boolean", "String": "a string",
    "Symbol": "a symbol", "Char": "a character", "Vector": "a vector",
    "Bytevector": "a bytevector", "list": "a pair", "Nil": "the empty list ()",
    "NoneType": "the unspecified value", "function": "a procedure", "Values": "multiple values",
    "Eof": "an eof object", "HashTable": "a hash table", "Promise": "a promise",
    "ErrorObject": "an error object",
}


def register_source(name: str, text: str) -> None:
    SOURCES[name] = text


def describe_type(type_name: str) -> str:
    if type_name.startswith("record:"):
        return f"a {type_name[7:]} record"
    return _TYPE_NAMES.get(type_name, f"a {type_name}")


def locate(exc: BaseException) -> SourcePos | None:
    """The innermost Scheme source position in ``exc``'s traceback."""
    return locate_tb(exc.__traceback__)


def locate_tb(tb: TracebackType | None) -> SourcePos | None:
    # After a deep recursion the traceback has a million entries: find the innermost Scheme
    # frames by walking the links, and decode code positions only for those.
    scheme_frames = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(SCHEME_CODE_PREFIX):
            scheme_frames.append(tb)
            if len(scheme_frames) > 8:
                del scheme_frames[:4]
        tb = tb.tb_next
    for entry in reversed(scheme_frames):
        code = entry.tb_frame.f_code
        pos = _position(code, entry.tb_lasti)
        if pos is not None:
            return SourcePos(code.co_filename[len(SCHEME_CODE_PREFIX):], pos[0], pos[1])
    return None


def locate_caller(frame: FrameType | None, library_dir: str) -> SourcePos | None:
    """The Scheme source position where the innermost compiled frame from ``frame``
    outwards whose source is not under ``library_dir`` waits: where a program called into
    harness's own Scheme libraries (an argument error of theirs is the caller's)."""
    library = SCHEME_CODE_PREFIX + library_dir
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(SCHEME_CODE_PREFIX) and not name.startswith(library):
            pos = _position(frame.f_code, frame.f_lasti)
            if pos is not None:
                return SourcePos(name[len(SCHEME_CODE_PREFIX):], pos[0], pos[1])
        frame = frame.f_back
    return None


def _position(code, lasti: int) -> tuple[int, int] | None:
    for i, (line, _end, col, _ecol) in enumerate(code.co_positions()):
        if i * 2 == lasti:
            if line is None:
                return None
            return line, (col or 0)
    return None


def _operator_at(where: SourcePos | None) -> str | None:
    """The operator of the form at ``where`` in its source text, e.g. 'car'."""
    if where is None:
        return None
    text = SOURCES.get(where.file)
    if text is None:
        return None
    lines = text.splitlines()
    if not 1 <= where.line <= len(lines):
        return None
    m = re.match(r"\(\s*([^\s()'\"]+)", lines[where.line - 1][max(where.col - 1, 0):])
    return m.group(1) if m else None


# Python's arity messages, as patterns: re compiles one (and caches it) when a call first
# fails, not at every start
_ARITY = [
    (r"(\S+)\(\) takes (\d+) positional arguments? but (\d+) (?:was|were) given",
     lambda m: (m[1], f"expected {m[2]} argument{'s' if m[2] != '1' else ''}, got {m[3]}")),
    (r"(\S+)\(\) takes from (\d+) to (\d+) positional arguments but (\d+) were given",
     lambda m: (m[1], f"expected {m[2]} to {m[3]} arguments, got {m[4]}")),
    (r"(\S+)\(\) missing (\d+) required positional arguments?: (.*)",
     lambda m: (m[1], f"missing {m[2]} argument{'s' if m[2] != '1' else ''}")),
    (r"(\S+)\(\) takes no arguments \((\d+) given\)",
     lambda m: (m[1], f"expected no arguments, got {m[2]}")),
    (r"(\S+) expected at most (\d+) arguments?, got (\d+)",
     lambda m: (m[1], f"expected at most {m[2]} arguments, got {m[3]}")),
    (r"(\S+) expected (?:at least )?(\d+) arguments?, got (\d+)",
     lambda m: (m[1], f"expected {m[2]} arguments, got {m[3]}")),
]


def _proc_name(py: str) -> str:
    py = py.split(".")[-1]
    py = py.removesuffix("_b")
    name = scheme_name(py)
    if re.fullmatch(r"t\d+(_.*)?", py):
        rest = py.split("_", 1)[1] if "_" in py else ""
        return scheme_name("s_" + rest) if rest else "#<procedure>"
    return name


def condition_from_native(exc: BaseException) -> ErrorObject:
    """An ErrorObject describing a Python exception raised by compiled code."""
    where = locate(exc)
    msg = str(exc)
    text = _native_message(exc, msg, where)
    return ErrorObject(text, (), "error", where)


def _native_message(exc: BaseException, msg: str, where: SourcePos | None) -> str:
    if isinstance(exc, NameError):
        name = getattr(exc, "name", None) or msg
        m = re.search(r"'([^']+)'", msg)
        py = m.group(1) if m else name
        if "referenced before assignment" in msg or "not associated with a value" in msg:
            return f"variable {scheme_name(py)} used before its definition"
        return f"unbound variable: {scheme_name(py)}"
    if isinstance(exc, ZeroDivisionError):
        op = _operator_at(where) or "/"
        return f"{op}: division by zero"
    if isinstance(exc, IndexError) and _operator_at(where) in _INDEXED:
        # an inlined vector-ref or vector-set! past the end (inline.py: _indexes_vector)
        return f"{_operator_at(where)}: index out of range"
    if isinstance(exc, TypeError):
        for pattern, fmt in _ARITY:
            m = re.search(pattern, msg)
            if m:
                who, detail = fmt(m)
                return f"{_proc_name(who)}: {detail}"
        m = re.match(r"'(\w+)' object is not subscriptable", msg)
        if m:
            op = _operator_at(where) or "car"
            return f"{op}: expected a pair, got {_describe_value_of_type(m[1])}"
        m = re.match(r"'(\w+)' object is not callable", msg)
        if m:
            return f"attempt to apply non-procedure ({describe_type(m[1])})"
        m = re.match(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'", msg)
        if m:
            op = _operator_at(where) or m[1]
            return (f"{op}: expected numbers, got {describe_type(m[2])} and "
                    f"{describe_type(m[3])}")
        m = re.match(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'", msg)
        if m:
            op = _operator_at(where) or m[1]
            return (f"{op}: expected real numbers, got {describe_type(m[2])} and "
                    f"{describe_type(m[3])}")
        m = re.match(r"bad operand type for unary (\S+): '(\w+)'", msg)
        if m:
            # also the check inlined arithmetic and comparisons make (inline.py)
            op = _operator_at(where) or m[1]
            return f"{op}: expected a number, got {describe_type(m[2])}"
        m = re.match(r'can only concatenate (\w+) \(not "(\w+)"\) to', msg)
        if m:
            op = _operator_at(where) or "+"
            return f"{op}: expected numbers, got {describe_type(m[1])} and {describe_type(m[2])}"
        m = re.match(r"can't multiply sequence by non-int of type '(\w+)'", msg)
        if m:
            return f"*: expected numbers, got {describe_type(m[1])}"
    op = _operator_at(where)
    prefix = f"{op}: " if op else ""
    if isinstance(exc, (MemoryError, OverflowError, RecursionError)) or not msg:
        # Python's name of the failure means nothing to a Scheme programmer
        return prefix + _PLAIN_FAILURES.get(type(exc).__name__, "internal error")
    return f"{prefix}{msg[:MAX_MESSAGE_CHARS]}"


#: the inlined primitives whose index past the end is Python's IndexError
_INDEXED = ("vector-ref", "vector-set!")

_PLAIN_FAILURES = {
    "MemoryError": "out of memory", "OverflowError": "number too large",
    "RecursionError": "recursion too deep", "ZeroDivisionError": "division by zero",
    "KeyError": "no such key", "IndexError": "index out of range",
}


def _describe_value_of_type(type_name: str) -> str:
    if type_name == "Nil":
        return "()"
    if type_name == "bool":  # (the inlined car/cdr does not keep which one)
        return "a boolean (#f or #t; assoc and member answer #f when nothing matches)"
    return describe_type(type_name)


def payload_of(exc: BaseException) -> object:
    """The Scheme object an exception stands for (a condition for Python errors)."""
    if isinstance(exc, SchemeError):
        return exc.payload
    return condition_from_native(exc)
