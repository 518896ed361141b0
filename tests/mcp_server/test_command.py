"""``harness mcp`` refuses bad input before serving: exit status 1 and a message that says
what is wrong."""

from __future__ import annotations

import subprocess

import pytest

from tests.mcp_server.mcp_helpers import harness_argv


@pytest.mark.parametrize(("args", "message"), [
    (("--http", "abc"), "--http: 'abc' is not [HOST:]PORT"),
    (("--http", "127.0.0.1:70000"), "a port is 0..65535"),
    (("--context", "../x"), "--context: invalid context name '../x'"),
])
def test_bad_options_are_refused(home, args, message):
    done = subprocess.run(harness_argv("--home", str(home), *args), capture_output=True,
                          text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and message in done.stderr


def test_a_missing_home_is_refused(tmp_path):
    done = subprocess.run(harness_argv("--home", str(tmp_path / "none")), capture_output=True,
                          text=True, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "does not exist" in done.stderr
