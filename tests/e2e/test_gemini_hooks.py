"""A real Gemini CLI (pinned, offline against a scripted Gemini API): one Scheme guard on
pre_shell_exec stops `rm -rf` and lets `ls` run, through ``harness hook gemini`` in its own
process and through the HTTP daemon."""

from __future__ import annotations

import pytest
from daemon import CLIENTS
from gemini import gemini_binary, run_gemini
from gemini_server import shell_call, text
from guarded_host import GuardedHost, assert_guarded


def hooks(command: str) -> dict:
    return {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": command, "name": "harness"}]}]}


GEMINI = GuardedHost("gemini", run_gemini, hooks,
                     [[shell_call("rm -rf victim")], [shell_call("ls > listing.txt")],
                      [text("done")]])


@pytest.fixture(scope="module")
def gemini():
    return gemini_binary()


def test_the_command_hook_stops_rm_rf_and_lets_ls_run(gemini, tmp_path):
    assert_guarded(*GEMINI.through_command(gemini, tmp_path))


@pytest.mark.parametrize("client", CLIENTS)
def test_the_http_daemon_stops_rm_rf_and_lets_ls_run(gemini, tmp_path, client):
    assert_guarded(*GEMINI.through_daemon(gemini, tmp_path, client))
