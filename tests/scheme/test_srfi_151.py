"""SRFI 151 bitwise operations, as (scheme bitwise): the SRFI's examples for every
procedure, big integers, the size limits and the errors."""

from __future__ import annotations

import pytest

from harness.scheme.errors import SizeLimitExceeded
from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def b() -> LibraryRunner:
    return LibraryRunner("(scheme bitwise)")


@pytest.mark.parametrize("name", ["(srfi 151)", "(scheme bitwise)"])
def test_both_names_import_in_the_sandbox(name):
    assert LibraryRunner(name)("(bitwise-and 12 5)") == "4"


CASES = [
    ("(list (bitwise-not 10) (bitwise-not -37))", "(-11 36)"),
    ("(list (bitwise-and 11 26) (bitwise-ior 11 26) (bitwise-xor 11 26) (bitwise-eqv 37 12))",
     "(10 27 17 -42)"),
    ("(list (bitwise-and) (bitwise-ior) (bitwise-xor) (bitwise-eqv) (bitwise-and 7 6 3))",
     "(-1 0 0 -1 2)"),
    (("(list (bitwise-nand 11 26) (bitwise-nor 11 26) (bitwise-andc1 11 26) "
     "(bitwise-andc2 11 26) (bitwise-orc1 11 26) (bitwise-orc2 11 26))"),
     "(-11 -28 16 1 -2 -17)"),
    (("(list (arithmetic-shift 8 2) (arithmetic-shift 4 0) (arithmetic-shift 8 -1) "
     "(arithmetic-shift -100000000000000000000000000000000 -100) (arithmetic-shift -1 2))"),
     "(32 4 4 -79 -4)"),
    (("(list (bit-count 0) (bit-count -1) (bit-count 7) (bit-count 13) (bit-count -13) "
     "(bit-count (expt 2 100)) (bit-count (- (expt 2 100))))"), "(0 0 3 3 2 1 100)"),
    ("(map integer-length '(0 1 -1 7 -7 8 -8))", "(0 1 0 3 3 4 3)"),
    (("(list (bitwise-if 3 1 8) (bitwise-if 3 8 1) (bitwise-if 1 1 2) "
     "(bitwise-if #b00111100 #b11110000 #b00001111))"), "(9 0 3 51)"),
    ("(list (bit-set? 1 1) (bit-set? 0 1) (bit-set? 3 10) (bit-set? 1000000 -1))",
     "(#f #t #t #t)"),
    ("(list (copy-bit 0 0 #t) (copy-bit 2 0 #t) (copy-bit 2 #b1111 #f) (bit-swap 0 2 4))",
     "(1 4 11 1)"),
    ("(list (any-bit-set? 3 6) (any-bit-set? 3 12) (every-bit-set? 4 6) (every-bit-set? 7 6))",
     "(#t #f #t #f)"),
    ("(map first-set-bit (list 1 2 0 40 -28 (expt 2 99) (expt -2 99)))", "(0 1 -1 3 2 99 99)"),
    (("(list (bit-field #b1101101010 0 4) (bit-field #b1101101010 3 9) (bit-field 6 2 999) "
     "(bit-field #x100000000000000000000000000000000 128 129))"), "(10 45 1 1)"),
    (("(list (bit-field-any? #b1001001 1 6) (bit-field-any? #b1000001 1 6) "
     "(bit-field-every? #b1011110 1 5) (bit-field-every? #b1011010 1 5))"), "(#t #f #t #f)"),
    ("(list (bit-field-clear #b101010 1 4) (bit-field-set #b101010 1 4))", "(32 46)"),
    (("(list (bit-field-replace #b101010 #b010 1 4) (bit-field-replace 6 1 0 1) "
     "(bit-field-replace-same #b1111 #b0000 1 3))"), "(36 7 9)"),
    (("(list (bit-field-rotate #b110 0 0 10) (bit-field-rotate #b110 1 2 4) "
     "(bit-field-rotate #b0111 -1 1 4) "
     "(bit-field-rotate #x100000000000000000000000000000000 1 0 129))"), "(6 10 11 1)"),
    (("(list (bit-field-reverse 6 1 3) (bit-field-reverse 6 1 4) (bit-field-reverse 1 0 32) "
     "(bit-field-reverse #x140000000000000000000000000000000 0 129))"),
     "(6 12 2147483648 5)"),
    ("(list (bits->list #b1110101) (bits->list 3 5) (bits->vector 6 4))",
     "((#t #f #t #f #t #t #t) (#t #t #f #f #f) #(#f #t #t #f))"),
    (("(list (list->bits '(#f #t #t #f)) (vector->bits #(#t #t)) (bits #t #f #t #f #t #t #t) "
     "(list->bits '()))"), "(6 3 117 0)"),
    ("(bitwise-fold cons '() #b1010111)", "(#t #f #t #f #t #t #t)"),
    (("(let ((count 0)) (bitwise-for-each (lambda (b) (if b (set! count (+ count 1)))) "
     "#b1010111) count)"), "5"),
    ("(bitwise-unfold (lambda (i) (= i 10)) even? (lambda (i) (+ i 1)) 0)", "341"),
    ("(let ((g (make-bitwise-generator #b110))) (list (g) (g) (g) (g)))", "(#f #t #t #f)"),
    ("(let ((g (make-bitwise-generator -2))) (list (g) (g) (g)))", "(#f #t #t)"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_the_srfis_examples(b, src, expected):
    assert b(src) == expected


def test_errors(b):
    assert b.error("(bitwise-and 1 2.5)") == "bitwise-and: expected an exact integer, got 2.5"
    assert b.error("(bit-set? -1 5)") == "bit-set?: expected a non-negative exact integer, got -1"
    assert b.error("(bit-field 5 3 1)") == "bit-field: expected an end index of at least 3, got 1"
    assert b.error("(arithmetic-shift 1 'x)") == "arithmetic-shift: expected an exact integer, got x"


def test_shifts_and_fields_cannot_exhaust_memory(b):
    with pytest.raises(SizeLimitExceeded):
        b("(arithmetic-shift 1 (expt 10 12))")
    with pytest.raises(SizeLimitExceeded):
        b("(bit-field-set 0 0 (expt 10 12))")
    assert b("(arithmetic-shift 5 (- (expt 10 12)))") == "0"
    assert b("(arithmetic-shift 0 (expt 10 12))") == "0"


def test_bits_as_booleans_of_long_and_negative_integers(b):
    assert b("(bits->list -6 5)") == "(#f #t #f #t #t)"
    assert b("(bits->list 6)") == "(#f #t #t)"
    assert b("(bits->list 0)") == "()"
    # a long integer is read in one pass (shifting it per bit was quadratic)
    assert b("(let ((bits (bits->list (- (expt 2 200000) 1)))) "
             "(list (length bits) (car bits) (list-ref bits 199999)))") == "(200000 #t #t)"


def test_a_long_unfold_gives_back_every_bit(b):
    # 1,000 and 1,001 bits: the unfold adds its bits a word at a time, and the words at
    # their offsets; 3^630 has 999 bits, its top bit set, and a mixed pattern below
    for n in (999, 1000, 1001):
        assert b(f"(= (expt 3 630) (bitwise-unfold (lambda (i) (= i {n})) "
                 "(lambda (i) (bit-set? i (expt 3 630))) (lambda (i) (+ i 1)) 0))") == "#t"
    assert b("(bitwise-unfold (lambda (i) (= i 600)) (lambda (i) (= i 599)) "
             "(lambda (i) (+ i 1)) 0)") == b("(expt 2 599)")
