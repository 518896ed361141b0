"""SRFI 132 sorting and chibi's ``sort``: the native sorts (sorting.py) called directly, the
rest of scheme_lib/srfi/132.sld from Scheme."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.scheme.datatypes import NIL, String, Vector, sym
from harness.scheme.errors import SchemeError, error
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.libraries import LAZY_PRELUDE, PRELUDE_LIBRARIES
from harness.scheme.primitives import LIBRARIES, load_all
from harness.scheme.primitives import sorting as S
from harness.scheme.primitives.lists import from_items
from harness.scheme.printer import write_string

load_all()
SRFI132 = LIBRARIES[("srfi", "132", "core")]


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


def run(text: str) -> str:
    """What ``text`` gives (written) in a sandboxed environment with the prelude."""
    return w(run_source(make_environment("sandboxed", imports=PRELUDE_LIBRARIES), text))


def run_error(text: str) -> str:
    with pytest.raises(SchemeError) as info:
        run(text)
    return str(info.value)


def raises(message, fn, *args):
    """Call fn(*args) expecting a SchemeError whose message starts with ``message``."""
    with pytest.raises(SchemeError) as info:
        fn(*args)
    assert str(info.value).startswith(message), str(info.value)


def test_registered():
    for name in ("list-sort", "list-stable-sort", "list-sort!", "list-stable-sort!",
                 "vector-sort", "vector-stable-sort", "vector-sort!", "vector-stable-sort!",
                 "sort", "vector-sorted?", "vector-merge", "vector-merge!",
                 "vector-delete-neighbor-dups", "vector-delete-neighbor-dups!"):
        assert callable(SRFI132[name]), name
    assert LIBRARIES[("harness", "sort")]["sort"] is S.sort
    assert LAZY_PRELUDE[("srfi", "132")] == ("srfi", "132", "core")


@pytest.mark.parametrize("library", ["(srfi 132)", "(scheme sort)"])
def test_the_sandboxed_tier_imports_the_whole_library(library):
    env = make_environment("sandboxed", imports=())
    run_source(env, f"(import (scheme base) {library})")
    assert w(run_source(env, "(list (list-sort < '(2 1)) (list-merge < '(1 3) '(2))"
                             " (vector-find-median < #(3 1 2) 0) (list-sorted? < '(1 2)))")) \
        == "((1 2) (1 2 3) 2 #t)"


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
    assert S.stable_sorted(less, items, list) == sorted(items)


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
    assert run("(list (list-sorted? < '(1 2 2 3)) (list-sorted? < '(2 1)) (list-sorted? < '())"
               " (vector-sorted? < #(1 2)) (vector-sorted? < #(3 1 2))"
               " (vector-sorted? < #(3 1 2) 1) (vector-sorted? < #(3 1 2) 0 1))") \
        == "(#t #f #t #t #f #t #t)"
    assert run_error("(list-sorted? '() '())").startswith(
        "list-sorted?: expected a procedure, got ()")
    assert run_error("(vector-sorted? < '())").startswith(
        "vector-sorted?: expected a vector, got ()")
    assert run_error("(vector-sorted? < #(1) 0 2)").startswith(
        "vector-sorted?: end index out of range")
    assert run_error("(vector-sorted? < #(1) 'a)").startswith(
        "vector-sorted?: expected an exact integer index, got a")
    assert run_error("(vector-sorted? < #(1) 0 1 2)").startswith(
        "vector-sorted?: expected 2 to 4 arguments, got 5")  # as a native procedure says


def test_merges():
    assert run("(list-merge (lambda (a b) (< (car a) (car b))) '((1 a) (3 a)) '((1 b) (2 b)))") \
        == "((1 a) (1 b) (2 b) (3 a))"
    assert run("(list (list-merge! < (list 1 4) (list 2 3 5)) (vector-merge < #(1 3) #(2))"
               " (vector-merge < #(0 1 3) #(2 9) 1 3 0 1) (list-merge < '() '(1)))") \
        == "((1 2 3 4 5) #(1 2 3) #(1 2 3) (1))"
    assert run("(let ((to (vector 0 0 0 0))) (vector-merge! < to #(1 3) #(2) 1) to)") \
        == "#(0 1 2 3)"
    assert run_error("(vector-merge! < (vector 0 0 0 0) #(1 3) #(2) 2)").startswith(
        "vector-merge!: end index out of range")
    assert run_error("(list-merge < '(1) 2)").startswith(
        "list-merge: expected a proper list, got 2")
    assert run_error("(vector-merge 1 #() #())").startswith(
        "vector-merge: expected a procedure, got 1")


def test_delete_neighbor_dups():
    x = "'(1 1 2 7 7 7 0 -2 -2)"
    assert run(f"(list (list-delete-neighbor-dups = {x}) (list-delete-neighbor-dups! = {x}))") \
        == "((1 2 7 0 -2) (1 2 7 0 -2))"
    v = "#(1 1 2 7 7 7 0 -2 -2)"
    assert run(f"(list (vector-delete-neighbor-dups = {v})"
               f" (vector-delete-neighbor-dups = {v} 3 7))") == "(#(1 2 7 0 -2) #(7 0))"
    assert run("(let* ((v (vector 0 0 0 1 1 2 2 3 3 4 4 5 5 6 6))"
               "       (end (vector-delete-neighbor-dups! = v 3)))"
               " (list end v))") == "(9 #(0 0 0 1 2 3 4 5 6 4 4 5 5 6 6))"
    assert run_error("(list-delete-neighbor-dups 1 '())").startswith(
        "list-delete-neighbor-dups: expected a procedure, got 1")


def test_median_and_selection():
    assert run("(list (vector-find-median < #() 'none) (vector-find-median < #(5 1 3) 0)"
               " (vector-find-median < #(4 1 3 2) 0) (vector-find-median < #(4 1 2 5) 0)"
               " (vector-find-median < #(1. 2.) 0) (vector-find-median < #(1 2) 0 cons))") \
        == "(none 3 5/2 3 1.5 (1 . 2))"
    assert run("(let ((v (vector 3 1 2))) (list (vector-find-median! < v 0) v))") \
        == "(2 #(1 2 3))"
    assert run_error("(vector-find-median (lambda (a b) (string<? (symbol->string a)"
                     " (symbol->string b))) #(a b) 0)").startswith(
        "vector-find-median: expected a number (or pass a mean procedure), got a")
    assert run("(let ((v (vector 9 5 1 7))) (list (vector-select! < v 0) (vector-select! < v 3)"
               " (vector-select! < (vector 9 5 1 7) 0 1)))") == "(1 9 1)"
    assert run_error("(vector-select! < (vector 9 5 1 7) 4)").startswith(
        "vector-select!: expected an index below 4, got 4")
    assert run_error("(vector-select! < (vector 9 5 1 7) -1)").startswith(
        "vector-select!: expected a non-negative exact integer, got -1")
    assert run("(let ((v (vector 9 5 1 7 0))) (vector-separate! < v 2 1 4) v)") \
        == "#(9 1 5 7 0)"
    assert run_error("(vector-separate! < (vector 1 2) 3)").startswith(
        "vector-separate!: expected a count of at most 2, got 3")


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


@pytest.mark.parametrize("call", ["(list-merge < l l)", "(list-sorted? < (append l l))",
                                  "(list-delete-neighbor-dups eqv? (append l l))"])
def test_the_scheme_procedures_count_a_step_an_element(call):
    from harness.scheme.errors import StepLimitExceeded
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.limits import Budget
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(import (srfi 1) (srfi 132)) (define l (iota 20000))")
    interp.eval_string(call)  # compiled outside the budget
    # 40,000 elements with a primitive (which costs no step of its own)
    with Budget(steps=30_000, seconds=20), pytest.raises(StepLimitExceeded):
        interp.eval_string(call)
    with Budget(steps=300_000, seconds=20):
        interp.eval_string(call)
