"""The export names of scheme_lib libraries kept in the parse cache
(harness/scheme/library_exports.py): a name no pending prelude library exports loads none
of them, a name one exports loads only that one, and a changed or damaged entry is a
miss (the library is loaded and asked)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import harness.scheme.library_exports as library_exports_module
from harness.scheme.interpreter import libraries_cached_in, make_environment, run_source
from harness.scheme.libraries import PRELUDE_LIBRARIES, find_library
from harness.scheme.library_exports import library_exports
from harness.scheme.parse_cache import ParseCache
from harness.scheme.printer import write_string

SRFI_69 = ("srfi", "69")


@pytest.fixture
def fresh(monkeypatch):
    """Nothing known in this process yet (as at a start)."""
    monkeypatch.setattr(library_exports_module, "_KNOWN", {})


def test_a_name_no_pending_library_exports_loads_none_of_them(tmp_path, fresh):
    with libraries_cached_in(ParseCache(tmp_path)):
        env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
        pending = env.pending
        run_source(env, "(define (later) (a-helper-defined-elsewhere 1))")
        assert env.pending == pending  # all still pending, none bound
        assert write_string(run_source(env, "(any odd? '(2 3))")) == "#t"
        assert ("srfi", "1") not in env.pending
        assert SRFI_69 in env.pending  # not loaded for any, which it does not export


def test_without_a_cache_every_library_is_asked_as_before():
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    assert library_exports(None, SRFI_69) in (None, frozenset(find_library(SRFI_69).exports))
    assert write_string(run_source(env, "(any odd? '(2 3))")) == "#t"


def test_the_names_are_read_back_from_the_cache(tmp_path, fresh, monkeypatch):
    names = library_exports(ParseCache(tmp_path), SRFI_69)
    assert names == frozenset(find_library(SRFI_69).exports)
    assert "hash-table-merge!" in names
    monkeypatch.setattr(library_exports_module, "_KNOWN", {})
    monkeypatch.setattr(library_exports_module, "find_library", lambda key: None)
    assert library_exports(ParseCache(tmp_path), SRFI_69) == names  # not loaded again


def test_a_changed_library_text_is_a_miss(tmp_path, fresh, monkeypatch):
    sld = tmp_path / "lib.sld"
    sld.write_text("(define-library (srfi 69) (export a))")
    cache = ParseCache(tmp_path / "cache")
    monkeypatch.setattr(library_exports_module, "library_path", lambda key: sld)
    monkeypatch.setattr(library_exports_module, "find_library",
                        lambda key: SimpleNamespace(exports={"a": 1}))
    assert library_exports(cache, SRFI_69) == {"a"}
    sld.write_text("(define-library (srfi 69) (export a b))")
    monkeypatch.setattr(library_exports_module, "_KNOWN", {})
    monkeypatch.setattr(library_exports_module, "find_library",
                        lambda key: SimpleNamespace(exports={"a": 1, "b": 2}))
    assert library_exports(cache, SRFI_69) == {"a", "b"}


def test_a_damaged_entry_is_a_miss(tmp_path, fresh, monkeypatch):
    cache = ParseCache(tmp_path)
    library_exports(cache, SRFI_69)
    [path] = tmp_path.glob("*.blob")
    for damaged in (b"", b"harness-blob 1\n" + b"\0" * 40, path.read_bytes()[:-3]):
        path.write_bytes(damaged)
        monkeypatch.setattr(library_exports_module, "_KNOWN", {})
        assert library_exports(ParseCache(tmp_path), SRFI_69) == frozenset(
            find_library(SRFI_69).exports)
    cache.store_blob(path.stem, b"\x00not marshal")  # a well-formed blob, not a name list
    monkeypatch.setattr(library_exports_module, "_KNOWN", {})
    assert "hash-table-merge!" in library_exports(ParseCache(tmp_path), SRFI_69)
