"""A real Gemini CLI (pinned, offline against a scripted Gemini API): one Scheme guard on
pre_shell_exec stops `rm -rf` and lets `ls` run, through ``harness hook gemini`` in its own
process and through the HTTP daemon."""

from __future__ import annotations

import pytest
from daemon import CLIENTS, HttpDaemon, client_command, harness_command
from gemini import gemini_binary, run_gemini
from gemini_server import shell_call, text
from guard_home import assert_rm_stopped_and_ls_ran, make_guard_home, make_victim_project

TURNS = [[shell_call("rm -rf victim")], [shell_call("ls > listing.txt")], [text("done")]]


@pytest.fixture(scope="module")
def gemini():
    return gemini_binary()



def hooks(command: str) -> dict:
    return {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": command, "name": "harness"}]}]}


def check(run, folder):
    assert run.returncode == 0, run.stderr[-2000:]
    assert_rm_stopped_and_ls_ran(folder)
    assert "rm -rf is not allowed" in run.tool_outputs()[0]


def test_the_command_hook_stops_rm_rf_and_lets_ls_run(gemini, tmp_path):
    home = make_guard_home(tmp_path)
    folder = make_victim_project(tmp_path)
    run = run_gemini(gemini, tmp_path, folder, TURNS,
                     hooks(harness_command("hook", "gemini", "--home", str(home))))
    check(run, folder)


@pytest.mark.parametrize("client", CLIENTS)
def test_the_http_daemon_stops_rm_rf_and_lets_ls_run(gemini, tmp_path, client):
    home = make_guard_home(tmp_path)
    folder = make_victim_project(tmp_path)
    with HttpDaemon(home) as daemon:
        run = run_gemini(gemini, tmp_path, folder, TURNS, hooks(client_command(
            client, "gemini", daemon.url, home)))
    check(run, folder)
