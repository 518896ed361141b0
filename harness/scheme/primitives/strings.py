"""Strings and symbols: (scheme base) and (scheme char) string procedures, plus SRFI 130
style utilities (``string-index``, ``string-split``, ``string-join``…): the native part of
(srfi 130) (also named (harness strings)).

A ``String`` holds its text in ``.s`` (a Python ``str``), so ``string-ref`` is O(1) and
the whole-string operations run at C speed; the mutators rebuild ``.s``. Indexes returned
by the SRFI 130 procedures are plain integers (``#f`` when nothing is found).

The procedures that call a procedure of the program are Scheme where it measured close
enough, so that they count their steps and re-enter with nothing written for them here
or in continuations.py (issue 28). Measured side by side with ``bench/resumable_primitives.py``
(sandboxed, a Scheme procedure argument; time in Scheme / time of the loop that was here):

* ``string-for-each`` is scheme_lib/scheme/base/walks.sld, which (scheme base) exports:
  1.42-1.50 over 1,000 characters (with ``char-upcase``), 1.21-1.24 over 10;
* the searches, counts, splits and trims with a predicate are scheme_lib/srfi/130.sld,
  over ``chars-in-range`` and the native searches by a character here (in (srfi 130
  private)): over 1,000 characters ``string-index`` 1.12-1.14, ``string-rindex``
  1.08-1.09, ``string-count`` 1.09-1.10, ``string-trim`` 0.98-1.01, ``-left``/``-right``
  1.08-1.11, a ``string-split`` of 600 characters 1.30-1.34; over 10 characters
  ``string-index`` 1.6-1.8 (the call of a Scheme procedure and the vector of characters),
  and by a character (native still, through the Scheme procedure) 1.44-1.45. The first
  use in a process also loads scheme_lib/srfi/130.sld (~7 ms with a warm parse cache) and
  compiles what it uses (a few ms);
* kept here: ``string-map``, 1.4-2.3 in Scheme (over 10 and 1,000 characters, with
  ``char-upcase``; 2.5 with the identity): each result is checked to be a character and
  the string built from a list of them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from harness.scheme.datatypes import (
    DEFAULT,
    NIL,
    Bytevector,
    Char,
    String,
    Symbol,
    Vector,
    is_frozen,
    py_to_list,
)
from harness.scheme.errors import SchemeError, SizeLimitExceeded, error, wrong_type
from harness.scheme.limits import MAX_ALLOC, charge, charge_alloc, charge_bulk
from harness.scheme.primitives import primitive
from harness.scheme.primitives.chars import WHITESPACE, char_arg
from harness.scheme.primitives.lists import (
    PAIR_BYTES,
    map_then,
    proper_items,
)
from harness.scheme.primitives.numbers import as_int

BASE = "scheme base"
CHAR = "scheme char"
#: the native part of (srfi 130): scheme_lib/srfi/130.sld imports and re-exports it
SRFI_130 = "srfi 130 core"
#: what scheme_lib/srfi/130.sld builds its walks on (not re-exported as such)
SRFI_130_PRIVATE = "srfi 130 private"


# -- argument checks -----------------------------------------------------------------------

def _text(who: str, x: object) -> str:
    if type(x) is not String:
        raise wrong_type(who, "a string", x)
    return x.s


def _mutable_string(who: str, x: object) -> String:
    if type(x) is not String:
        raise wrong_type(who, "a string", x)
    if is_frozen(x):
        raise error(f"{who}: this string is shared and cannot be changed (hook payload keys "
                    "and %context-name% are; change a string-copy)", x)
    charge_bulk(len(x.s))  # a change rebuilds the text
    return x


def _bounds(who: str, length: int, start: object, end: object) -> tuple[int, int]:
    """Optional start/end arguments, checked so that 0 <= start <= end <= length."""
    s = 0 if start is DEFAULT else as_int(start)
    e = length if end is DEFAULT else as_int(end)
    if type(s) is not int:
        raise wrong_type(who, "an exact integer start index", s)
    if type(e) is not int:
        raise wrong_type(who, "an exact integer end index", e)
    if not 0 <= s <= e <= length:
        raise error(f"{who}: range [{s}, {e}) out of bounds for length {length}", s, e)
    charge_bulk(e - s, e - s)  # what the caller does with the range is that long
    return s, e


def _index(who: str, k: object, length: int) -> int:
    k = as_int(k)
    if type(k) is not int:
        raise wrong_type(who, "an exact integer index", k)
    if not 0 <= k < length:
        raise error(f"{who}: index {k} out of range for length {length}", k)
    return k


def _count(who: str, n: object, limit: int | None = None) -> int:
    """A non-negative exact integer size (at most ``limit`` when given)."""
    n = as_int(n)
    if type(n) is not int or n < 0:
        raise wrong_type(who, "a non-negative exact integer", n)
    if limit is not None and n > limit:
        raise error(f"{who}: {n} is more than the length {limit}", n)
    return n


def _check_size(who: str, n: int) -> None:
    if n > MAX_ALLOC:
        raise SizeLimitExceeded(f"{who}: size {n} exceeds the limit of {MAX_ALLOC}")
    if n > 1000:
        charge(n)  # building it counts against the step budget


def _char_result(who: str, x: object) -> str:
    if type(x) is not Char:
        raise wrong_type(who, "a character from the procedure", x)
    return x.c


def _list_items(who: str, lst: object, what: str) -> list:
    """The elements of the proper list ``lst``, or "<who>: expected <what>" (also for a
    circular list)."""
    try:
        return proper_items(who, lst)
    except SchemeError:
        raise wrong_type(who, what, lst) from None


def _texts_of_list(who: str, lst: object, what: str) -> list[str]:
    items = _list_items(who, lst, what)
    for item in items:
        if type(item) is not String:
            raise wrong_type(who, what, lst)
    return [item.s for item in items]


# -- constructors and access ---------------------------------------------------------------

@primitive(BASE)
def string_p(x: object) -> bool:
    return type(x) is String


@primitive(BASE)
def make_string(k: object, char: object = DEFAULT) -> String:
    n = _count("make-string", k)
    _check_size("make-string", n)
    c = " " if char is DEFAULT else char_arg("make-string", char)
    return String(c * n)


@primitive(BASE)
def string(*chars: object) -> String:
    return String("".join([char_arg("string", c) for c in chars]))


@primitive(BASE)
def string_length(s: object) -> int:
    return len(_text("string-length", s))


@primitive(BASE)
def string_ref(s: object, k: object) -> Char:
    text = _text("string-ref", s)
    return Char.of(text[_index("string-ref", k, len(text))])


@primitive(BASE)
def string_set_x(s: object, k: object, char: object) -> None:
    string_ = _mutable_string("string-set!", s)
    text = string_.s
    i = _index("string-set!", k, len(text))
    string_.s = text[:i] + char_arg("string-set!", char) + text[i + 1:]


@primitive(BASE)
def substring(s: object, start: object, end: object = DEFAULT) -> String:
    text = _text("substring", s)
    i, j = _bounds("substring", len(text), start, end)
    return String(text[i:j])


@primitive(BASE)
def string_append(*strings: object) -> String:
    texts = [_text("string-append", s) for s in strings]
    _check_size("string-append", sum(map(len, texts)))
    return String("".join(texts))


@primitive(BASE)
def string_copy(s: object, start: object = DEFAULT, end: object = DEFAULT) -> String:
    text = _text("string-copy", s)
    i, j = _bounds("string-copy", len(text), start, end)
    return String(text[i:j])


@primitive(BASE)
def string_copy_x(to: object, at: object, source: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    """R7RS ``string-copy!``: copy source[start:end] into ``to`` from index ``at``."""
    target = _mutable_string("string-copy!", to)
    text = _text("string-copy!", source)
    i, j = _bounds("string-copy!", len(text), start, end)
    length = len(target.s)
    at = as_int(at)
    if type(at) is not int:
        raise wrong_type("string-copy!", "an exact integer index", at)
    if not 0 <= at <= length - (j - i):
        raise error(f"string-copy!: {j - i} characters do not fit at index {at} of a string "
                    f"of length {length}", at)
    target.s = target.s[:at] + text[i:j] + target.s[at + j - i:]


@primitive(BASE)
def string_fill_x(s: object, char: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    target = _mutable_string("string-fill!", s)
    c = char_arg("string-fill!", char)
    i, j = _bounds("string-fill!", len(target.s), start, end)
    target.s = target.s[:i] + c * (j - i) + target.s[j:]


# -- conversion ----------------------------------------------------------------------------

@primitive(BASE)
def string_to_list(s: object, start: object = DEFAULT, end: object = DEFAULT) -> object:
    text = _text("string->list", s)
    i, j = _bounds("string->list", len(text), start, end)
    charge_alloc(j - i, PAIR_BYTES)
    result = NIL
    for c in reversed(Char.of_each(text[i:j])):
        result = [c, result]
    return result


@primitive(BASE)
def list_to_string(lst: object) -> String:
    items = _list_items("list->string", lst, "a list of characters")
    for item in items:
        if type(item) is not Char:
            raise wrong_type("list->string", "a list of characters", lst)
    return String("".join([item.c for item in items]))


@primitive(BASE)
def string_to_vector(s: object, start: object = DEFAULT, end: object = DEFAULT) -> Vector:
    text = _text("string->vector", s)
    i, j = _bounds("string->vector", len(text), start, end)
    return Vector(Char.of_each(text[i:j]))


@primitive(BASE)
def vector_to_string(v: object, start: object = DEFAULT, end: object = DEFAULT) -> String:
    if type(v) is not Vector:
        raise wrong_type("vector->string", "a vector", v)
    i, j = _bounds("vector->string", len(v.items), start, end)
    out = []
    for item in v.items[i:j]:
        if type(item) is not Char:
            raise wrong_type("vector->string", "a vector of characters", v)
        out.append(item.c)
    return String("".join(out))


@primitive(BASE)
def string_to_utf8(s: object, start: object = DEFAULT, end: object = DEFAULT) -> Bytevector:
    text = _text("string->utf8", s)
    if start is not DEFAULT or end is not DEFAULT:
        i, j = _bounds("string->utf8", len(text), start, end)
        text = text[i:j]
    else:
        charge_bulk(len(text), len(text))
    try:
        return Bytevector(bytearray(text, "utf-8"))  # encoded straight into the bytearray
    except UnicodeEncodeError:
        raise error("string->utf8: the string holds a lone surrogate", s) from None


@primitive(BASE)
def utf8_to_string(bv: object, start: object = DEFAULT, end: object = DEFAULT) -> String:
    if type(bv) is not Bytevector:
        raise wrong_type("utf8->string", "a bytevector", bv)
    data = bv.b
    if start is not DEFAULT or end is not DEFAULT:
        i, j = _bounds("utf8->string", len(data), start, end)
        data = data[i:j]
    else:
        charge_bulk(len(data), len(data))
    try:
        return String(str(data, "utf-8"))
    except UnicodeDecodeError:
        raise error("utf8->string: invalid UTF-8", bv) from None


# -- symbols -------------------------------------------------------------------------------

@primitive(BASE)
def symbol_p(x: object) -> bool:
    return type(x) is Symbol


@primitive(BASE, name="symbol=?")
def symbol_eq_p(first: object, *more: object) -> bool:
    """R7RS ``symbol=?``: true when all arguments are the same symbol."""
    for x in (first, *more):
        if type(x) is not Symbol:
            raise wrong_type("symbol=?", "a symbol", x)
    return all(x is first for x in more)


@primitive(BASE)
def string_to_symbol(s: object) -> Symbol:
    text = _text("string->symbol", s)
    charge_bulk(len(text))
    return Symbol.intern(text)


@primitive(BASE)
def symbol_to_string(sym: object) -> String:
    if type(sym) is not Symbol:
        raise wrong_type("symbol->string", "a symbol", sym)
    charge_bulk(len(sym.name), len(sym.name))
    return String(sym.name)


# -- comparison and case -------------------------------------------------------------------

def _string_chain(who: str, op: Callable, key: Callable | None) -> Callable:
    def compare(first: object, *more: object) -> bool:
        texts = [_text(who, first)]
        texts.extend(_text(who, s) for s in more)
        charge_bulk(sum(map(len, texts)))
        if key is not None:
            texts = list(map(key, texts))
        return all(map(op, texts, texts[1:]))
    compare.__doc__ = f"R7RS ``{who}``: true when each string is {who} the next."
    return compare


_fold = str.casefold
string_eq_p = primitive(BASE, name="string=?")(_string_chain("string=?", operator.eq, None))
string_lt_p = primitive(BASE, name="string<?")(_string_chain("string<?", operator.lt, None))
string_gt_p = primitive(BASE, name="string>?")(_string_chain("string>?", operator.gt, None))
string_le_p = primitive(BASE, name="string<=?")(_string_chain("string<=?", operator.le, None))
string_ge_p = primitive(BASE, name="string>=?")(_string_chain("string>=?", operator.ge, None))
string_ci_eq_p = primitive(CHAR, name="string-ci=?")(
    _string_chain("string-ci=?", operator.eq, _fold))
string_ci_lt_p = primitive(CHAR, name="string-ci<?")(
    _string_chain("string-ci<?", operator.lt, _fold))
string_ci_gt_p = primitive(CHAR, name="string-ci>?")(
    _string_chain("string-ci>?", operator.gt, _fold))
string_ci_le_p = primitive(CHAR, name="string-ci<=?")(
    _string_chain("string-ci<=?", operator.le, _fold))
string_ci_ge_p = primitive(CHAR, name="string-ci>=?")(
    _string_chain("string-ci>=?", operator.ge, _fold))


@primitive(CHAR)
def string_upcase(s: object) -> String:
    text = _text("string-upcase", s)
    charge_bulk(len(text), len(text))
    return String(text.upper())


@primitive(CHAR)
def string_downcase(s: object) -> String:
    text = _text("string-downcase", s)
    charge_bulk(len(text), len(text))
    return String(text.lower())


@primitive(CHAR)
def string_foldcase(s: object) -> String:
    text = _text("string-foldcase", s)
    charge_bulk(len(text), len(text))
    return String(text.casefold())


# -- higher order --------------------------------------------------------------------------
# A procedure argument is called from a loop in the primitive's own frame, with plain
# positional arguments or through call_n: a call from a generator, a C builtin or
# f(*args) would grow the C stack on each level of a Scheme recursion through it.

@primitive(BASE)
def string_map(proc: object, s: object, *more: object) -> String:
    """R7RS ``string-map``: proc over the characters, stopping at the shortest string."""
    if not callable(proc):
        raise wrong_type("string-map", "a procedure", proc)
    return map_then(proc, _char_rows("string-map", s, more), bool(more), _string_of_results)


def _string_of_results(results: list) -> String:
    return String("".join([_char_result("string-map", x) for x in results]))


def _char_rows(who: str, s: object, more: tuple) -> list:
    """The characters of ``s``, or with ``more`` strings, the rows of their i-th
    characters (up to the shortest), for map_then."""
    of = Char.of
    if not more:
        return [of(c) for c in _text(who, s)]
    texts = [_text(who, s)] + [_text(who, x) for x in more]
    return [[of(c) for c in cs] for cs in zip(*texts)]


# -- SRFI 130 style utilities --------------------------------------------------------------

def _not_a_char(who: str, x: object) -> Exception:
    """The error for a search argument that is neither a character nor (the Scheme half
    of the procedure handles those) a predicate."""
    return wrong_type(who, "a character or a predicate", x)


def found(i: int) -> int | bool:
    return False if i < 0 else i


@primitive(SRFI_130_PRIVATE)
def chars_in_range(who: Symbol, least: int, s: object, rest: object) -> Vector:
    """The characters of ``s`` from the optional start and end in the list ``rest`` (the
    arguments of WHO after its string and predicate: WHO takes ``least`` to 4), as a
    vector: what the walks of scheme_lib/srfi/130.sld search."""
    name = who.name
    text = _text(name, s)
    bounds = () if rest is NIL else _list_items(name, rest, "a list of indexes")
    if len(bounds) > 2:
        raise error(f"{name}: expected {least} to 4 arguments, got {2 + len(bounds)}")
    i, j = _bounds(name, len(text), *bounds, *(DEFAULT,) * (2 - len(bounds)))
    return Vector(Char.of_each(text[i:j]))


# The searches, counts, splits and trims by a character (or whitespace): with a predicate
# they are the Scheme procedures of scheme_lib/srfi/130.sld, which call these otherwise.

@primitive(SRFI_130_PRIVATE)
def string_index(s: object, char: object, start: object = DEFAULT,
                 end: object = DEFAULT) -> int | bool:
    """The index of the first ``char`` in s[start:end], or #f."""
    text = _text("string-index", s)
    i, j = _bounds("string-index", len(text), start, end)
    if type(char) is not Char:
        raise _not_a_char("string-index", char)
    return found(text.find(char.c, i, j))


@primitive(SRFI_130_PRIVATE)
def string_rindex(s: object, char: object, start: object = DEFAULT,
                  end: object = DEFAULT) -> int | bool:
    """The index of the last ``char`` in s[start:end], or #f."""
    text = _text("string-rindex", s)
    i, j = _bounds("string-rindex", len(text), start, end)
    if type(char) is not Char:
        raise _not_a_char("string-rindex", char)
    return found(text.rfind(char.c, i, j))


@primitive(SRFI_130)
def string_contains(s1: object, s2: object, start1: object = DEFAULT, end1: object = DEFAULT,
                    start2: object = DEFAULT, end2: object = DEFAULT) -> int | bool:
    """The index in s1 where s2 (or its [start2, end2) part) first occurs, or #f."""
    text = _text("string-contains", s1)
    pattern = _text("string-contains", s2)
    i, j = _bounds("string-contains", len(text), start1, end1)
    p, q = _bounds("string-contains", len(pattern), start2, end2)
    return found(text.find(pattern[p:q], i, j))


@primitive(SRFI_130)
def string_search_forward(pattern: object, s: object, start: object = DEFAULT) -> int | bool:
    """MIT/chibi ``string-search-forward``: index of ``pattern`` in s from ``start``, or #f."""
    needle = _text("string-search-forward", pattern)
    text = _text("string-search-forward", s)
    i, _ = _bounds("string-search-forward", len(text), start, DEFAULT)
    charge_bulk(len(needle))
    return found(text.find(needle, i))


_JOIN_GRAMMARS = ("infix", "strict-infix", "prefix", "suffix")


@primitive(SRFI_130)
def string_join(strings: object, delimiter: object = DEFAULT,
                grammar: object = DEFAULT) -> String:
    """SRFI 130 ``string-join``: the strings with ``delimiter`` (default " ") between
    them; ``grammar`` is one of the symbols infix, strict-infix, prefix, suffix."""
    texts = _texts_of_list("string-join", strings, "a list of strings")
    sep = " " if delimiter is DEFAULT else _text("string-join", delimiter)
    if grammar is DEFAULT:
        mode = "infix"
    elif type(grammar) is Symbol and grammar.name in _JOIN_GRAMMARS:
        mode = grammar.name
    else:
        raise wrong_type("string-join", "one of infix, strict-infix, prefix, suffix", grammar)
    if mode == "strict-infix" and not texts:
        raise error("string-join: strict-infix needs at least one string")
    _check_size("string-join", sum(map(len, texts)) + len(sep) * len(texts))
    joined = sep.join(texts)
    if texts and mode == "prefix":
        joined = sep + joined
    elif texts and mode == "suffix":
        joined += sep
    return String(joined)


@primitive(SRFI_130_PRIVATE)
def string_split(s: object, delimiter: object = DEFAULT, limit: object = DEFAULT) -> object:
    """chibi ``string-split``: the pieces of s between delimiters (a char, default space;
    or a non-empty string). Adjacent delimiters give empty strings; "" gives (). With
    ``limit``, at most that many pieces, split from the left."""
    text = _text("string-split", s)
    if limit is DEFAULT:
        max_splits = -1
    else:
        limit = as_int(limit)
        if type(limit) is not int or limit < 1:
            raise wrong_type("string-split", "a positive exact integer limit", limit)
        max_splits = limit - 1
    if not text:
        return NIL
    if delimiter is DEFAULT:
        sep = " "
    elif type(delimiter) is Char:
        sep = delimiter.c
    elif type(delimiter) is String:
        if not delimiter.s:
            raise error("string-split: the delimiter string is empty")
        sep = delimiter.s
    else:
        raise _not_a_char("string-split", delimiter)
    charge_bulk(len(text), len(text))
    parts = text.split(sep, max_splits)
    charge_alloc(len(parts), PAIR_BYTES + 64)  # a pair and a String per piece
    return py_to_list(map(String, parts))


def _trimmer(who: str, strip: Callable[[str, str], str]) -> Callable:
    def trim(s: object, char: object = DEFAULT, start: object = DEFAULT,
             end: object = DEFAULT) -> String:
        text = _text(who, s)
        i, j = _bounds(who, len(text), start, end)
        if char is DEFAULT:
            return String(strip(text[i:j], WHITESPACE))
        if type(char) is not Char:
            raise _not_a_char(who, char)
        return String(strip(text[i:j], char.c))
    trim.__doc__ = f"SRFI 130 ``{who}`` of whitespace (the default) or of a character."
    return trim


string_trim = primitive(SRFI_130_PRIVATE, name="string-trim")(_trimmer("string-trim", str.strip))
string_trim_left = primitive(SRFI_130_PRIVATE, name="string-trim-left")(
    _trimmer("string-trim-left", str.lstrip))
string_trim_right = primitive(SRFI_130_PRIVATE, name="string-trim-right")(
    _trimmer("string-trim-right", str.rstrip))


@primitive(SRFI_130)
def string_prefix_p(prefix: object, s: object) -> bool:
    return _text("string-prefix?", s).startswith(_text("string-prefix?", prefix))


@primitive(SRFI_130)
def string_suffix_p(suffix: object, s: object) -> bool:
    return _text("string-suffix?", s).endswith(_text("string-suffix?", suffix))


def _padder(who: str, on_left: bool) -> Callable:
    def pad(s: object, n: object, char: object = DEFAULT, start: object = DEFAULT,
            end: object = DEFAULT) -> String:
        text = _text(who, s)
        i, j = _bounds(who, len(text), start, end)
        text = text[i:j]
        width = _count(who, n)
        _check_size(who, width)
        fill = " " if char is DEFAULT else char_arg(who, char)
        if on_left:
            return String(text[len(text) - width:] if len(text) >= width
                          else fill * (width - len(text)) + text)
        return String(text[:width] if len(text) >= width
                      else text + fill * (width - len(text)))
    side, kept = ("left", "rightmost") if on_left else ("right", "leftmost")
    pad.__doc__ = (f"SRFI 130 ``{who}``: pad on the {side} to length n (default space), or "
                   f"keep the {kept} n characters.")
    return pad


string_pad = primitive(SRFI_130, name="string-pad")(_padder("string-pad", True))
string_pad_right = primitive(SRFI_130, name="string-pad-right")(
    _padder("string-pad-right", False))


@primitive(SRFI_130)
def string_null_p(s: object) -> bool:
    return not _text("string-null?", s)


@primitive(SRFI_130)
def string_reverse(s: object, start: object = DEFAULT, end: object = DEFAULT) -> String:
    text = _text("string-reverse", s)
    i, j = _bounds("string-reverse", len(text), start, end)
    return String(text[i:j][::-1])


@primitive(SRFI_130_PRIVATE)
def string_count(s: object, char: object, start: object = DEFAULT,
                 end: object = DEFAULT) -> int:
    """The number of ``char`` in s[start:end]."""
    text = _text("string-count", s)
    i, j = _bounds("string-count", len(text), start, end)
    if type(char) is not Char:
        raise _not_a_char("string-count", char)
    return text.count(char.c, i, j)


@primitive(SRFI_130)
def string_take(s: object, n: object) -> String:
    text = _text("string-take", s)
    return String(text[:_count("string-take", n, len(text))])


@primitive(SRFI_130)
def string_drop(s: object, n: object) -> String:
    text = _text("string-drop", s)
    return String(text[_count("string-drop", n, len(text)):])


@primitive(SRFI_130)
def string_take_right(s: object, n: object) -> String:
    text = _text("string-take-right", s)
    return String(text[len(text) - _count("string-take-right", n, len(text)):])


@primitive(SRFI_130)
def string_drop_right(s: object, n: object) -> String:
    text = _text("string-drop-right", s)
    return String(text[:len(text) - _count("string-drop-right", n, len(text))])
