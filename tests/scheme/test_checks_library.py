"""(harness checks): the argument checks of the procedures harness writes in Scheme."""

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import make_environment, run_source

CHECKED = """
(import (scheme base) (harness checks))
(define (take-some who proc lst k)
  (check-procedure who proc)
  (check-list who lst)
  (check-count who k)
  (check-arg who string? "a string" "s")
  'ok)
"""


def run(text: str):
    env = make_environment("unsandboxed")
    run_source(env, CHECKED)
    return run_source(env, text)


def test_good_arguments_pass():
    assert run("(take-some 'f car '(1 2) 3)").name == "ok"


@pytest.mark.parametrize(("call", "message"), [
    ("(take-some 'f 5 '() 0)", "f: expected a procedure, got 5"),
    ("(take-some 'f car '(1 . 2) 0)", "f: expected a proper list, got (1 . 2)"),
    ("(take-some 'f car '() -1)", "f: expected a non-negative exact integer, got -1"),
    ("(wrong-type 'g \"a char\" \"x\")", 'g: expected a char, got "x"'),
])
def test_errors_read_like_the_primitives(call, message):
    with pytest.raises(SchemeError) as info:
        run(call)
    assert info.value.payload.message == message


def test_a_long_value_is_written_shortened():
    with pytest.raises(SchemeError) as info:
        run("(take-some 'f (iota 100000) '() 0)")
    assert len(info.value.payload.message) < 2000
