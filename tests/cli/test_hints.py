"""The hints harness gives where a user goes wrong say what to do (issue 24 item 12)."""

from __future__ import annotations

import pytest

from harness.config import HomeNotFoundError
from harness.runtime import Runtime


def test_a_fail_safe_denial_in_harness_call_says_what_allow_does(harness, fresh_home):
    code, _, err = harness("call", "shell_exec", '{"command": "echo RAN"}', "--home",
                           str(fresh_home))
    assert code == 1
    assert err.strip().endswith("no permission handler configured (the fail-safe deny: no "
                                "host approves here; --allow stands in for a host that "
                                "approves)")


def test_a_library_of_the_unsandboxed_tier_says_how_to_give_a_file_that_tier(tmp_path):
    home = tmp_path / "home"
    (home / "tools" / "admin").mkdir(parents=True)
    (home / "tools" / "admin" / "io.scm").write_text("(import (harness io))\n")
    with Runtime(home) as rt:
        [message] = rt.load_errors.values()
    assert message.endswith(f'(to allow it, give the file the unsandboxed tier in '
                            f'{home / "harness.toml"}: [tools.tiers] "admin/io.scm" = '
                            f'"unsandboxed")')


def test_a_home_that_is_a_file_is_not_advised_to_grow_a_tools_folder(tmp_path):
    home = tmp_path / "home"
    home.write_text("")
    with pytest.raises(HomeNotFoundError) as info:
        Runtime(home)
    assert str(info.value) == (f"harness home {home} is not a directory: give a directory "
                               "with --home DIR or $HARNESS_HOME")


def test_harness_answer_keys_on_a_claude_event_point_at_what_claude_code_reads(tmp_path):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "g.scm").write_text(
        "(register-hook 'PreToolUse (lambda (p) '((\"block\" . #t) (\"message\" . \"no\"))))")
    with Runtime(home) as rt:
        result = rt.fire("PreToolUse", {"tool_name": "Bash", "tool_input": {"command": "ls"}})
    messages = [e["message"] for e in result["errors"]]
    assert messages[0] == (
        "PreToolUse: unknown answer key 'block' ignored; 'block' is a harness answer key (of "
        "pre_tool): on Claude Code's events answer {\"decision\": \"block\", \"reason\": "
        "\"...\"}, or register the hook on pre_tool")
    assert "systemMessage" not in messages[1]
