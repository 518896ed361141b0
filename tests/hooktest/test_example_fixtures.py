"""examples/hooktests pass against the demo home built from the examples."""

from __future__ import annotations

from pathlib import Path

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
