"""(scheme time) and (scheme process-context)."""

import time

import pytest

from harness.scheme.datatypes import NIL, String, list_to_py, sym
from harness.scheme.errors import SchemeError
from harness.scheme.primitives import LIBRARIES
from harness.scheme.primitives import system as S
from harness.scheme.printer import write_string


def test_current_second_is_the_wall_clock():
    now = S.current_second()
    assert type(now) is float
    assert abs(now - time.time()) < 5


def test_jiffies_count_up_in_exact_integers():
    first = S.current_jiffy()
    time.sleep(0.002)
    second = S.current_jiffy()
    assert type(first) is int and type(second) is int
    assert second - first >= S.jiffies_per_second() // 1000  # at least a millisecond
    assert S.jiffies_per_second() == 1_000_000


def test_command_line(monkeypatch):
    assert write_string(S.command_line()) == '("harness")'
    monkeypatch.setattr(S, "COMMAND_LINE", ["prog.scm", "--flag", "λ"])
    assert [s.s for s in list_to_py(S.command_line())] == ["prog.scm", "--flag", "λ"]


@pytest.mark.parametrize("args, code", [
    ((), 0), ((True,), 0), ((False,), 1), ((0,), 0), ((3,), 3), ((sym("x"),), 1),
])
def test_exit_codes(args, code):
    with pytest.raises(S.SchemeExit) as excinfo:
        S.exit_(*args)
    assert excinfo.value.code == code
    assert excinfo.value.emergency is False


def test_emergency_exit_is_marked():
    with pytest.raises(S.SchemeExit) as excinfo:
        S.emergency_exit(False)
    assert excinfo.value.code == 1
    assert excinfo.value.emergency is True


def test_exit_is_not_an_ordinary_exception():
    assert not issubclass(S.SchemeExit, Exception)
    unwound = []
    with pytest.raises(S.SchemeExit):
        try:
            S.exit_(0)
        except Exception:  # noqa: BLE001 — what a Scheme guard compiles to must not catch it
            unwound.append("caught")
        finally:
            unwound.append("after")
    assert unwound == ["after"]


def test_environment_variables(monkeypatch):
    monkeypatch.setenv("HARNESS_TEST_VAR", "value λ")
    monkeypatch.delenv("HARNESS_TEST_MISSING", raising=False)
    assert S.get_environment_variable(String("HARNESS_TEST_VAR")) == String("value λ")
    assert S.get_environment_variable(String("HARNESS_TEST_MISSING")) is False
    assert S.get_environment_variable(String("bad\0name")) is False
    pairs = {p[0].s: p[1].s for p in list_to_py(S.get_environment_variables())}
    assert pairs["HARNESS_TEST_VAR"] == "value λ"


def test_environment_variable_name_must_be_a_string():
    with pytest.raises(SchemeError, match="get-environment-variable: expected a string, got x"):
        S.get_environment_variable(sym("x"))


def test_empty_environment(monkeypatch):
    monkeypatch.setattr(S.os, "environ", {})
    assert S.get_environment_variables() is NIL


def test_libraries():
    assert set(LIBRARIES[("scheme", "time")]) == {
        "current-second", "current-jiffy", "jiffies-per-second"}
    assert set(LIBRARIES[("scheme", "process-context")]) == {
        "command-line", "exit", "emergency-exit", "get-environment-variable",
        "get-environment-variables"}


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ("(exact-integer? (current-jiffy))", "#t"),
    ("(real? (current-second))", "#t"),
    ("(jiffies-per-second)", "1000000"),
    ("(string? (car (command-line)))", "#t"),
    ('(get-environment-variable "HARNESS_SURELY_UNSET_VARIABLE")', "#f"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_level(src, expected):
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    value = interpreter.Interpreter().eval_string(src)
    assert write_string(value) == expected
