"""Characters: (scheme base) and (scheme char) char procedures."""

from __future__ import annotations

import pytest

import harness.scheme.primitives.chars  # noqa: F401  (registers the procedures)
from harness.scheme.datatypes import Char, String
from harness.scheme.primitives import LIBRARIES
from tests.scheme.table_checks import each, failure_message, primitive_named


def proc(name: str):
    return primitive_named(name, (("scheme", "base"), ("scheme", "char")))


def C(c: str) -> Char:
    return Char.of(c)


def error_message(name: str, *args) -> str:
    return failure_message(proc(name), *args)


CALLS = [
    ("char?", (C("a"),), True), ("char?", (String("a"),), False), ("char?", (97,), False),
    ("char->integer", (C("a"),), 97), ("char->integer", (C("λ"),), 0x3BB),
    ("char->integer", (C("\U0001F600"),), 0x1F600), ("char->integer", (C("\0"),), 0),
    ("integer->char", (97,), C("a")), ("integer->char", (0x10FFFF,), C("\U0010FFFF")),
    ("integer->char", (0,), C("\0")),
    ("char=?", (C("a"), C("a")), True), ("char=?", (C("a"), C("a"), C("b")), False),
    ("char=?", (C("a"),), True), ("char<?", (C("a"), C("b"), C("c")), True),
    ("char<?", (C("a"), C("a")), False), ("char>?", (C("c"), C("b"), C("a")), True),
    ("char>?", (C("a"), C("b")), False), ("char<=?", (C("a"), C("a"), C("b")), True),
    ("char<=?", (C("b"), C("a")), False), ("char>=?", (C("b"), C("b"), C("a")), True),
    ("char>=?", (C("a"), C("b")), False), ("char<?", (C("Z"), C("a")), True),
    ("char-ci=?", (C("a"), C("A")), True), ("char-ci=?", (C("a"), C("A"), C("b")), False),
    ("char-ci<?", (C("a"), C("B")), True), ("char-ci>?", (C("b"), C("A")), True),
    ("char-ci<=?", (C("a"), C("A"), C("b")), True), ("char-ci>=?", (C("B"), C("b")), True),
    ("char-ci=?", (C("Σ"), C("σ"), C("ς")), True), ("char-ci=?", (C("ß"), C("ẞ")), True),
    ("char-alphabetic?", (C("a"),), True), ("char-alphabetic?", (C("λ"),), True),
    ("char-alphabetic?", (C("1"),), False), ("char-alphabetic?", (C(" "),), False),
    ("char-numeric?", (C("7"),), True), ("char-numeric?", (C("\u0663"),), True),
    ("char-numeric?", (C("a"),), False), ("char-numeric?", (C("²"),), False),
    ("char-whitespace?", (C(" "),), True), ("char-whitespace?", (C("\t"),), True),
    ("char-whitespace?", (C("\n"),), True), ("char-whitespace?", (C("\u00a0"),), True),
    ("char-whitespace?", (C("\u3000"),), True), ("char-whitespace?", (C("a"),), False),
    ("char-whitespace?", (C("\x1c"),), False),
    ("char-upper-case?", (C("A"),), True), ("char-upper-case?", (C("a"),), False),
    ("char-upper-case?", (C("1"),), False), ("char-upper-case?", (C("Λ"),), True),
    ("char-lower-case?", (C("a"),), True), ("char-lower-case?", (C("A"),), False),
    ("char-lower-case?", (C("λ"),), True), ("char-lower-case?", (C(" "),), False),
    ("digit-value", (C("3"),), 3), ("digit-value", (C("\u0664"),), 4),
    ("digit-value", (C("a"),), False), ("digit-value", (C("²"),), False),
    ("char-upcase", (C("a"),), C("A")), ("char-upcase", (C("λ"),), C("Λ")),
    ("char-upcase", (C("1"),), C("1")), ("char-upcase", (C("ß"),), C("ß")),
    ("char-downcase", (C("A"),), C("a")), ("char-downcase", (C("Σ"),), C("σ")),
    ("char-downcase", (C("İ"),), C("İ")), ("char-downcase", (C("a"),), C("a")),
    ("char-foldcase", (C("A"),), C("a")), ("char-foldcase", (C("ς"),), C("σ")),
    ("char-foldcase", (C("ß"),), C("ß")), ("char-foldcase", (C("1"),), C("1")),
]


def test_calls():
    def check(name, args, expected):
        result = proc(name)(*args)
        assert result is expected or (type(result) is int and result == expected), result
    each(CALLS, check)


def test_chars_are_interned():
    assert proc("integer->char")(955) is Char.of("λ")
    assert proc("char-upcase")(C("a")) is C("A")


ERRORS = [
    ("char->integer", ("a",), "char->integer: expected a character, got"),
    ("char->integer", (String("a"),), 'char->integer: expected a character, got "a"'),
    ("integer->char", (C("a"),), "integer->char: expected an exact integer, got #\\a"),
    ("integer->char", (97.0,), "integer->char: expected an exact integer, got 97.0"),
    ("integer->char", (True,), "integer->char: expected an exact integer, got #t"),
    ("integer->char", (-1,), "integer->char: not a Unicode scalar value"),
    ("integer->char", (0x110000,), "integer->char: not a Unicode scalar value"),
    ("integer->char", (0xD800,), "integer->char: not a Unicode scalar value"),
    ("char=?", (C("a"), 1), "char=?: expected a character, got 1"),
    ("char<?", (1, C("a")), "char<?: expected a character, got 1"),
    ("char>?", (C("a"), String("b")), 'char>?: expected a character, got "b"'),
    ("char<=?", (C("a"), C("b"), True), "char<=?: expected a character, got #t"),
    ("char>=?", (False,), "char>=?: expected a character, got #f"),
    ("char-ci=?", (C("a"), 1), "char-ci=?: expected a character, got 1"),
    ("char-ci<?", (1,), "char-ci<?: expected a character, got 1"),
    ("char-ci>?", (1,), "char-ci>?: expected a character, got 1"),
    ("char-ci<=?", (1,), "char-ci<=?: expected a character, got 1"),
    ("char-ci>=?", (1,), "char-ci>=?: expected a character, got 1"),
    ("char-alphabetic?", (1,), "char-alphabetic?: expected a character, got 1"),
    ("char-numeric?", (String("1"),), 'char-numeric?: expected a character, got "1"'),
    ("char-whitespace?", (32,), "char-whitespace?: expected a character, got 32"),
    ("char-upper-case?", (1,), "char-upper-case?: expected a character, got 1"),
    ("char-lower-case?", (1,), "char-lower-case?: expected a character, got 1"),
    ("digit-value", (3,), "digit-value: expected a character, got 3"),
    ("char-upcase", (1,), "char-upcase: expected a character, got 1"),
    ("char-downcase", (1,), "char-downcase: expected a character, got 1"),
    ("char-foldcase", (1,), "char-foldcase: expected a character, got 1"),
]


def test_errors():
    def check(name, args, message):
        assert error_message(name, *args).startswith(message)
    each(ERRORS, check)


def test_library_membership():
    base, char = LIBRARIES[("scheme", "base")], LIBRARIES[("scheme", "char")]
    for name in ("char?", "char=?", "char<?", "char>?", "char<=?", "char>=?",
                 "char->integer", "integer->char"):
        assert name in base
    for name in ("char-ci=?", "char-ci<?", "char-ci>?", "char-ci<=?", "char-ci>=?",
                 "char-alphabetic?", "char-numeric?", "char-whitespace?", "char-upper-case?",
                 "char-lower-case?", "digit-value", "char-upcase", "char-downcase",
                 "char-foldcase"):
        assert name in char
        assert char[name].__qualname__ == name


# -- Scheme level ----------------------------------------------------------------------

CASES = [
    ("(char->integer #\\A)", "65"), ("(integer->char 955)", "#\\λ"),
    ("(char<? #\\a #\\b #\\c)", "#t"), ("(char-ci=? #\\a #\\A)", "#t"),
    ("(char-upcase #\\a)", "#\\A"), ("(char-downcase #\\A)", "#\\a"),
    ("(char-foldcase #\\A)", "#\\a"), ("(digit-value #\\7)", "7"), ("(digit-value #\\x)", "#f"),
    ("(char-alphabetic? #\\a)", "#t"), ("(char-numeric? #\\1)", "#t"),
    ("(char-whitespace? #\\space)", "#t"), ("(char-upper-case? #\\A)", "#t"),
    ("(char-lower-case? #\\A)", "#f"), ("(map char-upcase (string->list \"ab\"))", "(#\\A #\\B)"),
    ("(apply char=? (list #\\a #\\a #\\a))", "#t"), ("(char? #\\a)", "#t"), ("(char? \"a\")", "#f"),
]

ERROR_CASES = [
    ("(char->integer \"a\")", 'char->integer: expected a character, got "a"'),
    ("(integer->char -1)", "integer->char: not a Unicode scalar value"),
    ("(char<? #\\a 1)", "char<?: expected a character, got 1"),
]


@pytest.mark.parametrize(("src", "expected"), CASES)
def test_scheme_level(expect_written, src, expected):
    expect_written(src, expected)


@pytest.mark.parametrize(("src", "message"), ERROR_CASES)
def test_scheme_level_errors(expect_error, src, message):
    expect_error(src, message)
