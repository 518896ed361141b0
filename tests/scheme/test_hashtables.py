"""SRFI 69 hash tables, and the hash keys that agree with eqv?/equal?."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness.scheme.datatypes import NIL, Bytevector, Char, String, Vector, sym
from harness.scheme.errors import SchemeError
from harness.scheme.primitives import LIBRARIES, load_all
from harness.scheme.primitives import hashtables as H
from harness.scheme.primitives.equivalence import (
    equal_hash,
    equal_key,
    eqv_key,
    is_eq,
    is_equal,
    is_eqv,
)
from harness.scheme.primitives.lists import circular_list, from_items
from harness.scheme.printer import write_string

load_all()
SRFI69 = LIBRARIES[("srfi", "69", "core")]


def lst(*items):
    return from_items(items)


def w(x):
    return write_string(x)


def raises(message, fn, *args):
    """Call fn(*args) expecting a SchemeError whose message starts with ``message``."""
    with pytest.raises(SchemeError) as info:
        fn(*args)
    assert str(info.value).startswith(message), str(info.value)


def table(*pairs, equivalence=is_equal):
    t = H.HashTable(equivalence)
    for k, v in pairs:
        H.hash_table_set_x(t, k, v)
    return t


# -- keys ----------------------------------------------------------------------------------

@pytest.mark.parametrize("a, b, same", [
    (True, 1, False), (False, 0, False), (2, 2.0, False), (0.0, -0.0, False),
    (math.nan, float("nan"), True), (10**40, 10**40, True), (Fraction(1, 2), 0.5, False),
    (1j, complex(0, 1), True), (sym("a"), sym("a"), True), (Char.of("a"), Char.of("a"), True),
    (NIL, NIL, True), (String("a"), String("a"), False),
])
def test_eqv_key(a, b, same):
    assert (eqv_key(a) == eqv_key(b)) is same
    assert is_eqv(a, b) is same
    hash(eqv_key(a))


@pytest.mark.parametrize("a, b, same", [
    (String("a"), String("a"), True), (String("a"), String("b"), False),
    (lst(1, String("x")), lst(1, String("x")), True), (lst(1), lst(1.0), False),
    (Vector([1, lst(2)]), Vector([1, lst(2)]), True), (Vector([1]), lst(1), False),
    (Bytevector(bytearray(b"x")), Bytevector(bytearray(b"x")), True),
    (Bytevector(bytearray(b"x")), String("x"), False), (True, 1, False),
    (circular_list(1, 2), circular_list(1, 2, 1, 2), True),
    (from_items(range(100)), from_items(range(100)), True),
    (from_items(range(100)), from_items([*range(99), 0]), False),
])
def test_equal_key(a, b, same):
    assert (equal_key(a) == equal_key(b)) is same
    if same:
        assert hash(equal_key(a)) == hash(equal_key(b))


def test_equal_hash_is_stable_and_bounded():
    assert equal_hash(String("abc")) == equal_hash(String("abc"))
    assert equal_hash(lst(sym("a"), 1)) == equal_hash(lst(sym("a"), 1))
    assert equal_hash(from_items(range(10**5))) >= 0
    assert equal_hash(circular_list(1)) >= 0


_atoms = st.one_of(st.integers(-3, 3), st.sampled_from([0.0, -0.0, 1.0, math.nan]),
                   st.booleans(), st.sampled_from([sym("a"), sym("b"), NIL]),
                   st.text("ab", max_size=2).map(String))
_data = st.recursive(_atoms, lambda inner: st.one_of(
    st.lists(inner, max_size=3).map(from_items),
    st.tuples(inner, inner).map(list),
    st.lists(inner, max_size=3).map(Vector)), max_leaves=8)


def _naive_equal(a, b):
    if type(a) is list:
        return type(b) is list and _naive_equal(a[0], b[0]) and _naive_equal(a[1], b[1])
    if type(a) is Vector:
        return type(b) is Vector and len(a.items) == len(b.items) and all(
            _naive_equal(x, y) for x, y in zip(a.items, b.items))
    if type(a) is String:
        return type(b) is String and a.s == b.s
    return is_eqv(a, b)


@given(_data, _data)
def test_equal_agrees_with_naive_definition_and_keys(a, b):
    expected = _naive_equal(a, b)
    assert is_equal(a, b) is expected
    assert (equal_key(a) == equal_key(b)) is expected


# -- tables --------------------------------------------------------------------------------

def test_hash_table_class():
    t = table((String("a"), 1), (sym("b"), 2))
    assert t.items() == [(String("a"), 1), (sym("b"), 2)] and len(t) == 2
    assert not hasattr(t, "__getitem__") and not hasattr(t, "__dict__")
    assert write_string(t).startswith("#<hash-table")


def test_make_and_predicates():
    t = H.make_hash_table()
    assert H.hash_table_p(t) and not H.hash_table_p({}) and not H.hash_table_p(NIL)
    assert H.hash_table_equivalence_function(t) is is_equal
    assert H.hash_table_hash_function(t) is SRFI69["hash"]
    assert H.hash_table_hash_function(H.make_hash_table(is_eqv, abs)) is abs
    assert H.make_hash_table(is_eq, SRFI69["hash-by-identity"], 100).equivalence is is_eq
    raises("make-hash-table: expected a procedure, got 1", H.make_hash_table, 1)
    raises("make-hash-table: expected a procedure", H.make_hash_table, is_eqv, 5)


def test_equal_table_keys():
    t = table((String("k"), 1), (lst(1, 2), 2), (2, "int"), (2.0, "float"), (True, "t"),
              (1, "one"))
    assert H.hash_table_ref(t, String("k")) == 1 and H.hash_table_ref(t, lst(1, 2)) == 2
    assert H.hash_table_ref(t, 2) == "int" and H.hash_table_ref(t, 2.0) == "float"
    assert H.hash_table_ref(t, True) == "t" and H.hash_table_ref(t, 1) == "one"
    assert H.hash_table_size(t) == 6


def test_eqv_and_eq_tables_key_strings_by_identity():
    s = String("k")
    for eq in (is_eqv, is_eq):
        t = table((s, 1), (10**30, 2), equivalence=eq)
        assert H.hash_table_ref_default(t, String("k"), None) is None
        assert H.hash_table_ref(t, s) == 1 and H.hash_table_ref(t, 10**30) == 2


def test_string_tables():
    base = LIBRARIES[("scheme", "base")]
    char = LIBRARIES[("scheme", "char")]
    t = table((String("Abc"), 1), equivalence=base["string=?"])
    assert H.hash_table_ref_default(t, String("Abc"), 0) == 1
    assert H.hash_table_ref_default(t, String("abc"), 0) == 0
    raises("string=?: expected a string key, got 1", H.hash_table_set_x, t, 1, 1)
    ci = table((String("Abc"), 1), equivalence=char["string-ci=?"])
    assert H.hash_table_ref_default(ci, String("aBC"), 0) == 1


def test_numeric_and_custom_tables():
    t = table((2, "two"), equivalence=LIBRARIES[("scheme", "base")]["="])
    assert H.hash_table_ref(t, 2.0) == "two" and H.hash_table_ref(t, Fraction(4, 2)) == "two"
    raises("=: expected a number key", H.hash_table_ref, t, sym("x"))

    def same_parity(a, b):
        return a % 2 == b % 2
    custom = table((1, "odd"), (2, "even"), equivalence=same_parity)
    assert H.hash_table_ref(custom, 7) == "odd" and H.hash_table_size(custom) == 2
    H.hash_table_set_x(custom, 4, "EVEN")
    assert H.hash_table_ref(custom, 0) == "EVEN" and custom.items()[1] == (2, "EVEN")
    hashed = H.HashTable(same_parity, lambda x: x % 2)
    H.hash_table_set_x(hashed, 3, "odd")
    assert H.hash_table_exists_p(hashed, 5) and not H.hash_table_exists_p(hashed, 6)
    bad_hash = H.HashTable(same_parity, lambda x: String("h"))
    raises('hash table hash function: expected to return an exact integer, got "h"',
           H.hash_table_set_x, bad_hash, 1, 1)


def test_ref_variants():
    t = table((sym("a"), 1))
    assert H.hash_table_ref(t, sym("a")) == 1
    assert H.hash_table_ref(t, sym("z"), lambda: "missing") == "missing"
    assert H.hash_table_ref(t, sym("a"), lambda: 0, lambda v: v + 100) == 101
    assert H.hash_table_ref_default(t, sym("z"), False) is False
    raises("hash-table-ref: no value for key z", H.hash_table_ref, t, sym("z"))
    raises("hash-table-ref: expected a procedure", H.hash_table_ref, t, sym("z"), 5)
    raises("hash-table-ref: expected a hash table, got ()", H.hash_table_ref, NIL, 1)
    raises("hash-table-ref/default: expected a hash table", H.hash_table_ref_default, 1, 1, 1)


def test_set_delete_exists():
    t = H.make_hash_table()
    key = lst(1)
    H.hash_table_set_x(t, key, 1)
    H.hash_table_set_x(t, lst(1), 2)
    assert t.items() == [(key, 2)] and t.items()[0][0] is key  # the first key is kept
    assert H.hash_table_exists_p(t, lst(1)) and H.hash_table_contains_p(t, lst(1))
    H.hash_table_delete_x(t, lst(1))
    H.hash_table_delete_x(t, sym("absent"))
    assert not H.hash_table_exists_p(t, lst(1)) and H.hash_table_size(t) == 0
    raises("hash-table-set!: expected a hash table", H.hash_table_set_x, Vector([]), 1, 1)
    raises("hash-table-delete!: expected a hash table", H.hash_table_delete_x, 1, 1)
    raises("hash-table-exists?: expected a hash table", H.hash_table_exists_p, 1, 1)
    raises("hash-table-contains?: expected a hash table", H.hash_table_contains_p, 1, 1)


def test_update():
    t = table((sym("n"), 1))
    H.hash_table_update_x(t, sym("n"), lambda v: v + 1)
    H.hash_table_update_x(t, sym("m"), lambda v: v + 1, lambda: 10)
    assert w(H.hash_table_to_alist(t)) == "((n . 2) (m . 11))"
    raises("hash-table-update!: no value for key q", H.hash_table_update_x, t, sym("q"), abs)
    raises("hash-table-update!: expected a procedure", H.hash_table_update_x, t, sym("n"), 1)
    raises("hash-table-update!: expected a hash table", H.hash_table_update_x, 1, 1, abs)


def test_whole_table_operations():
    t = table((sym("a"), 1), (sym("b"), 2))
    assert w(H.hash_table_keys(t)) == "(a b)" and w(H.hash_table_values(t)) == "(1 2)"
    seen = []
    H.hash_table_walk(t, lambda k, v: seen.append((k, v)))
    assert seen == [(sym("a"), 1), (sym("b"), 2)]
    # the walker may change the table
    H.hash_table_walk(t, lambda k, v: H.hash_table_delete_x(t, k))
    assert H.hash_table_size(t) == 0
    t = table((sym("a"), 1), (sym("b"), 2))
    assert H.hash_table_fold(t, lambda k, v, acc: acc + v, 0) == 3
    assert H.hash_table_fold(lambda k, v, acc: acc + v, 10, t) == 13  # SRFI 125 order
    c = H.hash_table_copy(t, True)
    H.hash_table_set_x(c, sym("c"), 3)
    assert H.hash_table_size(t) == 2 and H.hash_table_size(c) == 3
    assert c.equivalence is t.equivalence
    H.hash_table_clear_x(t)
    assert H.hash_table_size(t) == 0 and H.hash_table_keys(t) is NIL
    raises("hash-table-walk: expected a procedure", H.hash_table_walk, t, 1)
    raises("hash-table-fold: expected a procedure", H.hash_table_fold, t, 1, 0)
    raises("hash-table-fold: expected a hash table", H.hash_table_fold, 1, abs, 0)
    raises("hash-table-keys: expected a hash table", H.hash_table_keys, NIL)
    raises("hash-table-copy: expected a hash table", H.hash_table_copy, 1)
    raises("hash-table-size: expected a hash table", H.hash_table_size, 1)
    raises("hash-table-clear!: expected a hash table", H.hash_table_clear_x, 1)


def test_alist_to_hash_table():
    al = lst([sym("a"), 1], [sym("b"), 2], [sym("a"), 3])
    t = H.alist_to_hash_table(al)
    assert w(H.hash_table_to_alist(t)) == "((a . 1) (b . 2))"  # the first entry wins
    e = H.alist_to_hash_table(lst([String("x"), 1]), is_eqv)
    assert H.hash_table_ref_default(e, String("x"), 0) == 0
    raises("alist->hash-table: expected an association list", H.alist_to_hash_table, lst(1))
    raises("alist->hash-table: expected a proper list", H.alist_to_hash_table, 5)


def test_hash_functions():
    assert H.hash_(String("abc")) == H.hash_(String("abc")) >= 0
    assert 0 <= H.hash_(lst(1, 2), 10) < 10
    assert H.string_hash_(String("abc")) == H.string_hash_(String("abc"))
    assert H.string_ci_hash(String("ABC")) == H.string_ci_hash(String("abc"))
    assert 0 <= H.string_hash_(String("x"), 7) < 7
    p = lst(1)
    assert H.hash_by_identity(p) == H.hash_by_identity(p)
    assert H.hash_by_identity(10**30) == H.hash_by_identity(10**30)
    assert H.hash_by_identity(sym("s"), 5) < 5
    raises("hash: expected a positive exact integer bound, got 0", H.hash_, 1, 0)
    raises("string-hash: expected a string, got a", H.string_hash_, sym("a"))
    raises("string-ci-hash: expected a string", H.string_ci_hash, 1)
    raises("hash-by-identity: expected a positive exact integer bound", H.hash_by_identity, 1,
           -3)


def test_many_entries():
    t = H.make_hash_table()
    for i in range(20_000):
        H.hash_table_set_x(t, lst(i, String(str(i))), i)
    assert H.hash_table_ref(t, lst(19_999, String("19999"))) == 19_999
    assert H.hash_table_size(t) == 20_000


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ("(hash-table? (make-hash-table))", "#t"),
    ("(let ((h (make-hash-table))) (hash-table-set! h \"a\" 1) (hash-table-ref h \"a\"))", "1"),
    (("(let ((h (make-hash-table eqv?))) (hash-table-set! h \"a\" 1) "
     "(hash-table-ref/default h \"a\" 'none))"), "none"),
    (("(let ((h (make-hash-table string=?))) (hash-table-set! h \"a\" 1) "
     "(hash-table-ref/default h (string #\\a) 'none))"), "1"),
    (("(let ((h (make-hash-table string-ci=?))) (hash-table-set! h \"A\" 1) "
     "(hash-table-ref h \"a\"))"), "1"),
    ("(let ((h (make-hash-table))) (hash-table-ref h 'x (lambda () 'fail)))", "fail"),
    (("(let ((h (make-hash-table))) (hash-table-set! h 'x 1) "
     "(hash-table-ref h 'x (lambda () 0) (lambda (v) (* v 10))))"), "10"),
    (("(let ((h (make-hash-table))) (hash-table-update!/default h 'n (lambda (v) (+ v 1)) 0) "
     "(hash-table-update! h 'n (lambda (v) (+ v 1))) (hash-table-ref h 'n))"), "2"),
    ("(let ((h (alist->hash-table '((a . 1) (b . 2))))) (hash-table->alist h))",
     "((a . 1) (b . 2))"),
    (("(let ((h (alist->hash-table '((a . 1) (b . 2))))) (hash-table-delete! h 'a) "
     "(list (hash-table-size h) (hash-table-exists? h 'a) (hash-table-contains? h 'b)))"),
     "(1 #f #t)"),
    ("(hash-table-keys (alist->hash-table '((a . 1) (b . 2))))", "(a b)"),
    ("(hash-table-values (alist->hash-table '((a . 1) (b . 2))))", "(1 2)"),
    ("(hash-table-fold (alist->hash-table '((a . 1) (b . 2))) (lambda (k v acc) (+ v acc)) 0)",
     "3"),
    (("(let ((n 0)) (hash-table-walk (alist->hash-table '((a . 1) (b . 2))) "
     "(lambda (k v) (set! n (+ n v)))) n)"), "3"),
    (("(let ((h (alist->hash-table '((a . 1))))) (hash-table-merge! h "
     "(alist->hash-table '((b . 2)))) (hash-table->alist (hash-table-copy h)))"),
     "((a . 1) (b . 2))"),
    ("(let ((h (alist->hash-table '((a . 1))))) (hash-table-clear! h) (hash-table-size h))",
     "0"),
    ("(= (hash '(1 \"a\")) (hash (list 1 (string #\\a))))", "#t"),
    ("(= (string-ci-hash \"AB\") (string-ci-hash \"ab\"))", "#t"),
    ("(< (string-hash \"ab\" 10) 10)", "#t"), ("(exact-integer? (hash-by-identity 'a))", "#t"),
    # scheme_lib/srfi/69.sld
    (("(let ((h (alist->hash-table '((n . 1))))) (hash-table-update!/default h 'n "
      "(lambda (v) (* v 10)) 0) (hash-table-update!/default h 'k (lambda (v) (- v 1)) 0) "
      "(hash-table->alist h))"), "((n . 10) (k . -1))"),
    (("(let ((h (make-hash-table)) (k (list 1))) (hash-table-set! h k 1) "
      "(hash-table-update!/default h (list 1) (lambda (v) (+ v 1)) 0) "
      "(list (eq? k (car (hash-table-keys h))) (hash-table-values h)))"), "(#t (2))"),
    (("(let ((h (alist->hash-table '((a . 1) (b . 2))))) (list (eq? h (hash-table-merge! h "
      "(alist->hash-table '((b . 20) (d . 4))))) (hash-table->alist h)))"),
     "(#t ((a . 1) (b . 20) (d . 4)))"),
]

ERROR_CASES = [
    ("(hash-table-ref (make-hash-table) 'k)", "hash-table-ref: no value for key k"),
    ("(hash-table-set! '() 1 2)", "hash-table-set!: expected a hash table, got ()"),
    ("(hash-table-update! (make-hash-table) 'k car)", "hash-table-update!: no value for key k"),
    ("(make-hash-table 5)", "make-hash-table: expected a procedure, got 5"),
    ("(hash-table-update!/default (make-hash-table) 'n 1 0)",
     "hash-table-update!/default: expected a procedure, got 1"),
    ("(hash-table-update!/default 2 'n car 0)",
     "hash-table-update!/default: expected a hash table, got 2"),
    ("(hash-table-merge! (make-hash-table) 1)", "hash-table-merge!: expected a hash table, got 1"),
    ("(hash-table-merge! 1 (make-hash-table))", "hash-table-merge!: expected a hash table, got 1"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_cases(expect_written, src, expected):
    expect_written(src, expected)


@pytest.mark.parametrize("src, message", ERROR_CASES)
def test_scheme_errors(expect_error, src, message):
    expect_error(src, message)
