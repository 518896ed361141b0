"""scripts/test-all-pythons runs the suite once per interpreter, each in its own virtual
environment, and fails when any run fails or runs no test. Here the interpreters are
stand-ins (shell scripts that answer as Python, venv, pip and pytest would), so what is
checked is the script's own work: which commands it runs, and what it makes of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "test-all-pythons"

#: answers as ``python -c ...`` (its version), ``-m venv DIR`` (a copy of itself in
#: DIR/bin/python), ``-m pip`` and ``-m pytest`` (a summary and an exit status) would;
#: every call is logged
FAKE_PYTHON = """#!/bin/sh
here=$(dirname "$0")
echo "$0 $*" >> "$LOG"
case "$1 $2" in
  "-c "*) cat "$here/version" ;;
  "-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && cp "$here"/version "$here"/summary "$here"/status "$3/bin/" ;;
  "-m pip") exit 0 ;;
  "-m pytest") cat "$here/summary"; exit "$(cat "$here/status")" ;;
esac
"""


def fake_python(tmp_path: Path, version: str, summary: str, status: int = 0) -> str:
    """A stand-in interpreter of ``version`` whose pytest prints ``summary`` and exits
    with ``status``."""
    folder = tmp_path / f"python-{version}" / "bin"
    folder.mkdir(parents=True)
    (folder / "version").write_text(version + "\n")
    (folder / "summary").write_text(f"..\n===== {summary} =====\n")
    (folder / "status").write_text(str(status))
    python = folder / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return str(python)


def run(tmp_path: Path, *pythons: str, extra: tuple[str, ...] = ()) -> tuple[int, str, list]:
    """(exit status, output, the logged calls) of the script with those interpreters."""
    log = tmp_path / "calls.log"
    args = [a for p in pythons for a in ("--python", p)]
    done = subprocess.run([sys.executable, str(SCRIPT), *args, "--venvs", str(tmp_path),
                           *extra], capture_output=True, text=True,
                          env={**os.environ, "LOG": str(log)}, timeout=60, check=False)
    calls = log.read_text().splitlines() if log.exists() else []
    return done.returncode, done.stdout + done.stderr, calls


def summary_lines(output: str) -> list[str]:
    return output.split("one line per interpreter\n", 1)[1].splitlines()


def test_each_interpreter_gets_its_own_environment_and_a_summary_line(tmp_path):
    a = fake_python(tmp_path, "3.11.7", "12 passed in 1.00s")
    b = fake_python(tmp_path, "3.13.0", "11 passed, 1 deselected in 1.00s")
    status, output, calls = run(tmp_path, a, b)
    assert status == 0, output
    assert (tmp_path / ".venv311" / "bin" / "python").exists()
    assert (tmp_path / ".venv313" / "bin" / "python").exists()
    assert [line.split() for line in summary_lines(output)] == [
        ["python", "3.11.7", "ok", "12", "passed", "in", "1.00s"],
        ["python", "3.13.0", "ok", "11", "passed,", "1", "deselected", "in", "1.00s"]]
    pytest_calls = [c for c in calls if " -m pytest " in c]
    # the e2e tests run under the first interpreter only
    assert len(pytest_calls) == 2
    assert ".venv311/bin/python -m pytest" in pytest_calls[0] and "not e2e" not in \
        pytest_calls[0]
    assert ".venv313/bin/python -m pytest" in pytest_calls[1] and pytest_calls[1].endswith(
        "-m not e2e")


def test_one_failing_interpreter_fails_the_run(tmp_path):
    a = fake_python(tmp_path, "3.11.7", "12 passed in 1.00s")
    b = fake_python(tmp_path, "3.12.1", "1 failed, 11 passed in 1.00s", status=1)
    status, output, _ = run(tmp_path, a, b)
    assert status == 1
    assert summary_lines(output)[1].split()[:4] == ["python", "3.12.1", "FAILED", "1"]
    assert "(pytest exit 1)" in summary_lines(output)[1]


def test_a_run_with_no_tests_is_a_failure(tmp_path):
    a = fake_python(tmp_path, "3.11.7", "no tests ran in 0.01s", status=5)
    status, output, _ = run(tmp_path, a)
    assert status == 1
    assert "FAILED" in summary_lines(output)[0] and "no tests ran" in output


def test_only_e2e_tests_selected_pass_under_the_other_interpreters(tmp_path):
    # (under the others every selected test is deselected as e2e: pytest's exit 5)
    a = fake_python(tmp_path, "3.11.7", "2 passed in 1.00s")
    b = fake_python(tmp_path, "3.12.1", "2 deselected in 0.01s", status=5)
    status, output, _ = run(tmp_path, a, b, extra=("--", "tests/e2e"))
    assert status == 0, output
    assert "e2e tests only" in summary_lines(output)[1]


def test_pytest_arguments_are_passed_on(tmp_path):
    a = fake_python(tmp_path, "3.11.7", "1 passed in 0.10s")
    status, _, calls = run(tmp_path, a, extra=("--", "-x", "tests/hooks"))
    assert status == 0
    [call] = [c for c in calls if " -m pytest " in c]
    assert call.endswith("-m pytest -q -p no:cacheprovider -x tests/hooks")


def test_a_python_too_old_is_a_failure_not_a_skip(tmp_path):
    old = fake_python(tmp_path, "3.10.13", "1 passed in 0.10s")
    status, output, calls = run(tmp_path, old)
    assert status == 1
    assert "needs Python 3.11 or newer" in output
    assert not any(" -m venv " in c for c in calls)

