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
from fractions import Fraction

import orjson

from harness.hooks.outcome import NO_ANSWER
from harness.scheme.datatypes import NIL, Char, String, Symbol, Vector, frozen_string

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
    from harness.scheme.numparse import text_to_int
    return json.loads(text, parse_int=text_to_int)


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
    become null (as orjson does); a lone surrogate becomes U+FFFD."""
    try:
        return orjson.dumps(value)
    except TypeError:  # int beyond 64 bits, lone surrogate, non-str key: exact slow path
        huge: list[int] = []
        text = json.dumps(_finite(value, huge), separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
        # integers too long for Python's int->str limit went through as marker strings
        for i, n in enumerate(huge):
            text = text.replace(json.dumps(_huge_marker(i)), _int_text(n), 1)
        # a lone surrogate has no UTF-8 form: U+FFFD stands in for it, as in decoding
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode()


_HUGE_DIGITS = 4000  # below Python's default int->str limit of 4300 digits


def _huge_marker(i: int) -> str:
    return f"\x00harness-huge-int-{i}\x00"


def _int_text(n: int) -> str:
    from harness.scheme.numparse import int_to_text
    return int_to_text(n)


def _finite(value: object, huge: list[int]) -> object:
    """A copy of `value` with NaN / infinities replaced by None (the json module would
    write them as invalid JSON tokens) and integers with more than _HUGE_DIGITS digits by
    marker strings (their values appended to `huge`)."""
    def fix(v: object) -> object:
        if type(v) is float and not math.isfinite(v):
            return None
        if type(v) is int and v.bit_length() > _HUGE_DIGITS * 3.32:
            huge.append(v)
            return _huge_marker(len(huge) - 1)
        return v

    root = [fix(value)]
    stack = [root]
    while stack:
        container = stack.pop()
        pairs = container.items() if type(container) is dict else enumerate(container)
        for key, v in list(pairs):
            t = type(v)
            if t is dict:
                v = dict(v)
                stack.append(v)
            elif t is list or t is tuple:
                v = list(v)
                stack.append(v)
            container[key] = fix(v)
    return root[0]


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
            result = [[frozen_string(k), _fast(x, depth - 1)], result]
        return result
    if t is list:
        if not depth:
            raise _NotFast
        result = NIL
        for x in reversed(v):
            result = [_fast(x, depth - 1), result]
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
        from harness.scheme.printer import write_string  # lazy: the printer is optional here
        text = write_string(x)
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
    inside = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    return f"{where}: answer{inside}" if inside else f"{where}: answer"


def scheme_to_json(value: object, where: str = "hook answer") -> object:
    """A Scheme value as a JSON-like Python value (NO_ANSWER for a top-level '()).

    Raises BridgeError naming `where` (e.g. "pre_tool hook in tools/guard.scm:3") and the
    path of the offending part for a value that has no JSON form (char, procedure, ...).
    """
    if value is NIL or value is None:
        return NO_ANSWER  # '() or an unspecified result: the hook had nothing to say
    converter = _ToJson(where)
    return converter.run(value)


class _ToJson:
    """One conversion: an explicit stack of open containers, each with its path segment."""

    __slots__ = ("open_ids", "stack", "where")

    def __init__(self, where: str) -> None:
        self.where = where
        # frame: [keys or None, scheme values, next index, results, path segment, id]
        self.stack: list[list] = []
        self.open_ids: set[int] = set()

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

    def leaf_or_open(self, x: object, segment: object) -> tuple[bool, object]:
        """(True, json value) for a leaf, or (False, None) after pushing a container frame."""
        t = type(x)
        if t is String:
            return True, x.s
        if t is int or t is float or t is bool:
            return True, x
        if x is NIL:
            return True, []
        if t is list:
            return self.open_list(x, segment)
        if t is Symbol:
            return True, None if x is _NULL else x.name
        if t is Vector:
            return self.open(None, x.items, segment, id(x))
        if t is Fraction:
            return True, int(x) if x.denominator == 1 else float(x)
        if t is str:
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
                seen.setdefault(_key_text(e[0]), e[1])  # like assoc: the first entry wins
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
        return self.open(keys, [v for _, v in items], segment, ident)

    def open(self, keys: list | None, values: list, segment: object,
             ident: int) -> tuple[bool, object]:
        if ident in self.open_ids:
            raise self.error("a value that contains itself has no JSON form", segment)
        self.open_ids.add(ident)
        self.stack.append([keys, values, 0, [], segment, ident])
        return False, None

    def error(self, message: str, segment: object) -> BridgeError:
        path = [f[4] for f in self.stack[1:]] if self.stack else []
        if self.stack and segment is not None:
            path.append(segment)
        return BridgeError(f"{_where(self.where, path)}: {message}")
