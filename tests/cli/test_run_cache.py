"""``harness run`` reads a program once: what the reader made of it is kept in the user's
cache ($XDG_CACHE_HOME/harness/parsed, else ~/.cache/harness/parsed), so a second run of
the same text starts without lark. Output, errors and their places are the same either
way; a cache that cannot be written only costs the next run a read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROGRAM = '(define (greet who) (string-append "hello, " who))\n(display (greet "cache"))\n'
FAILING = '(display "before")\n(newline)\n(car (quote ()))\n'
# runs `harness run FILE` in this process and says whether the reader (lark) was imported
RUN_AND_REPORT = ("import sys\nfrom harness.cli import main\ncode = main(['run', sys.argv[1]])\n"
                  "print('|lark' if 'lark' in sys.modules else '|no lark', end='')\n"
                  "sys.exit(code)\n")


def run(program: Path, cache_home: Path | str | None, home: Path | None = None):
    env = {k: v for k, v in os.environ.items() if k != "XDG_CACHE_HOME"}
    if cache_home is not None:
        env["XDG_CACHE_HOME"] = str(cache_home)
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run([sys.executable, "-c", RUN_AND_REPORT, str(program)], env=env,
                          capture_output=True, text=True, check=False, timeout=60)


def entries(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "harness" / "parsed").glob("*.read"))


def test_a_second_run_of_the_same_program_reads_it_from_the_cache(tmp_path):
    program = tmp_path / "greet.scm"
    program.write_text(PROGRAM)
    first = run(program, tmp_path / "cache")
    assert (first.returncode, first.stdout, first.stderr) == (0, "hello, cache|lark", "")
    assert len(entries(tmp_path / "cache")) == 1
    second = run(program, tmp_path / "cache")
    assert (second.returncode, second.stdout, second.stderr) == (0, "hello, cache|no lark", "")


def test_an_edited_program_is_read_again(tmp_path):
    program = tmp_path / "greet.scm"
    program.write_text(PROGRAM)
    run(program, tmp_path / "cache")
    program.write_text(PROGRAM.replace("cache", "edit"))
    again = run(program, tmp_path / "cache")
    assert again.stdout == "hello, edit|lark"
    assert len(entries(tmp_path / "cache")) == 2


def test_errors_keep_their_place_and_caret_when_the_program_comes_from_the_cache(tmp_path):
    program = tmp_path / "failing.scm"
    program.write_text(FAILING)
    first = run(program, tmp_path / "cache")
    second = run(program, tmp_path / "cache")
    assert first.returncode == second.returncode == 1
    assert f"{program}:3:1: car:" in first.stderr
    assert second.stderr == first.stderr
    assert (first.stdout, second.stdout) == ("before\n|lark", "before\n|no lark")


def test_a_read_error_is_not_cached_and_reads_the_same_each_time(tmp_path):
    program = tmp_path / "broken.scm"
    program.write_text('(display "x")\n(car\n')
    first = run(program, tmp_path / "cache")
    second = run(program, tmp_path / "cache")
    assert first.returncode == second.returncode == 1
    assert first.stderr == second.stderr and f"{program}:2:1:" in first.stderr
    assert entries(tmp_path / "cache") == []


def test_without_xdg_cache_home_the_cache_is_under_the_home_directory(tmp_path):
    program = tmp_path / "greet.scm"
    program.write_text(PROGRAM)
    for cache_home in (None, "relative/ignored"):  # XDG: a relative path does not count
        done = run(program, cache_home, home=tmp_path / "user")
        assert done.stdout.startswith("hello, cache")
    assert len(entries(tmp_path / "user" / ".cache")) == 1
    assert not (tmp_path / "relative").exists()


def test_a_cache_that_cannot_be_written_only_costs_a_read(tmp_path):
    program = tmp_path / "greet.scm"
    program.write_text(PROGRAM)
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")  # the cache directory cannot be made under a file
    for _ in range(2):
        done = run(program, blocked)
        assert (done.returncode, done.stdout, done.stderr) == (0, "hello, cache|lark", "")
