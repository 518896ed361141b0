"""SRFI 132 sorting and chibi's ``sort``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.scheme.datatypes import NIL, String, Vector, sym
from harness.scheme.errors import SchemeError, error
from harness.scheme.primitives import LIBRARIES, load_all
from harness.scheme.primitives import sorting as S
from harness.scheme.primitives.lists import from_items
from harness.scheme.printer import write_string

load_all()
SRFI132 = LIBRARIES[("srfi", "132")]


def lst(*items):
    return from_items(items)


def vec(*items):
    return Vector(list(items))


def w(x):
    return write_string(x)


def less(a, b):
    return a < b


def car_less(a, b):
    return a[0] < b[0]


def raises(message, fn, *args):
    """Call fn(*args) expecting a SchemeError whose message starts with ``message``."""
    with pytest.raises(SchemeError) as info:
        fn(*args)
    assert str(info.value).startswith(message), str(info.value)


def test_registered():
    for name in ("list-sort", "list-stable-sort", "list-sort!", "list-stable-sort!",
                 "vector-sort", "vector-stable-sort", "vector-sort!", "vector-stable-sort!",
                 "list-sorted?", "vector-sorted?", "list-merge", "list-merge!", "vector-merge",
                 "vector-merge!", "list-delete-neighbor-dups", "list-delete-neighbor-dups!",
                 "vector-delete-neighbor-dups", "vector-delete-neighbor-dups!",
                 "vector-find-median", "vector-find-median!", "vector-select!",
                 "vector-separate!", "sort"):
        assert callable(SRFI132[name]), name
    assert LIBRARIES[("harness", "sort")]["sort"] is S.sort


def test_list_sort_is_stable():
    pairs = lst(lst(2, sym("a")), lst(1, sym("b")), lst(2, sym("c")), lst(1, sym("d")))
    assert w(S.list_sort(car_less, pairs)) == "((1 b) (1 d) (2 a) (2 c))"
    assert w(SRFI132["list-stable-sort"](car_less, pairs)) == "((1 b) (1 d) (2 a) (2 c))"
    assert w(SRFI132["list-sort!"](less, lst(3, 1, 2))) == "(1 2 3)"
    assert S.list_sort(less, NIL) is NIL
    original = lst(3, 1, 2)
    S.list_sort(less, original)
    assert w(original) == "(3 1 2)"


def test_only_false_is_false_in_less():
    # a less that returns 0 for "yes" still means yes
    assert w(S.list_sort(lambda a, b: 0 if a > b else False, lst(1, 3, 2))) == "(3 2 1)"


def test_sort_errors():
    raises("list-sort: expected a procedure, got 1", S.list_sort, 1, lst(1))
    raises("list-sort: expected a proper list, got (1 . 2)", S.list_sort, less, [1, 2])
    raises("vector-sort: expected a vector, got (1)", S.vector_sort, less, lst(1))
    raises("vector-sort!: end index out of range", S.vector_sort_x, less, vec(1), 0, 2)

    def failing(a, b):
        raise error("boom", a)
    raises("boom", S.list_sort, failing, lst(1, 2))


def test_large_sort():
    items = list(range(50_000, 0, -1))
    assert S.stable_sorted(less, items) == sorted(items)


def test_vector_sorts():
    v = vec(5, 3, 1, 4)
    assert w(S.vector_sort(less, v)) == "#(1 3 4 5)" and w(v) == "#(5 3 1 4)"
    assert w(S.vector_sort(less, v, 1)) == "#(1 3 4)" and w(S.vector_sort(less, v, 1, 3)) == "#(1 3)"
    assert S.vector_sort_x(less, v, 0, 2) is None and w(v) == "#(3 5 1 4)"
    SRFI132["vector-stable-sort!"](less, v)
    assert w(v) == "#(1 3 4 5)"
    pairs = vec(lst(1, sym("x")), lst(0, sym("y")), lst(1, sym("z")))
    assert w(SRFI132["vector-stable-sort"](car_less, pairs)) == "#((0 y) (1 x) (1 z))"


def test_sorted_predicates():
    assert S.list_sorted_p(less, lst(1, 2, 2, 3)) and not S.list_sorted_p(less, lst(2, 1))
    assert S.list_sorted_p(less, NIL)
    assert S.vector_sorted_p(less, vec(1, 2)) and not S.vector_sorted_p(less, vec(3, 1, 2))
    assert S.vector_sorted_p(less, vec(3, 1, 2), 1)
    raises("list-sorted?: expected a procedure", S.list_sorted_p, NIL, NIL)
    raises("vector-sorted?: expected a vector", S.vector_sorted_p, less, NIL)


def test_merges():
    a = lst(lst(1, sym("a")), lst(3, sym("a")))
    b = lst(lst(1, sym("b")), lst(2, sym("b")))
    assert w(S.list_merge(car_less, a, b)) == "((1 a) (1 b) (2 b) (3 a))"
    assert w(SRFI132["list-merge!"](less, lst(1, 4), lst(2, 3, 5))) == "(1 2 3 4 5)"
    assert w(S.vector_merge(less, vec(1, 3), vec(2))) == "#(1 2 3)"
    assert w(S.vector_merge(less, vec(0, 1, 3), vec(2, 9), 1, 3, 0, 1)) == "#(1 2 3)"
    to = vec(0, 0, 0, 0)
    S.vector_merge_x(less, to, vec(1, 3), vec(2), 1)
    assert w(to) == "#(0 1 2 3)"
    raises("vector-merge!: end index out of range", S.vector_merge_x, less, to, vec(1, 3),
           vec(2), 2)
    raises("list-merge: expected a proper list", S.list_merge, less, lst(1), 2)
    raises("vector-merge: expected a procedure", S.vector_merge, 1, vec(), vec())


def test_delete_neighbor_dups():
    def same(a, b):
        return a == b
    x = lst(1, 1, 2, 7, 7, 7, 0, -2, -2)
    assert w(S.list_delete_neighbor_dups(same, x)) == "(1 2 7 0 -2)"
    assert w(SRFI132["list-delete-neighbor-dups!"](same, x)) == "(1 2 7 0 -2)"
    v = vec(1, 1, 2, 7, 7, 7, 0, -2, -2)
    assert w(S.vector_delete_neighbor_dups(same, v)) == "#(1 2 7 0 -2)"
    assert w(S.vector_delete_neighbor_dups(same, v, 3, 7)) == "#(7 0)"
    v = vec(0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
    assert S.vector_delete_neighbor_dups_x(same, v, 3) == 9
    assert w(v) == "#(0 0 0 1 2 3 4 5 6 4 4 5 5 6 6)"
    raises("list-delete-neighbor-dups: expected a procedure", S.list_delete_neighbor_dups,
           1, NIL)


def test_median_and_selection():
    assert S.vector_find_median(less, vec(), sym("none")) is sym("none")
    assert S.vector_find_median(less, vec(5, 1, 3), 0) == 3
    assert S.vector_find_median(less, vec(4, 1, 3, 2), 0) == Fraction(5, 2)
    assert S.vector_find_median(less, vec(4, 1, 2, 5), 0) == 3
    assert type(S.vector_find_median(less, vec(4, 1, 2, 5), 0)) is int
    assert S.vector_find_median(less, vec(1.0, 2.0), 0) == 1.5
    assert S.vector_find_median(less, vec(1, 2), 0, lambda a, b: (a, b)) == (1, 2)
    v = vec(3, 1, 2)
    assert S.vector_find_median_x(less, v, 0) == 2 and w(v) == "#(1 2 3)"
    raises("vector-find-median: expected a number", S.vector_find_median,
           lambda a, b: a.name < b.name, vec(sym("a"), sym("b")), 0)
    v = vec(9, 5, 1, 7)
    assert S.vector_select_x(less, v, 0) == 1 and S.vector_select_x(less, v, 3) == 9
    assert S.vector_select_x(less, vec(9, 5, 1, 7), 0, 1) == 1
    raises("vector-select!: expected an index below 4", S.vector_select_x, less, v, 4)
    raises("vector-select!: expected a non-negative exact integer", S.vector_select_x, less,
           v, -1)
    v = vec(9, 5, 1, 7, 0)
    S.vector_separate_x(less, v, 2, 1, 4)
    assert v.items[0] == 9 and sorted(v.items[1:3]) == [1, 5] and v.items[4] == 0
    raises("vector-separate!: expected a count of at most 2", S.vector_separate_x, less,
           vec(1, 2), 3)


def test_chibi_sort():
    assert w(S.sort(lst(3, 1, 2))) == "(1 2 3)" and w(S.sort(vec(3, 1.5, Fraction(1, 2)))) == \
        "#(1/2 1.5 3)"
    assert w(S.sort(lst(1, 3, 2), lambda a, b: a > b)) == "(3 2 1)"
    words = lst(String("ccc"), String("a"), String("bb"))
    assert w(S.sort(words, less, lambda s: len(s.s))) == '("a" "bb" "ccc")'
    assert S.sort(NIL) is NIL and S.sort(vec()) == vec()
    raises("sort: expected a list or a vector, got 5", S.sort, 5)
    raises("sort: expected a real number (or pass an ordering procedure), got a", S.sort,
           lst(1, sym("a")))
    raises("sort: expected a procedure, got 1", S.sort, lst(1), 1)
    raises("sort: expected a procedure", S.sort, lst(1), less, 2)
    raises("sort: expected a proper list", S.sort, lst(1, 2)[1:] + [3])


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ("(list-sort < '(3 1 2))", "(1 2 3)"), ("(list-stable-sort > '(1 3 2))", "(3 2 1)"),
    ("(list-sort (lambda (a b) (< (car a) (car b))) '((1 . a) (0 . b) (1 . c)))",
     "((0 . b) (1 . a) (1 . c))"),
    ("(vector-sort < #(3 1 2))", "#(1 2 3)"), ("(vector-sort < #(9 3 1 2) 1)", "#(1 2 3)"),
    ("(let ((v (vector 3 1 2))) (vector-sort! < v) v)", "#(1 2 3)"),
    ("(list-sorted? < '(1 2 3))", "#t"), ("(vector-sorted? < #(2 1))", "#f"),
    ("(list-merge < '(1 3) '(2 4))", "(1 2 3 4)"), ("(vector-merge < #(1 3) #(2))", "#(1 2 3)"),
    ("(list-delete-neighbor-dups = '(1 1 2 2 1))", "(1 2 1)"),
    ("(vector-delete-neighbor-dups eq? #(a a b))", "#(a b)"),
    ("(vector-find-median < #(1 2 3 4) 0)", "5/2"), ("(vector-select! < (vector 5 2 8) 1)", "5"),
    ("(sort '(3 1 2))", "(1 2 3)"), ("(sort (vector \"b\" \"a\") string<?)", "#(\"a\" \"b\")"),
    ("(sort '(\"bb\" \"a\") < string-length)", "(\"a\" \"bb\")"),
]

ERROR_CASES = [
    ("(list-sort '(1 2) <)", "list-sort: expected a procedure, got (1 2)"),
    ("(vector-sort < '(1 2))", "vector-sort: expected a vector, got (1 2)"),
    ("(sort 5)", "sort: expected a list or a vector, got 5"),
    ("(list-sort (lambda (a b) (error \"bad compare\" a)) '(1 2))", "bad compare"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_cases(expect_written, src, expected):
    expect_written(src, expected)


@pytest.mark.parametrize("src, message", ERROR_CASES)
def test_scheme_errors(expect_error, src, message):
    expect_error(src, message)
