"""examples/hooktests pass against the demo home built from the examples, and against
homes of only their Hy or only their Python twins."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hooktest_helpers import run_harness_test

from harness.cli.demo import build_demo_home

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_example_fixtures_pass_against_the_demo_home(tmp_path, capsys, monkeypatch):
    home = build_demo_home(tmp_path / "home")
    monkeypatch.setenv("CONTEXT_LOG_FILE", str(tmp_path / "context_log.txt"))
    status = run_harness_test(str(EXAMPLES / "hooktests"), "--home", str(home))
    out = capsys.readouterr().out
    assert status == 0, out
    assert "FAIL" not in out
    assert out.splitlines()[-1].endswith("passed, 0 failed")


@pytest.mark.parametrize("twins", ["hy_hooks", "python_hooks"])
def test_example_fixtures_pass_against_the_hy_and_the_python_twins(tmp_path, capsys, twins):
    home = tmp_path / "home"
    shutil.copytree(EXAMPLES / twins, home / "tools")
    (home / "harness.toml").write_text('[tools.tiers]\n"" = "unsandboxed"\n')
    status = run_harness_test(str(EXAMPLES / "hooktests"), "--home", str(home))
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.splitlines()[-1].endswith("passed, 0 failed")
