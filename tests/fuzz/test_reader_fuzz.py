"""Reader fuzzing (issue 6), bounded for CI: arbitrary text and s-expression-like text ->
``read_all`` / ``read_one`` return Scheme data or raise ``ReadError`` with a position;
never another exception, never a hang (a per-example alarm turns a hang into a failure).
The reader bugs the first runs found are pinned as regression tests at the end.

The long run is bench/fuzz_reader.py. The number of inputs this file ran is printed in
the terminal summary ("reader fuzz: N inputs").
"""

from __future__ import annotations

import signal
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from harness.scheme.datatypes import EOF, NIL, Bytevector, Char, String, Symbol, Vector
from harness.scheme.errors import ReadError
from harness.scheme.exact_complex import ExactComplex
from harness.scheme.reader import read_all, read_one

#: seconds one example may take before it counts as a hang
EXAMPLE_ALARM = 2.0
SCALARS = (bool, int, Fraction, float, complex, ExactComplex, Symbol, Char, String, Bytevector)
COUNTS = {"inputs": 0, "data": 0, "read errors": 0, "known bugs": 0}
#: private reader objects that may leak as data: none since the reader checks every datum
KNOWN_LEAKS: set[str] = set()

# -- strategies --------------------------------------------------------------------------

TOKENS = [
    "(", ")", "[", "]", "#(", "#u8(", "'", "`", ",", ",@", ".", " ", "\n", "\t", '"', "\\",
    "|", "#", ";", "#|", "|#", "#;", "#!fold-case", "#!no-fold-case", "#!", "#\\", "#\\x",
    "#\\space", "#\\x41", "#0=", "#0#", "#1=", "#1#", "#t", "#f", "#true", "#false", "#e",
    "#i", "#x", "#b", "#o", "#d", "1", "0", "-1", "1.5", ".5", "1/2", "1/0", "-", "+", "+i",
    "-i", "1e10", "1e400", "#e1e40", "#xff", "#e1.5", "+nan.0", "-inf.0", "1@2", "1+2i",
    "abc", "x", "λ", "...", "->", "\\x41;", "\\x", "\\n", "@", "\x00", "\ufeff", "\u2028",
    "\ud800", "\U0001f600",
]


def _sexp() -> st.SearchStrategy[str]:
    atom = st.sampled_from(["a", "foo", "1", "-2.5", "3/4", "#t", "#\\a", '"s"', '"\\x41;"',
                            "|a b|", "#e1", "#xFF", "+", "...", "#0#"])
    return st.recursive(atom, lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(lambda xs: "(" + " ".join(xs) + ")"),
        st.lists(inner, min_size=2, max_size=4).map(lambda xs: "(" + " ".join(xs[:-1])
                                                    + " . " + xs[-1] + ")"),
        st.lists(inner, max_size=4).map(lambda xs: "#(" + " ".join(xs) + ")"),
        st.tuples(st.sampled_from(["'", "`", ",", ",@", "#;", "#0="]), inner).map("".join),
        st.tuples(inner, st.sampled_from([" ; c\n", " #| c |# ", "\n"])).map("".join),
    ), max_leaves=25)


def _mutated(text: str, data: st.DataObject) -> str:
    """``text`` with a few characters dropped or inserted (a near miss of valid syntax)."""
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()) and i < len(text):
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + data.draw(st.sampled_from(TOKENS)) + text[i:]
    return text


TOKEN_SOUP = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=80), TOKEN_SOUP, _sexp())

# -- the property ------------------------------------------------------------------------


def summary_line() -> str:
    """What tests/fuzz/conftest.py prints in the terminal summary."""
    return ("reader fuzz: {inputs} inputs ({data} read as data, {read errors} read errors, "
            "{known bugs} known-bug hits)").format(**COUNTS)


def _is_data(value: object) -> bool:
    """True if ``value`` is made only of Scheme data (cycles allowed)."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if x is NIL or x is EOF or isinstance(x, SCALARS):
            continue
        if x.__class__ is list and len(x) == 2:
            stack.extend(x)
        elif isinstance(x, Vector):
            stack.extend(x.items)
        else:
            return False
    return True


def _leaks(values: list) -> set[str]:
    """Type names of the non-data leaves in ``values``."""
    found: set[str] = set()
    seen: set[int] = set()
    stack = list(values)
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if x.__class__ is list and len(x) == 2:
            stack.extend(x)
        elif isinstance(x, Vector):
            stack.extend(x.items)
        elif not _is_data(x):
            found.add(type(x).__name__)
    return found


def _check(read) -> None:
    """Run ``read()`` (returns a list of data) under the alarm; assert the property."""
    COUNTS["inputs"] += 1
    signal.setitimer(signal.ITIMER_REAL, EXAMPLE_ALARM)
    try:
        values = read()
    except ReadError as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)
        assert exc.where is not None and exc.where.line >= 1 and exc.where.col >= 0, exc
        assert exc.message
        COUNTS["read errors"] += 1
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    if not all(_is_data(v) for v in values) and _leaks(values) <= KNOWN_LEAKS:
        COUNTS["known bugs"] += 1
        return
    assert all(_is_data(v) for v in values), values
    COUNTS["data"] += 1


FUZZ = settings(max_examples=1200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(ANY_TEXT)
@example("(1 . 2 3)")
@example("#|#|nested|#")
@example('"\\x110000;"')
def test_read_all_returns_data_or_a_positioned_read_error(text):
    _check(lambda: read_all(text)[0])


@settings(FUZZ, max_examples=300)
@given(st.data())
def test_read_all_of_near_miss_syntax(data):
    text = _mutated(data.draw(_sexp()), data)
    _check(lambda: read_all(text)[0])


@settings(FUZZ, max_examples=500)
@given(ANY_TEXT, st.integers(0, 100))
def test_read_one_consumes_the_text_to_eof(text, start):
    """Reading datum after datum ends (each read moves forward or returns EOF)."""
    start = min(start, len(text))

    def read_until_eof() -> list:
        out, pos = [], start
        for _ in range(len(text) + 2):
            datum, end = read_one(text, pos)
            assert pos <= end <= len(text)
            if datum is EOF:
                return out
            assert end > pos, f"read_one did not move forward at {pos}"
            out.append(datum)
            pos = end
        raise AssertionError("read_one never reached EOF")

    _check(read_until_eof)


# -- reader bugs found by the first fuzz runs (fixed; kept as regression tests) ---------------

@pytest.mark.parametrize("text", ["(a . .)", "(foo (foo . .))"])
def test_a_dot_after_the_dot_of_a_list_is_a_read_error(text):
    # found by the fuzzer: the second `.` became the list's tail (no datum)
    with pytest.raises(ReadError, match="misplaced '.' in list"):
        read_all(text)


@pytest.mark.parametrize("text", ["#e1e2000000", "9" * 1_000_001, "#x" + "f" * 900_000],
                         ids=["exponent", "digits", "hex-digits"])
def test_huge_number_literal_is_a_read_error(text):
    with pytest.raises(ReadError) as info:
        read_all(text)
    assert info.value.where is not None


@pytest.mark.parametrize("text", ["#0#", "#0=#0#", "(a #1#)", "#(#5#)"])
def test_undefined_label_is_a_read_error(text):
    with pytest.raises(ReadError, match="#") as info:
        read_all(text)
    assert info.value.where is not None


@pytest.mark.parametrize("text", [".", "a . b", "#(1) ."])
def test_lone_dot_is_a_read_error(text):
    with pytest.raises(ReadError, match="'.'") as info:
        read_all(text)
    assert info.value.where is not None


@pytest.mark.parametrize("text", ["'.", "`.", ",."])
def test_dot_after_a_prefix_is_a_read_error(text):
    with pytest.raises(ReadError) as info:
        read_all(text)
    assert info.value.where is not None


@pytest.mark.parametrize("text", ["'#;a", "`#;()", ",@#;a b"])
def test_datum_comment_after_a_prefix(text):
    try:
        values, _ = read_all(text)
    except ReadError as exc:
        assert exc.where is not None
    else:
        assert all(_is_data(v) for v in values), values


@pytest.mark.parametrize("opener", ["(", "#(", "'", "#0=", ",@"])
def test_deep_nesting_is_refused_quickly(opener):
    signal.setitimer(signal.ITIMER_REAL, 3.0)  # the alarm fixture (conftest.py) turns a hang into Hang
    with pytest.raises(ReadError, match="nested") as info:
        read_all(opener * 1_000_000 + "x" + ")" * (1_000_000 if "(" in opener else 0))
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert info.value.where is not None
