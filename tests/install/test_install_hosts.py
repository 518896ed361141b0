"""``harness install HOST`` / ``uninstall HOST`` for every host: a fresh install, a merge
with the user's own hooks, a second install that changes nothing, an uninstall that puts
back exactly what was there, a file that does not parse refused unchanged, the backup,
and the user-level files under $HOME."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from install_helpers import PROGRAM

from harness.install import HOSTS, InstallError, install, uninstall
from harness.install.shapes import handler_command, is_ours

#: a configuration of the user's own for each host (in the host's file), kept byte for byte
USERS_OWN = {
    "claude-code": '{\n    "permissions": {"allow": ["Bash(ls)"]},\n    "hooks": {\n'
                   '        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",'
                   ' "command": "~/check.sh"}]}]\n    }\n}\n',
    "codex": '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", '
             '"command": "./lint.sh"}]}]}}',
    "cursor": '{\n  "version": 1,\n  "hooks": {\n    "beforeShellExecution": [\n'
              '      {"command": "./audit.sh"}\n    ]\n  }\n}\n',
    "gemini": '{\n  "theme": "GitHub",\n  "hooks": {"BeforeTool": [{"matcher": "write_file",'
              ' "hooks": [{"type": "command", "command": "./check.sh"}]}]}\n}\n',
    "copilot": '{"version": 1, "hooks": {"sessionStart": [{"type": "command", '
               '"bash": "echo hello"}]}}\n',
    "windsurf": '{\n\t"hooks": {\n\t\t"pre_run_command": [{"command": "python3 audit.py", '
                '"show_output": true}]\n\t}\n}\n',
    "kiro": '{"version": "v1", "hooks": [{"name": "lint", "trigger": "PostFileSave", '
            '"action": {"type": "command", "command": "npm run lint"}}]}\n',
}
JSON_HOSTS = list(USERS_OWN)


def config_file(host: str, project: Path) -> Path:
    return HOSTS[host].path(project)


def ours(host: str, path: Path) -> list[tuple[str, dict]]:
    data = json.loads(path.read_text())
    return list(HOSTS[host].shape.found(data, str(path)))


def handlers(host: str, path: Path) -> list[dict]:
    """Every handler in the file, harness's and the user's."""
    data = json.loads(path.read_text())
    hooks = data.get("hooks", {})
    if isinstance(hooks, list):
        return hooks
    out = []
    for entries in hooks.values():
        for entry in entries:
            out.extend(entry.get("hooks", [entry]))
    return out


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_a_fresh_install_writes_every_event(host, home, project):
    report = install(host, home, project=project, program=PROGRAM)
    path = config_file(host, project)
    assert report.lines[0] == f"{path}: written ({len(HOSTS[host].events)} events)"
    found = ours(host, path)
    assert sorted(event for event, _ in found) == sorted(e.name for e in HOSTS[host].events)
    for event, handler in found:
        words = shlex.split(handler_command(handler))
        assert words[:5] == [*PROGRAM, "hook", host, "--home", str(home)]
    assert not (path.parent / (path.name + ".harness-backup")).exists()


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_install_merges_with_the_users_hooks_and_backs_the_file_up(host, home, project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[host])
    before = handlers(host, path)
    report = install(host, home, project=project, program=PROGRAM)
    backup = path.with_name(path.name + ".harness-backup")
    assert backup.read_text() == USERS_OWN[host]
    assert f"backup in {backup}" in report.lines[0]
    after = handlers(host, path)
    assert [h for h in after if not is_ours(h, host)] == before  # the user's, in order
    assert len([h for h in after if is_ours(h, host)]) == len(HOSTS[host].events)
    kept = json.loads(USERS_OWN[host])
    for key, value in kept.items():
        if key != "hooks":
            assert json.loads(path.read_text())[key] == value


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_a_second_install_changes_nothing(host, home, project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[host])
    install(host, home, project=project, program=PROGRAM)
    first = path.read_bytes()
    backup = path.with_name(path.name + ".harness-backup")
    backup_stat = backup.stat().st_mtime_ns
    report = install(host, home, project=project, program=PROGRAM)
    assert path.read_bytes() == first
    assert report.lines == [f"{path}: already up to date"]
    assert backup.stat().st_mtime_ns == backup_stat and backup.read_text() == USERS_OWN[host]


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_reinstalling_with_another_harness_replaces_harness_entries_in_place(host, home,
                                                                             project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[host])
    install(host, home, project=project, program=PROGRAM)
    install(host, home, project=project, program=["/new/place/harness"])
    found = ours(host, path)
    assert len(found) == len(HOSTS[host].events)
    assert all(handler_command(h).startswith("/new/place/harness hook ") for _, h in found)
    assert path.with_name(path.name + ".harness-backup").read_text() == USERS_OWN[host]


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_uninstall_puts_the_users_file_back_byte_for_byte(host, home, project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[host])
    install(host, home, project=project, program=PROGRAM)
    report = uninstall(host, project=project)
    assert path.read_text() == USERS_OWN[host]
    assert report.lines[0] == f"{path}: restored"
    assert not path.with_name(path.name + ".harness-backup").exists()


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_uninstall_deletes_a_file_harness_created(host, home, project):
    install(host, home, project=project, program=PROGRAM)
    uninstall(host, project=project)
    assert not config_file(host, project).exists()


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_uninstall_keeps_what_the_user_added_after_the_install(host, home, project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    path.write_text(USERS_OWN[host])
    install(host, home, project=project, program=PROGRAM)
    data = json.loads(path.read_text())
    data["addedLater"] = True
    path.write_text(json.dumps(data))
    assert uninstall(host, project=project).lines[0] == f"{path}: written"
    left = json.loads(path.read_text())
    assert left == {**json.loads(USERS_OWN[host]), "addedLater": True}


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_a_file_that_is_not_json_is_refused_and_left_as_it_is(host, home, project):
    path = config_file(host, project)
    path.parent.mkdir(parents=True)
    broken = '{\n  "hooks": {\n    "x": [1,]\n  }\n}\n'
    path.write_text(broken)
    with pytest.raises(InstallError) as caught:
        install(host, home, project=project, program=PROGRAM)
    # (3.13's json names the trailing comma, at column 12; 3.11 the value missing after it)
    assert re.match(re.escape(str(path)) + r":3:1[23]: invalid JSON: ", str(caught.value))
    assert "nothing was changed" in str(caught.value)
    assert path.read_text() == broken
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    with pytest.raises(InstallError):
        uninstall(host, project=project)
    assert path.read_text() == broken


@pytest.mark.parametrize("host", JSON_HOSTS)
def test_a_user_install_writes_under_home(host, home, user_home):
    install(host, home, program=PROGRAM)
    path = HOSTS[host].path(None)
    assert path.is_relative_to(user_home) and path.is_file()
    assert len(ours(host, path)) == len(HOSTS[host].events)
    uninstall(host)
    assert not path.exists()


@pytest.mark.parametrize("host, path", [
    ("claude-code", ".claude/settings.json"), ("codex", ".codex/hooks.json"),
    ("cursor", ".cursor/hooks.json"), ("gemini", ".gemini/settings.json"),
    ("copilot", ".copilot/hooks/harness.json"),
    ("windsurf", ".codeium/windsurf/hooks.json"), ("kiro", ".kiro/hooks/harness.json"),
    ("cline", "Documents/Cline/Hooks")])
def test_the_user_files_are_where_each_host_reads_them(host, path, user_home):
    assert HOSTS[host].path(None) == user_home / path


def test_uninstall_without_an_install_says_so(project):
    report = uninstall("cursor", project=project)
    where = project / ".cursor" / "hooks.json"
    assert report.lines == [f"{where}: no hooks of harness for Cursor there"]


def test_an_unknown_host_names_the_closest(home, project):
    with pytest.raises(InstallError, match="unknown host 'claude'; did you mean "):
        install("claude", home, project=project)
    with pytest.raises(InstallError, match="did you mean cursor"):
        install("cursr", home, project=project)
