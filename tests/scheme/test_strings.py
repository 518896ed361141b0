"""Strings and symbols: (scheme base), (scheme char) and the SRFI 130 style utilities."""

from __future__ import annotations

import pytest

import harness.scheme.interpreter
import harness.scheme.primitives.strings  # noqa: F401  (registers the procedures)
from harness.scheme.datatypes import (
    NIL,
    Bytevector,
    Char,
    String,
    Symbol,
    Vector,
    list_to_py,
    py_to_list,
    sym,
)
from harness.scheme.errors import SizeLimitExceeded
from harness.scheme.libraries import find_library
from harness.scheme.primitives import LIBRARIES
from tests.scheme.table_checks import each, failure_message


def proc(name: str):
    """The procedure ``name`` of (srfi 130), (scheme base) or (scheme char): native
    (strings.py) or written in Scheme (scheme_lib/srfi/130.sld, scheme_lib/scheme/base/)."""
    for key in (("srfi", "130"), ("scheme", "base"), ("scheme", "char")):
        library = find_library(key)
        if name in library.exports:
            return library.value(name)
    raise KeyError(name)


def S(text: str) -> String:
    return String(text)


def C(c: str) -> Char:
    return Char.of(c)


def L(*items) -> object:
    return py_to_list(items)


def texts(lst) -> list[str]:
    return [s.s for s in list_to_py(lst)]


def plain(x):
    """A comparable Python view of a Scheme result."""
    if type(x) is String:
        return ("string", x.s)
    if type(x) is list or x is NIL:
        return [plain(v) for v in list_to_py(x)]
    if type(x) is Vector:
        return ("vector", [plain(v) for v in x.items])
    if type(x) is Bytevector:
        return ("bytevector", bytes(x.b))
    return x


def error_message(name: str, *args) -> str:
    return failure_message(proc(name), *args)


def is_even_char(c: Char) -> bool:
    return c.c in "02468"


def is_vowel(c: Char) -> bool:
    return c.c in "aeiou"


# -- pure functions: name, args, expected (strings given as S(...)) -----------------------

CALLS = [
    ("string?", (S(""),), True), ("string?", (C("a"),), False), ("string?", (sym("a"),), False),
    ("make-string", (3, C("x")), S("xxx")), ("make-string", (0,), S("")),
    ("make-string", (2,), S("  ")),
    ("string", (), S("")), ("string", (C("a"), C("b")), S("ab")),
    ("string-length", (S(""),), 0), ("string-length", (S("λx"),), 2),
    ("string-ref", (S("abc"), 0), C("a")), ("string-ref", (S("abc"), 2), C("c")),
    ("substring", (S("hello"), 1, 3), S("el")), ("substring", (S("hello"), 2), S("llo")),
    ("substring", (S("hello"), 5, 5), S("")),
    ("string-append", (), S("")), ("string-append", (S("a"), S(""), S("bc")), S("abc")),
    ("string-copy", (S("hello"),), S("hello")), ("string-copy", (S("hello"), 1), S("ello")),
    ("string-copy", (S("hello"), 1, 2), S("e")),
    ("string->list", (S("abc"),), L(C("a"), C("b"), C("c"))), ("string->list", (S(""),), NIL),
    ("string->list", (S("abc"), 1), L(C("b"), C("c"))),
    ("string->list", (S("abc"), 0, 1), L(C("a"))),
    ("list->string", (py_to_list([C("a"), C("b")]),), S("ab")), ("list->string", (NIL,), S("")),
    ("string->vector", (S("ab"),), Vector([C("a"), C("b")])),
    ("string->vector", (S("abc"), 1, 2), Vector([C("b")])),
    ("vector->string", (Vector([C("a"), C("b")]),), S("ab")),
    ("vector->string", (Vector([C("a"), C("b"), C("c")]), 1), S("bc")),
    ("string->utf8", (S("aλ"),), Bytevector(bytearray(b"a\xce\xbb"))),
    ("string->utf8", (S("abc"), 1, 2), Bytevector(bytearray(b"b"))),
    ("utf8->string", (Bytevector(bytearray(b"a\xce\xbb")),), S("aλ")),
    ("utf8->string", (Bytevector(bytearray(b"abc")), 1), S("bc")),
    ("utf8->string", (Bytevector(bytearray(b"abc")), 0, 2), S("ab")),
    ("symbol?", (sym("a"),), True), ("symbol?", (S("a"),), False),
    ("symbol=?", (sym("a"), sym("a")), True), ("symbol=?", (sym("a"), sym("a"), sym("b")), False),
    ("symbol=?", (sym("a"),), True),
    ("string->symbol", (S("hello world"),), sym("hello world")),
    ("symbol->string", (sym("abc"),), S("abc")),
    ("string=?", (S("a"), S("a"), S("a")), True), ("string=?", (S("a"), S("b")), False),
    ("string=?", (S("a"),), True), ("string<?", (S("a"), S("b"), S("c")), True),
    ("string<?", (S("a"), S("a")), False), ("string<?", (S("ab"), S("abc")), True),
    ("string>?", (S("b"), S("a")), True), ("string>?", (S("a"), S("a")), False),
    ("string<=?", (S("a"), S("a"), S("b")), True), ("string<=?", (S("b"), S("a")), False),
    ("string>=?", (S("b"), S("b"), S("a")), True), ("string>=?", (S("a"), S("b")), False),
    ("string<?", (S("Z"), S("a")), True),
    ("string-ci=?", (S("Hello"), S("hELLO")), True), ("string-ci=?", (S("Straße"), S("STRASSE")),
                                                          True),
    ("string-ci<?", (S("apple"), S("Banana")), True), ("string-ci>?", (S("b"), S("A")), True),
    ("string-ci<=?", (S("a"), S("A")), True), ("string-ci>=?", (S("A"), S("b")), False),
    ("string-upcase", (S("hello ß"),), S("HELLO SS")), ("string-downcase", (S("HeLLo"),),
                                                        S("hello")),
    ("string-downcase", (S("ΧΑΟΣ"),), S("χαος")), ("string-foldcase", (S("Straße"),),
                                                   S("strasse")),
    # SRFI 130 style
    ("string-index", (S("hello"), C("l")), 2), ("string-index", (S("hello"), C("z")), False),
    ("string-index", (S("hello"), C("l"), 3), 3), ("string-index", (S("hello"), C("l"), 0, 2),
                                                    False),
    ("string-index", (S("a1b2"), is_even_char), 3), ("string-index", (S("xyz"), is_vowel),
                                                     False),
    ("string-rindex", (S("hello"), C("l")), 3), ("string-rindex", (S("hello"), C("z")), False),
    ("string-rindex", (S("hello"), is_vowel), 4), ("string-rindex", (S("hello"), C("l"), 0, 3),
                                                   2),
    ("string-contains", (S("hello world"), S("o w")), 4),
    ("string-contains", (S("hello"), S("xyz")), False), ("string-contains", (S("abc"), S("")), 0),
    ("string-contains", (S("abcabc"), S("bc"), 2), 4),
    ("string-contains", (S("abcabc"), S("bc"), 0, 2), False),
    ("string-contains", (S("abcabc"), S("xbc"), 0, 6, 1), 1),
    ("string-search-forward", (S("lo"), S("hello lo"), 0), 3),
    ("string-search-forward", (S("lo"), S("hello lo"), 4), 6),
    ("string-search-forward", (S("zz"), S("hello")), False),
    ("string-join", (py_to_list([S("a"), S("b"), S("c")]),), S("a b c")),
    ("string-join", (py_to_list([S("a"), S("b")]), S(", ")), S("a, b")),
    ("string-join", (NIL,), S("")), ("string-join", (py_to_list([S("a")]), S("-")), S("a")),
    ("string-join", (py_to_list([S("a"), S("b")]), S("/"), sym("prefix")), S("/a/b")),
    ("string-join", (py_to_list([S("a"), S("b")]), S(";"), sym("suffix")), S("a;b;")),
    ("string-join", (py_to_list([S("a"), S("b")]), S(";"), sym("strict-infix")), S("a;b")),
    ("string-join", (NIL, S(";"), sym("suffix")), S("")),
    ("string-split", (S("a b c"),), L(S("a"), S("b"), S("c"))),
    ("string-split", (S("a,,b"), C(",")), L(S("a"), S(""), S("b"))),
    ("string-split", (S("a,b,"), C(",")), L(S("a"), S("b"), S(""))),
    ("string-split", (S(",a"), C(",")), L(S(""), S("a"))),
    ("string-split", (S(""), C(",")), NIL), ("string-split", (S("abc"), C(",")), L(S("abc"))),
    ("string-split", (S("a::b::c"), S("::")), L(S("a"), S("b"), S("c"))),
    ("string-split", (S("a1b2c"), is_even_char), L(S("a1b"), S("c"))),
    ("string-split", (S("a b c d"), C(" "), 2), L(S("a"), S("b c d"))),
    ("string-split", (S("a1b2c"), is_even_char, 1), L(S("a1b2c"))),
    ("string-split", (S("x2y4z"), is_even_char, 2), L(S("x"), S("y4z"))),
    ("string-trim", (S("  hi there \t\n"),), S("hi there")),
    ("string-trim", (S("xxhixx"), C("x")), S("hi")),
    ("string-trim", (S("aahiaa"), is_vowel), S("h")),
    ("string-trim", (S("\u3000hi\u00a0"),), S("hi")),
    ("string-trim", (S("  a  b  "), C(" "), 1, 7), S("a  b")),
    ("string-trim-left", (S("  hi  "),), S("hi  ")),
    ("string-trim-left", (S("xxhixx"), C("x")), S("hixx")),
    ("string-trim-left", (S("aahiaa"), is_vowel), S("hiaa")),
    ("string-trim-right", (S("  hi  "),), S("  hi")),
    ("string-trim-right", (S("xxhixx"), C("x")), S("xxhi")),
    ("string-trim-right", (S("aahiaa"), is_vowel), S("aah")),
    ("string-trim", (S("    "),), S("")), ("string-trim", (S(""),), S("")),
    ("string-prefix?", (S("he"), S("hello")), True), ("string-prefix?", (S("lo"), S("hello")),
                                                      False),
    ("string-prefix?", (S(""), S("x")), True), ("string-suffix?", (S("lo"), S("hello")), True),
    ("string-suffix?", (S("hello!"), S("hello")), False),
    ("string-pad", (S("abc"), 5), S("  abc")), ("string-pad", (S("abcdef"), 3), S("def")),
    ("string-pad", (S("7"), 3, C("0")), S("007")), ("string-pad", (S("abc"), 0), S("")),
    ("string-pad", (S("abcdef"), 4, C(" "), 1, 4), S(" bcd")),
    ("string-pad-right", (S("abc"), 5), S("abc  ")),
    ("string-pad-right", (S("abcdef"), 3), S("abc")),
    ("string-pad-right", (S("ab"), 4, C("*")), S("ab**")),
    ("string-null?", (S(""),), True), ("string-null?", (S(" "),), False),
    ("string-reverse", (S("abc"),), S("cba")), ("string-reverse", (S("abcd"), 1, 3), S("cb")),
    ("string-reverse", (S(""),), S("")),
    ("string-count", (S("banana"), C("a")), 3), ("string-count", (S("banana"), is_vowel), 3),
    ("string-count", (S("banana"), C("a"), 2), 2), ("string-count", (S("banana"), C("a"), 0, 2),
                                                    1),
    ("string-take", (S("hello"), 2), S("he")), ("string-take", (S("hello"), 0), S("")),
    ("string-drop", (S("hello"), 2), S("llo")), ("string-drop", (S("hello"), 5), S("")),
    ("string-take-right", (S("hello"), 2), S("lo")), ("string-take-right", (S("hello"), 0),
                                                      S("")),
    ("string-drop-right", (S("hello"), 2), S("hel")),
    ("string-drop-right", (S("hello"), 5), S("")),
]


def test_calls():
    def check(name, args, expected):
        result = proc(name)(*args)
        assert type(result) is type(expected), result
        assert plain(result) == plain(expected), plain(result)
    each(CALLS, check)


def test_results_are_fresh_strings():
    s = S("abc")
    for name, args in (("string-copy", (s,)), ("substring", (s, 0, 3)),
                       ("string-append", (s,)), ("string-trim", (s,)),
                       ("string-take", (s, 3))):
        result = proc(name)(*args)
        assert result is not s
    name = proc("symbol->string")(sym("abc"))
    name.s = "changed"
    assert sym("abc").name == "abc"


def test_string_to_symbol_interns():
    assert proc("string->symbol")(S("abc")) is Symbol.intern("abc")
    assert proc("string->symbol")(S("")) is Symbol.intern("")


# -- mutation ----------------------------------------------------------------------------

def test_string_set():
    s = S("abc")
    assert proc("string-set!")(s, 1, C("X")) is None
    assert s.s == "aXc"
    proc("string-set!")(s, 2, C("λ"))
    assert s.s == "aXλ"


def test_string_fill():
    s = S("abcde")
    proc("string-fill!")(s, C("z"), 1, 3)
    assert s.s == "azzde"
    proc("string-fill!")(s, C("q"), 3)
    assert s.s == "azzqq"
    proc("string-fill!")(s, C("-"))
    assert s.s == "-----"


def test_string_copy_x():
    s = S("abcde")
    proc("string-copy!")(s, 1, S("XY"))
    assert s.s == "aXYde"
    proc("string-copy!")(s, 0, S("12345"), 3)
    assert s.s == "45Yde"
    proc("string-copy!")(s, 3, S("12345"), 0, 2)
    assert s.s == "45Y12"
    overlap = S("abcde")
    proc("string-copy!")(overlap, 1, overlap, 0, 3)
    assert overlap.s == "aabce"
    proc("string-copy!")(overlap, 5, S(""))
    assert overlap.s == "aabce"


# -- higher order ------------------------------------------------------------------------

def test_string_map():
    def upcase(c):
        return Char.of(c.c.upper())

    def pick_larger(a, b):
        return a if a.c > b.c else b

    assert proc("string-map")(upcase, S("abc")).s == "ABC"
    assert proc("string-map")(pick_larger, S("adc"), S("bbbb")).s == "bdc"
    assert proc("string-map")(upcase, S("")).s == ""


def test_string_for_each():
    seen = []
    assert proc("string-for-each")(lambda c: seen.append(c.c), S("ab")) is None
    assert seen == ["a", "b"]
    pairs = []
    proc("string-for-each")(lambda a, b: pairs.append(a.c + b.c), S("abc"), S("xy"))
    assert pairs == ["ax", "by"]


# -- large inputs -------------------------------------------------------------------------

def test_string_split_of_a_large_text():
    text = S(" ".join(f"word{i}" for i in range(15_000)))  # ~130 KB
    words = proc("string-split")(text, C(" "))
    assert len(list_to_py(words)) == 15_000
    assert texts(words)[:2] == ["word0", "word1"]


def test_string_ref_is_constant_time():
    text = S("x" * 1_000_000)
    ref = proc("string-ref")
    for k in range(0, 1_000_000, 100):
        ref(text, k)


# -- errors ------------------------------------------------------------------------------

def not_a_char(c):
    return 1


ERRORS = [
    ("string-length", (C("a"),), "string-length: expected a string, got #\\a"),
    ("string-length", (sym("a"),), "string-length: expected a string, got a"),
    ("make-string", (-1,), "make-string: expected a non-negative exact integer, got -1"),
    ("make-string", (2.0,), "make-string: expected a non-negative exact integer, got 2.0"),
    ("make-string", (2, S("a")), 'make-string: expected a character, got "a"'),
    ("string", (C("a"), S("b")), 'string: expected a character, got "b"'),
    ("string-ref", (S("abc"), 3), "string-ref: index 3 out of range for length 3"),
    ("string-ref", (S("abc"), -1), "string-ref: index -1 out of range"),
    ("string-ref", (S("abc"), 1.0), "string-ref: expected an exact integer index, got 1.0"),
    ("string-ref", (C("a"), 0), "string-ref: expected a string, got #\\a"),
    ("string-set!", (S("abc"), 5, C("x")), "string-set!: index 5 out of range"),
    ("string-set!", (S("abc"), 0, S("x")), 'string-set!: expected a character, got "x"'),
    ("string-set!", (sym("abc"), 0, C("x")), "string-set!: expected a string, got abc"),
    ("substring", (S("abc"), 2, 1), "substring: range [2, 1) out of bounds for length 3"),
    ("substring", (S("abc"), 0, 4), "substring: range [0, 4) out of bounds"),
    ("substring", (S("abc"), -1, 2), "substring: range [-1, 2) out of bounds"),
    ("substring", (S("abc"), C("a"), 2), "substring: expected an exact integer start index"),
    ("substring", (S("abc"), 0, 2.0), "substring: expected an exact integer end index, got 2.0"),
    ("string-append", (S("a"), C("b")), "string-append: expected a string, got #\\b"),
    ("string-copy", (S("abc"), 4), "string-copy: range [4, 3) out of bounds"),
    ("string-copy!", (S("abc"), 2, S("xyz")), "string-copy!: 3 characters do not fit at index 2"),
    ("string-copy!", (S("abc"), -1, S("x")), "string-copy!: 1 characters do not fit at index -1"),
    ("string-copy!", (S("abc"), 0, S("x"), 0, 2), "string-copy!: range [0, 2) out of bounds"),
    ("string-copy!", (S("abc"), 0.0, S("x")), "string-copy!: expected an exact integer index"),
    ("string-fill!", (S("abc"), S("x")), 'string-fill!: expected a character, got "x"'),
    ("string-fill!", (S("abc"), C("x"), 2, 9), "string-fill!: range [2, 9) out of bounds"),
    ("string->list", (S("abc"), 1, 0), "string->list: range [1, 0) out of bounds"),
    ("string->list", (NIL,), "string->list: expected a string, got ()"),
    ("list->string", (py_to_list([C("a"), 1]),), "list->string: expected a list of characters"),
    ("list->string", ([C("a"), C("b")],), "list->string: expected a list of characters"),
    ("list->string", (S("ab"),), 'list->string: expected a list of characters, got "ab"'),
    ("string->vector", (Vector([]),), "string->vector: expected a string, got #()"),
    ("vector->string", (S("ab"),), 'vector->string: expected a vector, got "ab"'),
    ("vector->string", (Vector([C("a"), 1]),), "vector->string: expected a vector of characters"),
    ("vector->string", (Vector([C("a")]), 0, 2), "vector->string: range [0, 2) out of bounds"),
    ("string->utf8", (Bytevector(bytearray()),), "string->utf8: expected a string"),
    ("string->utf8", (S("\ud800"),), "string->utf8: the string holds a lone surrogate"),
    ("utf8->string", (S("a"),), 'utf8->string: expected a bytevector, got "a"'),
    ("utf8->string", (Bytevector(bytearray(b"\xff")),), "utf8->string: invalid UTF-8"),
    ("utf8->string", (Bytevector(bytearray(b"ab")), 3), "utf8->string: range [3, 2) out of"),
    ("symbol=?", (sym("a"), S("a")), 'symbol=?: expected a symbol, got "a"'),
    ("string->symbol", (sym("a"),), "string->symbol: expected a string, got a"),
    ("symbol->string", (S("a"),), 'symbol->string: expected a symbol, got "a"'),
    ("string=?", (S("a"), sym("a")), "string=?: expected a string, got a"),
    ("string<?", (1,), "string<?: expected a string, got 1"),
    ("string>?", (S("a"), 1), "string>?: expected a string, got 1"),
    ("string<=?", (S("a"), 1), "string<=?: expected a string, got 1"),
    ("string>=?", (S("a"), 1), "string>=?: expected a string, got 1"),
    ("string-ci=?", (S("a"), 1), "string-ci=?: expected a string, got 1"),
    ("string-ci<?", (1,), "string-ci<?: expected a string, got 1"),
    ("string-ci>?", (1,), "string-ci>?: expected a string, got 1"),
    ("string-ci<=?", (1,), "string-ci<=?: expected a string, got 1"),
    ("string-ci>=?", (1,), "string-ci>=?: expected a string, got 1"),
    ("string-upcase", (C("a"),), "string-upcase: expected a string, got #\\a"),
    ("string-downcase", (1,), "string-downcase: expected a string, got 1"),
    ("string-foldcase", (1,), "string-foldcase: expected a string, got 1"),
    ("string-map", (S("f"), S("abc")), 'string-map: expected a procedure, got "f"'),
    ("string-map", (not_a_char, S("abc")),
     "string-map: expected a character from the procedure, got 1"),
    ("string-map", (not_a_char, S("a"), 1), "string-map: expected a string, got 1"),
    ("string-for-each", (1, S("abc")), "string-for-each: expected a procedure, got 1"),
    ("string-for-each", (not_a_char, C("a")), "string-for-each: expected a string, got #\\a"),
    ("string-index", (S("abc"), 1), "string-index: expected a character or a predicate, got 1"),
    ("string-index", (1, C("a")), "string-index: expected a string, got 1"),
    ("string-index", (S("abc"), C("a"), 5), "string-index: range [5, 3) out of bounds"),
    ("string-rindex", (S("abc"), S("a")), 'string-rindex: expected a character or a predicate'),
    ("string-contains", (S("abc"), C("a")), "string-contains: expected a string, got #\\a"),
    ("string-contains", (S("abc"), S("a"), 0, 9), "string-contains: range [0, 9) out of"),
    ("string-search-forward", (S("a"), S("abc"), 4), "string-search-forward: range [4, 3)"),
    ("string-join", (py_to_list([S("a"), 1]),), "string-join: expected a list of strings"),
    ("string-join", (S("abc"),), 'string-join: expected a list of strings, got "abc"'),
    ("string-join", (NIL, C(",")), "string-join: expected a string, got #\\,"),
    ("string-join", (NIL, S(","), sym("middle")),
     "string-join: expected one of infix, strict-infix, prefix, suffix, got middle"),
    ("string-join", (NIL, S(","), sym("strict-infix")),
     "string-join: strict-infix needs at least one string"),
    ("string-split", (C("a"),), "string-split: expected a string, got #\\a"),
    ("string-split", (S("abc"), 1), "string-split: expected a character or a predicate, got 1"),
    ("string-split", (S("abc"), S("")), "string-split: the delimiter string is empty"),
    ("string-split", (S("abc"), C(","), 0), "string-split: expected a positive exact integer"),
    ("string-trim", (1,), "string-trim: expected a string, got 1"),
    ("string-trim-left", (S("a"), 1), "string-trim-left: expected a character or a predicate"),
    ("string-trim-right", (S("a"), 1), "string-trim-right: expected a character or a"),
    ("string-prefix?", (C("a"), S("abc")), "string-prefix?: expected a string, got #\\a"),
    ("string-suffix?", (S("a"), 1), "string-suffix?: expected a string, got 1"),
    ("string-pad", (S("a"), -1), "string-pad: expected a non-negative exact integer, got -1"),
    ("string-pad", (S("a"), 3, S("x")), 'string-pad: expected a character, got "x"'),
    ("string-pad-right", (1, 3), "string-pad-right: expected a string, got 1"),
    ("string-null?", (NIL,), "string-null?: expected a string, got ()"),
    ("string-reverse", (S("abc"), 2, 1), "string-reverse: range [2, 1) out of bounds"),
    ("string-count", (S("abc"), 1), "string-count: expected a character or a predicate, got 1"),
    ("string-take", (S("abc"), 4), "string-take: 4 is more than the length 3"),
    ("string-take", (S("abc"), -1), "string-take: expected a non-negative exact integer"),
    ("string-drop", (S("abc"), 4), "string-drop: 4 is more than the length 3"),
    ("string-take-right", (S("abc"), 1.0), "string-take-right: expected a non-negative"),
    ("string-drop-right", (S("abc"), 9), "string-drop-right: 9 is more than the length 3"),
]


def test_errors():
    def check(name, args, message):
        assert error_message(name, *args).startswith(message), error_message(name, *args)
    each(ERRORS, check)


def test_size_limits():
    with pytest.raises(SizeLimitExceeded):
        proc("make-string")(10 ** 12, C("x"))
    with pytest.raises(SizeLimitExceeded):
        proc("string-pad")(S("a"), 10 ** 12)
    big = S("x" * 10_000_000)
    with pytest.raises(SizeLimitExceeded):
        proc("string-append")(*[big] * 6)
    with pytest.raises(SizeLimitExceeded):
        proc("string-join")(py_to_list([big] * 6))


def test_library_membership():
    base, char = find_library(("scheme", "base")), LIBRARIES[("scheme", "char")]
    srfi = find_library(("srfi", "130")).exports
    for name in ("string?", "make-string", "string", "string-length", "string-ref",
                 "string-set!", "string=?", "string<?", "substring", "string-append",
                 "string->list", "list->string", "string-copy", "string-copy!", "string-fill!",
                 "string->vector", "vector->string", "string->symbol", "symbol->string",
                 "symbol?", "symbol=?", "string-map", "string-for-each", "string->utf8",
                 "utf8->string"):
        assert name in base.exports
        if name in LIBRARIES[("scheme", "base")]:  # native: Python's arity errors name it
            assert base.value(name).__qualname__ == name
    for name in ("string-ci=?", "string-ci<?", "string-upcase", "string-downcase",
                 "string-foldcase"):
        assert name in char
    for name in ("string-index", "string-rindex", "string-contains", "string-join",
                 "string-split", "string-trim", "string-trim-left", "string-trim-right",
                 "string-prefix?", "string-suffix?", "string-pad", "string-pad-right",
                 "string-null?", "string-reverse", "string-count", "string-search-forward",
                 "string-take", "string-drop", "string-take-right", "string-drop-right"):
        assert name in srfi
    assert find_library(("harness", "strings")) is find_library(("srfi", "130"))


# -- Scheme level ----------------------------------------------------------------------

CASES = [
    ('(string-upcase "abc")', '"ABC"'), ('(string-length "hello")', "5"),
    ('(string-ref "abc" 1)', "#\\b"), ('(substring "hello" 1 3)', '"el"'),
    ('(string-append "a" "b" "c")', '"abc"'), ('(string->list "ab")', "(#\\a #\\b)"),
    ("(list->string (list #\\a #\\b))", '"ab"'), ('(string->symbol "abc")', "abc"),
    ("(symbol->string 'abc)", '"abc"'), ("(symbol=? 'a 'a 'a)", "#t"),
    ('(let ((s (make-string 3 #\\a))) (string-set! s 1 #\\b) s)', '"aba"'),
    ('(let ((s (string-copy "abcde"))) (string-copy! s 1 "XY") s)', '"aXYde"'),
    ('(let ((s (string-copy "abc"))) (string-fill! s #\\z) s)', '"zzz"'),
    ('(string-map char-upcase "abc")', '"ABC"'),
    ("(let ((n 0)) (string-for-each (lambda (c) (set! n (+ n 1))) \"abcd\") n)", "4"),
    ('(string->utf8 "aλ")', "#u8(97 206 187)"), ("(utf8->string #u8(97 98))", '"ab"'),
    ('(string->vector "ab")', "#(#\\a #\\b)"), ("(vector->string #(#\\a #\\b))", '"ab"'),
    ('(string<? "apple" "banana" "cherry")', "#t"), ('(string-ci=? "AbC" "aBc")', "#t"),
    ('(string-foldcase "ABC")', '"abc"'), ('(string-index "hello" #\\l)', "2"),
    ('(string-index "hello" char-upper-case?)', "#f"), ('(string-rindex "hello" #\\l)', "3"),
    ('(string-contains "hello world" "wor")', "6"), ('(string-contains "abc" "z")', "#f"),
    ('(string-join (list "a" "b" "c"))', '"a b c"'), ('(string-join (list "a" "b") ", ")',
                                                      '"a, b"'),
    ('(string-split "a,,b" #\\,)', '("a" "" "b")'), ('(string-split "a b c")', '("a" "b" "c")'),
    ('(string-split "a--b" "--")', '("a" "b")'), ('(string-split "" #\\,)', "()"),
    ('(length (string-split "hello big world" #\\space))', "3"),
    ('(string-trim "  hi  ")', '"hi"'), ('(string-trim-left "  hi  ")', '"hi  "'),
    ('(string-trim-right "  hi  ")', '"  hi"'), ('(string-trim "xxhixx" #\\x)', '"hi"'),
    ('(string-prefix? "he" "hello")', "#t"), ('(string-suffix? "lo" "hello")', "#t"),
    ('(string-pad "7" 3 #\\0)', '"007"'), ('(string-pad-right "ab" 4)', '"ab  "'),
    ('(string-null? "")', "#t"), ('(string-reverse "abc")', '"cba"'),
    ('(string-count "banana" #\\a)', "3"), ('(string-take "hello" 2)', '"he"'),
    ('(string-drop "hello" 2)', '"llo"'), ('(string-take-right "hello" 2)', '"lo"'),
    ('(string-drop-right "hello" 2)', '"hel"'), ('(string-search-forward "l" "hello" 0)', "2"),
]

ERROR_CASES = [
    ('(string-ref "abc" 3)', "string-ref: index 3 out of range for length 3"),
    ("(string-length 'abc)", "string-length: expected a string, got abc"),
    ('(substring "abc" 2 1)', "substring: range [2, 1) out of bounds for length 3"),
    ('(string-append "a" 1)', "string-append: expected a string, got 1"),
    ("(symbol->string \"a\")", 'symbol->string: expected a symbol, got "a"'),
]


@pytest.mark.parametrize(("src", "expected"), CASES)
def test_scheme_level(expect_written, src, expected):
    expect_written(src, expected)


@pytest.mark.parametrize(("src", "message"), ERROR_CASES)
def test_scheme_level_errors(expect_error, src, message):
    expect_error(src, message)
