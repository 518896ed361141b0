"""R7RS 2 and 7.1: the reader's lexical syntax, positions and errors."""

import pytest

from harness.scheme.datatypes import EOF, Symbol
from harness.scheme.errors import ReadError
from harness.scheme.extent import MAX_NESTING
from harness.scheme.printer import write_string
from harness.scheme.reader import read_all, read_one


def read1(text: str) -> str:
    data, _ = read_all(text)
    assert len(data) == 1, data
    return write_string(data[0])


@pytest.mark.parametrize("text,expected", [
    ("abc", "abc"), ("|hello world|", "|hello world|"), ("|a\\x41;b|", "aAb"),
    ("+", "+"), ("-", "-"), ("...", "..."), ("->x", "->x"), ("<=?", "<=?"),
    ("#t", "#t"), ("#true", "#t"), ("#f", "#f"), ("#false", "#f"),
    ("42", "42"), ("-17", "-17"), ("1/2", "1/2"), ("#x1F", "31"), ("#b101", "5"),
    ("#o17", "15"), ("#e1.5", "3/2"), ("#i3/4", "0.75"), ("1e3", "1000.0"),
    ("+inf.0", "+inf.0"), ("1s2", "100.0"), ("1D2", "100.0"), ("#e1l2", "100"), ("-inf.0", "-inf.0"), ("1+2i", "1+2i"),
    ("#\\a", "#\\a"), ("#\\space", "#\\space"), ("#\\x41", "#\\A"), ("#\\(", "#\\("),
    ("#\\newline", "#\\newline"), ("#\\x3bb", "#\\λ"),
    ('"a\\nb"', '"a\\nb"'), ('"tab\\there"', '"tab\\there"'), ('"\\x41;"', '"A"'),
    ('"line \\\n    continued"', '"line continued"'),
    ("(1 . 2)", "(1 . 2)"), ("(1 2 . 3)", "(1 2 . 3)"), ("()", "()"),
    ("#(1 2)", "#(1 2)"), ("#u8(1 255)", "#u8(1 255)"),
    ("'a", "(quote a)"), ("`(a ,b ,@c)", "(quasiquote (a (unquote b) (unquote-splicing c)))"),
    ("(a #;(hidden) b)", "(a b)"), ("(a #| block #| nested |# |# b)", "(a b)"),
    ("(a ; comment\n b)", "(a b)"), ("#0=(a . #0#)", "#0=(a . #0#)"),
    ("(#1=(x) #1#)", "((x) (x))"), ("#!fold-case ABC", "abc"),
    ("#!fold-case #!no-fold-case ABC", "ABC"), ("#!fold-case #\\SPACE", "#\\space"),
])
def test_datum(text, expected):
    assert read1(text) == expected


def test_positions_of_list_elements():
    data, smap = read_all("(define (f x)\n  (car x))", "p.scm")
    form = data[0]
    assert str(smap.pos_of(form)) == "p.scm:1:1"
    body = form[1][1]
    assert str(smap.pos_of(body)) == "p.scm:2:3"


@pytest.mark.parametrize("text,message,where", [
    ("(a b", "'(' is never closed", "1:1"),
    ("(a (b\n c)", "'(' is never closed", "1:1"),
    (")", "unexpected ')'", "1:1"),
    ('"abc', "unterminated string", "1:1"),
    ("#| open", "unterminated block comment", "1:1"),
    ("(a . b c)", "misplaced '.'", "1:4"),
    ("#u8(256)", "bytevector element", "1:5"),
    ("#\\nonsense", "unknown character name", "1:1"),
    ('"\\q"', "unknown string escape", "1:1"),
    ("#xZZ", "bad number syntax", "1:1"),
])
def test_read_errors_have_positions(text, message, where):
    with pytest.raises(ReadError) as info:
        read_all(text, "r.scm")
    assert message in info.value.payload.message
    assert str(info.value.where) == f"r.scm:{where}"


def test_read_one_returns_end_offset_and_eof():
    text = "  (a (b c)) d ; tail"
    datum, end = read_one(text, 0)
    assert write_string(datum) == "(a (b c))" and text[end:].startswith(" d")
    datum, end = read_one(text, end)
    assert datum is Symbol.intern("d")
    assert read_one(text, end)[0] is EOF


def test_deep_nesting_up_to_the_limit_reads():
    depth = MAX_NESTING
    data, _ = read_all("(" * depth + ")" * depth)
    x, n = data[0], 0
    while x.__class__ is list:
        x, n = x[0], n + 1
    assert n == depth - 1


def test_nesting_beyond_the_limit_is_a_read_error_with_a_position():
    text = "(" * (MAX_NESTING + 1) + ")" * (MAX_NESTING + 1)
    with pytest.raises(ReadError, match="nested more than") as info:
        read_all(text, "n.scm")
    assert str(info.value.where) == f"n.scm:1:{MAX_NESTING + 1}"
    with pytest.raises(ReadError, match="nested more than"):
        read_one(text, 0)


@pytest.mark.parametrize("text,expected", [
    ("#!fold-case ABC", "abc"),
    ("#!fold-case #!no-fold-case ABC", "ABC"),
    ("#; abc def", "def"),
    ("#; ; abc\n def ghi", "ghi"),
    ("#;(a (b)) #; c d", "d"),
])
def test_read_one_sees_directives_and_datum_comments(text, expected):
    datum, _ = read_one(text, 0)
    assert write_string(datum) == expected


@pytest.mark.parametrize("text,expected", [
    ("(#;sqrt abs -16)", "(abs -16)"), ("(a #; #;b c d)", "(a d)"),
    ("(a #;(b #;c d) e)", "(a e)"), ("(a . #;b c)", "(a . c)"), ("(a . b #;c)", "(a . b)"),
    ("#(1 #;2 3)", "#(1 3)"), ("'#;a b", "(quote b)"), ("#u8(#;1 2)", "#u8(2)"),
])
def test_datum_comments_in_every_position(text, expected):
    assert read1(text) == expected


@pytest.mark.parametrize("text,message", [
    ("(#;a . b)", "misplaced '.'"), ("(a . #;b)", "misplaced '.'"),
    ("(#;x #;y . z)", "misplaced '.'"),
    ("(a #;. b)", "#; must be followed by a datum, got '.'"),
    ("(#; #;x #;y . z)", "#; must be followed by a datum"),
    ("(#; #;x . z)", "#; must be followed by a datum"),
])
def test_datum_comment_cannot_leave_a_dot_alone_nor_remove_it(text, message):
    with pytest.raises(ReadError, match=message):
        read_all(text)


def test_quote_of_circular_data_terminates(scheme):
    assert scheme("(car '#1=(a b . #1#))") == "a"
    assert scheme("(equal? '#1=(a b . #1#) '#2=(a b a b . #2#))") == "#t"
