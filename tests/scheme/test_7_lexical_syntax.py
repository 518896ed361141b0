"""R7RS 2 and 7.1: the reader's lexical syntax, positions and errors."""

import pytest

from harness.scheme.datatypes import EOF, NIL, Symbol, sym
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


# -- R7RS 7.1.1 clause by clause, through both readers: source text and `read` on a port ----

@pytest.mark.parametrize("text,expected", [
    # case does not matter in booleans and directives (it does in character names)
    ("#T", "#t"), ("#F", "#f"), ("#TRUE", "#t"), ("#False", "#f"), ("(#t#f)", None),
    ("#!FOLD-CASE ABC", "abc"), ("#!Fold-Case #!NO-FOLD-CASE ABC", "ABC"),
    ("#!fold-case (ABC #\\A \"ABC\" |ABC|)", '(abc #\\A "ABC" ABC)'),
    ("#!fold-case #\\NEWLINE", "#\\newline"), ("#!fold-case #T", "#t"),
    # characters
    ("#\\x41", "#\\A"), ("#\\X41", "#\\A"), ("#\\x", "#\\x"), ("#\\x0", "#\\null"),
    ("#\\alarm", "#\\alarm"), ("#\\backspace", "#\\backspace"), ("#\\delete", "#\\delete"),
    ("#\\escape", "#\\escape"), ("#\\null", "#\\null"), ("#\\return", "#\\return"),
    ("#\\tab", "#\\tab"), ("#\\)", "#\\)"), ("(#\\))", "(#\\))"), ("#\\ ", "#\\space"),
    ("#\\λ", "#\\λ"), ("#\\x10FFFF", "#\\x10ffff"),
    # strings: hex escapes end with ';', a backslash at a line end continues the line
    ('"\\x41;\\x3bb;"', '"Aλ"'), ('"a\\   \n   b"', '"ab"'), ('"a\\\n"', '"a"'),
    ('"a\\\r\n   b"', '"ab"'), ('"a\\\r\tb"', '"ab"'), ('"a\\ \t\n \tb"', '"ab"'),
    ('"\\a\\b\\t\\n\\r\\"\\\\\\|"', '"\\a\\b\\t\\n\\r\\"\\\\|"'), ('"a\nb"', '"a\\nb"'),
    # bytevectors, vectors, dots
    ("#u8(0 255 #xff)", "#u8(0 255 255)"), ("#u8()", "#u8()"), ("#U8(1)", "#u8(1)"),
    ("#(1 (2) #(3))", "#(1 (2) #(3))"), ("#()", "#()"), ("(1 .2)", "(1 0.2)"),
    ("(a .b)", "(a .b)"), ("(a ... b)", "(a ... b)"),
    # block comments nest; #; removes the next datum wherever it is
    ("#| a #| b |# c |# x", "x"), ("#|#|#||#|#|# x", "x"), ("(a #| c |# . b)", "(a . b)"),
    ("(a . #| c |# b)", "(a . b)"), ("#;#;1 2 3", "3"), ("#(#;1)", "#()"), ("(#;1)", "()"),
    ("(1 #;#| c |# 2 3)", "(1 3)"), ("(#; #!fold-case A B)", "(b)"), ("'#!fold-case A", "(quote a)"),
    ("(a . #!fold-case B)", "(a . b)"),
    # datum labels
    ("(#0=a #0#)", "(a a)"), ("#1=(a . #1#)", "#0=(a . #0#)"), ("#2=#(1 #2#)", "#0=#(1 #0#)"),
])
def test_r7rs_lexical_syntax_in_source_and_through_read(scheme, text, expected):
    if expected is None:  # `#t#f` has no delimiter between them: refused either way
        with pytest.raises(ReadError):
            read_all(text)
        return
    assert read1(text) == expected
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    assert scheme(f'(read (open-input-string "{quoted}"))') == expected


@pytest.mark.parametrize("text,message", [
    ('"\\xD800;"', "invalid hex escape \\xD800;: not a Unicode scalar value"),
    ('"\\x110000;"', "not a Unicode scalar value"), ('"\\x41"', "unknown string escape"),
    ("#\\xDFFF", "#\\xDFFF: not a Unicode scalar value"), ("#\\x110000", "not a Unicode"),
    ("#\\xZZ", "unknown character name"), ("#\\SPACE", "unknown character name"),
    ("#!foo 1", "unknown directive '#!foo' (R7RS has #!fold-case and #!no-fold-case)"),
    ("(a #!eof)", "unknown directive '#!eof'"), ("#tru", "bad syntax '#tru'"),
    ("#0#", "never defined"), ("(#0=1 #1#)", "never defined"), ("#0=#0#", "never defined"),
    ("(1 . 2 3)", "misplaced '.'"), ("( . 2)", "misplaced '.'"), ("(1 .)", "misplaced '.'"),
    ("(1 . . 2)", "misplaced '.'"), ("#(1 . 2)", "unexpected '.' in a vector"),
    ("#u8(1.0)", "bytevector element"), ("#u8(-1)", "bytevector element"),
    ("#u8(a)", "bytevector element"), ("(a #;)", "unexpected"),
    # a label's scope is what follows it in its datum (R7RS 2.4)
    ("(#0# . #0=(2))", "datum label #0# is used before #0= defines it"),
    ("(#0=a #0=b)", "datum label #0= is defined twice in one datum"),
    # brackets and braces are reserved (R7RS 7.1.1)
    ("(let ([x 1]) x)", "'[' is reserved in R7RS Scheme: lists are written with '(' and ')'"),
    ("a[0]", "'[' is reserved"), ("{a}", "'{' is reserved"), ("(a])", "']' is reserved"),
])
def test_r7rs_lexical_errors_in_source_and_through_read(scheme, text, message):
    with pytest.raises(ReadError, match=None) as info:
        read_all(text, "e.scm")
    assert message in info.value.payload.message
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    assert message in scheme.error(f'(read (open-input-string "{quoted}"))')


def test_read_keeps_datum_labels_shared(scheme):
    assert scheme('(let ((x (read (open-input-string "#0=(a b . #0#)")))) '
                  '(eq? x (cddr x)))') == "#t"
    assert scheme('(let ((x (read (open-input-string "(#5=(1) #5# #5#)")))) '
                  '(and (eq? (car x) (cadr x)) (eq? (car x) (caddr x))))') == "#t"


def test_fold_case_holds_for_later_reads_from_the_same_port(scheme):
    assert scheme('(let ((p (open-input-string "#!fold-case A B #!no-fold-case C D"))) '
                  '(let* ((a (read p)) (b (read p)) (c (read p))) (list a b c (read p))))'
                  ) == "(a b C D)"
    # another port, or a later one, starts without it
    assert scheme('(read (open-input-string "#!fold-case A")) '
                  '(read (open-input-string "B"))') == "B"


def test_a_script_line_is_skipped_only_at_the_start_of_a_text():
    assert read_all("#!/usr/bin/env harness run\n(define answer 42)")[0] == [
        [sym("define"), [sym("answer"), [42, NIL]]]]
    assert read_all("#! /bin/harness\nx")[0] == [sym("x")]
    with pytest.raises(ReadError, match="unknown directive"):
        read_all("x\n#!/usr/bin/env harness")


def test_each_datum_of_a_text_has_its_own_datum_labels(scheme):
    assert scheme("(define a '#0=(1 . #0#)) (define b '#0=(2 . #0#)) "
                  "(list (cadr a) (cadr b))") == "(1 2)"
    assert scheme('(let ((p (open-input-string "#0=(a . #0#) #0=(b . #0#)"))) '
                  "(read p) (cadr (read p)))") == "b"


def test_symbols_with_reserved_characters_are_written_in_bars(scheme):
    assert scheme('(list (string->symbol "a[0]") (string->symbol "{}"))') == "(|a[0]| |{}|)"
    assert scheme("(list '|a[0]| #\\[ \"[x]\")") == '(|a[0]| #\\[ "[x]")'


@pytest.mark.parametrize("text", ["#!foo", "[1]", "(#0# . #0=(1))", "(#0=a #0=b)", "#T#"])
def test_what_read_refuses_is_a_read_error_object(scheme, text):
    assert scheme(f'(guard (e ((read-error? e) (quote read-error))) '
                  f'(read (open-input-string "{text}")))') == "read-error"
