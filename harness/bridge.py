"""JSON <-> Scheme values (SPEC §6), and JSON text that keeps big integers exact.

* `json_to_scheme`: object -> alist of (String key . value) in the object's own key order,
  array -> list, null -> the symbol `null`, numbers and booleans as themselves.
* `scheme_to_json`: the reverse for hook answers and tool results: `'()` at top level is
  NO_ANSWER; a proper list of pairs with string/symbol cars is an object; other lists and
  vectors are arrays; hash tables are objects. Anything else raises BridgeError naming
  `where` and the path inside the value.
* `loads` / `dumps`: orjson, with an exact fallback for integers beyond 64 bits (orjson
  reads them as floats and refuses to write them).

Both conversions are iterative (an explicit stack), so deep or long values never hit the
Python recursion limit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction
from json.encoder import encode_basestring

import orjson

from harness.hooks.outcome import NO_ANSWER
from harness.scheme.datatypes import (
    NIL,
    Char,
    String,
    Symbol,
    Vector,
    frozen_string,
)
from harness.scheme.limits import charge

__all__ = ["NO_ANSWER", "BridgeError", "dumps", "json_to_scheme", "loads", "scheme_to_json"]

_NULL = Symbol.intern("null")

class BridgeError(ValueError):
    """A value that has no JSON (or Scheme) form; the message says where it was found."""


# --- JSON text ----------------------------------------------------------------------------


def loads(text: bytes | str) -> object:
    """Parse JSON text; integers of any size stay exact. Raises ValueError on bad JSON."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if "infinity" not in str(exc):
            raise
        return _exact_loads(text)  # an integer too big even for a double
    # orjson reads an integer beyond 64 bits as a float; a walk over the parsed value is
    # far cheaper than scanning the text for long digit runs with `re`.
    return _exact_loads(text) if _has_lossy_float(value) else value


def _exact_loads(text: bytes | str) -> object:
    from harness.scheme.errors import SizeLimitExceeded
    from harness.scheme.numparse import text_to_int

    def exact(digits: str) -> int:
        if digits[0] == "-":  # text_to_int reads digits without a sign
            return -text_to_int(digits[1:])
        return text_to_int(digits)

    try:
        return json.loads(text, parse_int=exact)
    except SizeLimitExceeded as exc:  # (a BaseException: the caller expects ValueError)
        raise ValueError(f"invalid JSON: {exc.message}") from None


def _has_lossy_float(value: object) -> bool:
    """True if some float in `value` is integral and beyond 2**63 (a rounded big integer)."""
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is float:
            if math.isfinite(v) and v.is_integer() and abs(v) >= 2.0 ** 63:
                return True
        elif t is dict:
            stack.extend(v.values())
        elif t is list:
            stack.extend(v)
    return False


def dumps(value: object) -> bytes:
    """Compact JSON (UTF-8 bytes). Big integers are written exactly; NaN and infinities
    become null (as orjson does); a lone surrogate becomes U+FFFD. Values of any depth:
    what orjson refuses goes to an iterative encoder (``json.dumps`` recurses in C)."""
    try:
        return orjson.dumps(value)
    except TypeError:  # int beyond 64 bits, lone surrogate, non-str key, over 254 levels
        text = _encode(value)
        # a lone surrogate has no UTF-8 form: U+FFFD stands in for it, as in decoding
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


class _Token(str):
    """Punctuation and encoded keys on the encoder's stack (not values to encode)."""

    __slots__ = ()


_OPEN_OBJECT, _CLOSE_OBJECT = _Token("{"), _Token("}")
_OPEN_ARRAY, _CLOSE_ARRAY = _Token("["), _Token("]")
_COMMA = _Token(",")


def _encode(value: object) -> str:
    """JSON text of a JSON-like value with an explicit stack (no recursion at all)."""
    out: list[str] = []
    emit = out.append
    stack: list = [value]
    push = stack.append
    while stack:
        v = stack.pop()
        t = type(v)
        if t is _Token:
            emit(v)
        elif t is str:
            emit(encode_basestring(v))
        elif v is None or v is True or v is False:
            emit("null" if v is None else "true" if v else "false")
        elif t is int or (isinstance(v, int) and t is not bool):
            emit(_int_text(int(v)))
        elif t is float or isinstance(v, float):
            emit(float.__repr__(v) if math.isfinite(v) else "null")
        elif isinstance(v, dict):
            push(_CLOSE_OBJECT)
            items = list(v.items())
            for i in range(len(items) - 1, -1, -1):
                key, item = items[i]
                push(item)
                push(_Token(encode_basestring(_key_string(key)) + ":"))
                if i:
                    push(_COMMA)
            emit(_OPEN_OBJECT)
        elif isinstance(v, (list, tuple)):
            push(_CLOSE_ARRAY)
            for i in range(len(v) - 1, -1, -1):
                push(v[i])
                if i:
                    push(_COMMA)
            emit(_OPEN_ARRAY)
        elif isinstance(v, str):
            emit(encode_basestring(str(v)))
        else:
            raise TypeError(f"Type is not JSON serializable: {t.__name__}")
    return "".join(out)


def _key_string(key: object) -> str:
    """An object key as json.dumps writes it (str, or the JSON text of a scalar)."""
    if isinstance(key, str):
        return str(key)
    if key is None or key is True or key is False:
        return "null" if key is None else "true" if key else "false"
    if isinstance(key, int):
        return _int_text(int(key))
    if isinstance(key, float):
        return float.__repr__(key)
    raise TypeError(f"Dict key must be str, not {type(key).__name__}")


_REPR_DIGITS = 4000  # below Python's default int->str limit of 4300 digits


def _int_text(n: int) -> str:
    if n.bit_length() < _REPR_DIGITS * 3.32:
        return int.__repr__(n)
    from harness.scheme.numparse import int_to_text
    return int_to_text(n)


# --- JSON values -> Scheme -----------------------------------------------------------------


def _scheme_leaf(v: object) -> object:
    t = type(v)
    if t is str:
        return String(v)
    if t is int or t is float or t is bool:
        return v
    if v is None:
        return _NULL
    if isinstance(v, str):
        return String(str(v))
    if isinstance(v, (int, float)):
        return v
    raise BridgeError(f"cannot convert a Python {type(v).__name__} to a Scheme value")


class _NotFast(Exception):
    """The value is too deep or too unusual for the recursive fast path."""


_FAST_DEPTH = 200


def _fast(v: object, depth: int) -> object:
    t = type(v)
    if t is str:
        return String(v)
    if t is dict:
        if not depth:
            raise _NotFast
        result = NIL
        for k, x in reversed(v.items()):
            if type(k) is not str:
                raise _NotFast
            # a string or number value without a call: most values are
            t = type(x)
            if t is str:
                x = String(x)
            elif t is not int and t is not float and t is not bool:
                x = _fast(x, depth - 1)
            result = [[frozen_string(k), x], result]
        return result
    if t is list:
        if not depth:
            raise _NotFast
        result = NIL
        for x in reversed(v):
            t = type(x)
            if t is str:
                x = String(x)
            elif t is not int and t is not float and t is not bool:
                x = _fast(x, depth - 1)
            result = [x, result]
        return result
    if t is int or t is float or t is bool:
        return v
    if v is None:
        return _NULL
    raise _NotFast


def json_to_scheme(value: object) -> object:
    """A JSON-like Python value (dict, list, str, int, float, bool, None) as a Scheme value."""
    try:
        # Most payloads are shallow: plain recursion is ~3x faster than the general loop.
        return _fast(value, _FAST_DEPTH)
    except _NotFast:
        pass
    if not isinstance(value, (dict, list, tuple)):
        return _scheme_leaf(value)
    # frame: [keys or None, values, next index, converted values]
    stack = [_frame(value)]
    while True:
        frame = stack[-1]
        values = frame[1]
        out = frame[3]
        i = frame[2]
        n = len(values)
        while i < n:
            v = values[i]
            i += 1
            t = type(v)
            if t is str:
                out.append(String(v))
            elif t is dict or t is list or t is tuple or isinstance(v, (dict, list, tuple)):
                break
            else:
                out.append(_scheme_leaf(v))
        else:
            stack.pop()
            built = _build_scheme(frame[0], out)
            if not stack:
                return built
            stack[-1][3].append(built)
            continue
        frame[2] = i
        stack.append(_frame(v))


def json_entries_to_scheme(obj: dict, keys: Sequence[tuple[str, String | None]]) -> object:
    """The alist ``json_to_scheme(obj)`` gives for the JSON object ``obj``, with only the
    entries under ``keys`` and in their order (for a hook that can only look those up, so
    the order is not seen). ``keys`` holds (text, String) pairs (payload_use.entry_keys):
    the String is the entry's key, shared by every call, so it must be immutable
    (``frozen_string``); None makes a fresh String per call."""
    result = NIL
    for text, key in keys:
        v = obj.get(text, _ABSENT)
        if v is not _ABSENT:
            result = [[String(text) if key is None else key,
                       String(v) if type(v) is str else json_to_scheme(v)], result]
    return result


_ABSENT = object()


def _frame(container: dict | list | tuple) -> list:
    if isinstance(container, dict):
        return [list(container.keys()), list(container.values()), 0, []]
    return [None, container, 0, []]


def _build_scheme(keys: list | None, values: list) -> object:
    result = NIL
    if keys is None:
        for v in reversed(values):
            result = [v, result]
        return result
    for k, v in zip(reversed(keys), reversed(values)):
        result = [[frozen_string(k if type(k) is str else str(k)), v], result]
    return result


# --- Scheme values -> JSON -----------------------------------------------------------------


def _is_key(x: object) -> bool:
    return type(x) is String or type(x) is Symbol


def _key_text(x: object) -> str:
    return x.s if type(x) is String else x.name


def _describe(x: object) -> str:
    """A short description of a Scheme value for an error message."""
    try:
        from harness.scheme.printer import write_truncated  # lazy: the printer is optional
        text = write_truncated(x, 60)
    except Exception:  # noqa: BLE001 - a description must never hide the real error
        text = type(x).__name__
    if len(text) > 60:
        text = text[:57] + "..."
    if isinstance(x, Char):
        return f"a character ({text})"
    if callable(x):
        return f"a procedure ({text})"
    if x is None:
        return "the unspecified value"
    return text


def _where(where: str, path: list) -> str:
    inside = "".join(f"[{p}]" if isinstance(p, int) else "..." if p == "..." else f".{p}"
                     for p in path)
    return f"{where}: answer{inside}" if inside else f"{where}: answer"


#: how deep a hook answer may nest (orjson writes up to 254 levels, and the answer sits a
#: few levels down in a dispatch result)
ANSWER_DEPTH = 200
#: values and keys an answer may hold, counted as converted: shared structure counts each
#: time it is reached, so a small DAG cannot expand into an exponential answer
ANSWER_NODES = 250_000
#: characters of text (strings, keys, digits) an answer may hold
ANSWER_CHARS = 64 * 1024 * 1024
#: ``json-stringify`` writes text for Scheme, not data for the host: it may nest as deep
#: as the reader reads
TEXT_DEPTH = 10_000
_CHARGE_EVERY = 1024  # converted values per charge against the running budget


def scheme_to_json(value: object, where: str = "hook answer", max_depth: int = ANSWER_DEPTH,
                   max_nodes: int = ANSWER_NODES, max_chars: int = ANSWER_CHARS) -> object:
    """A Scheme value as a JSON-like Python value (NO_ANSWER for a top-level '()).

    Raises BridgeError naming `where` (e.g. "pre_tool hook in tools/guard.scm:3") and the
    path of the offending part for a value that has no JSON form (char, procedure, ...),
    nests more than ``max_depth`` levels, or holds more than ``max_nodes`` values or
    ``max_chars`` characters of text. The conversion counts against the running budget.
    """
    if value is NIL or value is None:
        return NO_ANSWER  # '() or an unspecified result: the hook had nothing to say
    converter = _ToJson(where, max_depth, max_nodes, max_chars)
    return converter.run(value)


class _ToJson:
    """One conversion: an explicit stack of open containers, each with its path segment."""

    __slots__ = ("chars", "max_chars", "max_depth", "max_nodes", "nodes", "open_ids",
                 "stack", "where")

    def __init__(self, where: str, max_depth: int, max_nodes: int, max_chars: int) -> None:
        self.where = where
        # frame: [keys or None, scheme values, next index, results, path segment, id]
        self.stack: list[list] = []
        self.open_ids: set[int] = set()
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.max_chars = max_chars
        self.nodes = 0
        self.chars = 0

    def run(self, value: object) -> object:
        done, result = self.leaf_or_open(value, None)
        if done:
            return result
        stack = self.stack
        while True:
            frame = stack[-1]
            values = frame[1]
            out = frame[3]
            i = frame[2]
            n = len(values)
            opened = False
            while i < n:
                key = frame[0][i] if frame[0] is not None else i
                done, result = self.leaf_or_open(values[i], key)
                i += 1
                if not done:
                    opened = True
                    break
                out.append(result)
            frame[2] = i
            if opened:
                continue
            stack.pop()
            self.open_ids.discard(frame[5])
            built = dict(zip(frame[0], out)) if frame[0] is not None else out
            if not stack:
                return built
            stack[-1][3].append(built)

    def count(self, chars: int, segment: object) -> None:
        """One more value (with ``chars`` characters of text): charge the budget now and
        then, and refuse an answer past the caps."""
        self.nodes += 1
        if chars:
            self.chars += chars
            if self.chars > self.max_chars:
                raise self.error(f"holds more than {self.max_chars:,} characters of text",
                                 segment)
        if self.nodes % _CHARGE_EVERY == 0:
            if self.nodes > self.max_nodes:
                raise self.error(f"holds more than {self.max_nodes:,} values (shared "
                                 "structure counts each time it is reached)", segment)
            charge(_CHARGE_EVERY)

    def leaf_or_open(self, x: object, segment: object) -> tuple[bool, object]:
        """(True, json value) for a leaf, or (False, None) after pushing a container frame."""
        t = type(x)
        if t is String:
            self.count(len(x.s), segment)
            return True, x.s
        if t is int:
            self.count(x.bit_length() // 3 if x > 0xFFFFFFFF or x < -0xFFFFFFFF else 0,
                       segment)
            return True, x
        if t is float or t is bool:
            self.count(0, segment)
            return True, x
        if x is NIL:
            self.count(0, segment)
            return True, []
        if t is list:
            return self.open_list(x, segment)
        if t is Symbol:
            self.count(len(x.name), segment)
            return True, None if x is _NULL else x.name
        if t is Vector:
            return self.open(None, x.items, segment, id(x))
        if t is Fraction:
            self.count(0, segment)
            return True, int(x) if x.denominator == 1 else float(x)
        if t is str:
            self.count(len(x), segment)
            return True, x
        if t is dict:
            return self.open_table(list(x.items()), segment, id(x))
        if t is not Char and callable(getattr(x, "items", None)) and not callable(x):
            return self.open_table(list(x.items()), segment, id(x))
        raise self.error(f"{_describe(x)} has no JSON form", segment)

    def open_list(self, x: list, segment: object) -> tuple[bool, object]:
        elements = []
        slow = x
        node = x
        while type(node) is list:
            elements.append(node[0])
            node = node[1]
            if len(elements) % 2 == 0:
                slow = slow[1]
                if slow is node:
                    raise self.error("a circular list has no JSON form", segment)
        if node is not NIL:
            raise self.error(f"an improper list (ending in . {_describe(node)}) has no "
                             "JSON form", segment)
        if all(type(e) is list and _is_key(e[0]) for e in elements):
            seen: dict[str, object] = {}
            for e in elements:
                key = _key_text(e[0])
                if key not in seen:  # like assoc: the first entry wins
                    self.count(len(key), segment)
                    seen[key] = e[1]
            return self.open(list(seen.keys()), list(seen.values()), segment, id(x))
        return self.open(None, elements, segment, id(x))

    def open_table(self, items: list, segment: object, ident: int) -> tuple[bool, object]:
        keys = []
        for k, _ in items:
            if _is_key(k):
                keys.append(_key_text(k))
            elif type(k) is str:
                keys.append(k)
            else:
                raise self.error(f"hash table key {_describe(k)} is not a string or symbol",
                                 segment)
            self.count(len(keys[-1]), segment)
        return self.open(keys, [v for _, v in items], segment, ident)

    def open(self, keys: list | None, values: list, segment: object,
             ident: int) -> tuple[bool, object]:
        if ident in self.open_ids:
            raise self.error("a value that contains itself has no JSON form", segment)
        if len(self.stack) >= self.max_depth:
            raise self.error(f"nested more than {self.max_depth} levels deep", segment)
        self.count(0, segment)
        self.open_ids.add(ident)
        self.stack.append([keys, values, 0, [], segment, ident])
        return False, None

    def error(self, message: str, segment: object) -> BridgeError:
        path = [f[4] for f in self.stack[1:]] if self.stack else []
        if self.stack and segment is not None:
            path.append(segment)
        if len(path) > 12:  # a deep path is mostly noise: its start and its end
            path = [*path[:4], "...", *path[-6:]]
        return BridgeError(f"{_where(self.where, path)}: {message}")
