"""What ``harness run`` and ``harness check`` make of a source file's bytes: a UTF-8 byte
order mark is skipped; bytes that are not UTF-8 are an error at their FILE:LINE:COL."""

from __future__ import annotations

import pytest

from harness.scheme.primitives import system


@pytest.fixture(autouse=True)
def _keep_the_command_line(monkeypatch):
    """``harness run`` sets (command-line) for the program; give it back afterwards."""
    monkeypatch.setattr(system, "COMMAND_LINE", system.COMMAND_LINE)


def test_run_skips_a_byte_order_mark(harness, tmp_path):
    program = tmp_path / "bom.scm"
    program.write_bytes(b'\xef\xbb\xbf(display "no stray character")\n')
    code, out, err = harness("run", str(program))
    assert (code, out, err) == (0, "no stray character", "")


def test_run_names_the_place_of_a_byte_that_is_not_utf8(harness, tmp_path):
    program = tmp_path / "latin1.scm"
    program.write_bytes(b'(display "a")\n  (display "caf\xe9")\n')
    code, out, err = harness("run", str(program))
    assert code == 1 and out == ""
    assert err == (f"{program}:2:16: this file is not UTF-8 text (byte 0xe9 here); save it "
                   "as UTF-8\n")


def test_check_reports_both(harness, tmp_path):
    (tmp_path / "bom.scm").write_bytes(b"\xef\xbb\xbf(register-hook 'on_start car)")
    (tmp_path / "bad.scm").write_bytes(b"\xff")
    code, out, _ = harness("check", str(tmp_path), "--home", str(tmp_path))
    assert code == 1
    assert f"{tmp_path}/bom.scm: ok (sandboxed)" in out
    assert f"{tmp_path}/bad.scm:1:1: this file is not UTF-8 text (byte 0xff here)" in out


def test_run_names_itself_for_a_file_it_cannot_read(harness, tmp_path):
    code, out, err = harness("run", str(tmp_path / "missing.scm"))
    assert (code, out) == (1, "")
    assert err == f"harness run: cannot read {tmp_path}/missing.scm: No such file or directory\n"
