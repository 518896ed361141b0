"""Re-entering a continuation captured inside the procedure of a SRFI procedure that
compares elements: SRFI 1's deletions and sets, SRFI 132's checks and medians, the
unfolds of SRFI 125 and SRFI 14, a hash table's own equality and hash procedures.
(SRFI 1's are Scheme, scheme_lib/srfi/1.sld: their re-entry is the compiler's, and these
cases keep it so, with the orders of SRFI 1's reference implementation.)

The pattern (as tests/scheme/test_6_10_control.py): the procedure keeps ``k`` the first
time it is called on a given argument, the walk finishes, and ``k`` is re-entered later,
first with #f then with #t (or other values): each run's result must be what a fresh run
would give if that one call had answered so, and the results returned before stay as they
were.
"""

from __future__ import annotations

import pytest


def _three_runs(call: str, answers: str = "(= n 2)") -> str:
    """The results of ``call`` (which keeps ``k``), then of re-entering ``k`` with
    ``answers`` evaluated with n = 1, then n = 2, as a list."""
    return ("(let ((k #f) (n 0) (results '())) (let ((r " + call + ")) "
            "(set! results (cons r results)) (set! n (+ n 1)) "
            "(if (< n 3) (k " + answers + ") (reverse results))))")


def keeping(a: object, b: object, base: str = "eqv?") -> str:
    """``base`` (a compare procedure), keeping ``k`` in its first call on ``a`` and ``b``."""
    return (f"(lambda (x y) (if (and (eqv? x {a}) (eqv? y {b}) (not k)) "
            f"(call/cc (lambda (c) (set! k c) ({base} x y))) ({base} x y)))")


def answering(a: object, b: object, answer: str, base: str = "eqv?") -> str:
    """``base``, answering ``answer`` when called on ``a`` and ``b``."""
    return f"(lambda (x y) (if (and (eqv? x {a}) (eqv? y {b})) {answer} ({base} x y)))"


# (call with {same}, the comparison kept, the three results)
SRFI_1_SETS = [
    ("(list= {same} '(1 2) '(1 2))", (2, 2), "(#t #f #t)"),
    ("(list= {same} '(1 2) '(1 2) '(1 2 3))", (1, 1), "(#f #f #f)"),
    # (1 2 1 3 2): 3 is compared with the 1 and the 2 kept before it
    ("(delete-duplicates '(1 2 1 3 2) {same})", (2, 3), "((1 2 3) (1 2 3) (1 2))"),
    ("(delete-duplicates! (list 1 2 1 3 2) {same})", (2, 3), "((1 2 3) (1 2 3) (1 2))"),
    ("(alist-delete 2 '((1 . a) (2 . b) (3 . c)) {same})", (2, 3),
     "(((1 . a) (3 . c)) ((1 . a) (3 . c)) ((1 . a)))"),
    ("(alist-delete! 2 (list '(1 . a) '(2 . b)) {same})", (2, 2), ("(((1 . a)) ((1 . a) (2 . b)) "
     "((1 . a)))")),
    # 1 is found in (2 1 3) at its second element: answering #f goes on to the 3
    ("(lset<= {same} '(1 2) '(2 1 3))", (1, 1), "(#t #f #t)"),
    ("(lset<= {same} '(1) '(1 2) '(2 1))", (2, 2), "(#t #f #t)"),
    ("(lset= {same} '(1 2) '(2 1))", (1, 1), "(#t #f #t)"),
    ("(lset-adjoin {same} '(1 2) 3 1 4)", (2, 3), "((4 3 1 2) (4 3 1 2) (4 1 2))"),
    # the union goes on with the third list after the second
    ("(lset-union {same} '(1 2) '(2 3) '(3 4))", (2, 2),
     "((4 3 1 2) (4 3 2 1 2) (4 3 1 2))"),
    ("(lset-union! {same} (list 1 2) (list 2 3) (list 3 4))", (2, 2),
     "((4 3 1 2) (4 3 2 1 2) (4 3 1 2))"),
    # 1 is looked for in (3 2), then (if found there) in (2 3 1)
    ("(lset-intersection {same} '(1 2 3) '(3 2) '(2 3 1))", (1, 2),
     "((2 3) (2 3) (1 2 3))"),
    ("(lset-intersection! {same} (list 1 2 3) (list 3 2) (list 2 3 1))", (1, 2),
     "((2 3) (2 3) (1 2 3))"),
    ("(lset-difference {same} '(1 2 3) '(3) '(2))", (1, 3), "((1) (1) ())"),
    ("(lset-difference! {same} (list 1 2 3) (list 3) (list 2))", (1, 3), "((1) (1) ())"),
    # a-b and a∩b of (1 2) and (2 3) (1 found in b: a-b is empty, the xor is b-a) ...
    ("(lset-xor {same} '(1 2) '(2 3))", (1, 3), "((3 1) (3 1) (3))"),
    # ... then b-(a∩b), consed onto a-b
    ("(lset-xor! {same} (list 1 2) (list 2 3))", (3, 2), "((3 1) (3 1) (1))"),
    ("(lset-xor {same} '(1 2) '(2 3) '(3 4))", (1, 3), "((4 1) (4 1) (4))"),
    ("(call-with-values (lambda () (lset-diff+intersection {same} '(1 2 3) '(2) '(3))) list)",
     (1, 3), "(((1) (2 3)) ((1) (2 3)) (() (1 2 3)))"),
    ("(call-with-values (lambda () (lset-diff+intersection! {same} (list 1 2) (list 2))) list)",
     (2, 2), "(((1) (2)) ((1 2) ()) ((1) (2)))"),
]


# SRFI 132: the -sorted? checks call (< later earlier); the sort of a median, its mean
SRFI_132 = [
    ("(list-sorted? {less} '(1 2 3))", (2, 1), "(#t #t #f)"),
    ("(vector-sorted? {less} #(0 1 2 3 0) 1 4)", (3, 2), "(#t #t #f)"),
    # (3 1 2): 1 < 3 makes (3 1) a run in descending order
    ("(vector-find-median {less} (vector 3 1 2) 'none)", (1, 3), "(2 1 2)"),
    # (4 1 3 2): the merge of (1 4) and (2 3) asks 2 < 1
    ("(vector-find-median {less} (vector 4 1 3 2) 'none)", (2, 1), "(5/2 5/2 2)"),
    ("(let ((v (vector 3 1 2))) (list (vector-find-median! {less} v 'none) (vector-copy v)))",
     (1, 3), "((2 #(1 2 3)) (1 #(3 1 2)) (2 #(1 2 3)))"),
    ("(list-delete-neighbor-dups {less} '(1 1 2 2))", (2, 2), "((1 2) (1 2 2) (1 2))"),
    ("(vector-delete-neighbor-dups {less} #(1 1 2 2))", (1, 1), "(#(1 2) #(1 1 2) #(1 2))"),
    (("(let ((v (vector 1 1 2 2))) (list (vector-delete-neighbor-dups! {less} v) "
     "(vector-copy v)))"), (1, 1),
     "((2 #(1 2 2 2)) (3 #(1 1 2 2)) (2 #(1 2 2 2)))"),
]
CASES = ([(call.format(same="{proc}"), kept, "eqv?", expected)
          for call, kept, expected in SRFI_1_SETS]
         + [(call.format(less="{proc}"), kept, "<" if "neighbor" not in call else "eqv?",
             expected) for call, kept, expected in SRFI_132])


@pytest.mark.parametrize("call,kept,base,expected", CASES)
def test_reentry_through_a_compare_procedure(scheme, call, kept, base, expected):
    assert scheme(_three_runs(call.format(proc=keeping(*kept, base)))) == expected


@pytest.mark.parametrize("call,kept,base,expected", CASES)
def test_each_result_is_that_of_a_fresh_run_answering_so(scheme, call, kept, base, expected):
    # the same call with the plain procedure, then with one that answers #f, then #t, in
    # the call kept (which each of these calls makes only once)
    runs = [scheme(call.format(proc=base))]
    runs += [scheme(call.format(proc=answering(*kept, answer, base))) for answer in ("#f", "#t")]
    assert expected == f"({' '.join(runs)})"


def test_reentry_through_the_mean_of_a_median(scheme):
    mean = "(lambda (a b) (call/cc (lambda (c) (if (not k) (set! k c)) (/ (+ a b) 2))))"
    assert scheme(_three_runs(f"(vector-find-median < (vector 4 1 3 2) 0 {mean})",
                              "(* 10 n)")) == "(5/2 10 20)"
    assert scheme(_three_runs(f"(let ((v (vector 4 1 3 2))) (cons (vector-find-median! < v 0 "
                              f"{mean}) v))", "(* 10 n)")) == \
        "((5/2 . #(1 2 3 4)) (10 . #(1 2 3 4)) (20 . #(1 2 3 4)))"


def test_the_set_operations_still_count_their_scans():
    from harness.scheme.errors import StepLimitExceeded
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.limits import Budget
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(import (srfi 1)) (define l (iota 3000))")
    # eqv? costs no step: the quadratic scan is what has to be paid for
    with Budget(steps=200_000, seconds=20), pytest.raises(StepLimitExceeded):
        interp.eval_string("(lset-intersection eqv? l (reverse l))")


def test_a_set_operation_reentered_many_times_keeps_its_answers_apart(scheme):
    # a generator-like use: each re-entry answers another comparison's value
    src = ("(let ((k #f) (n 0) (results '())) "
           "(let ((r (delete-duplicates '(a b c) (lambda (x y) (if (and (eq? x 'a) (eq? y 'c) "
           "(not k)) (call/cc (lambda (c) (set! k c) #f)) (eq? x y)))))) "
           "(set! results (cons r results)) (set! n (+ n 1)) "
           "(if (< n 4) (k (odd? n)) (reverse results))))")
    assert scheme(src) == "((a b c) (a b) (a b c) (a b))"


KEEP = "(lambda (v) (call/cc (lambda (c) (if (not k) (set! k c)) v)))"

# SRFI 14's and SRFI 125's unfolds: each of their procedures (over the seeds 0, 1, 2, the
# call on 1 kept)
UNFOLDS = [
    (("(char-set->list (char-set-unfold (lambda (x) (> x 2)) (lambda (x) (if (= x 1) "
     f"({KEEP} #\\b) (integer->char (+ 97 x)))) (lambda (x) (+ x 1)) 0))"),
     "(if (= n 1) #\\x #\\y)", "((#\\a #\\b #\\c) (#\\a #\\c #\\x) (#\\a #\\c #\\y))"),
    ((f"(char-set->list (char-set-unfold (lambda (x) (if (= x 2) ({KEEP} #f) (> x 2))) "
     "(lambda (x) (integer->char (+ 97 x))) (lambda (x) (+ x 1)) 0))"),
     "(= n 1)", "((#\\a #\\b #\\c) (#\\a #\\b) (#\\a #\\b #\\c))"),
    (("(char-set->list (char-set-unfold (lambda (x) (> x 2)) (lambda (x) (integer->char "
     f"(+ 97 x))) (lambda (x) (if (= x 1) ({KEEP} 2) (+ x 1))) 0 (char-set #\\z)))"),
     "(if (= n 1) 5 2)", "((#\\a #\\b #\\c #\\z) (#\\a #\\b #\\z) (#\\a #\\b #\\c #\\z))"),
    # the base set of char-set-unfold! is updated by every run (as SRFI 14's reference
    # adjoins to it as it goes)
    (("(char-set->list (char-set-unfold! (lambda (x) (> x 2)) (lambda (x) (if (= x 1) "
     f"({KEEP} #\\b) (integer->char (+ 97 x)))) (lambda (x) (+ x 1)) 0 (char-set)))"),
     "(if (= n 1) #\\x #\\y)",
     "((#\\a #\\b #\\c) (#\\a #\\b #\\c #\\x) (#\\a #\\b #\\c #\\x #\\y))"),
    # (the table as a list sorted by key; a re-entry goes on filling the table it made, as
    # a loop of hash-table-set! would: the later keys of the first run stay)
    (("(table->list (hash-table-unfold (lambda (x) (> x 2)) (lambda (x) (values x (if (= x 1) "
     f"({KEEP} 'b) x))) (lambda (x) (+ x 1)) 0 (make-default-comparator)))"),
     "(if (= n 1) 'x 'y)", ("(((0 . 0) (1 . b) (2 . 2)) ((0 . 0) (1 . x) (2 . 2)) "
     "((0 . 0) (1 . y) (2 . 2)))")),
    ((f"(table->list (hash-table-unfold (lambda (x) (if (= x 2) ({KEEP} #f) (> x 2))) "
     "(lambda (x) (values x x)) (lambda (x) (+ x 1)) 0 (make-default-comparator)))"),
     "(= n 1)", ("(((0 . 0) (1 . 1) (2 . 2)) ((0 . 0) (1 . 1) (2 . 2)) "
     "((0 . 0) (1 . 1) (2 . 2)))")),
    (("(table->list (hash-table-unfold (lambda (x) (> x 2)) (lambda (x) (values x x)) "
     f"(lambda (x) (if (= x 1) ({KEEP} 2) (+ x 1))) 0 (make-default-comparator)))"),
     "(if (= n 1) 5 2)",
     "(((0 . 0) (1 . 1) (2 . 2)) ((0 . 0) (1 . 1) (2 . 2)) ((0 . 0) (1 . 1) (2 . 2)))"),
]

TABLE_TO_LIST = ("(define (table->list h) (list-sort (lambda (a b) (< (car a) (car b))) "
                 "(hash-table->alist h)))")


@pytest.mark.parametrize("call,answers,expected", UNFOLDS)
def test_reentry_through_an_unfold(scheme, call, answers, expected):
    scheme(f"(import (srfi 14) (srfi 125) (srfi 128) (srfi 132)) {TABLE_TO_LIST}")
    assert scheme(_three_runs(call, answers)) == expected


def test_reentered_unfolds_leave_the_sets_returned_before_alone(scheme):
    scheme(f"(import (srfi 14) (srfi 125) (srfi 128) (srfi 132)) {TABLE_TO_LIST}")
    src = ("(let ((k #f) (n 0) (results '())) (let ((r {0})) (set! results (cons r results)) "
           "(set! n (+ n 1)) (if (< n 3) (k (* 10 n))) (map {1} results)))")
    # (a table is the one the unfold made: each re-entry goes on filling it)
    table = (f"(hash-table-unfold (lambda (x) (> x 1)) (lambda (x) (values x ({KEEP} x))) "
             "(lambda (x) (+ x 1)) 0 (make-default-comparator))")
    assert scheme(src.format(table, "table->list")) == \
        "(((0 . 20) (1 . 1)) ((0 . 20) (1 . 1)) ((0 . 20) (1 . 1)))"
    chars = (f"(char-set-unfold (lambda (x) (> x 1)) (lambda (x) (integer->char (+ 97 ({KEEP} "
             "x)))) (lambda (x) (+ x 1)) 0)")
    assert scheme(src.format(chars, "char-set->list")) == \
        "((#\\b #\\u) (#\\b #\\k) (#\\a #\\b))"


# A hash table's own equality (and hash) procedures, called by a lookup: the table has the
# keys 1 (a) and 2 (b), in one bucket; the equality keeps k in its first call on 1 and the
# key looked up (a call ``armed`` once the table is made).
def eq_keeping(key: int) -> str:
    return (f"(lambda (x y) (if (and armed (eqv? x 1) (eqv? y {key}) (not k)) "
            "(call/cc (lambda (c) (set! k c) (eqv? x y))) (eqv? x y)))")


def table69(key: int) -> str:
    return (f"(let ((h (make-hash-table {eq_keeping(key)}))) (set! armed #f) "
            "(hash-table-set! h 1 'a) (hash-table-set! h 2 'b) (set! armed #t) h)")


def table125(key: int) -> str:
    return (f"(let ((h (make-hash-table (make-comparator (lambda (x) #t) {eq_keeping(key)} #f "
            "(lambda (x . bound) 0))))) (set! armed #f) (hash-table-set! h 1 'a 2 'b) "
            "(set! armed #t) h)")


# (the operation on h, the key whose comparison with 1 is kept, the three results: the
# lookup re-entered with #f goes on to the next key, with #t stops at 1's entry)
TABLE_LOOKUPS = [
    ("(hash-table-ref/default h 2 'none)", 2, "(b b a)"),
    ("(hash-table-ref h 2 (lambda () 'none) list)", 2, "((b) (b) (a))"),
    ("(hash-table-exists? h 3)", 3, "(#f #f #t)"),
    ("(hash-table-contains? h 3)", 3, "(#f #f #t)"),
    # the table changes with every run: each re-entry goes on with it as it is
    ("(begin (hash-table-set! h 2 'z) (alist h))", 2,
     "(((1 . a) (2 . z)) ((1 . a) (2 . z)) ((1 . z) (2 . z)))"),
    ("(begin (hash-table-delete! h 2) (alist h))", 2, "(((1 . a)) ((1 . a)) ())"),
    ("(begin (hash-table-update! h 2 list) (alist h))", 2,
     "(((1 . a) (2 b)) ((1 . a) (2 (b))) ((1 a) (2 (b))))"),
    # hash-table-update!/default (scheme_lib/srfi/69.sld) is a lookup, then a store that
    # looks the key up again: the lookup re-entered with #t reads 1's value, the store
    # finds 3 (hash-table-update!, native, stores at the entry its one lookup found)
    ("(begin (hash-table-update!/default h 3 list 'c) (alist h))", 3,
     "(((1 . a) (2 . b) (3 c)) ((1 . a) (2 . b) (3 (c))) ((1 . a) (2 . b) (3 a)))"),
    # a key added since the lookup began is found when the resumed scan gets to it
    ("(begin (hash-table-set! h 3 'c) (alist h))", 3,
     "(((1 . a) (2 . b) (3 . c)) ((1 . a) (2 . b) (3 . c)) ((1 . c) (2 . b) (3 . c)))"),
    ("(begin (hash-table-merge! h (alist->hash-table '((3 . c)))) (alist h))", 3,
     "(((1 . a) (2 . b) (3 . c)) ((1 . a) (2 . b) (3 . c)) ((1 . c) (2 . b) (3 . c)))"),
]

TABLE_125_LOOKUPS = [
    ("(hash-table-intern! h 3 (lambda () 'new))", 3, "(new new a)"),
    ("(hash-table-delete! h 3 2)", 3, "(1 0 1)"),
    ("(begin (hash-table-set! h 3 'c 2 'z) (alist h))", 3,
     "(((1 . a) (2 . z) (3 . c)) ((1 . a) (2 . z) (3 . c)) ((1 . c) (2 . z) (3 . c)))"),
    # hash-table=? looks the keys of its first table up in its second
    (("(hash-table=? (make-default-comparator) (hash-table (make-default-comparator) 1 'a "
     "2 'b) h)"), 2, "(#t #t #f)"),
    ("(begin (hash-table-union! h (hash-table (make-default-comparator) 3 'c)) (alist h))",
     3, "(((1 . a) (2 . b) (3 . c)) ((1 . a) (2 . b) (3 . c)) ((1 . a) (2 . b) (3 . c)))"),
    ("(begin (hash-table-xor! h (hash-table (make-default-comparator) 3 'c)) (alist h))",
     3, "(((1 . a) (2 . b) (3 . c)) ((1 . a) (2 . b)) ((2 . b)))"),
    (("(begin (hash-table-intersection! h (hash-table (make-default-comparator) 1 'x)) "
     "(alist h))"), 2, "(((1 . a)) ((1 . a)) ())"),
    # the new table's comparator is the one that keeps k
    (("(alist (hash-table-map (lambda (v) v) (make-comparator (lambda (x) #t) "
     f"{eq_keeping(2)} #f (lambda (x . bound) 0)) h))"), 2,
     "(((1 . a) (2 . b)) ((1 . a) (2 . b)) ((1 . b) (2 . b)))"),
    # the values computed before the stores are the ones stored again
    ("(begin (hash-table-map! (lambda (key v) (list v)) h) (alist h))", 2,
     "(((1 a) (2 b)) ((1 a) (2 b)) ((1 b) (2 b)))"),
]

ALIST = ("(define armed #f) (define (alist h) (list-sort (lambda (a b) (< (car a) (car b))) "
         "(hash-table->alist h)))")


@pytest.mark.parametrize("op,key,expected", TABLE_LOOKUPS)
def test_reentry_through_a_table_s_own_equality(scheme, op, key, expected):
    scheme(f"(import (srfi 69) (srfi 132)) {ALIST}")
    assert scheme(_three_runs(f"(let ((h {table69(key)})) {op})")) == expected


def test_pop_removes_the_oldest_entry_without_a_lookup(scheme):
    """hash-table-pop! deletes the entry where it is: the table's equality is not called."""
    scheme("(import (srfi 125) (srfi 128)) (define calls 0)")
    assert scheme("(let ((h (make-hash-table (make-comparator (lambda (x) #t) "
                  "(lambda (x y) (set! calls (+ calls 1)) (= x y)) #f (lambda (x . b) 0))))) "
                  "(hash-table-set! h 1 'a) (hash-table-set! h 2 'b) (set! calls 0) "
                  "(call-with-values (lambda () (hash-table-pop! h)) "
                  "(lambda (key v) (list key v (hash-table->alist h) calls))))") == "(1 a ((2 . b)) 0)"


@pytest.mark.parametrize("op,key,expected", TABLE_125_LOOKUPS)
def test_reentry_through_a_comparator_table_s_equality(scheme, op, key, expected):
    scheme(f"(import (srfi 125) (srfi 128) (srfi 132)) {ALIST}")
    assert scheme(_three_runs(f"(let ((h {table125(key)})) {op})")) == expected


def test_reentry_through_a_table_s_own_hash_procedure(scheme):
    scheme(f"(import (srfi 69) (srfi 132)) {ALIST}")
    # every key hashes to 0; the lookup of 2 re-entered with 0 finds it, with 7 looks in
    # an empty bucket
    table = ("(let ((h (make-hash-table (lambda (a b) (eqv? a b)) (lambda (x . bound) (if "
             "(and armed (eqv? x 2) "
             "(not k)) (call/cc (lambda (c) (set! k c) 0)) 0))))) (set! armed #f) "
             "(hash-table-set! h 1 'a) (hash-table-set! h 2 'b) (set! armed #t) h)")
    assert scheme(_three_runs(f"(hash-table-ref/default {table} 2 'none)",
                              "(if (= n 1) 0 7)")) == "(b b none)"
    assert "hash table hash function: expected to return an exact integer" in scheme.error(
        "(set! armed #f) " + _three_runs(f"(hash-table-ref/default {table} 2 'none)", "'x"))


def test_an_unfold_into_a_table_with_its_own_equality_resumes_in_the_store(scheme):
    scheme(f"(import (srfi 125) (srfi 128) (srfi 132)) {ALIST}")
    comparator = f"(make-comparator (lambda (x) #t) {eq_keeping(2)} #f (lambda (x . b) 0))"
    call = (f"(begin (set! armed #t) (alist (hash-table-unfold (lambda (x) (> x 2)) "
            f"(lambda (x) (values x x)) (lambda (x) (+ x 1)) 1 {comparator})))")
    assert scheme(_three_runs(call)) == \
        "(((1 . 1) (2 . 2)) ((1 . 1) (2 . 2)) ((1 . 2) (2 . 2)))"


# SRFI 151's walks over bits (5 is #t #f #t, least significant first)
BITS = [
    (f"(bitwise-fold (lambda (b acc) (cons (if b b ({KEEP} b)) acc)) '() 5)",
     "(if (= n 1) 'x 'y)", "((#t #f #t) (#t x #t) (#t y #t))"),
    ((f"(let ((acc '())) (bitwise-for-each (lambda (b) (set! acc (cons (if b b ({KEEP} b)) "
     "acc))) 5) acc)"), "(if (= n 1) 'x 'y)", "((#t #f #t) (#t x #t #f #t) (#t y #t x #t #f #t))"),
    ((f"(bitwise-unfold (lambda (i) (= i 3)) (lambda (i) (if (= i 1) ({KEEP} #t) #f)) "
     "(lambda (i) (+ i 1)) 0)"), "(= n 2)", "(2 0 2)"),
    ((f"(bitwise-unfold (lambda (i) (if (= i 1) ({KEEP} #f) (= i 3))) (lambda (i) #t) "
     "(lambda (i) (+ i 1)) 0)"), "(= n 1)", "(7 1 7)"),
    ((f"(bitwise-unfold (lambda (i) (>= i 3)) (lambda (i) #t) (lambda (i) (if (= i 1) ({KEEP} 2) "
     "(+ i 1))) 0)"), "(if (= n 1) 5 0)", "(7 3 31)"),
]


@pytest.mark.parametrize("call,answers,expected", BITS)
def test_reentry_through_a_walk_over_bits(scheme, call, answers, expected):
    scheme("(import (srfi 151))")
    assert scheme(_three_runs(call, answers)) == expected


# SRFI 128: the comparison predicates, comparator-if<=> and the type test and hash of a
# comparator made of Scheme procedures (equality and ordering keep k in their first call
# on the two numbers given)
def comparator(equality: str = "=", ordering: str = "<") -> str:
    return f"(make-comparator number? {equality} {ordering} #f)"


COMPARATORS = [
    (f"(=? {comparator(equality=keeping(1, 1, '='))} 1 1 1)", "(= n 2)", "(#t #f #t)"),
    (f"(<? {comparator(ordering=keeping(1, 2, '<'))} 1 2 3)", "(= n 2)", "(#t #f #t)"),
    (f"(>? {comparator(ordering=keeping(2, 3, '<'))} 3 2 1)", "(= n 2)", "(#t #f #t)"),
    # <=? asks the ordering, then (if it says no) the equality
    (f"(<=? {comparator(equality=keeping(2, 2, '='))} 1 2 2)", "(= n 2)", "(#t #f #t)"),
    (f"(>=? {comparator(ordering=keeping(1, 2, '<'))} 2 1)", "(= n 2)", "(#t #f #t)"),
    (f"(comparator-if<=> {comparator(ordering=keeping(1, 2, '<'))} 1 2 'lt 'eq 'gt)",
     "(= n 2)", "(lt gt lt)"),
    (f"(comparator-if<=> {comparator(equality=keeping(2, 2, '='))} 2 2 'lt 'eq 'gt)",
     "(= n 2)", "(eq gt eq)"),
    (f"(comparator-test-type (make-comparator (lambda (x) ({KEEP} #t)) = #f #f) 1)",
     "(if (= n 1) 'x 'y)", "(#t x y)"),
    (f"(comparator-check-type (make-comparator (lambda (x) ({KEEP} #t)) = #f #f) 1)",
     "(if (= n 1) 'x 'y)", "(#t #t #t)"),
    (f"(comparator-hash (make-comparator number? = #f (lambda (x) ({KEEP} 7))) 1)",
     "(* 10 n)", "(7 10 20)"),
]


@pytest.mark.parametrize("call,answers,expected", COMPARATORS)
def test_reentry_through_a_comparator_s_procedures(scheme, call, answers, expected):
    scheme("(import (srfi 128))")
    assert scheme(_three_runs(call, answers)) == expected


def test_a_type_test_reentered_with_false_fails_the_check_there(scheme):
    scheme("(import (srfi 128))")
    call = f"(comparator-check-type (make-comparator (lambda (x) ({KEEP} #t)) = #f #f) 1)"
    assert "comparator-check-type: expected an object of the comparator's type, got 1" in \
        scheme.error(_three_runs(call, "#f"))


# A guard without a clause for a raise-continuable raises it again where it was raised
# (R7RS): through these procedures too, the outer handler's value (#t) is the value of the
# raise-continuable, and the procedure goes on with it.
RAISING = "(lambda (a b) (or (eqv? a b) (raise-continuable 'ask)))"
OUTER_TRUE = ("(with-exception-handler (lambda (e) #t) (lambda () (guard (e ((string? e) 'no)) "
              "{})))")


@pytest.mark.parametrize("call,expected", [
    (f"(delete-duplicates '(1 2 3) {RAISING})", "(1)"),
    (f"(lset-intersection {RAISING} '(1 2) '(3))", "(1 2)"),
    (f"(list-sorted? {RAISING} '(1 2))", "#f"),
    (f"(list= {RAISING} '(1) '(2))", "#t"),
    ((f"(hash-table-ref/default (let ((h (make-hash-table {RAISING}))) (hash-table-set! h 1 'a) "
     "h) 2 'none)"), "a"),
    (f"(=? (make-comparator number? {RAISING} #f #f) 1 2)", "#t"),
])
def test_a_raise_continuable_inside_the_procedure_is_answered_there(scheme, call, expected):
    scheme("(import (srfi 69) (srfi 128))")
    assert scheme(OUTER_TRUE.format(call)) == expected


def test_a_raise_continuable_inside_a_derived_comparator_is_raised_again_at_the_guard(scheme):
    # the pair comparator's procedures cannot resume: the outer handler's value is the
    # guard's (README, known deviations)
    scheme("(import (srfi 128))")
    call = (f"(=? (make-pair-comparator (make-comparator number? {RAISING} #f #f) "
            "(make-default-comparator)) '(1 . 0) '(2 . 0))")
    assert scheme(OUTER_TRUE.format(call)) == "#t"
    assert scheme(OUTER_TRUE.format(f"(list {call})")) == "#t"  # not (#t)


def test_every_resume_names_the_value_it_waited_for():
    # a resume method's frame is read as "still waiting" until it binds ``value`` (see
    # continuations._after_call): a capture later in the same resumed run would otherwise
    # replay it from the old state, forever
    from harness.scheme import continuations
    waiting = continuations._Waiting.__subclasses__()
    assert waiting  # the loops of the native cores that call procedures (sorting, tables…)
    for cls in waiting:
        assert "value" in cls.resume.__code__.co_varnames, cls.__name__


def test_a_second_capture_in_a_resumed_run_resumes_from_there(scheme):
    # the comparison (1 2) keeps k1 in the first run, (1 3) keeps k2 in the run k1 resumes
    src = ("(let ((k1 #f) (k2 #f) (n 0) (results '())) "
           "(let ((r (delete-duplicates '(1 2 3) (lambda (a b) (cond "
           "((and (= n 0) (= a 1) (= b 2)) (call/cc (lambda (c) (set! k1 c) #f))) "
           "((and (= n 1) (= a 1) (= b 3)) (call/cc (lambda (c) (set! k2 c) #f))) "
           "(else (= a b))))))) "
           "(set! results (cons r results)) (set! n (+ n 1)) "
           "(cond ((= n 1) (k1 #t)) ((= n 2) (k2 #t)) (else (reverse results)))))")
    scheme("(import (srfi 1))")
    assert scheme(src) == "((1 2 3) (1 3) (1))"


def test_a_second_capture_in_a_resumed_table_walk(scheme):
    # hash-table-map->list's walk, kept on the key 1, then on the key 2 in the run that
    # resumes it
    src = ("(let ((k1 #f) (k2 #f) (n 0) (results '()) (h (make-hash-table equal?))) "
           "(hash-table-set! h 1 'a) (hash-table-set! h 2 'b) "
           "(let ((r (hash-table-map->list (lambda (key v) (cond "
           "((and (= n 0) (= key 1)) (call/cc (lambda (c) (set! k1 c) key))) "
           "((and (= n 1) (= key 2)) (call/cc (lambda (c) (set! k2 c) key))) "
           "(else key))) h))) "
           "(set! results (cons r results)) (set! n (+ n 1)) "
           "(cond ((= n 1) (k1 10)) ((= n 2) (k2 20)) (else (reverse results)))))")
    scheme("(import (srfi 125))")
    assert scheme(src) == "((1 2) (10 2) (10 20))"


@pytest.mark.parametrize("call, expected", [
    # (srfi 125)'s count and for-each pass a Scheme procedure to the native
    # hash-table-fold / -walk: a re-entry goes on from the entry it was on
    (("(hash-table-count (lambda (key v) (if (and (= key 1) (not k)) "
     "(call/cc (lambda (c) (set! k c) #f)) (= key 2))) h)"), "(1 1 2)"),
    (("(let ((seen '())) (hash-table-for-each (lambda (key v) (set! seen (cons (if (and "
     "(= key 1) (not k)) (call/cc (lambda (c) (set! k c) 'first)) key) seen))) h) seen)"),
     # seen is one variable: each re-entry adds to it the value resumed with and key 2
     "((2 first) (2 #f 2 first) (2 #t 2 #f 2 first))"),
])
def test_a_table_walk_of_srfi_125_resumes_from_its_entry(scheme, call, expected):
    scheme("(import (srfi 125))")
    table = ("(let ((h (make-hash-table equal?))) (hash-table-set! h 1 'a) "
             "(hash-table-set! h 2 'b) h)")
    assert scheme(_three_runs(f"(let ((h {table})) {call})")) == expected
