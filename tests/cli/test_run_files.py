"""``harness run`` loses nothing a program wrote to a file it never closed: the port is
flushed when the program ends, even when it is held in a reference cycle (every procedure
a program defines holds its globals) that the process never finalizes."""

from __future__ import annotations

from cli_helpers import run_harness

UNCLOSED = """\
(define text-port (open-output-file "{dir}/text.txt"))
(define bytes-port (open-binary-output-file "{dir}/bytes.bin"))
(define (ports) (list text-port bytes-port))
(write-string "kept" text-port)
(write-bytevector (bytevector 1 2 3) bytes-port)
"""


def test_what_a_program_wrote_to_ports_it_never_closed_reaches_the_files(tmp_path):
    program = tmp_path / "unclosed.scm"
    program.write_text(UNCLOSED.format(dir=tmp_path))
    done = run_harness("run", "--unsandboxed", str(program))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "text.txt").read_text() == "kept"
    assert (tmp_path / "bytes.bin").read_bytes() == b"\x01\x02\x03"


def test_an_error_after_the_writes_still_keeps_them(tmp_path):
    program = tmp_path / "fails.scm"
    program.write_text(UNCLOSED.format(dir=tmp_path) + "(car '())\n")
    done = run_harness("run", "--unsandboxed", str(program))
    assert done.returncode == 1 and f"{program}:6:1: car:" in done.stderr
    assert (tmp_path / "text.txt").read_text() == "kept"
