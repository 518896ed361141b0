"""Which permission point a framework's tool call fires (harness.integrations.tool_kinds)."""

from __future__ import annotations

import pytest

from harness.integrations.tool_kinds import (
    DEFAULT_TOOL_KINDS,
    ToolKind,
    ToolKinds,
)


def test_the_default_rules_by_name_and_arguments():
    request = DEFAULT_TOOL_KINDS.permission_request
    assert request("Bash", {"command": "ls"}) == ("pre_shell_exec",
                                                  {"tool_name": "Bash", "command": "ls"})
    assert request("run_command", {"cmd": "ls"})[1]["command"] == "ls"
    assert request("write_file", {"path": "a", "content": "b"}) == (
        "pre_file_write", {"tool_name": "write_file", "path": "a", "content": "b"})
    assert request("edit", {"file_path": "a"})[1] == {"tool_name": "edit", "path": "a",
                                                      "content": None}
    assert request("read_file", {"path": "a"})[0] == "pre_file_read"
    point, payload = request("fetch", {"url": "https://example.org"})
    assert point == "pre_fetch_url" and payload["url"] == "https://example.org"
    assert payload["safety"] == "unchecked"


def test_a_call_without_its_required_argument_or_of_another_name_fires_nothing():
    request = DEFAULT_TOOL_KINDS.permission_request
    assert request("bash", {"script_path": "x"}) is None
    assert request("bash", {"command": ["ls"]}) is None  # not a string
    assert request("weather", {"city": "Paris"}) is None
    assert request("bash", "ls") is None


def test_a_rule_added_first_wins():
    kinds = DEFAULT_TOOL_KINDS.with_rule(ToolKind("pre_file_read", {"bash"},
                                                  {"path": ("command",)}))
    assert kinds.permission_request("bash", {"command": "x"})[0] == "pre_file_read"
    assert ToolKinds([]).permission_request("bash", {"command": "x"}) is None


def test_a_rule_must_name_a_permission_point():
    with pytest.raises(ValueError, match="not a permission point"):
        ToolKind("pre_tool", {"x"}, {"command": ("command",)})
    with pytest.raises(ValueError, match="required field"):
        ToolKind("pre_shell_exec", {"x"}, {})
