"""A warm start (read data and plugin schemas cached in HOME/.cache) behaves as a cold one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from harness.plugins import SchemaCache, discover
from harness.runtime import Runtime
from harness.scheme.parse_cache import PRUNE_AFTER

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "a_hooks.scm": """\
        (register-hook 'pre_tool
          (lambda (payload)
            (if (equal? (cdr (assoc "tool_name" payload)) "rm")
                (list (cons "block" #t) (cons "message" "no"))
                '())))
    """,
    "b_tools.scm": """\
        (define-tool double (description "twice n")
          (parameters '((n . ((type . "integer")))))
          (execute (lambda (args) (* 2 (cdr (assoc "n" args))))))
        (define-tool bad (description "d")
          (execute (lambda (args) (car args))))
    """,
    "c_load_error.scm": "(define x 1)\n(define y (car '()))\n",
    "d_read_error.scm": "(define-tool oops (description \"d\")\n  (execute (lambda (a) a))\n",
    "sub/e_nested.scm": "(define tool-name \"nested\")\n(define (tool-execute a) \"n\")\n",
}


def make_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    for name, text in FILES.items():
        path = home / "tools" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return home


def observed(rt: Runtime) -> dict:
    """What a host sees of a runtime: tools, hooks, load errors, answers and tool errors."""
    return {
        "tools": rt.tools(),
        "hooks": rt.hooks(),
        "load_errors": dict(rt.load_errors),
        "blocked": rt.fire("pre_tool", {"tool_name": "rm", "arguments": {}})["outcome"],
        "double": rt.call_tool("double", {"n": 21}).output,
        "bad": rt.call_tool("bad", {}).error,
        "nested": rt.call_tool("nested", {}).output,
    }


def test_a_warm_start_reads_nothing_and_still_runs_every_file(tmp_path):
    home = make_home(tmp_path)
    cold = Runtime(home)
    assert cold.parse_cache.hits == 0
    warm = Runtime(home)
    # one file cannot be read: its read error is never cached
    assert (warm.parse_cache.hits, warm.parse_cache.misses) == (4, 1)
    assert observed(warm) == observed(cold)
    errors = observed(warm)["load_errors"]
    assert "c_load_error.scm:2:11: car: expected a pair, got ()" in errors[
        str(home / "tools" / "c_load_error.scm")]
    assert "d_read_error.scm:1:1: unexpected end of input" in errors[
        str(home / "tools" / "d_read_error.scm")]
    assert "b_tools.scm:5:27: car: expected a pair, got ()" in observed(warm)["bad"]


def test_a_changed_file_is_read_again_whatever_its_stamp(tmp_path):
    home = make_home(tmp_path)
    path = home / "tools" / "b_tools.scm"
    Runtime(home)
    stat = path.stat()
    path.write_text(path.read_text().replace("(* 2 ", "(* 3 "))  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size
    assert Runtime(home).call_tool("double", {"n": 21}).output == "63"


def test_a_damaged_cache_never_breaks_a_start(tmp_path):
    home = make_home(tmp_path)
    expected = observed(Runtime(home))
    entries = list((home / ".cache" / "parsed").iterdir())
    assert entries
    for i, entry in enumerate(entries):
        blob = entry.read_bytes()
        entry.write_bytes(blob[: len(blob) // 2] if i % 2 else b"\0" * len(blob))
    damaged = Runtime(home)
    assert damaged.parse_cache.hits == 0 and observed(damaged) == expected
    assert Runtime(home).parse_cache.hits == 4  # the entries were written again


def test_a_start_deletes_the_entries_of_older_versions(tmp_path):
    home = make_home(tmp_path)
    Runtime(home)
    path = home / "tools" / "a_hooks.scm"
    entries = home / ".cache" / "parsed"
    day_old = time.time() - PRUNE_AFTER - 60
    for n in range(3):
        path.write_text(f"(define version {n})\n")
        for entry in entries.iterdir():
            os.utime(entry, (day_old, day_old))
        Runtime(home)
    # this start's 4 readable files, and the (harness tools) library if this process read
    # it in a runtime of its own
    assert len(list(entries.glob("*.read"))) in (4, 5)
    assert Runtime(home).parse_cache.hits == 4


def run_child(code: str, home: Path) -> str:
    out = subprocess.run([sys.executable, "-c", code, str(home)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return out.stdout.strip()


def test_a_warm_start_does_not_import_the_parser(tmp_path):
    home = make_home(tmp_path)
    code = ("import sys\nfrom harness.runtime import Runtime\nRuntime(sys.argv[1])\n"
            "print(sorted(m for m in ('lark', 'watchdog', 'tomllib') if m in sys.modules))")
    assert run_child(code, home) == "['lark']"  # cold: every file is read
    (home / "tools" / "d_read_error.scm").unlink()  # read each time, as it never reads
    Runtime(home)
    assert run_child(code, home) == "[]"  # the (harness tools) library is cached too


def test_the_schema_cache_answers_without_running_a_plugin(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    plugin = plugins / "p"
    plugin.write_text("#!/bin/sh\necho '{\"name\": \"t\", \"description\": \"d\"}'\n")
    plugin.chmod(0o755)
    (file,) = discover(plugins)
    cache = SchemaCache(tmp_path / "schemas.json")
    assert cache.cached(file) is None and cache.runs == 0
    cache.schemas_of(file)
    cache.save()
    again = SchemaCache(tmp_path / "schemas.json")
    assert again.cached(file).schemas[0]["name"] == "t" and again.runs == 0
    plugin.write_text(plugin.read_text() + "# changed\n")
    assert again.cached(file) is None
