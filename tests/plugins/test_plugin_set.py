"""PluginSet: a plugins directory loaded, indexed by hook point and tool, and called."""

import json

import pytest
from plugin_helpers import install, write_plugin

from harness.hooks.catalogue import UnknownHookError
from harness.hooks.outcome import NO_ANSWER
from harness.plugins.plugin_set import PluginSet


def schema_plugin(plugins_dir, name, hooks, tools=None, answer="{}"):
    schemas = [{"name": tool, "description": tool, "hooks": hooks} for tool in (tools or [name])]
    body = (f"#!/bin/sh\nif [ \"$1\" = --schema ]; then echo '{json.dumps(schemas)}'; exit 0; fi\n"
            f"cat > /dev/null\necho '{answer}'\n")
    return write_plugin(plugins_dir / name, body)


@pytest.fixture
def loaded(plugins_dir, tmp_path):
    for name in ("echo_hook", "multi_tool", "crash", "schema_lies"):
        install(plugins_dir, name)
    return PluginSet(plugins_dir, home=tmp_path / "home")


def test_plugins_sorted_and_refused_ones_reported(loaded):
    assert [p.name for p in loaded.plugins] == ["crash", "echo_hook", "multi_tool",
                                                "schema_lies"]
    sources = {p["source"] for p in loaded.problems}
    assert sources == {"plugin:schema_lies"}
    assert any("did you mean 'pre_tool'" in p["message"] for p in loaded.problems)


def test_hooks_for_in_name_order(loaded):
    assert [p.name for p in loaded.hooks_for("pre_message")] == ["crash", "echo_hook"]
    assert [p.name for p in loaded.hooks_for("on_end")] == ["multi_tool"]
    assert [p.name for p in loaded.hooks_for("pre_tool")] == ["echo_hook", "schema_lies"]
    assert loaded.hooks_for("post_index_file") == []
    with pytest.raises(UnknownHookError, match="did you mean 'pre_tool'"):
        loaded.hooks_for("pre_tools")


def test_tools_and_find_tool(loaded):
    assert [t["name"] for t in loaded.tools()] == ["crash", "echo_hook", "alpha", "beta",
                                                   "good"]
    assert loaded.find_tool("beta").name == "multi_tool"
    assert loaded.find_tool("nope") is None
    loaded.tools()[0]["name"] = "mutated"
    assert loaded.tools()[0]["name"] == "crash", "tools() hands out copies"


def test_multi_tool_plugin_is_called_once_per_event(loaded, tmp_path, monkeypatch):
    count_file = tmp_path / "calls"
    monkeypatch.setenv("FIXTURE_COUNT_FILE", str(count_file))
    results = loaded.call_hooks("on_start", {"tool_count": 5})
    assert [r.plugin for r in results] == ["echo_hook", "multi_tool"]
    assert count_file.read_text().splitlines() == ["on_start"]


def test_one_failure_never_stops_the_others(loaded):
    results = loaded.call_hooks("pre_message", {"prompt": "x"})
    assert [(r.plugin, r.failed) for r in results] == [("crash", True), ("echo_hook", False)]
    assert results[0].answer is NO_ANSWER
    assert results[1].answer["stdin"] == {"prompt": "x"}
    assert results[1].answer["home"] == str(loaded.env["HARNESS_HOME"])


def test_call_tool(loaded):
    result = loaded.call_tool("alpha", {})
    assert result.output == "tool alpha\n" and result.error is None
    assert loaded.call_tool("missing", {}) is None


def test_reload_sees_added_changed_and_removed_plugins(plugins_dir, tmp_path):
    schema_plugin(plugins_dir, "one", ["on_start"])
    plugins = PluginSet(plugins_dir, home=tmp_path)
    assert [p.name for p in plugins.hooks_for("on_start")] == ["one"]
    schema_plugin(plugins_dir, "two", ["on_start"])
    schema_plugin(plugins_dir, "one", ["on_end"], answer='{"changed": true}')
    plugins.reload()
    assert [p.name for p in plugins.hooks_for("on_start")] == ["two"]
    assert [p.name for p in plugins.hooks_for("on_end")] == ["one"]
    (plugins_dir / "two").rename(plugins_dir / "two.disabled")
    plugins.reload()
    assert [p.name for p in plugins.plugins] == ["one"]


def test_warm_start_uses_the_cache_file(plugins_dir, tmp_path):
    schema_plugin(plugins_dir, "one", ["on_start"])
    PluginSet(plugins_dir, home=tmp_path)
    assert (tmp_path / ".cache" / "plugin-schemas.json").exists()
    warm = PluginSet(plugins_dir, home=tmp_path)
    assert warm.cache.runs == 0
    assert [p.name for p in warm.plugins] == ["one"]


def test_duplicate_tool_names_first_plugin_wins(plugins_dir, tmp_path):
    schema_plugin(plugins_dir, "a_first", [], tools=["shared"])
    schema_plugin(plugins_dir, "b_second", [], tools=["shared", "own"])
    plugins = PluginSet(plugins_dir)
    assert plugins.find_tool("shared").name == "a_first"
    assert [t["name"] for t in plugins.tools()] == ["shared", "own"]
    assert plugins.problems == ({"source": "plugin:b_second",
                                 "message": "tool 'shared' is already provided by "
                                            "plugin:a_first; skipped"},)


def test_empty_and_missing_directories(tmp_path):
    assert PluginSet(tmp_path / "missing").plugins == ()
    assert PluginSet(tmp_path / "missing").call_hooks("on_start", {}) == []


def test_unwritable_cache_is_reported_not_fatal(plugins_dir, tmp_path):
    schema_plugin(plugins_dir, "one", ["on_start"])
    blocker = tmp_path / "home"
    blocker.write_text("a file where the home should be")
    plugins = PluginSet(plugins_dir, home=blocker)
    assert [p.name for p in plugins.plugins] == ["one"]
    assert "cannot write the schema cache" in plugins.problems[-1]["message"]
