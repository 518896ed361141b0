"""SRFI 128 comparators, as (scheme comparator), from the SRFI's text: every procedure and
syntax, the default comparator's order across harness's types, and the errors."""

from __future__ import annotations

import pytest

from harness.scheme.errors import StepLimitExceeded
from harness.scheme.limits import Budget
from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def c() -> LibraryRunner:
    runner = LibraryRunner("(scheme comparator)")
    runner("""
      (define default (make-default-comparator))
      (define boolean-comparator
        (make-comparator boolean? boolean=? (lambda (x y) (and (not x) y)) boolean-hash))
      (define real-comparator (make-comparator real? = < (lambda (x) (exact (abs x)))))
      (define string-ci-comparator (make-comparator string? string-ci=? string-ci<? string-ci-hash))
      (define unordered (make-comparator number? = #f #f))
      (define-record-type point (make-point x y) point? (x point-x) (y point-y))""")
    return runner


# -- predicates, constructors, accessors ---------------------------------------------------

@pytest.mark.parametrize("name", ["(srfi 128)", "(scheme comparator)"])
def test_both_names_import_in_the_sandbox(name):
    assert LibraryRunner(name)("(comparator? (make-default-comparator))") == "#t"


def test_predicates(c):
    assert c("(list (comparator? default) (comparator? =) (comparator-ordered? default)"
             " (comparator-hashable? default) (comparator-ordered? unordered)"
             " (comparator-hashable? unordered))") == "(#t #f #t #t #f #f)"
    assert c("default") == "#<comparator>"


def test_make_comparator_bundles_its_procedures(c):
    assert c("(list (eq? (comparator-type-test-predicate boolean-comparator) boolean?)"
             " (eq? (comparator-equality-predicate boolean-comparator) boolean=?)"
             " (eq? (comparator-hash-function boolean-comparator) boolean-hash)"
             " ((comparator-ordering-predicate boolean-comparator) #f #t))") \
        == "(#t #t #t #t)"


def test_the_srfis_example_comparators(c):
    assert c("(list (<? boolean-comparator #f #t) (<? boolean-comparator #t #f)"
             " (<? real-comparator 1 2.5 3) (=? real-comparator 2 2.0)"
             " (comparator-hash real-comparator -3/2)"
             " (=? string-ci-comparator \"ABC\" \"abc\") (<? string-ci-comparator \"a\" \"B\")"
             " (= (comparator-hash string-ci-comparator \"ABC\")"
             "    (comparator-hash string-ci-comparator \"abc\")))") \
        == "(#t #f #t #t 3/2 #t #t #t)"


def test_missing_ordering_or_hash_is_an_error_when_used(c):
    assert c.error("((comparator-ordering-predicate unordered) 1 2)").startswith(
        "ordering predicate: the comparator was made without one")
    assert c.error("((comparator-hash-function unordered) 1)").startswith(
        "hash function: the comparator was made without one")
    assert c.error("(<? unordered 1 2)").startswith(
        "<?: the comparator has no ordering predicate")
    assert c.error("(comparator-hash unordered 1)").startswith(
        "comparator-hash: the comparator has no hash function")
    assert c("(=? unordered 1 1.0)") == "#t"


def test_make_comparator_checks_its_arguments(c):
    assert c.error("(make-comparator 1 = < #f)").startswith(
        "make-comparator: expected a procedure, got 1")
    assert c.error("(make-comparator number? #f < #f)").startswith(
        "make-comparator: expected a procedure, got #f")
    assert c.error("(make-comparator number? = 'less #f)").startswith(
        "make-comparator: expected a procedure, got less")


def test_invokers(c):
    assert c("(list (comparator-test-type real-comparator 1) (comparator-test-type"
             " real-comparator 'a) (comparator-check-type real-comparator 2)"
             " (comparator-hash boolean-comparator #t))") == "(#t #f #t 1)"
    assert c.error("(comparator-check-type real-comparator 'a)").startswith(
        "comparator-check-type: expected an object of the comparator's type, got a")
    assert c.error("(comparator-test-type 'nope 1)").startswith(
        "comparator-test-type: expected a comparator, got nope")


# -- pair, list and vector comparators -----------------------------------------------------

def test_pair_comparator(c):
    c("(define pc (make-pair-comparator real-comparator boolean-comparator))")
    assert c("(list (comparator-test-type pc '(1 . #t)) (comparator-test-type pc '(1 . 2))"
             " (comparator-test-type pc 5) (=? pc '(1 . #t) '(1.0 . #t))"
             " (<? pc '(1 . #t) '(2 . #f)) (<? pc '(1 . #f) '(1 . #t))"
             " (<? pc '(1 . #t) '(1 . #f))"
             " (= (comparator-hash pc '(1 . #t)) (comparator-hash pc '(1 . #t))))") \
        == "(#t #f #f #t #t #t #f #t)"
    assert c.error("(=? pc 1 '(1 . #t))").startswith("pair-comparator: expected a pair, got 1")
    assert c("(comparator-ordered? (make-pair-comparator unordered real-comparator))") == "#f"


def test_list_comparator_orders_lexicographically(c):
    c("(define lc (make-list-comparator real-comparator list? null? car cdr))")
    assert c("(list (comparator-test-type lc '(1 2)) (comparator-test-type lc '(1 a))"
             " (comparator-test-type lc 5) (=? lc '(1 2) '(1.0 2)) (=? lc '(1 2) '(1 2 3))"
             " (<? lc '() '(0)) (<? lc '(1 2) '(1 2 0)) (<? lc '(1 3) '(1 2 0))"
             " (<? lc '(0 9) '(1)) (=? lc '() '()) (<? lc '() '()))") \
        == "(#t #f #f #t #f #t #t #f #t #t #f)"
    assert c("(= (comparator-hash lc '(1 2)) (comparator-hash lc '(1.0 2)))") == "#t"


def test_list_comparator_on_vectors_of_its_own_kind(c):
    """empty?, head and tail may walk any sequence: here strings, by index."""
    c("(define (string-tail s) (substring s 1 (string-length s)))"
      "(define sc (make-list-comparator (make-comparator char? char=? char<? char-hash)"
      "  string? (lambda (s) (= 0 (string-length s))) (lambda (s) (string-ref s 0)) string-tail))")
    assert c("(list (<? sc \"ab\" \"abc\") (<? sc \"b\" \"abc\") (=? sc \"xy\" \"xy\"))") \
        == "(#t #f #t)"


def test_list_comparator_refuses_a_circular_list(c):
    c("(define lc2 (make-list-comparator real-comparator list? null? car cdr))"
      "(define circ (let ((l (list 1 2))) (set-cdr! (cdr l) l) l))"
      "(define circ2 (let ((l (list 1 2))) (set-cdr! (cdr l) l) l))")
    assert c.error("(=? lc2 circ circ2)").startswith("list-comparator: the sequence is circular")
    assert c.error("(<? lc2 circ circ2)").startswith("list-comparator: the sequence is circular")


def test_vector_comparator_the_srfis_bytevector_example(c):
    c("(define bc (make-vector-comparator (make-comparator exact-integer? = < number-hash)"
      " bytevector? bytevector-length bytevector-u8-ref))")
    assert c("(list (comparator-test-type bc (bytevector 1)) (comparator-test-type bc #(1))"
             " (<? bc (bytevector 9) (bytevector 1 1)) (<? bc (bytevector 1 2) (bytevector 1 3))"
             " (<? bc (bytevector 1 3) (bytevector 1 2)) (=? bc (bytevector 1 2) (bytevector 1 2))"
             " (=? bc (bytevector 1) (bytevector 1 2))"
             " (= (comparator-hash bc (bytevector 5 6)) (comparator-hash bc (bytevector 5 6))))") \
        == "(#t #f #t #t #f #t #f #t)"
    assert c.error("(=? (make-vector-comparator real-comparator vector? (lambda (v) 'x)"
                   " vector-ref) #(1) #(1))").startswith(
        "vector-comparator: expected a length that is an exact integer, got x")


def test_eq_eqv_equal_comparators(c):
    assert c("(let ((s (string #\\a)))"
             " (list (comparator-test-type (make-eq-comparator) 'anything)"
             "  (=? (make-eq-comparator) s s) (=? (make-eq-comparator) s (string #\\a))"
             "  (=? (make-eqv-comparator) 1.5 1.5) (=? (make-eqv-comparator) 2 2.0)"
             "  (=? (make-equal-comparator) (list s) (list \"a\"))"
             "  (eq? (comparator-hash-function (make-equal-comparator)) default-hash)"
             "  (<? (make-equal-comparator) 1 2)))") == "(#t #t #f #t #f #t #t #t)"
    # equal? accepts circular structure, and so does the equal comparator
    assert c("(let ((a (list 1)) (b (list 1))) (set-cdr! a a) (set-cdr! b b)"
             " (=? (make-equal-comparator) a b))") == "#t"


# -- hash functions ------------------------------------------------------------------------

def test_standard_hash_functions(c):
    assert c("(list (= (boolean-hash #t) (boolean-hash #t)) (= (char-hash #\\a) (char-hash #\\a))"
             " (= (char-ci-hash #\\a) (char-ci-hash #\\A)) (= (string-hash \"ab\") (string-hash"
             " (string #\\a #\\b))) (= (string-ci-hash \"AB\") (string-ci-hash \"ab\"))"
             " (= (symbol-hash 'x) (symbol-hash (string->symbol \"x\")))"
             " (= (number-hash 1) (number-hash 1.0) (number-hash 1+0.0i))"
             " (= (number-hash 1/2) (number-hash 0.5)) (exact-integer? (number-hash +nan.0))"
             " (< (string-hash \"anything\" 10) 10))") == "(#t #t #t #t #t #t #t #t #t #t)"


@pytest.mark.parametrize("src, message", [
    ("(boolean-hash 1)", "boolean-hash: expected a boolean, got 1"),
    ("(char-hash \"a\")", "char-hash: expected a character, got \"a\""),
    ("(char-ci-hash 1)", "char-ci-hash: expected a character, got 1"),
    ("(string-hash 'a)", "string-hash: expected a string, got a"),
    ("(string-ci-hash 1)", "string-ci-hash: expected a string, got 1"),
    ("(symbol-hash \"a\")", "symbol-hash: expected a symbol, got \"a\""),
    ("(number-hash 'a)", "number-hash: expected a number, got a"),
])
def test_hash_functions_name_a_wrong_argument(c, src, message):
    assert c.error(src).startswith(message)


def test_hash_bound_and_salt(c):
    assert c("(list (exact-integer? (hash-bound)) (> (hash-bound) 0)"
             " (<= 0 (hash-salt)) (< (hash-salt) (hash-bound))"
             " (parameterize ((hash-salt 42)) (hash-salt)))") == "(#t #t #t #t 42)"
    assert c.error("(parameterize ((hash-salt -1)) 0)").startswith(
        "hash-salt: expected a non-negative exact integer, got -1")
    assert c.error("(parameterize ((hash-bound 0)) 0)").startswith(
        "hash-bound: expected a positive exact integer, got 0")


# -- the default comparator ----------------------------------------------------------------

def test_default_comparator_orders_types_in_a_fixed_order(c):
    assert c("(<? default '() '(1) #f #t #\\a \"a\" 'a 1 #(1) (bytevector 1) (make-point 0 0))") \
        == "#t"
    assert c("(>? default car '() )") == "#t"


@pytest.mark.parametrize("chain", [
    "'() '()",
    "#f #f",
    "\"abc\" (string #\\a #\\b #\\c)",
    "1 1.0 2/2",
    "1+2i 1.0+2.0i",
    "'(1 (2 #(3))) (list 1.0 (list 2 (vector 3.0)))",
    "(bytevector 1 2) (bytevector 1 2)",
])
def test_default_equality(c, chain):
    assert c(f"(=? default {chain})") == "#t"
    assert c(f"(apply = (map default-hash (list {chain})))") == "#t"


@pytest.mark.parametrize("chain", [
    "#f #t",
    "#\\A #\\a #\\x3bb",
    "\"\" \"a\" \"ab\" \"b\"",
    "'a 'ab 'b",
    "-inf.0 -1 1/2 0.75 1 2+1i 2+2i 3-5i",
    "'() '(1) '(1 2) '(1 3) '(2)",
    "'(1 2) '(1 . 2) '(1 . 3)",  # a pair comes before a number
    "#() #(9) #(1 1) #(1 2)",
    "(bytevector) (bytevector 9) (bytevector 1 1)",
])
def test_default_ordering_within_a_type(c, chain):
    assert c(f"(<? default {chain})") == "#t"
    assert c(f"(apply >? default (reverse (list {chain})))") == "#t"


def test_default_hash_is_the_type_hash_of_atoms(c):
    assert c("(list (= (default-hash #t) (boolean-hash #t)) (= (default-hash #\\a) (char-hash #\\a))"
             " (= (default-hash \"ab\") (string-hash \"ab\")) (= (default-hash 'ab) (symbol-hash 'ab))"
             " (= (default-hash 2.5) (number-hash 5/2)))") == "(#t #t #t #t #t)"


def test_other_values_are_equal_only_to_themselves(c):
    assert c("(let ((p (make-point 1 2)))"
             " (list (=? default p p) (=? default p (make-point 1 2)) (=? default car car)"
             "  (=? default car cdr)))") == "(#t #f #t #f)"
    assert c("(let ((a (make-point 1 2)) (b (make-point 1 2)))"
             " (not (eq? (<? default a b) (<? default b a))))") == "#t"


def test_registering_a_comparator_for_a_record_type():
    r = LibraryRunner("(scheme comparator)")
    r("(define-record-type point (make-point x y) point? (x point-x) (y point-y))"
      "(comparator-register-default!"
      "  (make-comparator point? (lambda (a b) (= (point-x a) (point-x b)))"
      "    (lambda (a b) (< (point-x a) (point-x b))) (lambda (p) (number-hash (point-x p)))))"
      "(define d (make-default-comparator))")
    assert r("(list (=? d (make-point 1 2) (make-point 1 9)) (<? d (make-point 1 0) (make-point 2 0))"
             " (<? d #(1) (make-point 0 0) car)"
             " (= (default-hash (make-point 1 2)) (default-hash (make-point 1 3)))"
             " (=? d (list (make-point 1 2)) (list (make-point 1 5)))"
             " (= (default-hash (list (make-point 1 2))) (default-hash (list (make-point 1 5))))"
             " (comparator-if<=> (make-point 5 0) (make-point 3 0) 'less 'same 'more))") \
        == "(#t #t #t #t #t #t more)"


def test_a_registered_type_test_must_refuse_the_standard_types():
    r = LibraryRunner("(scheme comparator)")
    assert r.error("(comparator-register-default! (make-comparator string? string=? #f #f))") \
        .startswith("comparator-register-default!: the comparator's type test accepts a value "
                    "of a standard type \"\"")
    assert r.error("(comparator-register-default! 'x)").startswith(
        "comparator-register-default!: expected a comparator, got x")


def test_registrations_and_parameters_belong_to_the_importing_environment():
    """One tool file cannot change how another file's data compares."""
    a, b = LibraryRunner("(scheme comparator)"), LibraryRunner("(srfi 128)")
    a("(define-record-type thing (thing n) thing? (n thing-n))"
      "(comparator-register-default! (make-comparator thing? (lambda (x y) #t) #f #f))"
      "(hash-salt 7)")
    assert a("(list (=? (make-default-comparator) (thing 1) (thing 2)) (hash-salt))") == "(#t 7)"
    b("(define-record-type thing (thing n) thing? (n thing-n))")
    assert b("(=? (make-default-comparator) (thing 1) (thing 2))") == "#f"
    assert b("(= (hash-salt) 7)") in ("#f", "#t")  # its own parameter, whatever its value
    assert b("(eq? (make-default-comparator) (make-default-comparator))") == "#t"


def test_both_names_share_one_environments_default_comparator():
    r = LibraryRunner("(srfi 128) (scheme comparator)")
    assert r("(comparator-ordered? (make-default-comparator))") == "#t"


def test_registrations_are_capped():
    r = LibraryRunner("(scheme comparator)")
    assert r.error("(let loop ((i 0)) (define-record-type t (mk) t?)"
                   " (comparator-register-default! (make-comparator t? eq? #f #f)) (loop (+ i 1)))"
                   ).startswith("comparator-register-default!: no more than 256 comparators")


def test_default_comparator_walks_long_and_circular_data_within_budget(c):
    c("(define long-a (iota 100000)) (define long-b (iota 100000))")
    with Budget(steps=50_000, seconds=None), pytest.raises(StepLimitExceeded):
        c.interp.eval_string("(=? default long-a long-b)")
    assert c("(<? default long-a (append long-b '(0)))") == "#t"
    assert c("(let ((a (list 1 2)) (b (list 1 2))) (set-cdr! (cdr a) a) (set-cdr! (cdr b) b)"
             " (=? default a b))") == "#t"


@pytest.mark.parametrize("a, b, expr, expected", [
    # circular spines whose cars are lists, of equal or different periods
    ("(list (list 1) (list 2))", "(list (list 1) (list 2))",
     "(begin (set-cdr! (cdr a) a) (set-cdr! (cdr b) b) (=? default a b))", "#t"),
    ("(list (list 1) (list 2))", "(list (list 1) (list 2) (list 1) (list 3))",
     "(begin (set-cdr! (cdr a) a) (set-cdr! (cdddr b) b) (<? default a b))", "#t"),
    # circular cars and vectors that contain themselves
    ("(list 1 2)", "(list 1 3)", "(begin (set-car! a a) (set-car! b b) (<? default a b))", "#t"),
    ("(vector 1 2)", "(vector 1 2)",
     "(begin (vector-set! a 1 a) (vector-set! b 1 b) (=? default a b))", "#t"),
])
def test_default_comparator_ends_on_circular_structure(c, a, b, expr, expected):
    assert c(f"(let ((a {a}) (b {b})) {expr})") == expected


# -- comparison predicates and comparator-if<=> ---------------------------------------------

def test_comparison_predicates_take_two_or_more_objects(c):
    assert c("(list (=? real-comparator 1 1 1.0) (=? real-comparator 1 1 2)"
             " (<? real-comparator 1 2 3) (<? real-comparator 1 3 2) (>? real-comparator 3 2 1)"
             " (<=? real-comparator 1 1 2) (<=? real-comparator 2 1) (>=? real-comparator 2 2 1)"
             " (>=? real-comparator 1 2))") == "(#t #f #t #f #t #t #f #t #f)"
    assert c.error("(=? real-comparator 1)").startswith("=?: missing 1 argument")
    assert c.error("(<? car 1 2)").startswith("<?: expected a comparator, got #<procedure car>")


def test_comparator_if(c):
    assert c("(map (lambda (x) (comparator-if<=> real-comparator x 2 'less 'equal 'greater))"
             " '(1 2 3))") == "(less equal greater)"
    assert c("(map (lambda (x) (comparator-if<=> x \"b\" 'less 'equal 'greater))"
             " '(\"a\" \"b\" c))") == "(less equal greater)"


def test_comparator_if_evaluates_each_operand_once_and_is_hygienic(c):
    assert c("(let ((n 0) (r 'mine))"
             " (comparator-if<=> (begin (set! n (+ n 1)) real-comparator) (begin (set! n (+ n 1)) 5)"
             "  (begin (set! n (+ n 1)) 5) 'less (list n r) 'greater))") == "(3 mine)"


def test_comparator_if_branches_are_tail_calls(c):
    assert c("(let loop ((i 0))"
             " (comparator-if<=> i 200000 (loop (+ i 1)) 'done 'past))") == "done"


def test_comparator_if_syntax_errors(c):
    assert c.error("(comparator-if<=> 1 2 'less)").startswith(
        "comparator-if<=>: expected ([comparator] obj1 obj2 less-than equal-to greater-than)")
    assert c.error("(comparator-if<=> unordered 1 2 'a 'b 'c)").startswith(
        "comparator-if<=>: the comparator has no ordering predicate")
