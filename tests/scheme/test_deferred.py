"""Procedures of scheme_lib libraries are compiled when a program first refers to them."""

import subprocess
import sys
from pathlib import Path

import pytest

from harness.scheme.deferred import Deferred
from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.libraries import find_library
from harness.scheme.printer import write_string


def srfi_1_environment():
    """The environment (srfi 1)'s own definitions live in."""
    deferred = next(v for v in find_library(("srfi", "1")).exports.values()
                    if v.__class__ is Deferred)
    return deferred.env


FRESH_PROCESS = """
from harness.scheme.interpreter import make_environment, run_source
from test_deferred import srfi_1_environment
env = make_environment("sandboxed", imports=())
run_source(env, "(import (scheme base) (srfi 1))")
assert "any" in env.lazy and not env.is_bound("any")
assert run_source(env, "(any even? '(1 2))") is True
library = srfi_1_environment()
assert library.is_bound("any") and library.is_bound("check-lists")  # what any calls
assert "lset-union" in library.lazy and not library.is_bound("lset-union")
print("ok")
"""


def test_using_any_compiles_what_any_needs_and_not_the_rest_of_the_library():
    # in a fresh process: other tests of this one may have compiled all of (srfi 1)
    out = subprocess.run([sys.executable, "-c", FRESH_PROCESS], capture_output=True,
                         text=True, cwd=Path(__file__).parent, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_an_alias_in_the_library_gives_the_very_same_procedure():
    env = make_environment("unsandboxed", imports=())
    run_source(env, "(import (scheme base) (srfi 1))")
    assert run_source(env, "(eq? take-while! take-while)") is True


def test_set_of_an_imported_deferred_name_assigns_it():
    env = make_environment("unsandboxed", imports=())
    run_source(env, "(import (scheme base) (srfi 1))")
    assert run_source(env, "(set! reduce-right 5) reduce-right") == 5
    # the library's own binding is untouched
    fresh = make_environment("unsandboxed", imports=())
    run_source(fresh, "(import (scheme base) (srfi 1))")
    assert run_source(fresh, "(reduce-right + 0 '(1 2 3))") == 6


def test_importing_over_a_bound_name_binds_the_library_s_value_at_once():
    env = make_environment("unsandboxed", imports=())
    run_source(env, "(import (scheme base)) (define (lset-xor . args) 'mine)"
                    "(define (f) (lset-xor eq? '(a) '(b)))")
    run_source(env, "(import (srfi 1))")  # f, compiled before, now sees the library's
    assert write_string(run_source(env, "(f)")) == "(b a)"


def test_library_value_compiles_a_deferred_export():
    library = find_library(("srfi", "1"))
    assert library.value("pair-fold-right")(lambda p, acc: acc + 1, 0, [1, [2, _nil()]]) == 2
    with pytest.raises(KeyError):
        library.value("no-such-procedure")


def test_a_program_s_own_libraries_are_compiled_at_once():
    env = make_environment("unsandboxed", imports=())
    with pytest.raises(SchemeError, match="not-defined"):
        run_source(env, "(import (scheme base))"
                        "(define-library (mine) (export f) (import (scheme base))"
                        "  (begin (define g not-defined) (define (f) g)))")


def _nil():
    from harness.scheme.datatypes import NIL
    return NIL
