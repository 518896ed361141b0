"""``harness check`` on the hosts harness is installed in: a missing harness or home,
missing events, the fail-closed switch off, stale entries."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from harness.checks import ERROR, OK, WARNING, check_home
from harness.install import install


@pytest.fixture
def program(tmp_path: Path) -> list[str]:
    """An executable that stands for harness."""
    exe = tmp_path / "bin" / "harness"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return [str(exe)]


def host_findings(home: Path) -> list[tuple[str, str, str]]:
    return [(f.severity, f.where, f.message) for f in check_home(home)
            if f.where.startswith("host:")]


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_nothing_installed_is_nothing_reported(home, project, user_home, monkeypatch):
    monkeypatch.chdir(project)
    assert host_findings(home) == []


def test_an_installed_host_is_ok(home, project, user_home, program, monkeypatch):
    monkeypatch.chdir(project)
    install("claude-code", home, project=project, program=program)
    install("gemini", home, program=program)
    assert host_findings(home) == [
        (OK, "host:claude-code (project)",
         f"{project / '.claude/settings.json'}: installed on 7 events (fail closed)"),
        (OK, "host:gemini (user)", (f"{user_home / '.gemini/settings.json'}: installed on 6 "
                                   "events (no fail-closed switch in the host)"))]


def test_a_missing_executable_is_an_error(home, project, user_home, tmp_path, monkeypatch):
    monkeypatch.chdir(project)
    install("cursor", home, project=project, program=[str(tmp_path / "gone" / "harness")])
    findings = host_findings(home)
    assert {f[0] for f in findings} == {ERROR}
    assert "preToolUse runs " in findings[0][2] and "not an executable file" in findings[0][2]


def test_a_missing_home_is_an_error(home, project, user_home, program, tmp_path, monkeypatch):
    monkeypatch.chdir(project)
    gone = tmp_path / "old-home"
    gone.mkdir()
    install("codex", gone, project=project, program=program)
    gone.rmdir()
    findings = host_findings(home)
    assert findings and all(f[0] == ERROR and f"home {gone}, which does not exist" in f[2]
                            for f in findings)


def test_another_existing_home_is_not_this_homes_business(home, project, user_home, program,
                                                         tmp_path, monkeypatch):
    monkeypatch.chdir(project)
    other = tmp_path / "other-home"
    other.mkdir()
    install("codex", other, project=project, program=program)
    assert host_findings(home) == []


def test_missing_events_and_the_switch_off_are_warnings(home, project, user_home, program,
                                                        monkeypatch):
    monkeypatch.chdir(project)
    install("claude-code", home, project=project, program=program)
    settings = project / ".claude" / "settings.json"

    def change(data):
        del data["hooks"]["SessionEnd"]
        del data["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"]
    edit(settings, change)
    messages = [f[2] for f in host_findings(home)]
    assert [f[0] for f in host_findings(home)] == [WARNING, WARNING]
    assert "no harness hook on SessionEnd" in messages[0]
    assert "fail-closed switch (onFailure: 'block') is off on PreToolUse" in messages[1]


def test_cursor_without_fail_closed_is_a_warning(home, project, user_home, program,
                                                 monkeypatch):
    monkeypatch.chdir(project)
    install("cursor", home, project=project, program=program)
    edit(project / ".cursor" / "hooks.json",
         lambda d: d["hooks"]["beforeShellExecution"][0].update(failClosed=False))
    (severity, _, message), = host_findings(home)
    assert severity == WARNING and "is off on beforeShellExecution" in message


def test_a_stale_entry_asks_for_a_new_install(home, project, user_home, program,
                                              monkeypatch):
    monkeypatch.chdir(project)
    install("copilot", home, project=project, program=program)
    edit(project / ".github" / "hooks" / "harness.json",
         lambda d: d["hooks"]["preToolUse"][0].update(bash=d["hooks"]["preToolUse"][0][
             "bash"].replace(" --event preToolUse", "")))
    (severity, _, message), = host_findings(home)
    assert severity == WARNING
    assert "the hooks of preToolUse are not what harness install writes now" in message


def test_codex_hooks_turned_off_is_a_warning(home, project, user_home, program, monkeypatch):
    monkeypatch.chdir(project)
    install("codex", home, project=project, program=program)
    (project / ".codex" / "config.toml").write_text("[features]\nhooks = false\n")
    (severity, _, message), = host_findings(home)
    assert severity == WARNING and "turns Codex hooks off" in message


def test_a_host_file_that_does_not_parse_is_an_error(home, project, user_home, monkeypatch):
    monkeypatch.chdir(project)
    (project / ".cursor").mkdir()
    (project / ".cursor" / "hooks.json").write_text("{")
    (severity, where, message), = host_findings(home)
    assert (severity, where) == (ERROR, "host:cursor (project)")
    assert "hooks.json:1:2: invalid JSON" in message


def test_cline_files_are_checked_too(home, project, user_home, program, monkeypatch):
    monkeypatch.chdir(project)
    install("cline", home, project=project, program=program)
    (project / ".clinerules" / "hooks" / "PreCompact").unlink()
    (severity, _, message), = host_findings(home)
    assert severity == WARNING and "no harness hook on PreCompact" in message
