"""Files meant to run that are not loaded, and tools defined twice, are said in every
dispatch, as load failures are (issue 24 items 1 and 6): a guard in the wrong place guards
nothing, and nothing about it may be silent."""

from __future__ import annotations

import pytest

from harness.home_layout import stray_files
from harness.runtime import Runtime

GUARD = "(register-hook 'pre_tool (lambda (p) '((\"block\" . #t))))\n"


@pytest.fixture
def home(tmp_path):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "plugins").mkdir()
    return home


@pytest.mark.parametrize("place, said", [
    ("guard.scm", "guard.scm is not loaded: tool files go in"),
    ("guard.py", "guard.py is not loaded: tool files go in"),
    ("py/guard.py", "py/ holds tool files that are not loaded"),
    ("scm/guard.scm", "scm/ holds tool files that are not loaded"),
    ("tool/guard.scm", "tool/ is not read by harness; did you mean tools?"),
    ("tools/guard.sch", "tools/guard.sch is not loaded: tool files end in .scm, .hy or .py"),
    ("tools/sub/guard.ss", "tools/sub/guard.ss is not loaded"),
    ("plugins/guard.scm", "plugins/guard.scm is a tool file, not a plugin"),
])
def test_a_file_in_the_wrong_place_is_in_every_dispatch(home, place, said):
    path = home / place
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GUARD)
    with Runtime(home) as rt:
        for hook in ("pre_tool", "post_message"):
            messages = [e["message"] for e in rt.fire(hook, {})["errors"]]
            assert any(m.startswith(said) for m in messages), messages


def test_a_plugin_never_made_executable_is_named_but_notes_are_not(home):
    (home / "plugins" / "audit").write_text("#!/bin/sh\necho '{}'\n")
    (home / "plugins" / "README.md").write_text("my plugins\n")
    (home / "notes.txt").write_text("todo\n")
    assert [where for where, _ in stray_files(home)] == ["plugins/audit"]


def test_a_home_in_order_has_no_notices(home):
    (home / "tools" / "guard.scm").write_text(GUARD)
    (home / "harness.toml").write_text("")
    with Runtime(home) as rt:
        assert rt.fire("post_message", {})["errors"] == []


def test_a_tool_defined_twice_is_said_in_every_dispatch_and_in_calls(home):
    tool = '(define-tool greet (description "d") (execute (lambda (a) "{}")))\n'
    (home / "tools" / "a.scm").write_text(tool.replace("{}", "from a"))
    (home / "tools" / "b.scm").write_text(tool.replace("{}", "from b"))
    with Runtime(home) as rt:
        a, b = home / "tools" / "a.scm", home / "tools" / "b.scm"
        notice = {"source": "tool:greet",
                  "message": f"tool greet is defined in {a} and in {b}: the one in {a} is "
                             f"used (the first by path)"}
        assert notice in rt.fire("post_message", {})["errors"]
        result = rt.call_tool("greet")
        assert result.output == "from a" and notice in result.errors
        b.unlink()
        rt.unload_file(b)
        assert rt.fire("post_message", {})["errors"] == []
