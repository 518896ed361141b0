"""(srfi 1) as scheme_lib/srfi/1.sld over the native (srfi 1 core): what a program sees."""

import pytest

from harness.scheme import library_exports
from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.libraries import LAZY_PRELUDE, PRELUDE_LIBRARIES
from harness.scheme.printer import write_string


def run(text: str, tier: str = "sandboxed") -> str:
    return write_string(run_source(make_environment(tier, imports=PRELUDE_LIBRARIES), text))


@pytest.mark.parametrize("library", ["(srfi 1)", "(scheme list)"])
def test_the_sandboxed_tier_imports_it(library):
    env = make_environment("sandboxed", imports=())
    run_source(env, f"(import (scheme base) {library})")
    assert write_string(run_source(env, "(list (fold + 0 '(1 2 3)) (any even? '(1 2)) "
                                        "(lset-union eq? '(a) '(b)) (iota 2))")) \
        == "(6 #t (b a) (0 1))"


def test_its_native_core_is_not_importable_from_the_sandbox():
    env = make_environment("sandboxed", imports=())
    with pytest.raises(SchemeError, match="not available in the sandboxed tier"):
        run_source(env, "(import (srfi 1 core))")


def test_a_prelude_binds_the_scheme_half_when_a_program_first_needs_it(monkeypatch):
    # export names not known yet (no parse cache, none learned by an earlier test): the
    # libraries load in LAZY_PRELUDE's order (test_library_exports.py has the other case)
    monkeypatch.setattr(library_exports, "_KNOWN", {})
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    assert env.pending == (("srfi", "69"), ("srfi", "130"), ("harness", "strings"),
                           ("srfi", "1"), ("srfi", "132"))
    assert not env.is_bound("fold")
    assert env.is_bound("iota")  # the native part is there from the start
    assert run_source(env, "(fold + 0 (iota 4))") == 6
    assert env.pending == (("srfi", "132"),)  # (srfi 1) had it: the libraries after wait
    assert "any" in env.lazy and not env.is_bound("any")
    assert "string-trim" in env.lazy  # (loaded before (srfi 1): LAZY_PRELUDE's order)
    assert run_source(env, "(any odd? '(2 3))") is True  # compiled when first referenced
    assert env.is_bound("any") and "any" not in env.lazy


def test_a_program_s_own_names_do_not_load_it():
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    assert run_source(env, "(define (f n) (if (= n 0) 'done (f (- n 1)))) (f 3)").name == "done"
    assert env.pending[-2:] == (("srfi", "1"), ("srfi", "132"))


def test_a_program_s_own_definitions_win_over_the_prelude_s():
    # `every` is defined by the program (declared before any form runs) and `fold` needs
    # the library: loading it keeps the program's `every`
    assert run("(define (every . args) 'mine) (list (fold + 0 '(1 2)) (every odd? '(1)))",
               "unsandboxed") == "(3 mine)"


def test_errors_name_the_procedure_and_the_caller_s_place():
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    with pytest.raises(SchemeError) as info:
        run_source(env, "(define (f) (+ 1 (fold 5 0 '(1 2))))\n(f)", "prog.scm")
    assert info.value.payload.message == "fold: expected a procedure, got 5"
    where = info.value.where
    assert (where.file, where.line, where.col) == ("prog.scm", 1, 18)  # (fold ...)


def test_the_lazy_prelude_libraries_are_srfi_69_130_1_and_132():
    assert list(LAZY_PRELUDE.items()) == [(("srfi", "69"), ("srfi", "69", "core")),
                                          (("srfi", "130"), ("srfi", "130", "core")),
                                          (("harness", "strings"), ("srfi", "130", "core")),
                                          (("srfi", "1"), ("srfi", "1", "core")),
                                          (("srfi", "132"), ("srfi", "132", "core"))]


def test_a_name_of_srfi_130_does_not_load_srfi_1():
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    assert run_source(env, "(string-index \"ab\" char-alphabetic?)") == 0
    assert env.pending[-2:] == (("srfi", "1"), ("srfi", "132")) and not env.is_bound("fold")
