"""Exact and partial matching of outcomes, and the diff a failure shows."""

import pytest

from harness.cli.test_command import matches, outcome_diff, relevant_part

OUTCOME = {"blocked": True, "message": "no", "arguments": {"command": "rm -rf /", "cwd": "/"}}


@pytest.mark.parametrize(("expected", "partial", "result"), [
    (OUTCOME, False, True),
    ({"blocked": True}, False, False),
    ({"blocked": True}, True, True),
    ({"arguments": {"command": "rm -rf /"}}, True, True),  # partial reaches into objects
    ({"arguments": {"command": "ls"}}, True, False),
    ({"blocked": 1}, True, False),  # true is not 1
    ({"missing": None}, True, False),  # a key that is absent never matches, even null
    ({"blocked": True, "message": "no", "arguments": {"command": "rm -rf /"}}, False, False),
])
def test_matches(expected, partial, result):
    assert matches(expected, OUTCOME, partial) is result


def test_arrays_match_element_by_element():
    assert matches({"tools": ["a", "b"]}, {"tools": ["a", "b"]}, True)
    assert not matches({"tools": ["a"]}, {"tools": ["a", "b"]}, True)
    assert matches([{"name": "a"}], [{"name": "a", "type": "file"}], True)
    assert not matches([{"name": "a"}], [{"name": "a", "type": "file"}], False)


def test_numbers_compare_by_value():
    assert matches({"t": 1}, {"t": 1.0}, False)
    assert not matches({"t": 0.1}, {"t": 0.2}, False)


def test_relevant_part_keeps_what_the_expectation_names():
    assert relevant_part({"arguments": {"command": "x"}, "gone": 1}, OUTCOME) == \
        {"arguments": {"command": "rm -rf /"}}


def test_the_diff_is_of_sorted_indented_json():
    diff = outcome_diff({"b": False, "a": 1}, {"a": 1, "b": True}).splitlines()
    assert diff[:2] == ["--- expected", "+++ actual"]
    assert '-  "b": false' in diff and '+  "b": true' in diff
    assert '   "a": 1,' in diff
