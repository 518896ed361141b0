"""harness.scheme.names: Scheme identifiers as Python identifiers, and back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from harness.scheme.names import escape, global_name, scheme_name


def test_letters_and_digits_stay_an_underscore_doubles_the_rest_is_hex():
    assert escape("string->list") == "string_2d__3e_list"
    assert escape("a_b") == "a__b" and escape("null?") == "null_3f_"
    assert escape("λx") == "_3bb_x" and escape("é") == "_e9_" and escape("") == ""
    assert global_name("vector-ref") == "s_vector_2d_ref"


@given(st.text(max_size=12))
def test_every_name_comes_back_and_is_a_python_identifier(name):
    py = global_name(name)
    assert py.isidentifier() and scheme_name(py) == name
