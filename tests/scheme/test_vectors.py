"""Vectors and bytevectors: (scheme base)."""

from __future__ import annotations

import pytest

import harness.scheme.interpreter  # noqa: F401  (it runs scheme_lib's .sld files)
from harness.scheme.datatypes import NIL, Bytevector, String, Vector, sym
from harness.scheme.errors import SchemeError, SizeLimitExceeded
from harness.scheme.libraries import find_library
from harness.scheme.primitives import LIBRARIES, load_all
from harness.scheme.primitives import bytevectors as B
from harness.scheme.primitives import vectors as V
from harness.scheme.primitives.lists import from_items
from harness.scheme.printer import write_string

load_all()
BASE = LIBRARIES[("scheme", "base")]
#: vector-for-each is written in Scheme (scheme_lib/scheme/base/walks.sld)
vector_for_each = find_library(("scheme", "base")).value("vector-for-each")


def vec(*items):
    return Vector(list(items))


def bv(*items):
    return Bytevector(bytearray(items))


def w(x):
    return write_string(x)


def raises(message, fn, *args):
    """Call fn(*args) expecting a SchemeError whose message starts with ``message``."""
    with pytest.raises(SchemeError) as info:
        fn(*args)
    assert str(info.value).startswith(message), str(info.value)


def test_registered():
    for name in ("vector?", "make-vector", "vector", "vector-length", "vector-ref",
                 "vector-set!", "vector->list", "list->vector", "vector-fill!", "vector-copy",
                 "vector-copy!", "vector-append", "vector-map",
                 "bytevector?", "make-bytevector", "bytevector", "bytevector-u8-ref",
                 "bytevector-u8-set!", "bytevector-length", "bytevector-copy",
                 "bytevector-copy!", "bytevector-append"):
        assert callable(BASE[name]), name
    assert callable(vector_for_each)


# -- vectors -------------------------------------------------------------------------------

def test_vector_basics():
    v = V.vector(1, sym("a"))
    assert V.vector_p(v) and not V.vector_p(from_items([1])) and not V.vector_p(String("v"))
    assert V.vector_length(v) == 2 and V.vector_ref(v, 1) is sym("a")
    V.vector_set_x(v, 0, 9)
    assert w(v) == "#(9 a)" and V.vector() == Vector([])
    assert w(V.make_vector(2, 0)) == "#(0 0)" and w(V.make_vector(2)) == "#(#f #f)"
    assert V.make_vector(0) == Vector([])


def test_vector_errors():
    v = vec(1, 2)
    raises("vector-ref: index out of range", V.vector_ref, v, 2)
    raises("vector-ref: index out of range", V.vector_ref, v, -1)
    raises("vector-ref: expected an exact integer index, got 1.0", V.vector_ref, v, 1.0)
    raises("vector-ref: expected an exact integer index, got #t", V.vector_ref, v, True)
    raises("vector-ref: expected a vector, got (1)", V.vector_ref, from_items([1]), 0)
    raises("vector-set!: index out of range", V.vector_set_x, v, -1, 0)
    raises("vector-set!: expected a vector", V.vector_set_x, NIL, 0, 0)
    raises("vector-length: expected a vector, got \"ab\"", V.vector_length, String("ab"))
    raises("make-vector: expected a non-negative exact integer, got -1", V.make_vector, -1)
    raises("make-vector: expected a non-negative exact integer", V.make_vector, 2.0)
    with pytest.raises(SizeLimitExceeded):
        V.make_vector(10**10)


def test_vector_list_conversion():
    v = vec(1, 2, 3, 4)
    assert w(V.vector_to_list(v)) == "(1 2 3 4)" and w(V.vector_to_list(v, 2)) == "(3 4)"
    assert w(V.vector_to_list(v, 1, 3)) == "(2 3)" and V.vector_to_list(v, 4) is NIL
    assert V.list_to_vector(from_items([1, 2])) == vec(1, 2) and V.list_to_vector(NIL) == vec()
    raises("vector->list: end index out of range", V.vector_to_list, v, 1, 5)
    raises("vector->list: start index out of range", V.vector_to_list, v, 5)
    raises("vector->list: end index out of range", V.vector_to_list, v, 3, 2)
    raises("vector->list: start index out of range", V.vector_to_list, v, -1)
    raises("vector->list: expected an exact integer index", V.vector_to_list, v, 0.5)
    raises("list->vector: expected a proper list, got (1 . 2)", V.list_to_vector, [1, 2])


def test_vector_fill_and_copy():
    v = vec(1, 2, 3, 4)
    V.vector_fill_x(v, 0, 1, 3)
    assert w(v) == "#(1 0 0 4)"
    V.vector_fill_x(v, sym("x"))
    assert w(v) == "#(x x x x)"
    c = V.vector_copy(vec(1, 2, 3), 1)
    assert w(c) == "#(2 3)" and w(V.vector_copy(vec(1, 2, 3), 0, 1)) == "#(1)"
    original = vec(1, 2)
    assert V.vector_copy(original) == original and V.vector_copy(original) is not original
    raises("vector-fill!: end index out of range", V.vector_fill_x, v, 0, 0, 9)
    raises("vector-copy: start index out of range", V.vector_copy, v, 9)
    raises("vector-copy: expected a vector", V.vector_copy, 5)


def test_vector_copy_x():
    to = vec(1, 2, 3, 4, 5)
    V.vector_copy_x(to, 1, vec(sym("a"), sym("b"), sym("c")), 0, 2)
    assert w(to) == "#(1 a b 4 5)"
    overlap = vec(1, 2, 3, 4, 5)
    V.vector_copy_x(overlap, 1, overlap, 0, 3)
    assert w(overlap) == "#(1 1 2 3 5)"
    overlap = vec(1, 2, 3, 4, 5)
    V.vector_copy_x(overlap, 0, overlap, 2)
    assert w(overlap) == "#(3 4 5 4 5)"
    raises("vector-copy!: destination index out of range", V.vector_copy_x, to, 4, vec(1, 2))
    raises("vector-copy!: destination index out of range", V.vector_copy_x, to, -1, vec(1))
    raises("vector-copy!: expected an exact integer index", V.vector_copy_x, to, 1.0, vec(1))
    raises("vector-copy!: expected a vector", V.vector_copy_x, to, 0, from_items([1]))
    raises("vector-copy!: end index out of range", V.vector_copy_x, to, 0, vec(1), 0, 2)


def test_vector_append_map_for_each():
    assert w(V.vector_append(vec(1), vec(), vec(2, 3))) == "#(1 2 3)"
    assert V.vector_append() == vec()
    raises("vector-append: expected a vector, got (1)", V.vector_append, vec(), from_items([1]))
    assert w(V.vector_map(lambda x: x * 2, vec(1, 2))) == "#(2 4)"
    assert w(V.vector_map(lambda a, b: a + b, vec(1, 2, 3), vec(10, 20))) == "#(11 22)"
    seen = []
    vector_for_each(seen.append, vec(1, 2))
    vector_for_each(lambda a, b: seen.append(a * b), vec(1, 2), vec(3, 4, 5))
    assert seen == [1, 2, 3, 8]
    raises("vector-map: expected a procedure, got 1", V.vector_map, 1, vec())
    raises("vector-map: expected a vector, got ()", V.vector_map, abs, NIL)
    raises("vector-for-each: expected a procedure", vector_for_each, vec(), vec())
    raises("vector-for-each: expected a vector", vector_for_each, abs, vec(), 3)


# -- bytevectors ---------------------------------------------------------------------------

def test_bytevector_basics():
    b = B.bytevector(1, 255, 0)
    assert B.bytevector_p(b) and not B.bytevector_p(vec(1)) and B.bytevector() == bv()
    assert B.bytevector_length(b) == 3 and B.bytevector_u8_ref(b, 1) == 255
    B.bytevector_u8_set_x(b, 0, 7)
    assert w(b) == "#u8(7 255 0)"
    assert w(B.make_bytevector(2, 9)) == "#u8(9 9)" and w(B.make_bytevector(2)) == "#u8(0 0)"


def test_bytevector_errors():
    b = bv(1, 2)
    raises("bytevector: expected a byte (an exact integer from 0 to 255), got 256",
           B.bytevector, 1, 256)
    raises("bytevector: expected a byte", B.bytevector, -1)
    raises("bytevector: expected a byte", B.bytevector, 1.0)
    raises("bytevector: expected a byte", B.bytevector, True)
    raises("make-bytevector: expected a byte", B.make_bytevector, 2, 300)
    raises("make-bytevector: expected a non-negative exact integer", B.make_bytevector, -2)
    with pytest.raises(SizeLimitExceeded):
        B.make_bytevector(10**10)
    raises("bytevector-u8-ref: index out of range", B.bytevector_u8_ref, b, 2)
    raises("bytevector-u8-ref: index out of range", B.bytevector_u8_ref, b, -1)
    raises("bytevector-u8-ref: expected a bytevector, got #(1)", B.bytevector_u8_ref, vec(1), 0)
    raises("bytevector-u8-set!: expected a byte", B.bytevector_u8_set_x, b, 0, 256)
    raises("bytevector-u8-set!: index out of range", B.bytevector_u8_set_x, b, 5, 1)
    raises("bytevector-length: expected a bytevector", B.bytevector_length, String(""))


def test_bytevector_copy_and_append():
    b = bv(1, 2, 3, 4)
    assert B.bytevector_copy(b) == b and B.bytevector_copy(b) is not b
    assert B.bytevector_copy(b).b is not b.b
    assert w(B.bytevector_copy(b, 2)) == "#u8(3 4)" and w(B.bytevector_copy(b, 1, 2)) == "#u8(2)"
    to = bv(0, 0, 0, 0, 0)
    B.bytevector_copy_x(to, 1, b, 0, 3)
    assert w(to) == "#u8(0 1 2 3 0)"
    B.bytevector_copy_x(to, 0, to, 1)
    assert w(to) == "#u8(1 2 3 0 0)"
    assert w(B.bytevector_append(bv(1), bv(), bv(2))) == "#u8(1 2)"
    assert B.bytevector_append() == bv()
    raises("bytevector-copy: end index out of range", B.bytevector_copy, b, 0, 5)
    raises("bytevector-copy!: destination index out of range", B.bytevector_copy_x, to, 4, b)
    raises("bytevector-copy!: expected an exact integer index", B.bytevector_copy_x, to, "0", b)
    raises("bytevector-append: expected a bytevector, got 1", B.bytevector_append, bv(), 1)


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ("(vector? #(1))", "#t"), ("(vector? '(1))", "#f"), ("(make-vector 2 'a)", "#(a a)"),
    ("(vector 1 \"s\")", "#(1 \"s\")"), ("(vector-length #(1 2 3))", "3"),
    ("(vector-ref #(a b) 1)", "b"), ("(let ((v (vector 1 2))) (vector-set! v 0 'x) v)", "#(x 2)"),
    ("(vector->list #(1 2 3) 1)", "(2 3)"), ("(list->vector '(1 2))", "#(1 2)"),
    ("(let ((v (vector 1 2 3))) (vector-fill! v 0 1) v)", "#(1 0 0)"),
    ("(vector-copy #(1 2 3) 1 2)", "#(2)"),
    ("(let ((v (vector 1 2 3 4 5))) (vector-copy! v 0 #(a b) 1) v)", "#(b 2 3 4 5)"),
    ("(vector-append #(1) #(2 3))", "#(1 2 3)"), ("(vector-map + #(1 2) #(10 20 30))", "#(11 22)"),
    ("(let ((n 0)) (vector-for-each (lambda (x) (set! n (+ n x))) #(1 2 3)) n)", "6"),
    ("(bytevector? (bytevector 1 2))", "#t"), ("(make-bytevector 2 7)", "#u8(7 7)"),
    ("(bytevector-u8-ref #u8(5 6) 1)", "6"),
    ("(let ((b (bytevector 1 2))) (bytevector-u8-set! b 0 255) b)", "#u8(255 2)"),
    ("(bytevector-length #u8(1 2 3))", "3"), ("(bytevector-copy #u8(1 2 3) 1)", "#u8(2 3)"),
    ("(let ((b (bytevector 1 2 3))) (bytevector-copy! b 1 #u8(9)) b)", "#u8(1 9 3)"),
    ("(bytevector-append #u8(1) #u8(2))", "#u8(1 2)"),
]

ERROR_CASES = [
    ("(vector-ref #(1 2) 2)", "vector-ref: index out of range"),
    ("(vector-ref #(1 2) -1)", "vector-ref: index out of range"),
    ("(vector-ref '(1) 0)", "vector-ref: expected a vector, got (1)"),
    ("(vector-copy #(1 2) 3)", "vector-copy: start index out of range"),
    ("(vector-map car 5)", "vector-map: expected a vector, got 5"),
    ("(bytevector 256)", "bytevector: expected a byte"),
    ("(bytevector-u8-set! (bytevector 1) 0 -1)", "bytevector-u8-set!: expected a byte"),
    ("(make-vector -1)", "make-vector: expected a non-negative exact integer, got -1"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_cases(expect_written, src, expected):
    expect_written(src, expected)


@pytest.mark.parametrize("src, message", ERROR_CASES)
def test_scheme_errors(expect_error, src, message):
    expect_error(src, message)


@pytest.mark.parametrize("src, message", [
    ("(vector-ref (vector 1 2) -1)", "vector-ref: index out of range"),
    ("(vector-ref (vector 1 2) 2)", "vector-ref: index out of range"),
    ("(vector-ref (vector 1 2) #t)", "vector-ref: expected an exact integer index"),
    ("(vector-ref (list 1 2) 0)", "vector-ref: expected a vector"),
    ("(vector-set! (vector 1 2) 2 'x)", "vector-set!: index out of range"),
    ("(vector-set! (vector 1 2) #f 'x)", "vector-set!: expected an exact integer index"),
    ("(vector-length '(1))", "vector-length: expected a vector"),
])
def test_the_fast_path_of_vector_access_keeps_its_errors(src, message):
    from harness.scheme.interpreter import Interpreter
    with pytest.raises(SchemeError, match=message):
        Interpreter(tier="sandboxed").eval_string(src)


def test_vector_access_by_small_index():
    from harness.scheme.interpreter import Interpreter
    assert Interpreter(tier="sandboxed").eval_string(
        "(let ((v (make-vector 3 0))) (vector-set! v 2 'x) (vector-set! v 0 1)"
        " (list (vector-ref v 0) (vector-ref v 1) (vector-ref v 2) (vector-length v)))"
    ) == [1, [0, [sym("x"), [3, NIL]]]]
