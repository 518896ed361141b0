"""``harness test``: PASS/FAIL lines, diffs, summary and exit status."""

from __future__ import annotations

from hooktest_helpers import run_harness_test, shell, write_fixture

GUARD_CASES = {
    "hook": "pre_tool",
    "cases": [
        {"name": "blocks rm -rf", "payload": shell("rm -rf /"),
         "expect": {"blocked": True, "message": "no rm -rf"}, "match": "partial"},
        {"name": "lets ls through", "payload": shell("ls"),
         "expect": {"blocked": False, "message": None, "arguments": {"command": "ls"}}},
    ],
}


def test_passing_fixtures_exit_0(home, tmp_path, capsys):
    path = write_fixture(tmp_path / "t", "guard", GUARD_CASES)
    assert run_harness_test(str(path), "--home", str(home)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"PASS  {path}: blocks rm -rf", f"PASS  {path}: lets ls through",
                   "2 passed, 0 failed"]


def test_a_failing_case_shows_a_diff_and_exits_1(home, tmp_path, capsys):
    wrong = {"hook": "pre_tool", "name": "wrongly expects ls to be blocked",
             "payload": shell("ls"), "expect": {"blocked": True}, "match": "partial"}
    write_fixture(tmp_path / "t", "guard", GUARD_CASES)
    path = write_fixture(tmp_path / "t", "wrong", wrong)
    assert run_harness_test(str(tmp_path / "t"), "--home", str(home)) == 1
    out = capsys.readouterr().out
    assert f"FAIL  {path}: wrongly expects ls to be blocked" in out
    assert "      outcome differs (partial match):" in out
    assert '      -  "blocked": true' in out and '      +  "blocked": false' in out
    assert out.splitlines()[-1] == "2 passed, 1 failed"


def test_a_crashing_hook_fails_unless_its_errors_are_expected(home, tmp_path, capsys):
    (home / "tools" / "crash.scm").write_text("(register-hook 'pre_tool (lambda (p) (car '())))")
    case = {"hook": "pre_tool", "payload": shell("ls"), "expect": {"blocked": False},
            "match": "partial"}
    path = write_fixture(tmp_path, "crash", case)
    assert run_harness_test(str(path), "--home", str(home)) == 1
    out = capsys.readouterr().out
    assert "errors: expected 0, got 1" in out
    assert "crash.scm:1" in out and "car: expected a pair" in out
    write_fixture(tmp_path, "crash", dict(case, errors=1))
    assert run_harness_test(str(path), "--home", str(home)) == 0


def test_fixture_errors_exit_2_and_the_rest_still_run(home, tmp_path, capsys):
    write_fixture(tmp_path / "t", "guard", GUARD_CASES)
    bad = write_fixture(tmp_path / "t", "bad", '{"hook": "pre_tool",\n "expect": }')
    assert run_harness_test(str(tmp_path / "t"), "--home", str(home)) == 2
    captured = capsys.readouterr()
    assert f"harness test: {bad}:2:12: invalid JSON" in captured.err
    assert captured.out.splitlines()[-1] == "2 passed, 0 failed, 1 fixture file unusable"


def test_usage_errors_exit_2(home, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_harness_test("--home", str(home)) == 2
    assert "no fixtures" in capsys.readouterr().err
    assert run_harness_test(str(tmp_path / "missing.hooktest.json"), "--home", str(home)) == 2


def test_a_home_that_cannot_open_is_bad_input_named_before_any_fixture(home, tmp_path, capsys):
    write_fixture(tmp_path, "t", GUARD_CASES)
    (home / "harness.toml").write_text("[tools.tiers]\n'x' = 'root'\n")
    assert run_harness_test(str(tmp_path), "--home", str(home)) == 1
    assert "tier must be one of" in capsys.readouterr().err
    assert run_harness_test("--home", str(tmp_path / "missing")) == 1
    err = capsys.readouterr().err
    assert "harness home" in err and "does not exist" in err and "no fixtures" not in err


def test_default_path_is_home_tests(home, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_fixture(home / "tests", "guard", GUARD_CASES)
    assert run_harness_test("--home", str(home)) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out


def test_a_file_of_the_home_that_failed_to_load_fails_every_case(home, tmp_path, capsys):
    # a broken guard is never silent: it is in every dispatch's errors, so cases fail
    (home / "tools" / "broken.scm").write_text("(car 1)")
    path = write_fixture(tmp_path, "guard", GUARD_CASES)
    assert run_harness_test(str(path), "--home", str(home)) == 1
    captured = capsys.readouterr()
    assert "broken.scm:1:1: car: expected a pair" in captured.err
    assert "errors: expected 0, got 1" in captured.out
    assert "failed to load, so none of its hooks and tools run" in captured.out
