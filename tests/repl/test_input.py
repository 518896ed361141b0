"""When Enter submits: only once every datum typed is complete."""

import pytest

from harness.repl.input import is_complete

COMPLETE = ["", "   ", "; a comment", "42", "(+ 1 2)", '(display "a (b")', "(a) (b)",
            "(define (f x)\n  (* x 2))", ",fire pre_tool", ',fire pre_tool {"a": [1, 2]}',
            "(a))", "#| block |# 1", "'x", "#\\("]
INCOMPLETE = ["(", "(+ 1", "(define (f x)\n  (* x 2)", '"abc', '(display "x', "#| open",
              "'", "(a) (b", "#;", ",fire pre_tool (list (cons \"a\" 1)"]


@pytest.mark.parametrize("text", COMPLETE)
def test_complete_entries_submit(text):
    assert is_complete(text)


@pytest.mark.parametrize("text", INCOMPLETE)
def test_incomplete_entries_wait_for_more(text):
    assert not is_complete(text)
