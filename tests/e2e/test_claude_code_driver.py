"""The offline Claude Code driver itself: a scripted model makes a real Claude Code run a
real Bash command, and a hook's deny reaches the model as an error tool_result."""

from __future__ import annotations

import json

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
from tests.e2e.claude_code import command_hook


def test_a_scripted_tool_call_runs_and_its_output_goes_back_to_the_model(claude_code):
    with ScriptedAnthropicServer([bash("echo hello-from-bash > made.txt; cat made.txt"),
                                  say("all done")]) as server:
        run = claude_code.run("make the file", server)
    assert run.returncode == 0, run.stderr
    assert run.result["result"] == "all done"
    assert (claude_code.project / "made.txt").read_text() == "hello-from-bash\n"
    [result] = run.tool_results()
    assert "hello-from-bash" in json.dumps(result["content"])
    assert not result.get("is_error")
    assert run.transcripts and any(e.get("type") == "assistant"
                                   for e in run.transcript_entries())


def test_a_command_hook_that_exits_2_stops_the_call(claude_code, tmp_path):
    hook = tmp_path / "deny.sh"
    hook.write_text("#!/bin/sh\necho 'no touching' >&2\nexit 2\n")
    hook.chmod(0o755)
    with ScriptedAnthropicServer([bash("touch touched.txt"), say("ok")]) as server:
        run = claude_code.run("touch it", server, settings={"hooks": command_hook(str(hook))})
    assert not (claude_code.project / "touched.txt").exists()
    [result] = run.tool_results()
    assert result["is_error"] is True
    assert "no touching" in json.dumps(result["content"])
