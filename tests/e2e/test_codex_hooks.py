"""A real Codex CLI (pinned, offline against a scripted Responses API): one Scheme guard on
pre_shell_exec stops `rm -rf` and lets `ls` run, through ``harness hook codex`` in its own
process and through the HTTP daemon."""

from __future__ import annotations

import pytest
from codex import codex_binary, run_codex
from daemon import CLIENTS, harness_command
from guard_home import make_victim_project
from guarded_host import GuardedHost, assert_guarded
from responses_server import message, shell_call


def hooks(command: str) -> dict:
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                         "command": command}]}]}


CODEX = GuardedHost("codex", run_codex, hooks,
                    [[shell_call("rm -rf victim", "call_rm")],
                     [shell_call("ls > listing.txt", "call_ls")], [message("done")]])


@pytest.fixture(scope="module")
def codex():
    return codex_binary()


def test_the_command_hook_stops_rm_rf_and_lets_ls_run(codex, tmp_path):
    assert_guarded(*CODEX.through_command(codex, tmp_path))


@pytest.mark.parametrize("client", CLIENTS)
def test_the_http_daemon_stops_rm_rf_and_lets_ls_run(codex, tmp_path, client):
    assert_guarded(*CODEX.through_daemon(codex, tmp_path, client))


def test_a_missing_home_denies_instead_of_letting_rm_rf_through(codex, tmp_path):
    folder = make_victim_project(tmp_path)
    run = run_codex(codex, tmp_path, folder, CODEX.turns[:1] + [[message("done")]],
                    hooks(harness_command("hook", "codex", "--home", str(tmp_path / "no"))))
    assert run.returncode == 0, run.stderr[-2000:]
    assert (folder / "victim" / "keep.txt").exists()
    assert "harness cannot answer, so it denies" in run.tool_outputs()[0]
