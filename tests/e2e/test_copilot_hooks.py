"""A real GitHub Copilot CLI (pinned, offline against a scripted Responses API): one Scheme
guard on pre_shell_exec stops `rm -rf` and lets `ls` run, through ``harness hook copilot``
in its own process and through the HTTP daemon."""

from __future__ import annotations

import pytest
from copilot import copilot_binary, run_copilot
from daemon import CLIENTS
from guarded_host import GuardedHost, assert_guarded
from responses_server import message, shell_call


def hooks(command: str) -> dict:
    return {"preToolUse": [{"type": "command", "bash": command, "timeoutSec": 30}]}


COPILOT = GuardedHost("copilot", run_copilot, hooks,
                      [[shell_call("rm -rf victim", "call_rm")],
                       [shell_call("ls > listing.txt", "call_ls")], [message("done")]],
                      hook_args=("--event", "preToolUse"))


@pytest.fixture(scope="module")
def copilot():
    return copilot_binary()


def test_the_command_hook_stops_rm_rf_and_lets_ls_run(copilot, tmp_path):
    assert_guarded(*COPILOT.through_command(copilot, tmp_path))


@pytest.mark.parametrize("client", CLIENTS)
def test_the_http_daemon_stops_rm_rf_and_lets_ls_run(copilot, tmp_path, client):
    assert_guarded(*COPILOT.through_daemon(copilot, tmp_path, client))
