"""The compiled code of scheme_lib definitions kept in the parse cache
(harness/scheme/compiled_definitions.py): a second start runs it instead of compiling, a
changed library text is compiled again, a damaged or foreign entry is never trusted, and
concurrent writers never leave half an entry."""

from __future__ import annotations

import marshal
import os
import pickle
import threading
from pathlib import Path

import pytest

from harness.scheme.compiled_definitions import LibraryDefinitions
from harness.scheme.interpreter import eval_form, format_error, make_environment, run_compiled
from harness.scheme.parse_cache import ParseCache
from harness.scheme.printer import write_string
from harness.scheme.reader import read_all
from harness.scheme.syntax import Scope

LIBRARY = """(define (walk f lst)
  (if (null? lst) '() (cons (f (car lst)) (walk f (cdr lst)))))
"""


def refuse_to_compile(*args, **kwargs):
    raise AssertionError("compiled, though the cache held the code")


def define(cache: ParseCache, text: str, name: str, evaluate=eval_form):
    """A fresh library environment with the definition of ``name`` (the first form of
    ``text``, read as the file lib.sld) evaluated through ``cache``."""
    env = make_environment("unsandboxed", budget_check="steps", imports=(("scheme", "base"),))
    forms, smap = read_all(text, "lib.sld")
    definitions = LibraryDefinitions(("test", "lib"), smap, lambda: cache, evaluate,
                                     run_compiled)
    definitions.evaluate(env, name, forms[0], smap, Scope(None, env))
    return env


def run(env, text: str) -> object:
    forms, smap = read_all(text, "test.scm")
    result = None
    for form in forms:
        result = eval_form(env, form, smap)
    return result


def blobs(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.blob"))


class Counting:
    """An evaluate that counts the definitions it compiles."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return eval_form(*args, **kwargs)


def test_a_second_start_runs_the_code_the_first_compiled(tmp_path):
    first = define(ParseCache(tmp_path), LIBRARY, "walk")
    assert len(blobs(tmp_path)) == 1
    second = define(ParseCache(tmp_path), LIBRARY, "walk", evaluate=refuse_to_compile)
    for env in (first, second):
        assert write_string(run(env, "(walk (lambda (x) (* x x)) '(1 2 3))")) == "(1 4 9)"


def test_cached_code_keeps_its_positions_and_its_quoted_data(tmp_path):
    text = "(define (tag x) (if (eq? x 'a) '(found \"a\") (car x)))\n"
    define(ParseCache(tmp_path), text, "tag")
    env = define(ParseCache(tmp_path), text, "tag", evaluate=refuse_to_compile)
    assert write_string(run(env, "(tag 'a)")) == '(found "a")'
    with pytest.raises(Exception) as failed:
        run(env, "(tag 5)")
    assert format_error(failed.value).startswith("lib.sld:1:")


def test_a_continuation_resumed_inside_cached_code_rebuilds_its_unit(tmp_path):
    program = """
      (let* ((k #f) (n 0)
             (out (walk (lambda (x) (call/cc (lambda (c) (if (= x 2) (set! k c)) x)))
                        '(1 2 3))))
        (set! n (+ n 1))
        (if (< n 3) (k (* n 10)) out))"""
    compiled = define(ParseCache(tmp_path), LIBRARY, "walk")
    cached = define(ParseCache(tmp_path), LIBRARY, "walk", evaluate=refuse_to_compile)
    assert write_string(run(compiled, program)) == "(1 20 3)"
    assert write_string(run(cached, program)) == "(1 20 3)"


def test_a_changed_library_text_is_compiled_again(tmp_path):
    define(ParseCache(tmp_path), LIBRARY, "walk")
    changed = LIBRARY.replace("(cons (f (car lst))", "(cons (list (f (car lst)))")
    counting = Counting()
    env = define(ParseCache(tmp_path), changed, "walk", evaluate=counting)
    assert counting.calls == 1
    assert write_string(run(env, "(walk (lambda (x) x) '(1 2))")) == "((1) (2))"
    assert len(blobs(tmp_path)) == 2


TWO = LIBRARY + """(define (twice f lst) (walk f (walk f lst)))
"""


def define_both(cache: ParseCache, evaluate=eval_form):
    """A library environment with ``twice`` (and so ``walk``) of TWO evaluated through
    ``cache``, as one library's definitions are: one LibraryDefinitions for the file."""
    env = make_environment("unsandboxed", budget_check="steps", imports=(("scheme", "base"),))
    forms, smap = read_all(TWO, "lib.sld")
    definitions = LibraryDefinitions(("test", "lib"), smap, lambda: cache, evaluate,
                                     run_compiled)
    for name, form in (("walk", forms[0]), ("twice", forms[1])):
        definitions.evaluate(env, name, form, smap, Scope(None, env))
    return env


def test_a_library_keeps_its_definitions_in_one_pack(tmp_path):
    define_both(ParseCache(tmp_path))
    [path] = blobs(tmp_path)
    assert len(marshal.loads(ParseCache(tmp_path).load_blob(path.stem))) == 2
    env = define_both(ParseCache(tmp_path), evaluate=refuse_to_compile)
    assert write_string(run(env, "(twice (lambda (x) (* x 10)) '(1 2))")) == "(100 200)"


def test_a_damaged_entry_in_a_pack_recompiles_only_that_definition(tmp_path):
    define_both(ParseCache(tmp_path))
    [path] = blobs(tmp_path)
    cache = ParseCache(tmp_path)
    pack = marshal.loads(cache.load_blob(path.stem))
    [walk] = [k for k in pack if k.startswith("walk\0")]
    cache.store_blob(path.stem, marshal.dumps({**pack, walk: b"garbage"}))
    counting = Counting()
    env = define_both(ParseCache(tmp_path), evaluate=counting)
    assert counting.calls == 1
    assert write_string(run(env, "(twice (lambda (x) (+ x 1)) '(1))")) == "(3)"
    assert define_both(ParseCache(tmp_path), evaluate=refuse_to_compile) is not None


def test_packs_written_by_two_processes_are_merged(tmp_path):
    forms, smap = read_all(TWO, "lib.sld")
    cache = ParseCache(tmp_path)
    envs, both = [], []
    for _ in range(2):  # two "processes", each compiling one definition of the library
        env = make_environment("unsandboxed", budget_check="steps",
                               imports=(("scheme", "base"),))
        definitions = LibraryDefinitions(("test", "lib"), smap, lambda: cache, eval_form,
                                         run_compiled)
        envs.append(env)
        both.append(definitions)
    assert both[1]._entries(cache, both[1]._key_of_pack()) == {}  # read before the write
    both[0].evaluate(envs[0], "walk", forms[0], smap, Scope(None, envs[0]))
    run(envs[1], "(define (walk f lst) lst)")  # (twice alone, not walk, compiles here)
    both[1].evaluate(envs[1], "twice", forms[1], smap, Scope(None, envs[1]))
    [path] = blobs(tmp_path)
    assert len(marshal.loads(ParseCache(tmp_path).load_blob(path.stem))) == 2


def corrupt_each_way(path: Path) -> list[bytes]:
    blob = path.read_bytes()
    flipped = bytearray(blob)
    flipped[-5] ^= 0xFF
    return [b"", blob[:20], blob[: len(blob) // 2], bytes(flipped), b"not an entry at all"]


def test_a_damaged_entry_is_a_miss(tmp_path):
    define(ParseCache(tmp_path), LIBRARY, "walk")
    [path] = blobs(tmp_path)
    for damaged in corrupt_each_way(path):
        path.write_bytes(damaged)
        counting = Counting()
        env = define(ParseCache(tmp_path), LIBRARY, "walk", evaluate=counting)
        assert counting.calls == 1  # compiled again
        assert write_string(run(env, "(walk (lambda (x) (+ x 1)) '(1 2))")) == "(2 3)"


def test_an_entry_naming_anything_but_plain_data_is_refused(tmp_path):
    cache = ParseCache(tmp_path)
    define(cache, LIBRARY, "walk")
    [path] = blobs(tmp_path)
    key = path.stem
    [(name, entry)] = marshal.loads(cache.load_blob(key)).items()
    code, _, refs, unit = marshal.loads(entry)
    # a well-formed entry (its digest matches) whose constants would call os.system
    hostile = pickle.dumps([os.system])
    cache.store_blob(key, marshal.dumps({name: marshal.dumps((code, hostile, refs, unit))}))
    counting = Counting()
    env = define(ParseCache(tmp_path), LIBRARY, "walk", evaluate=counting)
    assert counting.calls == 1
    assert write_string(run(env, "(walk (lambda (x) x) '(7))")) == "(7)"


def test_concurrent_writers_never_leave_half_an_entry(tmp_path):
    payloads = [bytes([i]) * 200_000 for i in range(8)]
    seen: list[bytes | None] = []
    stop = threading.Event()

    def write(payload: bytes) -> None:
        for _ in range(20):
            ParseCache(tmp_path).store_blob("k" * 64, payload)

    def read() -> None:
        while not stop.is_set():
            seen.append(ParseCache(tmp_path).load_blob("k" * 64))

    reader = threading.Thread(target=read)
    reader.start()
    writers = [threading.Thread(target=write, args=(p,)) for p in payloads]
    for t in writers:
        t.start()
    for t in writers:
        t.join()
    stop.set()
    reader.join()
    assert ParseCache(tmp_path).load_blob("k" * 64) in payloads
    assert all(x is None or x in payloads for x in seen)
    assert [p.name for p in tmp_path.iterdir()] == ["k" * 64 + ".blob"]  # no temporary left


def test_a_definition_needed_outside_a_cached_load_is_compiled():
    env = make_environment("unsandboxed", budget_check="steps", imports=(("scheme", "base"),))
    forms, smap = read_all(LIBRARY, "lib.sld")
    counting = Counting()
    definitions = LibraryDefinitions(("test", "lib"), smap, lambda: None, counting,
                                     run_compiled)
    definitions.evaluate(env, "walk", forms[0], smap, Scope(None, env))
    assert counting.calls == 1
    assert write_string(run(env, "(walk (lambda (x) x) '(5))")) == "(5)"


def test_a_definition_that_assigns_a_global_is_compiled_each_time(tmp_path):
    text = "(define (bump!) (set! counter (+ counter 1)) counter)\n"
    forms, smap = read_all(text, "lib.sld")
    for _ in range(2):
        env = make_environment("unsandboxed", budget_check="steps",
                               imports=(("scheme", "base"),))
        run(env, "(define counter 0)")
        counting = Counting()
        definitions = LibraryDefinitions(("test", "lib"), smap, lambda: ParseCache(tmp_path),
                                         counting, run_compiled)
        definitions.evaluate(env, "bump!", forms[0], smap, Scope(None, env))
        assert counting.calls == 1  # (its set! marks counter assigned: no entry replays that)
        assert run(env, "(bump!) (bump!)") == 2
    assert blobs(tmp_path) == []
