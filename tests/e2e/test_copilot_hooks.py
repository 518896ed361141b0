"""A real GitHub Copilot CLI (pinned, offline against a scripted Responses API): one Scheme
guard on pre_shell_exec stops `rm -rf` and lets `ls` run, through ``harness hook copilot``
in its own process and through the HTTP daemon."""

from __future__ import annotations

import pytest
from copilot import copilot_binary, run_copilot
from daemon import CLIENTS, HttpDaemon, client_command, harness_command
from guard_home import assert_rm_stopped_and_ls_ran, make_guard_home, make_victim_project
from responses_server import message, shell_call

TURNS = [[shell_call("rm -rf victim", "call_rm")], [shell_call("ls > listing.txt", "call_ls")],
         [message("done")]]


@pytest.fixture(scope="module")
def copilot():
    return copilot_binary()



def hooks(command: str) -> dict:
    return {"preToolUse": [{"type": "command", "bash": command, "timeoutSec": 30}]}


def check(run, folder):
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert_rm_stopped_and_ls_ran(folder)
    assert "rm -rf is not allowed" in run.tool_outputs()[0]


def test_the_command_hook_stops_rm_rf_and_lets_ls_run(copilot, tmp_path):
    home = make_guard_home(tmp_path)
    folder = make_victim_project(tmp_path)
    run = run_copilot(copilot, tmp_path, folder, TURNS, hooks(harness_command(
        "hook", "copilot", "--event", "preToolUse", "--home", str(home))))
    check(run, folder)


@pytest.mark.parametrize("client", CLIENTS)
def test_the_http_daemon_stops_rm_rf_and_lets_ls_run(copilot, tmp_path, client):
    home = make_guard_home(tmp_path)
    folder = make_victim_project(tmp_path)
    with HttpDaemon(home) as daemon:
        run = run_copilot(copilot, tmp_path, folder, TURNS, hooks(client_command(
            client, "copilot", daemon.url, home, "--event", "preToolUse")))
    check(run, folder)
