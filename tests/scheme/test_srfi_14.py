"""SRFI 14 character sets, as (scheme char-set), from the SRFI's text: every procedure,
the standard sets over full Unicode, the linear-update rules and the errors."""

from __future__ import annotations

import unicodedata

import pytest

from harness.scheme.charset import UNIVERSE, bounds_of_codes, combine, contains
from harness.scheme.errors import StepLimitExceeded
from harness.scheme.interpreter import Interpreter
from harness.scheme.limits import Budget
from harness.scheme.printer import write_string
from harness.scheme.unicode_sets import STANDARD_SETS
from tests.scheme.library_runner import LibraryRunner


@pytest.fixture(scope="module")
def cs() -> LibraryRunner:
    return LibraryRunner("(scheme char-set)")


def members(cs: LibraryRunner, expr: str) -> str:
    return cs(f"(char-set->string {expr})")


# -- the library ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["(srfi 14)", "(scheme char-set)", "(scheme charset)"])
def test_every_name_of_the_library_imports_in_the_sandbox(name):
    interp = Interpreter(tier="sandboxed")
    assert write_string(interp.eval_string(
        f"(import {name}) (char-set-contains? char-set:letter #\\a)")) == "#t"


def test_a_char_set_writes_as_an_opaque_object(cs):
    assert cs("(char-set #\\a)") == "#<char-set>"


# -- general procedures --------------------------------------------------------------------

def test_char_set_p(cs):
    assert cs("(list (char-set? (char-set)) (char-set? char-set:full) (char-set? \"abc\"))") \
        == "(#t #t #f)"


def test_char_set_equality_takes_any_number_of_sets(cs):
    assert cs("(list (char-set=) (char-set= (char-set #\\a)) "
              "(char-set= (char-set #\\a #\\b) (string->char-set \"ba\") (->char-set \"abba\")) "
              "(char-set= (char-set #\\a) (char-set #\\b)))") == "(#t #t #t #f)"


def test_char_set_subset_chain(cs):
    assert cs("(list (char-set<=) (char-set<= char-set:digit) "
              "(char-set<= (char-set) char-set:digit char-set:letter+digit char-set:full) "
              "(char-set<= char-set:letter char-set:digit))") == "(#t #t #t #f)"


def test_char_set_hash_agrees_with_char_set_equality(cs):
    assert cs("(= (char-set-hash (string->char-set \"hello\")) "
              "(char-set-hash (char-set #\\o #\\l #\\e #\\h)))") == "#t"
    assert cs("(let ((h (char-set-hash char-set:letter 100))) (and (>= h 0) (< h 100)))") \
        == "#t"
    assert cs("(= (char-set-hash char-set:digit 0) (char-set-hash char-set:digit))") == "#t"
    assert "char-set-hash: expected a non-negative exact integer bound, got -1" in cs.error(
        "(char-set-hash char-set:digit -1)")


def test_procedures_refuse_what_is_not_a_char_set(cs):
    for src, who in [("(char-set= (char-set) \"a\")", "char-set="),
                     ("(char-set<= 'x)", "char-set<="),
                     ("(char-set-size \"abc\")", "char-set-size"),
                     ("(char-set-union (char-set) #\\a)", "char-set-union"),
                     ("(char-set-contains? \"abc\" #\\a)", "char-set-contains?")]:
        assert cs.error(src).startswith(f"{who}: expected a char-set, got"), src


# -- iterating -----------------------------------------------------------------------------

def test_cursors_walk_the_members_in_ascending_order(cs):
    cs("(define gateh (char-set #\\G #\\a #\\T #\\e #\\c #\\h))")
    assert cs("(let lp ((cur (char-set-cursor gateh)) (ans '()))"
              "  (if (end-of-char-set? cur) (reverse ans)"
              "      (lp (char-set-cursor-next gateh cur) (cons (char-set-ref gateh cur) ans))))") \
        == "(#\\G #\\T #\\a #\\c #\\e #\\h)"


def test_cursor_of_an_empty_set_is_at_the_end(cs):
    assert cs("(end-of-char-set? (char-set-cursor (char-set)))") == "#t"


def test_cursors_cross_from_one_range_to_the_next(cs):
    assert cs("(let* ((s (ucs-range->char-set #xD7FE #xE002))"
              "       (c (char-set-cursor-next s (char-set-cursor-next s (char-set-cursor s)))))"
              "  (char->integer (char-set-ref s c)))") == str(0xE000)


def test_cursor_errors_name_the_procedure_and_the_cursor(cs):
    cs("(define abc (char-set #\\a #\\b #\\c))")
    end = "(let lp ((c (char-set-cursor abc))) (if (end-of-char-set? c) c " \
          "(lp (char-set-cursor-next abc c))))"
    assert cs.error(f"(char-set-ref abc {end})").startswith(
        "char-set-ref: the cursor is past the end of the set")
    assert cs.error(f"(char-set-cursor-next abc {end})").startswith(
        "char-set-cursor-next: the cursor is past the end of the set")
    assert cs.error("(char-set-ref abc (char-set-cursor (char-set #\\z)))").startswith(
        "char-set-ref: the cursor does not point into this set")
    assert cs.error("(char-set-ref abc 'first)").startswith(
        "char-set-ref: expected a char-set cursor, got first")
    assert cs.error("(end-of-char-set? -1)").startswith(
        "end-of-char-set?: expected a char-set cursor, got -1")


def test_char_set_fold_examples(cs):
    assert cs("(char-set-fold cons '() (char-set #\\b #\\a #\\c))") == "(#\\c #\\b #\\a)"
    assert cs("(char-set-fold (lambda (c i) (+ i 1)) 0 char-set:digit)") \
        == cs("(char-set-size char-set:digit)")
    assert cs("(char-set-fold (lambda (c i) (if (memv c '(#\\a #\\e #\\i #\\o #\\u)) (+ i 1) i))"
              " 0 (string->char-set \"education\"))") == "5"


def test_char_set_unfold_takes_stop_map_next_as_in_srfi_1(cs):
    # the SRFI's own example: (list->char-set lis) = (char-set-unfold null? car cdr lis)
    assert members(cs, "(char-set-unfold null? car cdr (string->list \"banana\"))") == '"abn"'
    assert members(cs, "(char-set-unfold null? car cdr '(#\\x) (char-set #\\y))") == '"xy"'
    assert members(cs, "(char-set-unfold (lambda (i) (> i 3)) (lambda (i) (integer->char (+ 48 i)))"
                       " (lambda (i) (+ i 1)) 0)") == '"0123"'


def test_char_set_unfold_x_adds_to_its_base(cs):
    assert members(cs, "(let ((base (char-set #\\z)))"
                       " (char-set-unfold! null? car cdr '(#\\a) base))") == '"az"'


def test_a_long_unfold_keeps_every_character(cs):
    # 64, 65 and 1,000 characters (gathered 64 at a time), every other code point from
    # 256 (one range each) and into a base; the base of char-set-unfold (not !) unchanged
    every_other = ("(lambda (n) (char-set-unfold (lambda (i) (= i n)) "
                   "(lambda (i) (integer->char (+ 256 (* 2 i)))) (lambda (i) (+ i 1)) 0 base))")
    cs(f"(define base (char-set #\\a)) (define every-other {every_other})")
    for n in (63, 64, 65, 1000):
        assert cs(f"(let ((s (every-other {n}))) (list (char-set-size s) "
                  f"(char-set-contains? s (integer->char {256 + 2 * (n - 1)})) "
                  f"(char-set-contains? s (integer->char {257 + 2 * (n - 1)}))))") == \
            f"({n + 1} #t #f)"
    assert cs("(char-set-size base)") == "1"
    assert cs("(let ((b (char-set))) (char-set-unfold! (lambda (i) (= i 200)) integer->char "
              "(lambda (i) (+ i 1)) 0 b) (char-set-size b))") == "200"


def test_char_set_unfold_errors(cs):
    assert cs.error("(char-set-unfold null? (lambda (x) 1) cdr '(1))").startswith(
        "char-set-unfold: expected a character, got 1")
    assert cs.error("(char-set-unfold 1 car cdr '())").startswith(
        "char-set-unfold: expected a procedure, got 1")


def test_char_set_for_each_visits_every_member(cs):
    assert cs("(let ((n 0)) (char-set-for-each (lambda (c) (set! n (+ n (char->integer c))))"
              " (char-set #\\a #\\b)) n)") == str(ord("a") + ord("b"))


def test_char_set_map(cs):
    assert members(cs, "(char-set-map char-downcase (string->char-set \"ABCabc\"))") == '"abc"'
    assert cs.error("(char-set-map char->integer (char-set #\\a))").startswith(
        "char-set-map: expected a character, got 97")


# -- creating ------------------------------------------------------------------------------

def test_char_set_copy_is_independent_of_linear_updates(cs):
    assert cs("(let* ((a (char-set #\\a)) (b (char-set-copy a)))"
              "  (char-set-adjoin! b #\\b)"
              "  (list (char-set->string a) (char-set->string b)))") == '("a" "ab")'


def test_constructors(cs):
    assert members(cs, "(char-set #\\c #\\a #\\c)") == '"ac"'
    assert members(cs, "(char-set)") == '""'
    assert members(cs, "(list->char-set (string->list \"hello\"))") == '"ehlo"'
    assert members(cs, "(list->char-set '(#\\a) (char-set #\\b))") == '"ab"'
    assert members(cs, "(string->char-set \"hello\" (char-set #\\!))") == '"!ehlo"'
    assert members(cs, "(list->char-set! '(#\\a) (char-set #\\b))") == '"ab"'
    assert members(cs, "(string->char-set! \"ab\" (char-set #\\c))") == '"abc"'


def test_char_set_filter(cs):
    assert members(cs, "(char-set-filter char-upper-case? (string->char-set \"aBcD\"))") \
        == '"BD"'
    assert members(cs, "(char-set-filter char-upper-case? (string->char-set \"aB\")"
                       " (char-set #\\z))") == '"Bz"'
    assert members(cs, "(char-set-filter! char-numeric? (string->char-set \"a1b2\")"
                       " (char-set #\\z))") == '"12z"'


def test_ucs_range_to_char_set(cs):
    assert members(cs, "(ucs-range->char-set 97 100)") == '"abc"'
    assert members(cs, "(ucs-range->char-set 97 97)") == '""'
    assert members(cs, "(ucs-range->char-set 48 50 #f (char-set #\\a))") == '"01a"'
    assert members(cs, "(ucs-range->char-set! 48 50 #f (char-set #\\a))") == '"01a"'
    # codes that are not characters are left out unless error? is true
    assert cs("(char-set-size (ucs-range->char-set #xD000 #xF000))") \
        == str(0xF000 - 0xD000 - 0x800)
    assert cs("(char-set-size (ucs-range->char-set #x10FFF0 #x200000))") == "16"
    assert cs.error("(ucs-range->char-set #x10FFF0 #x200000 #t)").startswith(
        "ucs-range->char-set: code points above #x10FFFF are not characters")
    assert cs.error("(ucs-range->char-set #xD000 #xF000 #t)").startswith(
        "ucs-range->char-set: the surrogates #xD800-#xDFFF are not characters")
    assert cs.error("(ucs-range->char-set 10 5)").startswith(
        "ucs-range->char-set: the lower bound is greater than the upper bound")
    assert cs.error("(ucs-range->char-set -1 5)").startswith(
        "ucs-range->char-set: expected a non-negative exact integer, got -1")


def test_to_char_set_coerces(cs):
    assert cs("(list (char-set->string (->char-set \"aab\")) (char-set->string (->char-set #\\x))"
              " (eq? char-set:digit (->char-set char-set:digit)))") == '("ab" "x" #t)'
    assert cs.error("(->char-set 5)").startswith(
        "->char-set: expected a string, character or char-set, got 5")


# -- querying ------------------------------------------------------------------------------

def test_queries(cs):
    assert cs("(char-set-size (string->char-set \"hello\"))") == "4"
    assert cs("(char-set-count char-upper-case? (string->char-set \"aBcD\"))") == "2"
    assert cs("(char-set->list (char-set #\\b #\\a))") == "(#\\a #\\b)"
    assert cs("(list (char-set-contains? char-set:letter #\\a)"
              " (char-set-contains? char-set:letter #\\1))") == "(#t #f)"
    assert cs.error("(char-set-contains? char-set:letter \"a\")").startswith(
        "char-set-contains?: expected a character, got \"a\"")


def test_every_and_any(cs):
    assert cs("(list (char-set-every char-alphabetic? (char-set #\\a #\\b))"
              " (char-set-every char-alphabetic? (char-set #\\a #\\1))"
              " (char-set-every char-alphabetic? (char-set)))") == "(#t #f #t)"
    assert cs("(char-set-any (lambda (c) (and (char-upper-case? c) c))"
              " (string->char-set \"abCd\"))") == "#\\C"
    assert cs("(char-set-any char-upper-case? (char-set #\\a))") == "#f"


# -- algebra -------------------------------------------------------------------------------

def test_adjoin_and_delete(cs):
    assert members(cs, "(char-set-adjoin (char-set #\\a) #\\c #\\b)") == '"abc"'
    assert members(cs, "(char-set-delete (string->char-set \"abc\") #\\b #\\z)") == '"ac"'
    assert cs("(let ((s (char-set #\\a))) (char-set-adjoin s #\\b) (char-set->string s))") \
        == '"a"'
    assert members(cs, "(let ((s (char-set #\\a))) (char-set-adjoin! s #\\b))") == '"ab"'
    assert members(cs, "(let ((s (char-set #\\a #\\b))) (char-set-delete! s #\\a))") == '"b"'
    assert cs.error("(char-set-adjoin (char-set) \"a\")").startswith(
        "char-set-adjoin: expected a character, got \"a\"")


def test_set_algebra(cs):
    cs("(define ab (string->char-set \"ab\")) (define bc (string->char-set \"bc\"))")
    assert members(cs, "(char-set-union ab bc)") == '"abc"'
    assert members(cs, "(char-set-intersection ab bc)") == '"b"'
    assert members(cs, "(char-set-difference ab bc)") == '"a"'
    assert members(cs, "(char-set-xor ab bc)") == '"ac"'
    assert members(cs, "(char-set-xor ab bc (char-set #\\a))") == '"c"'
    assert members(cs, "(char-set-difference (string->char-set \"abcd\") ab bc)") == '"d"'
    assert cs("(call-with-values (lambda () (char-set-diff+intersection"
              " (string->char-set \"abcd\") ab (char-set #\\d)))"
              " (lambda (d i) (list (char-set->string d) (char-set->string i))))") \
        == '("c" "abd")'


def test_boundary_cases_of_the_n_ary_operations(cs):
    assert cs("(list (char-set= (char-set-union) char-set:empty)"
              " (char-set= (char-set-intersection) char-set:full)"
              " (char-set= (char-set-xor) char-set:empty)"
              " (char-set= (char-set-difference char-set:digit) char-set:digit))") \
        == "(#t #t #t #t)"
    assert cs.error("(char-set-difference)").startswith(
        "char-set-difference: expected at least 1 char-set, got 0")
    assert cs.error("(char-set-diff+intersection)").startswith(
        "char-set-diff+intersection: expected at least 1 char-set, got 0")


def test_complement_is_relative_to_every_character(cs):
    assert cs("(char-set-size (char-set-complement char-set:empty))") == "1112064"
    assert cs("(char-set= (char-set-complement (char-set-complement char-set:letter))"
              " char-set:letter)") == "#t"
    assert cs("(char-set-contains? (char-set-complement char-set:ascii) #\\x3bb)") == "#t"


def test_linear_update_algebra_changes_its_first_set(cs):
    assert cs("(let ((a (char-set #\\a)) (b (char-set #\\b)))"
              " (char-set-union! a b) (list (char-set->string a) (char-set->string b)))") \
        == '("ab" "b")'
    assert members(cs, "(char-set-intersection! (string->char-set \"ab\") (char-set #\\a))") \
        == '"a"'
    assert members(cs, "(char-set-difference! (string->char-set \"ab\") (char-set #\\a))") \
        == '"b"'
    assert members(cs, "(char-set-xor! (string->char-set \"ab\") (char-set #\\a #\\c))") \
        == '"bc"'
    assert cs("(char-set-size (char-set-complement! (char-set-complement char-set:ascii)))") \
        == "128"
    assert cs("(call-with-values (lambda () (char-set-diff+intersection!"
              " (string->char-set \"abc\") (char-set #\\a) (char-set #\\b)))"
              " (lambda (d i) (list (char-set->string d) (char-set->string i))))") \
        == '("c" "ab")'


def test_linear_updates_never_change_a_standard_set(cs):
    """The standard sets are shared by every environment of the process."""
    before = cs("(char-set-size char-set:digit)")
    assert cs("(char-set-contains? (char-set-adjoin! char-set:digit #\\x) #\\x)") == "#t"
    cs("(char-set-complement! char-set:digit) (char-set-union! char-set:digit char-set:full)")
    cs("(list->char-set! '(#\\a) char-set:digit)")
    assert cs("(char-set-size char-set:digit)") == before
    assert cs("(char-set-contains? char-set:digit #\\x)") == "#f"


# -- the standard sets ---------------------------------------------------------------------

def test_standard_sets_restricted_to_ascii_are_the_srfis_tables(cs):
    def ascii(name):
        return cs(f"(char-set->string (char-set-intersection char-set:{name} char-set:ascii))")
    assert ascii("lower-case") == '"abcdefghijklmnopqrstuvwxyz"'
    assert ascii("upper-case") == '"ABCDEFGHIJKLMNOPQRSTUVWXYZ"'
    assert ascii("digit") == '"0123456789"'
    assert ascii("punctuation") == r'''"!\"#%&'()*,-./:;?@[\\]_{}"'''
    assert ascii("symbol") == '"$+<=>^`|~"'
    assert ascii("hex-digit") == '"0123456789ABCDEFabcdef"'
    assert ascii("blank") == '"\\t "'
    assert ascii("whitespace") == '"\\t\\n\\xb;\\xc;\\r "'
    assert cs("(char-set-size (char-set-intersection char-set:iso-control char-set:ascii))") \
        == "33"
    assert cs("(char-set= (char-set-intersection char-set:graphic char-set:ascii)"
              " (ucs-range->char-set 33 127))") == "#t"
    assert cs("(char-set= (char-set-intersection char-set:printing char-set:ascii)"
              " (char-set-union (ucs-range->char-set 32 127) (ucs-range->char-set 9 14)))") \
        == "#t"
    assert cs("(char-set-size char-set:ascii)") == "128"


@pytest.mark.parametrize("char, sets", [
    ("\u00e9", {"lower-case", "letter", "letter+digit", "graphic", "printing"}),
    ("\u01c5", {"title-case", "letter", "letter+digit", "graphic", "printing"}),
    ("\u0663", {"digit", "letter+digit", "graphic", "printing"}),  # ARABIC-INDIC DIGIT THREE
    ("\u00a0", {"whitespace", "blank", "printing"}),
    ("\u3000", {"whitespace", "blank", "printing"}),
    ("\u2028", {"whitespace", "printing"}),
    ("\u0085", {"whitespace", "iso-control", "printing"}),
    ("\u00bf", {"punctuation", "graphic", "printing"}),
    ("\u20ac", {"symbol", "graphic", "printing"}),
    ("\u24b6", {"upper-case", "symbol", "graphic", "printing"}),  # Ⓐ: Uppercase, So
    ("\u00aa", {"lower-case", "letter", "letter+digit", "graphic", "printing"}),
    ("\u0301", {"graphic", "printing"}),  # a combining mark
    ("\U0001f600", {"symbol", "graphic", "printing"}),
    ("\U0010ffff", set()),  # a noncharacter
])
def test_standard_sets_follow_unicode(char, sets):
    names = {"lower-case", "upper-case", "title-case", "letter", "digit", "letter+digit",
             "graphic", "printing", "whitespace", "iso-control", "punctuation", "symbol",
             "hex-digit", "blank", "ascii"}
    found = {n for n in names if contains(STANDARD_SETS[f"char-set:{n}"].bounds, ord(char))}
    assert found == sets
    assert contains(STANDARD_SETS["char-set:full"].bounds, ord(char))


def test_standard_sets_agree_with_the_char_predicates(cs):
    """SRFI 14 asks implementations to keep char-alphabetic? & co. in agreement."""
    for predicate, name in [("char-alphabetic?", "letter"), ("char-numeric?", "digit"),
                            ("char-whitespace?", "whitespace"),
                            ("char-upper-case?", "upper-case"),
                            ("char-lower-case?", "lower-case")]:
        # every member of the set satisfies the predicate, in a sample of the BMP
        assert cs(f"(char-set-every {predicate} (char-set-intersection char-set:{name}"
                  " (ucs-range->char-set 0 #x3000)))") == "#t", name
        assert cs(f"(char-set= (char-set-filter {predicate} (ucs-range->char-set 0 #x3000))"
                  f" (char-set-intersection char-set:{name} (ucs-range->char-set 0 #x3000)))") \
            == "#t", name


def test_letter_is_every_letter_category():
    letters = STANDARD_SETS["char-set:letter"].bounds
    sample = range(0, 0x30000, 7)
    assert all(contains(letters, c) == unicodedata.category(chr(c)).startswith("L")
               for c in sample)


# -- representation ------------------------------------------------------------------------

def test_big_sets_are_a_few_ranges():
    assert STANDARD_SETS["char-set:full"].bounds == UNIVERSE
    assert len(STANDARD_SETS["char-set:letter"].bounds) < 2000


def test_range_algebra_matches_python_sets():
    a = [1, 2, 3, 10, 11, 50, 51, 52, 0x10FFFF]
    b = [2, 3, 4, 11, 12, 52, 0xD7FF]
    ba, bb = bounds_of_codes(a), bounds_of_codes(b)

    def as_set(bounds):
        return {c for lo, hi in zip(bounds[::2], bounds[1::2]) for c in range(lo, hi)}
    assert as_set(combine(ba, bb, (False, True, True, True))) == set(a) | set(b)
    assert as_set(combine(ba, bb, (False, False, False, True))) == set(a) & set(b)
    assert as_set(combine(ba, bb, (False, False, True, False))) == set(a) - set(b)
    assert as_set(combine(ba, bb, (False, True, True, False))) == set(a) ^ set(b)


# -- budgets -------------------------------------------------------------------------------

def test_walking_a_huge_set_counts_one_step_per_character(cs):
    """A primitive passed to a walk costs nothing itself: the walk pays."""
    with Budget(steps=200_000, seconds=None), pytest.raises(StepLimitExceeded):
        cs.interp.eval_string("(char-set-for-each char-upcase char-set:full)")
    with Budget(steps=200_000, seconds=None), pytest.raises(StepLimitExceeded):
        cs.interp.eval_string("(char-set-filter char-upper-case? char-set:full)")
    with Budget(steps=200_000, seconds=None), pytest.raises(StepLimitExceeded):
        cs.interp.eval_string("(char-set->list char-set:full)")


def test_queries_on_huge_sets_are_cheap(cs):
    with Budget(steps=20_000, seconds=None):
        assert cs("(list (char-set-size char-set:full)"
                  " (char-set-contains? (char-set-complement char-set:letter) #\\x1F600)"
                  " (= (char-set-size (char-set-xor char-set:full char-set:letter))"
                  "    (- 1112064 (char-set-size char-set:letter))))") == "(1112064 #t #t)"
