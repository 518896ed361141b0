"""harness-repl over a pipe: the same entries, no prompt."""

from __future__ import annotations

import io
import subprocess
import sys

from harness.repl.batch import run_batch

SCRIPT = """\
(define (f x)
  (* x 2))
(f 21)
,fire pre_tool {"tool_name": "shell_exec", "arguments": {"command": "rm -rf /"}}
(car 1)
"""


def run(repl, text: str, files=()) -> tuple[int, str]:
    out = io.StringIO()
    status = run_batch(repl, list(files), io.StringIO(text), out)
    return status, out.getvalue()


def test_entries_are_read_until_complete(repl):
    status, out = run(repl, SCRIPT)
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "42"
    assert '"blocked": true' in out and "1 answer, 0 errors" in out
    assert lines[-3:] == ["<repl-3>:1:1: car: expected a pair, got an integer", "(car 1)", "^"]


def test_input_ending_inside_an_entry_is_an_error(repl):
    status, out = run(repl, "(+ 1 2)\n(f 1")
    assert status == 1
    assert out.startswith("3\n<repl-2>:1:1: unexpected end of input: '(' is never closed")


def test_quit_stops_reading_and_files_load_first(repl, tmp_path):
    extra = tmp_path / "extra.scm"
    extra.write_text("(define-tool hello (execute (lambda (args) \"hi\")))")
    status, out = run(repl, ",call hello\n,quit\n(car 1)\n", files=[str(extra)])
    assert status == 0
    assert out.splitlines() == [f"loaded {extra} (sandboxed): tools: hello; hooks: -",
                                "result   hi"]


def test_harness_repl_reads_a_pipe(home):
    done = subprocess.run([sys.executable, "-m", "harness.repl", "--home", str(home)],
                          input="(string-upcase \"piped\")\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, '"PIPED"\n', "")
