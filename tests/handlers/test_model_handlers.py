"""``prompt`` and ``agent`` handlers ask the runtime's model: through ``harness claude-hook``
with an OpenAI-compatible endpoint named in harness.toml (a local stand-in), and through a
host's model given to the Runtime."""

import json

import pytest
from claude_helpers import answer_of, bash, event, make_home

from harness.handlers.model_handlers import prompt_text
from harness.model import ModelReply, ToolCall
from harness.runtime import Runtime


def completion(content: str = "", tool_calls: list | None = None) -> bytes:
    message: dict = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return json.dumps({"choices": [{"message": message}]}).encode()


def model_home(tmp_path, url: str, handlers: str) -> object:
    return make_home(tmp_path, handlers, harness_toml=f'[model]\nurl = "{url}/v1"\n'
                                                      'model = "judge"\ntimeout = 10\n')


PROMPT_ON = """
[[{event}]]
[[{event}.hooks]]
type = "prompt"
prompt = "Refuse anything that deletes files. Event: $ARGUMENTS"
"""


def test_a_prompt_handler_denies_through_the_endpoint(tmp_path, claude_hook, local_server):
    def judge(path, headers, body):
        request = json.loads(body)
        assert path == "/v1/chat/completions" and request["model"] == "judge"
        user = request["messages"][-1]["content"]
        verdict = {"ok": False, "reason": "it deletes files"} if "rm -rf" in user \
            else {"ok": True}
        return 200, completion(f"```json\n{json.dumps(verdict)}\n```")
    local_server.respond = judge
    home = model_home(tmp_path, local_server.url, PROMPT_ON.format(event="PreToolUse"))
    code, out, err = claude_hook(home, bash("rm -rf build"))
    assert (code, err) == (2, "it deletes files\n")
    assert answer_of(out) == {"continue": False, "stopReason": "it deletes files",
                              "hookSpecificOutput": {
                                  "hookEventName": "PreToolUse",
                                  "permissionDecision": "deny",
                                  "permissionDecisionReason": "it deletes files"}}
    assert claude_hook(home, bash("ls")) == (0, "", "")
    assert '"tool_input":{"command":"ls"}' in \
        local_server.requests[-1]["body"]["messages"][-1]["content"]


def test_a_prompt_handler_keeps_claude_going_on_stop(tmp_path, claude_hook, local_server):
    local_server.respond = lambda path, headers, body: (200, completion(
        '{"ok": false, "reason": "the tests were not run"}'))
    home = model_home(tmp_path, local_server.url, PROMPT_ON.format(event="Stop"))
    code, out, err = claude_hook(home, event("Stop", stop_hook_active=False))
    assert (code, err) == (2, "the tests were not run\n")
    assert answer_of(out) == {"decision": "block", "reason": "the tests were not run"}


@pytest.mark.parametrize(("reply", "message"), [
    ("I think it is fine", 'the model did not answer {"ok": true|false'),
    (None, "HTTP 500"),
])
def test_a_model_that_fails_is_a_non_blocking_error(tmp_path, claude_hook, local_server,
                                                    reply, message):
    local_server.respond = lambda path, headers, body: (
        (200, completion(reply)) if reply is not None else (500, b"overloaded"))
    home = model_home(tmp_path, local_server.url, PROMPT_ON.format(event="PreToolUse"))
    code, out, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 0
    assert message in answer_of(out)["systemMessage"]


def test_without_a_model_a_prompt_handler_says_so(tmp_path, claude_hook):
    home = make_home(tmp_path, PROMPT_ON.format(event="PreToolUse"))
    code, out, _ = claude_hook(home, bash("rm -rf /"))
    assert code == 0
    assert "no model is configured" in answer_of(out)["systemMessage"]


def test_an_agent_handler_reads_files_before_its_verdict(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "POLICY.md").write_text("deploys are frozen this week\n")
    calls = []

    def model(request):
        calls.append(request)
        assert [t["name"] for t in request.tools] == ["Read", "Grep", "Glob"]
        if len(calls) == 1:
            return ModelReply("", (ToolCall("c1", "Read", {"file_path": "POLICY.md"}),))
        seen = request.messages[-1]
        assert seen["role"] == "tool" and "deploys are frozen" in seen["content"]
        return '{"ok": false, "reason": "POLICY.md: deploys are frozen"}'
    home = make_home(tmp_path, """
[[PreToolUse]]
[[PreToolUse.hooks]]
type = "agent"
prompt = "Check the command against the project's POLICY.md."
maxTurns = 3
""")
    with Runtime(home, model=model) as rt:
        outcome = rt.fire("PreToolUse", bash("make deploy", cwd=str(project)))["outcome"]
    assert outcome["blocked"] and outcome["reason"] == "POLICY.md: deploys are frozen"
    assert outcome["continue"] is True, "an agent handler behaves as continueOnBlock"
    assert len(calls) == 2


def test_an_agent_that_never_decides_runs_out_of_turns(tmp_path):
    def model(request):
        return ModelReply("", (ToolCall("c", "Glob", {"pattern": "*.md"}),))
    home = make_home(tmp_path, '[[Stop]]\n[[Stop.hooks]]\ntype = "agent"\nprompt = "x"\n'
                               'maxTurns = 2\n')
    with Runtime(home, model=model) as rt:
        (error,) = rt.fire("Stop", event("Stop", stop_hook_active=False))["errors"]
    assert "the agent gave no verdict in 2 turns" in error["message"]


def test_arguments_placeholder():
    assert prompt_text("check $ARGUMENTS now", {"a": 1}) == 'check {"a":1} now'
    assert prompt_text("price \\$5", {"a": 1}) == 'price $5\n\nHook event:\n{"a":1}'
    assert prompt_text("literal \\$ARGUMENTS", {}) == "literal $ARGUMENTS\n\nHook event:\n{}"
