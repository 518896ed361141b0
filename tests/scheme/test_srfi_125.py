"""SRFI 125 hash tables, as (scheme hash-table), from the SRFI's text: the procedures SRFI 69
lacks, and tables made from SRFI 128 comparators. (SRFI 69 itself: test_hashtables.py.)"""

from __future__ import annotations

import pytest

from harness.scheme.errors import StepLimitExceeded
from harness.scheme.interpreter import Interpreter
from harness.scheme.limits import Budget
from harness.scheme.printer import write_string
from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def h() -> LibraryRunner:
    runner = LibraryRunner("(scheme hash-table) (scheme comparator)")
    runner("(define eqv (make-eqv-comparator))"
           "(define string-comparator (make-comparator string? string=? string<? string-hash))"
           "(define (sorted t) (list-sort (lambda (a b) (< (car a) (car b))) (hash-table->alist t)))")
    return runner


@pytest.mark.parametrize("name", ["(srfi 125)", "(scheme hash-table)"])
def test_both_names_import_in_the_sandbox(name):
    interp = Interpreter(tier="sandboxed")
    assert write_string(interp.eval_string(
        f"(import {name} (srfi 128)) (hash-table-size (hash-table (make-equal-comparator) 1 2))")) \
        == "1"


# -- constructors --------------------------------------------------------------------------

def test_make_hash_table_from_a_comparator_or_an_equality(h):
    assert h("(let ((t (make-hash-table string-comparator)))"
             " (hash-table-set! t (string #\\a) 1) (hash-table-ref t \"a\"))") == "1"
    assert h("(let ((t (make-hash-table string=? string-hash)))"
             " (hash-table-set! t (string #\\a) 1) (hash-table-ref t \"a\"))") == "1"
    assert h("(let ((t (make-hash-table eqv 100 'thread-safe)))"  # a capacity, a symbol
             " (hash-table-set! t 1.5 'x) (hash-table-ref/default t 1.5 #f))") == "x"
    assert h("(hash-table-contains? (make-hash-table) '(1))") == "#f"


def test_the_default_comparator_makes_1_and_1_0_one_key(h):
    assert h("(let ((t (make-hash-table (make-default-comparator))))"
             " (hash-table-set! t 1 'one '(1 \"x\") 'list)"
             " (list (hash-table-ref t 1.0) (hash-table-ref t (list 1.0 \"x\"))"
             "  (hash-table-size t)))") == "(one list 2)"


def test_a_case_insensitive_table(h):
    assert h("(let ((t (make-hash-table (make-comparator string? string-ci=? string-ci<?"
             " string-ci-hash))))"
             " (hash-table-set! t \"Key\" 1) (hash-table-ref/default t \"KEY\" #f))") == "1"


def test_a_table_of_a_comparator_with_its_own_procedures(h):
    h("(define mod10 (make-comparator exact-integer? (lambda (a b) (= (modulo a 10)"
      " (modulo b 10))) #f (lambda (n) (modulo n 10))))")
    assert h("(let ((t (make-hash-table mod10))) (hash-table-set! t 3 'a 13 'b 4 'c)"
             " (list (hash-table-ref t 23) (hash-table-size t)))") == "(b 2)"


def test_make_hash_table_errors(h):
    assert h.error("(make-hash-table (make-comparator number? (lambda (a b) (= a b)) #f #f))") \
        .startswith("make-hash-table: the comparator has no hash function")
    assert h.error("(make-hash-table eqv 'weak-keys)").startswith(
        "make-hash-table: weak-keys tables are not supported")
    assert h.error("(make-hash-table 5)").startswith(
        "make-hash-table: expected a procedure, got 5")


def test_hash_table_constructor(h):
    assert h("(sorted (hash-table eqv 2 'b 1 'a))") == "((1 . a) (2 . b))"
    assert h.error("(hash-table eqv 1 'a 2)").startswith(
        "hash-table: expected keys and values in pairs")


def test_hash_table_unfold(h):
    assert h("(sorted (hash-table-unfold (lambda (i) (= i 4)) (lambda (i) (values i (* i i)))"
             " (lambda (i) (+ i 1)) 0 eqv))") == "((0 . 0) (1 . 1) (2 . 4) (3 . 9))"
    assert h.error("(hash-table-unfold (lambda (i) (= i 4)) (lambda (i) i)"
                   " (lambda (i) (+ i 1)) 0 eqv)").startswith(
        "hash-table-unfold: the mapper must return two values (key and value)")


def test_alist_to_hash_table_earlier_associations_win(h):
    assert h("(sorted (alist->hash-table '((1 . a) (2 . b) (1 . c)) eqv))") \
        == "((1 . a) (2 . b))"
    assert h("(hash-table-ref (alist->hash-table '((\"k\" . 1)) string=?) \"k\")") == "1"


# -- predicates ----------------------------------------------------------------------------

def test_hash_table_equality_uses_the_value_comparator(h):
    assert h("(list (hash-table=? eqv (hash-table eqv 1 2 3 4) (hash-table eqv 3 4 1 2))"
             " (hash-table=? eqv (hash-table eqv 1 2) (hash-table eqv 1 2.0))"
             " (hash-table=? (make-default-comparator) (hash-table eqv 1 2) (hash-table eqv 1 2.0))"
             " (hash-table=? eqv (hash-table eqv 1 2) (hash-table eqv 1 2 3 4))"
             " (hash-table=? eqv (hash-table eqv 1 2) (hash-table eqv 5 2)))") \
        == "(#t #f #t #f #f)"
    assert h.error("(hash-table=? = (hash-table eqv) (hash-table eqv))").startswith(
        "hash-table=?: expected a comparator")


def test_tables_are_always_mutable(h):
    assert h("(list (hash-table-mutable? (hash-table eqv 1 2))"
             " (hash-table-mutable? (hash-table-copy (hash-table eqv) #f)))") == "(#t #t)"


# -- mutators ------------------------------------------------------------------------------

def test_set_and_delete_take_several_keys(h):
    assert h("(let ((t (make-hash-table eqv)))"
             " (hash-table-set! t 1 'a 2 'b 3 'c)"
             " (list (hash-table-delete! t 1 3 99) (sorted t) (hash-table-delete! t)))") \
        == "(2 ((2 . b)) 0)"
    assert h.error("(hash-table-set! (make-hash-table eqv) 1)").startswith(
        "hash-table-set!: expected keys and values in pairs")


def test_update_with_failure_and_success(h):
    assert h("(let ((t (hash-table eqv 'n 10)))"
             " (hash-table-update! t 'n (lambda (v) (* v 2)) (lambda () 0) (lambda (v) (+ v 1)))"
             " (hash-table-update! t 'm (lambda (v) (* v 2)) (lambda () 7) (lambda (v) (+ v 1)))"
             " (hash-table-update! t 'n (lambda (v) (- v)))"
             " (list (hash-table-ref t 'n) (hash-table-ref t 'm)))") == "(-22 14)"
    assert h.error("(hash-table-update! (make-hash-table eqv) 'x (lambda (v) v))").startswith(
        "hash-table-update!: no value for key")


# -- mapping and sets ----------------------------------------------------------------------

def test_hash_table_map_makes_a_table_of_the_given_comparator(h):
    assert h("(let ((t (hash-table-map (lambda (v) (* v 10)) (make-default-comparator)"
             " (hash-table eqv 1 1 2 2))))"
             " (list (hash-table-ref t 2.0) (hash-table-size t)))") == "(20 2)"


def test_hash_table_map_x(h):
    assert h("(let ((t (hash-table eqv 1 10 2 20))) (hash-table-map! (lambda (k v) (+ k v)) t)"
             " (sorted t))") == "((1 . 11) (2 . 22))"


@pytest.mark.parametrize("operation, expected", [
    ("hash-table-union!", "((1 . a) (2 . b) (3 . z))"),
    ("hash-table-intersection!", "((2 . b))"),
    ("hash-table-difference!", "((1 . a))"),
    ("hash-table-xor!", "((1 . a) (3 . z))"),
])
def test_tables_as_sets_change_and_return_the_first(h, operation, expected):
    assert h(f"(let* ((a (hash-table eqv 1 'a 2 'b)) (r ({operation} a (hash-table eqv 2 'y 3 'z))))"
             " (list (eq? r a) (sorted a)))") == f"(#t {expected})"


def test_walks_over_big_tables_count_against_the_budget(h):
    """Even with a primitive, which counts no steps itself."""
    h("(define big (make-hash-table eqv))"
      "(do ((i 0 (+ i 1))) ((= i 20000)) (hash-table-set! big i i))")
    with Budget(steps=30_000, seconds=None), pytest.raises(StepLimitExceeded):
        h.interp.eval_string("(hash-table-map! max big) (hash-table-map! max big)")


def test_a_walk_counts_its_snapshot_a_step_an_entry(h):
    """hash-table-for-each is Scheme (scheme_lib/srfi/125.sld) over the native
    hash-table-walk, whose snapshot of the entries counts one step an entry; a primitive
    procedure counts none, a Scheme one its own."""
    from harness.scheme.limits import pending_steps
    h("(define counted (make-hash-table eqv))"
      "(do ((i 0 (+ i 1))) ((= i 5000)) (hash-table-set! counted i i))")
    pending = pending_steps()
    with Budget(steps=10**9, seconds=None) as budget:
        h.interp.eval_string("(hash-table-for-each max counted)")
    used = 10**9 - budget.steps - (pending_steps() - pending)
    assert 5_000 <= used < 5_100
