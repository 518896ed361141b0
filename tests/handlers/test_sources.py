"""Reading handler sources: every bad entry is reported with its file and key (and a "did you
mean" where one is close), and only that entry is skipped; the policy keys as Claude Code
reads them."""

import json

import pytest
from claude_helpers import command, group, settings_file

from harness.handlers.policy import build_table
from harness.handlers.sources import Source, SourceError, load_source


def load(path, scope="settings"):
    return load_source(Source(str(path), scope))


def messages(loaded):
    return [(p.key, p.message, p.severity) for p in loaded.problems]


def test_a_good_settings_file(tmp_path):
    path = settings_file(tmp_path / "s.json", {
        "PreToolUse": [group(command("guard.sh", timeout=5), matcher="Bash|Edit")],
        "Stop": [group(command("stop.sh"), {"type": "prompt", "prompt": "done?"})]},
        model="opus", permissions={"allow": []})  # other keys are Claude Code's business
    loaded = load(path)
    assert loaded.problems == ()
    assert [(h.point, h.type, h.key) for h in loaded.handlers] == [
        ("PreToolUse", "command", "hooks.PreToolUse[0].hooks[0]"),
        ("Stop", "command", "hooks.Stop[0].hooks[0]"),
        ("Stop", "prompt", "hooks.Stop[0].hooks[1]")]
    assert loaded.handlers[0].timeout == 5
    assert loaded.handlers[0].source == f"handler:{path}:hooks.PreToolUse[0].hooks[0]"


@pytest.mark.parametrize(("handler", "key", "message"), [
    ({"type": "comand", "command": "x"}, ".type",
     ("'type' must be one of command, http, mcp_tool, prompt, agent, got 'comand' "
     "(did you mean 'command'?)")),
    ({"command": "x"}, ".type", "got nothing"),
    ({"type": "command"}, ".command", "a command handler needs 'command'"),
    ({"type": "command", "command": ""}, ".command", "must be a non-empty string, got ''"),
    ({"type": "command", "command": "x", "timeout": "5"}, ".timeout",
     "must be a positive number of seconds, got '5'"),
    ({"type": "command", "command": "x", "timeout": -1}, ".timeout", "positive number"),
    ({"type": "command", "command": "x", "async": "yes"}, ".async", "must be true or false"),
    ({"type": "command", "command": "x", "args": "a b"}, ".args", "must be a list of strings"),
    ({"type": "http", "url": "ftp://x"}, ".url", "must be an http:// or https:// URL"),
    ({"type": "http", "url": "http://x", "headers": {"A": 1}}, ".headers",
     "must be a table of strings"),
    ({"type": "mcp_tool", "server": "s"}, ".tool", "a mcp_tool handler needs 'tool'"),
    ({"type": "agent", "prompt": "x", "maxTurns": 500}, ".maxTurns", "from 1 to 50"),
    ({"type": "command", "command": "x", "if": "Bash(git *) && Edit"}, ".if",
     "one permission rule, not a combination"),
    ("a string", "", "a handler must be a table with 'type', got 'a string'"),
])
def test_a_bad_handler_is_skipped_and_named(tmp_path, handler, key, message):
    path = settings_file(tmp_path / "s.json", {"PreToolUse": [group(handler,
                                                                    command("good.sh"))]})
    loaded = load(path)
    assert [h.options["command"] for h in loaded.handlers] == ["good.sh"]
    ((where, text, severity),) = messages(loaded)
    assert where == f"hooks.PreToolUse[0].hooks[0]{key}"
    assert message in text and severity == "error"


def test_warnings_do_not_skip_the_handler(tmp_path):
    path = settings_file(tmp_path / "s.json", {
        "UserPromptSubmit": [group(command("x.sh", timeot=5, once=True), matcher="Bash")]})
    loaded = load(path)
    assert len(loaded.handlers) == 1
    assert messages(loaded) == [
        ("hooks.UserPromptSubmit[0].matcher", ("UserPromptSubmit has no matcher; it is ignored "
         "and the group runs on every event"), "warning"),
        ("hooks.UserPromptSubmit[0].hooks[0].timeot", ("unknown key for a command handler "
         "(did you mean 'timeout'?); ignored"), "warning"),
        ("hooks.UserPromptSubmit[0].hooks[0].once", ("'once' is honoured only in skill "
         "frontmatter; the handler runs every time"), "warning")]


def test_events_and_groups(tmp_path):
    path = settings_file(tmp_path / "s.json", {
        "PreTooluse": [group(command("a"))], "pre_tool": [group(command("b"))],
        "Stop": {"hooks": []}, "SessionStart": [group({"type": "prompt", "prompt": "x"})],
        "PostToolUse": [{"matcher": "(Edit", "hooks": [command("c")]}, {"matcher": "Edit"},
                        {"hooks": [command("d")], "matchr": "Edit"}]})
    loaded = load(path)
    assert [h.options["command"] for h in loaded.handlers] == ["d"]
    found = {key: (text, p) for (key, text, _), p in zip(messages(loaded),
                                                         (p.point for p in loaded.problems))}
    assert found["hooks.PreTooluse"] == (("unknown event 'PreTooluse'; did you mean "
                                         "'PreToolUse'? (its handlers are skipped)"),
                                         "PreToolUse")
    assert "'pre_tool' is a harness hook point, not a Claude Code event: declare it in the " \
           "home's hooks.toml" in found["hooks.pre_tool"][0]
    assert "must be a list of matcher groups" in found["hooks.Stop"][0]
    assert found["hooks.SessionStart[0].hooks[0].type"][0] == \
        "prompt handlers do not run on SessionStart (it takes command, mcp_tool)"
    assert "is not a valid regular expression" in found["hooks.PostToolUse[0].matcher"][0]
    assert found["hooks.PostToolUse[1].hooks"][0] == "must be a list of handlers, got nothing"
    assert "did you mean 'matcher'?" in found["hooks.PostToolUse[2].matchr"][0]


def test_hooks_toml_takes_harness_points_and_reports_toml_errors(tmp_path):
    path = tmp_path / "hooks.toml"
    path.write_text('[[pre_shell_exec]]\n[[pre_shell_exec.hooks]]\ntype = "command"\n'
                    'command = "guard.sh"\n')
    loaded = load(path, "harness")
    assert [(h.point, h.scope) for h in loaded.handlers] == [("pre_shell_exec", "harness")]
    path.write_text('[[PreToolUse]]\nmatcher = "Bash\n')
    with pytest.raises(SourceError, match=rf"^{path}:2:\d+: "):
        load(path, "harness")


def test_json_errors_have_a_position(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{\n  "hooks": {\n    "Stop": [,]\n  }\n}')
    with pytest.raises(SourceError, match=rf"^{path}:3:\d+: invalid JSON"):
        load(path)
    assert load(tmp_path / "missing.json").handlers == (), "a missing file declares nothing"


def test_policy_keys(tmp_path):
    path = settings_file(tmp_path / "s.json", disableAllHooks="yes",
                         allowManagedHooksOnly=True, allowedHttpHookUrls="http://x")
    assert messages(load(path)) == [
        ("disableAllHooks", "must be true or false; ignored", "error"),
        ("allowManagedHooksOnly", "is honoured only in the managed settings file; ignored",
         "warning"),
        ("allowedHttpHookUrls", "must be a list of strings; ignored", "error")]


def _table(tmp_path, *files):
    loaded = []
    for i, (scope, keys) in enumerate(files):
        path = settings_file(tmp_path / f"{i}.json", {
            "Stop": [group(command(f"from-{i}"))]}, **keys)
        loaded.append(load(path, scope))
    table = build_table(loaded)
    return [h.options["command"] for h in table.handlers_for("Stop")], table


def test_kill_switch_and_managed_policy(tmp_path):
    names, table = _table(tmp_path, ("harness", {}), ("settings", {}))
    assert names == ["from-0", "from-1"] and table.switched_off is None
    names, _ = _table(tmp_path, ("settings", {"disableAllHooks": True}),
                      ("settings", {"disableAllHooks": False}))
    assert names == ["from-0", "from-1"], "the later file wins"
    names, table = _table(tmp_path, ("settings", {"disableAllHooks": True}), ("managed", {}))
    assert names == ["from-1"], "a non-managed kill switch leaves the managed handlers"
    assert "disableAllHooks is true in" in table.switched_off
    names, _ = _table(tmp_path, ("settings", {}), ("managed", {"disableAllHooks": True}))
    assert names == [], "the managed kill switch stops everything"
    names, _ = _table(tmp_path, ("settings", {}), ("managed", {"allowManagedHooksOnly": True}))
    assert names == ["from-1"]


def test_url_allowlist_merges_and_fails_closed(tmp_path):
    _, table = _table(tmp_path, ("settings", {}))
    assert not table.url_allowed("http://127.0.0.1:8080/hook"), "no list: no call"
    _, table = _table(tmp_path, ("settings", {"allowedHttpHookUrls": ["http://127.0.0.1:*"]}),
                      ("settings", {"allowedHttpHookUrls": ["https://audit.example.com/*"]}))
    assert table.url_allowed("http://127.0.0.1:8080/hook")
    assert table.url_allowed("https://audit.example.com/v1")
    assert not table.url_allowed("https://evil.example.com/")
    _, table = _table(tmp_path, ("settings", {"allowedHttpHookUrls": []}))
    assert not table.url_allowed("http://127.0.0.1:8080/hook")


def test_mcp_servers_from_any_source(tmp_path):
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {
        "memory": {"command": "npx", "args": ["memory-server"]},
        "broken": {"args": ["x"]}}}))
    loaded = load(tmp_path / ".mcp.json")
    assert dict(loaded.mcp_servers) == {"memory": {"command": "npx",
                                                   "args": ["memory-server"]}}
    assert messages(loaded) == [("mcpServers.broken", ("needs 'command' (a server started "
                                 "over stdio) or 'url' (streamable HTTP)"), "error")]
