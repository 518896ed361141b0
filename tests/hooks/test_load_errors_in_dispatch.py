"""SPEC §9: a file or plugin of the home that failed to load, and has no good version
running, is listed in the errors of every dispatch until it is fixed, so a broken guard is
never silent; and a payload that is not a JSON object is refused with a clear message."""

from __future__ import annotations

import pytest

from harness.hooks.dispatcher import PayloadError
from harness.runtime import Runtime

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload) (list (cons "block" #t) (cons "message" "no"))))
"""
BROKEN_GUARD = GUARD[:-3]  # a parenthesis short: it never loads
SHELL = {"tool_name": "shell_exec", "arguments": {"command": "ls"}}


def make_home(tmp_path, files: dict[str, str]):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    for name, text in files.items():
        (home / "tools" / name).write_text(text)
    return home


def test_a_file_that_never_loaded_is_in_every_dispatch(tmp_path):
    home = make_home(tmp_path, {"guard.scm": BROKEN_GUARD})
    rt = Runtime(home)
    guard = home / "tools" / "guard.scm"
    for hook, payload in (("pre_tool", SHELL), ("on_start", {}), ("post_message", {})):
        [error] = rt.fire(hook, payload)["errors"]
        assert error["source"] == f"scm:{guard.relative_to(home)}"
        assert error["message"].startswith("failed to load, so none of its hooks and tools "
                                           f"run: {guard}:1:1: unexpected end of input")


def test_it_is_listed_until_the_file_is_fixed_or_deleted(tmp_path):
    home = make_home(tmp_path, {"guard.scm": BROKEN_GUARD, "other.scm": BROKEN_GUARD})
    rt = Runtime(home)
    assert len(rt.fire("pre_tool", SHELL)["errors"]) == 2
    (home / "tools" / "guard.scm").write_text(GUARD)
    rt.load_file(home / "tools" / "guard.scm")
    result = rt.fire("pre_tool", SHELL)
    assert result["outcome"]["blocked"] is True
    assert [e["source"] for e in result["errors"]] == ["scm:tools/other.scm"]
    rt.unload_file(home / "tools" / "other.scm")
    assert rt.fire("pre_tool", SHELL)["errors"] == []


def test_a_broken_save_of_a_live_file_says_its_last_good_version_runs(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    rt = Runtime(home)
    guard = home / "tools" / "guard.scm"
    guard.write_text(BROKEN_GUARD)
    assert rt.load_file(guard) is not None
    result = rt.fire("pre_tool", SHELL)
    assert result["outcome"]["blocked"] is True
    [error] = result["errors"]
    assert error["source"] == f"scm:{guard.relative_to(home)}"
    assert error["message"].startswith(f"running last good version of {guard} (saved ")
    assert f"; {guard}:1:1: unexpected end of input" in error["message"]
    assert str(guard) in rt.load_errors  # still reported there


def test_a_plugin_that_did_not_load_is_in_every_dispatch(tmp_path):
    home = make_home(tmp_path, {})
    plugin = home / "plugins" / "audit"
    plugin.parent.mkdir()
    plugin.write_text("#!/bin/sh\necho 'ImportError: yaml' >&2\nexit 1\n")
    plugin.chmod(0o755)
    [error] = Runtime(home).fire("on_start", {})["errors"]
    assert error["source"] == "plugin:audit"
    assert error["message"].startswith("--schema exited with code 1; stderr: ImportError: yaml")


def test_the_error_entries_are_the_callers_to_change(tmp_path):
    rt = Runtime(make_home(tmp_path, {"guard.scm": BROKEN_GUARD}))
    rt.fire("on_start", {})["errors"][0]["message"] = "changed"
    assert rt.fire("on_start", {})["errors"][0]["message"] != "changed"


@pytest.mark.parametrize("payload", [[1, 2], "text", 3])
def test_a_payload_must_be_a_json_object(tmp_path, payload):
    rt = Runtime(make_home(tmp_path, {}))
    with pytest.raises(PayloadError, match="payload must be a JSON object"):
        rt.fire("on_start", payload)
    assert isinstance(PayloadError("x"), TypeError)


def test_no_payload_and_other_mappings_are_accepted(tmp_path):
    from types import MappingProxyType
    rt = Runtime(make_home(tmp_path, {}))
    assert rt.fire("on_start")["errors"] == []
    assert rt.fire("pre_message", MappingProxyType({"prompt": "hi"}))["outcome"] == {
        "prompt": "hi"}
