"""SRFI 14, 125, 128, 130 and 151 as scheme_lib/srfi/N.sld files over a native (srfi N core):
the names a program imports, the core it cannot, the argument errors of the procedures
written in Scheme, and their steps, counted as any Scheme loop's."""

import pytest

from harness.scheme.errors import SchemeError, StepLimitExceeded
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.limits import Budget
from harness.scheme.printer import write_string

#: each library's names, and a program using a procedure it writes in Scheme
LIBRARIES = {
    "14": (("(srfi 14)", "(scheme char-set)", "(scheme charset)"),
           "(char-set-count (lambda (c) (char=? c #\\1)) (string->char-set \"a1b2\"))", "1"),
    "125": (("(srfi 125)", "(scheme hash-table)"),
            ("(let ((t (make-hash-table equal?))) (hash-table-set! t 'a 1 'b 2)"
            " (hash-table-count (lambda (k v) (odd? v)) t))"), "1"),
    "128": (("(srfi 128)", "(scheme comparator)"),
            "(list (<? (make-default-comparator) 1 2 3) (=? (make-eqv-comparator) 'a 'b))",
            "(#t #f)"),
    "130": (("(srfi 130)", "(harness strings)"),
            "(list (string-index \"ab1\" (lambda (c) (char=? c #\\1))) (string-trim \"xaxx\" (lambda (c) (char=? c #\\x))))",
            "(2 \"a\")"),
    "151": (("(srfi 151)", "(scheme bitwise)"),
            "(bitwise-fold (lambda (b acc) (if b (+ acc 1) acc)) 0 13)", "3"),
}


def run(text: str, imports: str) -> str:
    env = make_environment("sandboxed", imports=())
    run_source(env, f"(import (scheme base) {imports})")
    return write_string(run_source(env, text))


@pytest.mark.parametrize("name, program, expected", [
    (name, program, expected)
    for names, program, expected in LIBRARIES.values() for name in names])
def test_the_sandboxed_tier_imports_each_name(name, program, expected):
    assert run(program, name) == expected


@pytest.mark.parametrize("number", sorted(LIBRARIES))
def test_the_native_core_is_not_importable_from_the_sandbox(number):
    env = make_environment("sandboxed", imports=())
    with pytest.raises(SchemeError, match="not available in the sandboxed tier"):
        run_source(env, f"(import (srfi {number} core))")


@pytest.mark.parametrize("imports, program, message", [
    ("(srfi 14)", "(char-set-fold 5 0 char-set:digit)",
     "char-set-fold: expected a procedure, got 5"),
    ("(srfi 14)", "(char-set-any char? 'x)", "char-set-any: expected a char-set, got x"),
    ("(srfi 14)", "(char-set-map (lambda (c) 1) char-set:digit)",
     "char-set-map: expected a character, got 1"),
    ("(srfi 125)", "(hash-table-find car 'x (lambda () #f))",
     "hash-table-find: expected a hash table, got x"),
    ("(srfi 125) (srfi 128)", "(hash-table=? 1 (make-hash-table eq?) (make-hash-table eq?))",
     "hash-table=?: expected a comparator, got 1"),
    ("(srfi 128)", "(<? car 1 2)", "<?: expected a comparator, got #<procedure car>"),
    ("(srfi 128)", "(comparator-check-type (make-eqv-comparator) 1)", None),
    ("(srfi 151)", "(bitwise-fold cons 0 1.5)", "bitwise-fold: expected an exact integer, got 1.5"),
    ("(srfi 151)", "(bitwise-unfold 1 odd? odd? 0)", "bitwise-unfold: expected a procedure, got 1"),
    ("(srfi 130)", "(string-index 'x char?)", "string-index: expected a string, got x"),
    ("(srfi 130)", "(string-rindex \"abc\" char? 2 1)",
     "string-rindex: range [2, 1) out of bounds for length 3 2 1"),
    ("(srfi 130)", "(string-count \"abc\" char? 0 1 2)",
     "string-count: expected 2 to 4 arguments, got 5"),
    ("(srfi 130)", "(string-trim-left \"abc\" char? 'x)",
     "string-trim-left: expected an exact integer start index, got x"),
    ("(srfi 130)", "(string-split \"abc\" char? 0)",
     "string-split: expected a positive exact integer limit, got 0"),
    ("(srfi 130)", "(string-split \"abc\" char? 1 2)",
     "string-split: expected 1 to 3 arguments, got 4"),
    ("(srfi 130)", "(string-index \"abc\" 'x)",
     "string-index: expected a character or a predicate, got x"),
])
def test_errors_name_the_procedure_the_program_called(imports, program, message):
    if message is None:  # the type test passes: no error
        assert run(program, imports) == "#t"
        return
    with pytest.raises(SchemeError) as info:
        run(program, imports)
    assert info.value.message == message


@pytest.mark.parametrize("imports, setup, program", [
    ("(srfi 14)", "", "(char-set-fold (lambda (c n) n) 0 char-set:full)"),
    ("(srfi 151)", "", "(bitwise-for-each (lambda (b) b) (- (expt 2 100000) 1))"),
    ("(srfi 125)", ("(define t (make-hash-table eqv?))"
                   " (do ((i 0 (+ i 1))) ((= i 20000)) (hash-table-set! t i i))"),
     "(hash-table-count (lambda (k v) #f) t)"),
    ("(srfi 130)", "(define s (make-string 20000 #\\a))", "(string-count s (lambda (c) #f))"),
    ("(srfi 130)", "(define s (make-string 20000 #\\a))", "(string-trim s (lambda (c) #t))"),
])
def test_a_walk_with_a_procedure_that_counts_no_steps_still_counts_its_own(
        imports, setup, program):
    env = make_environment("sandboxed", imports=())
    run_source(env, f"(import (scheme base) {imports}) {setup}")
    with Budget(steps=15_000, seconds=None), pytest.raises(StepLimitExceeded):
        run_source(env, program)
