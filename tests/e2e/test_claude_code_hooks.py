"""A real Claude Code (the never-open driver, offline): one Scheme guard on pre_shell_exec
stops `rm -rf` and lets `ls` run, through the command hook (``harness hook claude-code``),
through Claude Code's ``http`` hook type posting to ``harness serve --http``, and through
the daemon's command clients."""

from __future__ import annotations

import json

import pytest
from daemon import CLIENTS, HttpDaemon, client_command, harness_command
from guard_home import make_guard_home

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
from tests.e2e.claude_code import command_hook

SCRIPT = [bash("rm -rf victim"), bash("ls > listing.txt"), say("done")]


def prepare(claude_code):
    victim = claude_code.project / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious\n")


def check(run, claude_code):
    assert run.returncode == 0, run.stderr[-2000:]
    assert (claude_code.project / "victim" / "keep.txt").exists(), "rm -rf ran"
    assert "victim" in (claude_code.project / "listing.txt").read_text().split()  # ls ran
    denied, listed = run.tool_results()
    assert denied["is_error"] is True
    assert "rm -rf is not allowed" in json.dumps(denied["content"])
    assert not listed.get("is_error")


def test_the_command_hook(claude_code, tmp_path):
    home = make_guard_home(tmp_path)
    prepare(claude_code)
    settings = {"hooks": command_hook(harness_command("hook", "claude-code", "--home",
                                                      str(home)))}
    with ScriptedAnthropicServer(SCRIPT) as server:
        run = claude_code.run("clean up", server, settings=settings)
    check(run, claude_code)


def test_the_http_hook_type_posting_to_the_daemon(claude_code, tmp_path):
    home = make_guard_home(tmp_path)
    prepare(claude_code)
    with HttpDaemon(home) as daemon:
        settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
            "type": "http", "url": f"{daemon.url}/claude-code", "timeout": 30,
            "headers": {"Authorization": "Bearer $HARNESS_TOKEN"},
            "allowedEnvVars": ["HARNESS_TOKEN"]}]}]}}
        with ScriptedAnthropicServer(SCRIPT) as server:
            run = claude_code.run("clean up", server, settings=settings,
                                  env={"HARNESS_TOKEN": daemon.token})
    check(run, claude_code)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_command_client_of_the_daemon(claude_code, tmp_path, client):
    home = make_guard_home(tmp_path)
    prepare(claude_code)
    with HttpDaemon(home) as daemon:
        settings = {"hooks": command_hook(client_command(client, "claude-code", daemon.url,
                                                         home))}
        with ScriptedAnthropicServer(SCRIPT) as server:
            run = claude_code.run("clean up", server, settings=settings)
    check(run, claude_code)
