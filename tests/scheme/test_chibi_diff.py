"""(chibi diff) and (harness diff): chibi-scheme's API, with every change printed (the
upstream write-diff drops what comes before the first and after the last common line)."""

from __future__ import annotations

import pytest

from harness.scheme.interpreter import Interpreter


def run(code: str):
    interp = Interpreter("sandboxed")
    return interp.eval_string(f"(import (chibi diff)) {code}")


def text(value) -> str:
    return value.s


@pytest.mark.parametrize("a, b, expected", [
    ("a\nb\n", "a\nc\n", " a\n-b\n+c\n"),
    ("x\na\nb\n", "y\na\nb\n", "-x\n+y\n a\n b\n"),
    ("a\nb\nc\n", "a\nX\nc\n", " a\n-b\n+X\n c\n"),
    ("a\nb\nc\nd\n", "a\nc\nd\ne\n", " a\n-b\n c\n d\n+e\n"),
    ("p\nq\na\nb\n", "a\nb\n", "-p\n-q\n a\n b\n"),
    ("a\n", "a\nb\nc\n", " a\n+b\n+c\n"),
    ("a\nb", "c\nd", "-a\n-b\n+c\n+d\n"),
    ("", "", ""),
    ("same\n", "same\n", " same\n"),
])
def test_diff_to_string_shows_every_change(a, b, expected):
    code = f"(diff->string (diff {a!r} {b!r}))".replace("'", '"')
    assert text(run(code)) == expected


def test_diff_returns_both_sides_and_the_common_lines():
    value = run('(diff "a\\nb\\n" "a\\nc\\n")')
    from harness.scheme.printer import write_string
    assert write_string(value) == '(("a" "b") ("a" "c") (("a" 0 0)))'


def test_lcs_and_edits():
    from harness.scheme.printer import write_string
    assert write_string(run("(lcs (string->list \"abcde\") (string->list \"ace\"))")) == \
        "(#\\a #\\c #\\e)"
    assert write_string(run("(lcs-with-positions '(1 2 3 4) '(2 4 5))")) == \
        "((2 1 0) (4 3 1))"
    ab = '(string->list "abc") (lcs-with-positions (string->list "abc") (string->list "axc"))'
    assert text(run(f"(edits->string {ab} 1)")) == "a »b« c"
    xb = '(string->list "axc") (lcs-with-positions (string->list "abc") (string->list "axc"))'
    assert text(run(f"(edits->string {xb})")) == "a «x» c"
    assert "\x1b[32m" in text(run(f"(edits->string/color {xb})"))


def test_write_diff_takes_a_writer_and_a_port_and_harness_diff_is_the_same():
    out = run('(let ((p (open-output-string))) '
              '(write-diff (diff "a\\n" "b\\n") write-line-diffs/color p) '
              '(get-output-string p))')
    assert text(out) == "\x1b[31m-a\x1b[0m\n\x1b[32m+b\x1b[0m\n"
    interp = Interpreter("sandboxed")
    assert interp.eval_string('(import (harness diff)) (diff->string (diff "a" "b"))').s == \
        "-a\n+b\n"
