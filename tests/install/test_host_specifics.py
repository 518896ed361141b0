"""What only some hosts have: Cline's hook files, Codex's feature flag in config.toml,
Claude Code's http hooks, the fail-closed switches, the --event of hosts whose payload
does not name it."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path

import pytest
from install_helpers import PROGRAM

from harness.install import HOSTS, InstallError, Via, install, uninstall
from harness.install.shapes import handler_command

# -- Cline: a file per event -----------------------------------------------------------------


def test_cline_gets_an_executable_per_event(home, project):
    install("cline", home, project=project, program=PROGRAM)
    directory = project / ".clinerules" / "hooks"
    names = sorted(p.name for p in directory.iterdir())
    assert names == sorted(e.name for e in HOSTS["cline"].events)
    script = (directory / "PreToolUse").read_text()
    assert script.startswith("#!/bin/sh\n")
    assert script.splitlines()[-1] == ("exec " + shlex.join(
        [*PROGRAM, "hook", "cline", "--home", str(home), "--event", "PreToolUse"]))
    assert os.access(directory / "PreToolUse", os.X_OK)
    assert install("cline", home, project=project, program=PROGRAM).lines == \
        [f"{directory}: already up to date"]


def test_cline_keeps_the_users_other_files_and_uninstall_removes_only_harness(home, project):
    directory = project / ".clinerules" / "hooks"
    directory.mkdir(parents=True)
    (directory / "notes.md").write_text("mine")
    install("cline", home, project=project, program=PROGRAM)
    uninstall("cline", project=project)
    assert sorted(p.name for p in directory.iterdir()) == ["notes.md"]


def test_cline_refuses_to_replace_the_users_own_hook(home, project):
    directory = project / ".clinerules" / "hooks"
    directory.mkdir(parents=True)
    (directory / "PostToolUse").write_text("#!/bin/sh\necho mine\n")
    with pytest.raises(InstallError, match="PostToolUse: a Cline hook of your own"):
        install("cline", home, project=project, program=PROGRAM)
    assert sorted(p.name for p in directory.iterdir()) == ["PostToolUse"]


def test_cline_user_install_goes_to_documents(home, user_home):
    install("cline", home, program=PROGRAM)
    assert (user_home / "Documents" / "Cline" / "Hooks" / "TaskStart").is_file()


# -- Codex: [features] hooks in config.toml -----------------------------------------------------


def test_codex_turns_the_hooks_feature_on_and_uninstall_turns_it_back(home, project):
    toml = project / ".codex" / "config.toml"
    toml.parent.mkdir()
    original = 'model = "o4"\n\n[features]\nweb_search = true  # mine\n'
    toml.write_text(original)
    install("codex", home, project=project, program=PROGRAM)
    text = toml.read_text()
    import tomllib
    assert tomllib.loads(text)["features"] == {"web_search": True, "hooks": True}
    assert text.startswith('model = "o4"\n\n[features]\nhooks = true  # harness install codex\n')
    uninstall("codex", project=project)
    assert toml.read_text() == original
    assert not toml.with_name("config.toml.harness-backup").exists()


def test_codex_adds_a_features_table_and_uninstall_deletes_a_file_it_made(home, project):
    install("codex", home, project=project, program=PROGRAM)
    toml = project / ".codex" / "config.toml"
    assert toml.read_text() == ("[features]  # harness install codex\n"
                                "hooks = true  # harness install codex\n")
    uninstall("codex", project=project)
    assert not toml.exists() and not (project / ".codex" / "hooks.json").exists()


def test_codex_leaves_hooks_off_alone_and_says_so(home, project):
    toml = project / ".codex" / "config.toml"
    toml.parent.mkdir()
    toml.write_text("[features]\ncodex_hooks = false\n")
    report = install("codex", home, project=project, program=PROGRAM)
    assert toml.read_text() == "[features]\ncodex_hooks = false\n"
    assert any("turns Codex hooks off" in w for w in report.warnings)


def test_codex_refuses_a_config_toml_that_does_not_parse(home, project):
    toml = project / ".codex" / "config.toml"
    toml.parent.mkdir()
    toml.write_text('model = "o4"\n[features\n')
    with pytest.raises(InstallError) as caught:
        install("codex", home, project=project, program=PROGRAM)
    assert str(caught.value).startswith(f"{toml}:2:")
    assert not (project / ".codex" / "hooks.json").exists()


def test_codex_user_files_follow_codex_home(home, tmp_path, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    install("codex", home, program=PROGRAM)
    assert (tmp_path / "codex" / "hooks.json").is_file()
    assert (tmp_path / "codex" / "config.toml").is_file()


# -- the ways to reach harness -----------------------------------------------------------------


def test_claude_code_via_http_uses_native_http_hooks(home, project):
    url = "http://127.0.0.1:9911"
    install("claude-code", home, project=project, via=Via("http", url=url), program=PROGRAM)
    data = json.loads((project / ".claude" / "settings.json").read_text())
    pre = data["hooks"]["PreToolUse"][0]["hooks"][0]
    assert pre == {"type": "http", "url": f"{url}/claude-code",
                   "headers": {"Authorization": "Bearer $HARNESS_TOKEN"},
                   "allowedEnvVars": ["HARNESS_TOKEN"], "onFailure": "block"}
    # SessionStart takes no http hooks: a command that asks the daemon
    start = data["hooks"]["SessionStart"][0]["hooks"][0]
    assert shlex.split(start["command"])[-2:] == ["--http", url]
    uninstall("claude-code", project=project)
    assert not (project / ".claude" / "settings.json").exists()


@pytest.mark.parametrize("host", ["codex", "cursor", "gemini", "windsurf"])
def test_command_hosts_via_http_run_the_client(host, home, project):
    install(host, home, project=project, via=Via("http", url="http://127.0.0.1:9911"),
            program=PROGRAM)
    data = json.loads(HOSTS[host].path(project).read_text())
    commands = [handler_command(h) for _, h in HOSTS[host].shape.found(data, "")]
    assert commands and all(shlex.split(c)[-2:] == ["--http", "http://127.0.0.1:9911"]
                            for c in commands)


def test_via_socket_names_the_socket(home, project):
    install("claude-code", home, project=project, via=Via("socket", socket="/run/h.sock"),
            program=PROGRAM)
    data = json.loads((project / ".claude" / "settings.json").read_text())
    command = data["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    assert shlex.split(command) == [*PROGRAM, "hook", "claude-code", "--home", str(home),
                                    "--socket", "/run/h.sock"]


# -- fail closed, --event -------------------------------------------------------------------------


@pytest.mark.parametrize("host, key, value", [("claude-code", "onFailure", "block"),
                                              ("cursor", "failClosed", True)])
def test_the_fail_closed_switch_is_on_every_guard_event(host, key, value, home, project):
    install(host, home, project=project, program=PROGRAM)
    data = json.loads(HOSTS[host].path(project).read_text())
    guards = {e.name for e in HOSTS[host].events if e.guard}
    for event, handler in HOSTS[host].shape.found(data, ""):
        assert (handler.get(key) == value) == (event in guards), event


@pytest.mark.parametrize("host", ["copilot", "windsurf", "kiro", "cline"])
def test_hosts_whose_payload_lacks_the_event_get_it_on_the_command(host, home, project):
    install(host, home, project=project, program=PROGRAM)
    for event in HOSTS[host].events:
        if host == "cline":
            command = (project / ".clinerules" / "hooks" / event.name).read_text().split(
                "exec ")[-1]
        else:
            data = json.loads(HOSTS[host].path(project).read_text())
            command = next(handler_command(h) for e, h in HOSTS[host].shape.found(data, "")
                           if e == event.name)
        words = shlex.split(command)
        assert words[words.index("--event") + 1] == event.name_arg


def test_gemini_tool_events_match_every_tool(home, project):
    install("gemini", home, project=project, program=PROGRAM)
    data = json.loads((project / ".gemini" / "settings.json").read_text())
    assert data["hooks"]["BeforeTool"][0]["matcher"] == ".*"
    assert "matcher" not in data["hooks"]["SessionStart"][0]
    assert data["hooks"]["BeforeTool"][0]["hooks"][0]["name"] == "harness"


def test_the_users_hook_that_looks_like_harness_for_another_host_is_kept(home, project):
    path = project / ".claude" / "settings.json"
    path.parent.mkdir()
    theirs = {"hooks": {"Stop": [{"hooks": [{"type": "command",
                                             "command": "harness hook codex --home /x"}]}]}}
    path.write_text(json.dumps(theirs))
    install("claude-code", home, project=project, program=PROGRAM)
    uninstall("claude-code", project=project)
    assert json.loads(path.read_text()) == theirs


def test_project_defaults_to_relative_paths_resolved(home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    install("cursor", home, project=Path("."), program=PROGRAM)
    assert (tmp_path / ".cursor" / "hooks.json").is_file()
