"""The parse cache gives back exactly what the reader gives, and a bad entry is only a miss."""

from __future__ import annotations

import hashlib
import marshal
import math
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from harness.scheme import parse_cache
from harness.scheme.datatypes import NIL, Bytevector, Char, String, Symbol, Vector
from harness.scheme.errors import ReadError
from harness.scheme.parse_cache import MAX_CACHED_DEPTH, ParseCache
from harness.scheme.reader import SourceMap, read_all

ROOT = Path(__file__).resolve().parents[2]

EVERY_KIND_OF_DATUM = """\
;; every kind of datum the reader makes
(define (f x . rest) `(,x ,@rest . end))
'(a "str\\tin\\x41;g" #\\x #\\space #\\x3bb #(1 #(2) "v") #u8(0 255) () #t #false)
(1 -2 3/4 -6/8 1.5 -0.0 +inf.0 +nan.0 1e300 2+3i 1/2-i 2.5+3i #x-ff #e1.25 123456789012345678901234567890)
#;(skipped datum) |odd symbol| (a . (b . (c)))
#| block #| nested |# comment |#
#!fold-case
(DEFINE UPPER 'MiXeD)
"""


def same_data(a: object, b: object, ma: SourceMap, mb: SourceMap) -> None:
    """``a`` and ``b`` are equal data whose pairs have equal positions (name aside)."""
    assert a.__class__ is b.__class__, (a, b)
    if a.__class__ is list:
        pa, pb = ma.pos_of(a), mb.pos_of(b)
        assert (pa and (pa.line, pa.col)) == (pb and (pb.line, pb.col))
        same_data(a[0], b[0], ma, mb)
        same_data(a[1], b[1], ma, mb)
    elif a.__class__ is Vector:
        assert len(a.items) == len(b.items)
        for x, y in zip(a.items, b.items):
            same_data(x, y, ma, mb)
    elif a.__class__ in (Symbol, Char) or a is NIL:
        assert a is b
    elif a.__class__ is float and math.isnan(a):
        assert math.isnan(b)
    elif a.__class__ is float:
        assert math.copysign(1, a) == math.copysign(1, b) and a == b
    else:
        assert a == b


def sources() -> list[Path]:
    return sorted((ROOT / "examples").rglob("*.scm")) + sorted((ROOT / "scheme_lib").rglob("*.sld"))


@pytest.mark.parametrize("text", [EVERY_KIND_OF_DATUM, "", "; only a comment\n", "x", "(a)"]
                         + [p.read_text() for p in sources()])
def test_a_cached_read_is_the_read(tmp_path, text):
    expected, expected_map = read_all(text, "orig.scm")
    cache = ParseCache(tmp_path)
    first, first_map = cache.read(text, "orig.scm")
    second, second_map = ParseCache(tmp_path).read(text, "orig.scm")  # from disk
    assert cache.misses == 1
    for forms, smap in ((first, first_map), (second, second_map)):
        assert len(forms) == len(expected)
        for a, b in zip(expected, forms):
            same_data(a, b, expected_map, smap)


def test_every_kind_of_datum_survives(tmp_path):
    ParseCache(tmp_path).read(EVERY_KIND_OF_DATUM, "a.scm")
    forms, _ = ParseCache(tmp_path).read(EVERY_KIND_OF_DATUM, "a.scm")
    quoted = forms[1][1][0]
    items = []
    while quoted is not NIL:
        items.append(quoted[0])
        quoted = quoted[1]
    assert items[1] == String("str\tinAg") and items[2] is Char.of("x")
    assert items[4] is Char.of("\u03bb") and items[5] == Vector([1, Vector([2]), String("v")])
    assert items[6] == Bytevector(bytearray([0, 255])) and items[8:] == [True, False]
    numbers = forms[2]
    values = []
    while numbers is not NIL:
        values.append(numbers[0])
        numbers = numbers[1]
    assert values[:4] == [1, -2, Fraction(3, 4), Fraction(-3, 4)]
    assert values[-3:] == [-255, Fraction(5, 4), 123456789012345678901234567890]
    assert values[9] == 2 + 3j and math.copysign(1, values[5]) < 0
    assert forms[-1][0] is Symbol.intern("define")  # #!fold-case applied before caching


def test_a_hit_does_not_read(tmp_path, monkeypatch):
    ParseCache(tmp_path).read("(hello world)", "a.scm")
    monkeypatch.setattr(parse_cache, "read_all", lambda *a: pytest.fail("read again"))
    cache = ParseCache(tmp_path)
    forms, smap = cache.read("(hello world)", "b.scm")
    assert (cache.hits, cache.misses) == (1, 0)
    assert forms[0][0] is Symbol.intern("hello")
    assert str(smap.pos_of(forms[0])) == "b.scm:1:1"  # the name of this read, not the first


def test_another_text_is_another_entry(tmp_path):
    cache = ParseCache(tmp_path)
    cache.read("(a)", "f.scm")
    forms, _ = cache.read("(b)", "f.scm")
    assert forms[0][0] is Symbol.intern("b") and cache.misses == 2
    assert len(list(tmp_path.iterdir())) == 2


def entry_of(directory: Path) -> Path:
    (entry,) = directory.iterdir()
    return entry


def damage_truncate(blob: bytes) -> bytes:
    return blob[:len(blob) // 2]


def damage_flip_payload_byte(blob: bytes) -> bytes:
    return blob[:-3] + bytes([blob[-3] ^ 0x40]) + blob[-2:]


def damage_wrong_magic(blob: bytes) -> bytes:
    return b"X" + blob[1:]


def damage_foreign_payload(blob: bytes) -> bytes:
    # a well-formed entry (magic, right digest) whose payload is not an encoding of data
    payload = marshal.dumps(((99, "junk"),))
    return parse_cache._MAGIC + hashlib.blake2b(payload, digest_size=16).digest() + payload


@pytest.mark.parametrize("damage", [lambda b: b"", damage_truncate, damage_flip_payload_byte,
                                    damage_wrong_magic, damage_foreign_payload,
                                    lambda b: bytes(range(256)) * 4])
def test_a_damaged_entry_is_a_miss_and_is_rewritten(tmp_path, damage):
    text = "(define (f x) (* x 2))\n(f 21)\n"
    ParseCache(tmp_path).read(text, "a.scm")
    entry = entry_of(tmp_path)
    good = entry.read_bytes()
    entry.write_bytes(damage(good))
    cache = ParseCache(tmp_path)
    forms, smap = cache.read(text, "a.scm")
    expected, expected_map = read_all(text, "a.scm")
    for a, b in zip(expected, forms, strict=True):
        same_data(a, b, expected_map, smap)
    assert (cache.hits, cache.misses) == (0, 1)
    assert entry.read_bytes() == good
    again = ParseCache(tmp_path)
    again.read(text, "a.scm")
    assert again.hits == 1


def test_an_entry_that_cannot_be_read_is_a_miss(tmp_path):
    ParseCache(tmp_path).read("(a)", "a.scm")
    entry = entry_of(tmp_path)
    entry.unlink()
    entry.mkdir()  # a directory where the entry should be: neither read nor written
    cache = ParseCache(tmp_path)
    forms, _ = cache.read("(a)", "a.scm")
    assert forms[0][0] is Symbol.intern("a") and cache.misses == 1


def test_an_unwritable_cache_directory_only_costs_reads(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    cache = ParseCache(blocker / "parsed")
    for _ in range(2):
        forms, _ = cache.read("(a b)", "a.scm")
        assert forms[0][1][0] is Symbol.intern("b")
    assert cache.misses == 2


def test_read_errors_leave_with_their_position_and_are_not_cached(tmp_path):
    text = "(define x 1)\n  (oops\n"
    with pytest.raises(ReadError) as direct:
        read_all(text, "bad.scm")
    cache = ParseCache(tmp_path)
    for _ in range(2):
        with pytest.raises(ReadError) as cached:
            cache.read(text, "bad.scm")
        assert str(cached.value.where) == str(direct.value.where) == "bad.scm:2:3"
        assert cached.value.message == direct.value.message
    assert cache.misses == 2 and not any(tmp_path.iterdir())


def nested(lists: int) -> str:
    return "'" + "(" * lists + "x" + ")" * lists


@pytest.mark.parametrize("text", ["'(#0=(1 2) #0#)", "'#0=(a . #0#)",
                                  nested(MAX_CACHED_DEPTH)])
def test_shared_or_very_deep_data_are_read_each_time(tmp_path, text):
    cache = ParseCache(tmp_path)
    for _ in range(2):
        forms, _ = cache.read(text, "a.scm")
        assert len(forms) == 1
    assert cache.misses == 2 and not any(tmp_path.iterdir())


def test_data_as_deep_as_the_limit_are_cached(tmp_path):
    ParseCache(tmp_path).read(nested(MAX_CACHED_DEPTH - 2), "a.scm")
    cache = ParseCache(tmp_path)
    cache.read(nested(MAX_CACHED_DEPTH - 2), "a.scm")
    assert cache.hits == 1


def test_shared_structure_is_kept_when_read_again(tmp_path):
    cache = ParseCache(tmp_path)
    cache.read("'(#0=(1 2) #0#)", "a.scm")
    forms, _ = cache.read("'(#0=(1 2) #0#)", "a.scm")
    quoted = forms[0][1][0]
    assert quoted[0] is quoted[1][0]


def test_concurrent_writers_leave_one_whole_entry(tmp_path):
    text = EVERY_KIND_OF_DATUM * 20
    count = len(read_all(text)[0])
    errors: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(5):
                forms, _ = ParseCache(tmp_path).read(text, "a.scm")
                assert len(forms) == count
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [p.name.startswith(".") for p in tmp_path.iterdir()] == [False]  # no temp files
    cache = ParseCache(tmp_path)
    cache.read(text, "a.scm")
    assert cache.hits == 1


def test_prune_keeps_only_what_was_read(tmp_path):
    ParseCache(tmp_path).read("(old version)", "a.scm")
    cache = ParseCache(tmp_path)
    cache.read("(new version)", "a.scm")
    cache.read("(other file)", "b.scm")
    (tmp_path / "unrelated.txt").write_text("kept")
    cache.prune()
    assert len(list(tmp_path.glob("*.read"))) == 3  # the old one is not old enough yet
    cache.prune(min_age=0)
    assert len(list(tmp_path.glob("*.read"))) == 2
    assert (tmp_path / "unrelated.txt").exists()
    again = ParseCache(tmp_path)
    again.read("(new version)", "a.scm")
    again.read("(other file)", "b.scm")
    assert again.hits == 2


def test_a_change_to_the_reader_changes_every_key(tmp_path, monkeypatch):
    cache = ParseCache(tmp_path)
    cache.read("(a)", "a.scm")
    monkeypatch.setattr(parse_cache, "_reader_fingerprint", lambda: b"another reader")
    cache.read("(a)", "a.scm")
    assert cache.misses == 2


def test_without_the_reader_sources_nothing_is_cached(tmp_path, monkeypatch):
    monkeypatch.setattr(parse_cache, "_reader_fingerprint", lambda: None)
    cache = ParseCache(tmp_path)
    for _ in range(2):
        forms, _ = cache.read("(a)", "a.scm")
        assert forms[0][0] is Symbol.intern("a")
    assert not any(tmp_path.iterdir())


def unfolded(x: object) -> object:
    """``x`` with every Folded definition in it decoded (in place)."""
    if x.__class__ is parse_cache.Folded:
        return x.unfold()
    if x.__class__ is list:
        x[0] = unfolded(x[0])
        x[1] = unfolded(x[1])
    return x


LIBRARY = """(define-library (test folded)
  (export f g h k)
  (import (scheme base))
  (begin
    (define (f x . rest) (list x rest))
    (define g (lambda (y) y))
    (define h f)
    (define k 5)
    (define ((curried a) b) a)
    (display "a form that is no definition")))
(define (outside) 1)
"""


@pytest.mark.parametrize("text", [LIBRARY] + [p.read_text() for p in sorted(
    (ROOT / "scheme_lib").rglob("*.sld"))])
def test_a_library_read_back_unfolds_to_the_read(tmp_path, text):
    expected, expected_map = read_all(text, "lib.sld")
    ParseCache(tmp_path).read_library(text, "lib.sld")
    forms, smap = ParseCache(tmp_path).read_library(text, "lib.sld")
    assert len(forms) == len(expected)
    for a, b in zip(expected, forms):
        same_data(a, unfolded(b), expected_map, smap)


def test_a_library_read_back_folds_only_its_body_s_definitions(tmp_path):
    ParseCache(tmp_path).read_library(LIBRARY, "lib.sld")
    forms, _ = ParseCache(tmp_path).read_library(LIBRARY, "lib.sld")
    body = forms[0][1][1][1][1][0][1]  # the forms of (begin ...)
    items = []
    while body is not NIL:
        items.append(body[0])
        body = body[1]
    folded = [(x.name, x.procedure, x.value) for x in items
              if x.__class__ is parse_cache.Folded]
    assert folded == [("f", True, None), ("g", False, Symbol.intern("lambda")),
                      ("h", False, True), ("k", False, None)]
    assert items[-2].__class__ is list  # (a curried define, as any other form, is decoded)
    assert forms[1].__class__ is list  # (a form outside define-library is never folded)
    assert ParseCache(tmp_path).read(LIBRARY, "lib.sld")[0][0][1][1][1][1][0][1][0].__class__ \
        is list  # (read, for any other file, folds nothing)
