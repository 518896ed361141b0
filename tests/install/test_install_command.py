"""``harness install`` / ``harness uninstall`` on the command line."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

from harness.cli import main
from harness.install.command import harness_program, is_harness_command, parse_command


def test_install_and_uninstall_a_project(home, project, monkeypatch, capsys):
    monkeypatch.chdir(project)
    assert main(["install", "claude-code", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    settings = project / ".claude" / "settings.json"
    assert f"{settings}: written (7 events)" in out
    assert "note:" not in out  # Claude Code has its fail-closed switch
    command = json.loads(settings.read_text())["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    words = shlex.split(command)
    assert Path(words[0]).is_absolute()
    assert words[-4:] == ["hook", "claude-code", "--home", str(home)]
    assert main(["uninstall", "claude-code"]) == 0
    assert not settings.exists()


def test_user_install_uses_home_from_the_environment(home, user_home, capsys):
    assert main(["install", "cursor", "--user", "--home", str(home)]) == 0
    assert (user_home / ".cursor" / "hooks.json").is_file()
    assert main(["uninstall", "cursor", "--user"]) == 0
    assert not (user_home / ".cursor" / "hooks.json").exists()


def test_a_broken_file_is_exit_1_with_its_place(home, project, capsys):
    path = project / ".gemini" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"hooks": }')
    assert main(["install", "gemini", "--project", str(project), "--home", str(home)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"harness install: {path}:1:11: invalid JSON")
    assert path.read_text() == '{"hooks": }'


def test_a_missing_home_is_an_error(tmp_path, project, capsys):
    missing = tmp_path / "nowhere"
    assert main(["install", "codex", "--project", str(project), "--home", str(missing)]) == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (project / ".codex").exists()


def test_via_socket_needs_a_socket(home, project, capsys):
    assert main(["install", "codex", "--project", str(project), "--home", str(home),
                 "--via", "socket"]) == 1
    assert "--via socket needs --socket PATH" in capsys.readouterr().err


def test_via_http_defaults_to_the_daemons_usual_address(home, project, capsys):
    assert main(["install", "cursor", "--project", str(project), "--home", str(home),
                 "--via", "http"]) == 0
    command = json.loads((project / ".cursor" / "hooks.json").read_text())[
        "hooks"]["preToolUse"][0]["command"]
    assert parse_command(command).via.url == "http://127.0.0.1:8765"


def test_the_program_is_the_running_harness_made_absolute(tmp_path, monkeypatch):
    exe = tmp_path / "bin" / "harness"
    exe.parent.mkdir()
    exe.write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "argv", [str(exe), "install"])
    assert harness_program() == [str(exe.resolve())]
    monkeypatch.setattr(sys, "argv", ["pytest"])
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert harness_program() == [os.path.abspath(sys.executable), "-m", "harness.cli"]


def test_harness_commands_are_recognised_by_their_shape():
    assert is_harness_command("/x/harness hook cursor --home /h", "cursor")
    assert is_harness_command("/usr/bin/python3 -m harness.cli hook cursor", "cursor")
    assert is_harness_command("harness claude-hook --home /h", "claude-code")
    assert not is_harness_command("/x/harness hook codex --home /h", "cursor")
    assert not is_harness_command("./my-hook cursor", "cursor")
    assert not is_harness_command("echo 'unbalanced", "cursor")
    parsed = parse_command("/x/harness hook kiro --home /h --event preToolUse --socket /s")
    assert (parsed.program, parsed.home, parsed.event, parsed.via.socket) == \
        (["/x/harness"], "/h", "preToolUse", "/s")
