"""Reading *.hooktest.json files: the two shapes, defaults, and every mistake reported."""

from __future__ import annotations

import pytest
from hooktest_helpers import shell, write_fixture

from harness.cli.test_command import FixtureError, fixture_files, read_fixture


def test_a_single_case_file(tmp_path):
    path = write_fixture(tmp_path, "guard", {"hook": "pre_tool", "payload": shell("ls"),
                                             "expect": {"blocked": False}})
    [case] = read_fixture(path)
    assert (case.name, case.hook, case.match, case.errors) == ("guard", "pre_tool", "exact", 0)
    assert case.payload == shell("ls")


def test_cases_share_the_file_defaults(tmp_path):
    path = write_fixture(tmp_path, "guard", {
        "hook": "pre_tool", "match": "partial", "errors": 1,
        "cases": [{"name": "one", "expect": {}},
                  {"expect": {}, "match": "exact", "errors": 0, "hook": "pre_tool_output"}]})
    one, two = read_fixture(path)
    assert (one.name, one.hook, one.match, one.errors) == ("one", "pre_tool", "partial", 1)
    assert (two.name, two.hook, two.match, two.errors) == ("case 2", "pre_tool_output",
                                                          "exact", 0)


def test_the_payload_defaults_to_the_sample(tmp_path):
    [case] = read_fixture(write_fixture(tmp_path, "s", {"hook": "pre_tool", "expect": {}}))
    assert case.payload == {"tool_name": "shell_exec", "arguments": {"command": "ls -la src"}}


#: where Python's json places a trailing comma's mistake: 3.13 names the comma itself,
#: earlier versions the brace after it
TRAILING_COMMA = "2:29"  # the comma itself


@pytest.mark.parametrize(("content", "message"), [
    ('{"hook": "pre_tool",\n  "expect": {"blocked": true,}}',
     f"x.hooktest.json:{TRAILING_COMMA}: invalid JSON"),
    ("[1]", "a fixture must be a JSON object"),
    ({"expect": {}}, 'missing "hook"'),
    ({"hook": "pre_tol", "expect": {}}, "unknown hook point 'pre_tol'; did you mean 'pre_tool'?"),
    ({"hook": "pre_tool"}, 'missing "expect"'),
    ({"hook": "pre_tool", "expected": {}}, 'unknown key "expected" (did you mean "expect"?'),
    ({"hook": "pre_tool", "expect": {}, "match": "fuzzy"}, '"match" must be'),
    ({"hook": "pre_tool", "expect": {}, "errors": -1}, '"errors" must be a count'),
    ({"hook": "pre_tool", "expect": {}, "errors": True}, '"errors" must be a count'),
    ({"hook": "pre_tool", "expect": {}, "payload": []}, '"payload" must be a JSON object'),
    ({"hook": "pre_tool", "cases": []}, '"cases" must be a non-empty array'),
    ({"cases": [{"name": "n", "hook": "x", "expect": {}}]}, "case 1 (n): unknown hook point"),
    ({"cases": [3]}, "case 1 must be a JSON object"),
    # tool cases
    ({"tool": "t", "hook": "pre_tool", "expect": {}}, '"hook" does not go with "tool"'),
    ({"tool": "t", "payload": {}, "expect": {}}, 'a tool case has "arguments"'),
    ({"tool": "t", "errors": -1, "expect": {}}, '"errors" must be a count'),
    ({"tool": 3, "expect": {}}, '"tool" must be a tool name'),
    ({"tool": "t", "arguments": [1], "expect": {}}, '"arguments" must be a JSON object'),
    ({"tool": "t"}, 'missing "expect"'),
    ({"tool": "t", "expect": {"outptu": 1}}, 'unknown key "outptu" (did you mean "output"?'),
    ({"tool": "t", "expect": {"blocked": "yes"}}, '"blocked" must be true or false'),
    ({"tool": "t", "expect": {"error": 5}}, '"error" must be null, true or a part'),
    ({"hook": "pre_tool", "arguments": {}, "expect": {}}, '"arguments" belongs to a tool case'),
])
def test_fixture_mistakes_are_reported_with_their_place(tmp_path, content, message):
    path = write_fixture(tmp_path, "x", content)
    with pytest.raises(FixtureError) as info:
        read_fixture(path)
    assert str(info.value).startswith(str(path))
    assert message in str(info.value)


def test_fixture_files_searches_directories(tmp_path):
    a = write_fixture(tmp_path / "d", "a", {})
    b = write_fixture(tmp_path / "d" / "sub", "b", {})
    (tmp_path / "d" / "notes.json").write_text("{}")
    assert fixture_files([str(tmp_path / "d")], tmp_path) == [a, b]


def test_fixture_files_defaults_to_home_tests(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FixtureError, match="no fixtures"):
        fixture_files([], tmp_path / "home")
    local = write_fixture(tmp_path / "hooktests", "local", {})
    assert fixture_files([], tmp_path / "home") == [local.relative_to(tmp_path)]
    in_home = write_fixture(tmp_path / "home" / "tests", "h", {})
    assert fixture_files([], tmp_path / "home") == [in_home]


def test_missing_paths_and_empty_directories(tmp_path):
    with pytest.raises(FixtureError, match="no such file"):
        fixture_files([str(tmp_path / "nope")], tmp_path)
    (tmp_path / "empty").mkdir()
    with pytest.raises(FixtureError, match="no \\*.hooktest.json files"):
        fixture_files([str(tmp_path / "empty")], tmp_path)


def test_a_fixture_file_may_start_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.hooktest.json"
    path.write_text('\ufeff{"hook": "on_start", "expect": {}}', encoding="utf-8")
    [case] = read_fixture(path)
    assert case.hook == "on_start"
