"""The example plugins of the chibi docs, loaded from examples/plugins and fired for real."""

import shutil

import pytest
from plugin_helpers import EXAMPLES

from harness.hooks.combine import combine
from harness.plugins.plugin_set import PluginSet

EXAMPLE_NAMES = ["context_injector", "context_logger", "disk_usage", "greet", "guardrails",
                 "logger", "safety_guard", "temp_override", "tool_filter"]


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    return PluginSet(EXAMPLES, home=home), home


def fire(plugins, point, payload, **options):
    results = plugins.call_hooks(point, payload)
    assert [r.error for r in results] == [None] * len(results)
    return combine(point, payload, [(r.source, r.answer) for r in results], **options)


def test_all_examples_load_without_problems(examples):
    plugins, _ = examples
    assert [p.name for p in plugins.plugins] == EXAMPLE_NAMES
    assert plugins.problems == ()


def test_examples_need_no_jq():
    for name in EXAMPLE_NAMES:
        code = [line for line in (EXAMPLES / name).read_text().splitlines()
                if not line.lstrip().startswith("#")]
        assert not any("jq" in line for line in code), name


def test_logger_writes_to_harness_home(examples):
    plugins, home = examples
    outcome, problems = fire(plugins, "on_start", {"harness_home": str(home)})
    assert outcome == {} and problems == []
    log = (home / "hook.log").read_text()
    assert "] on_start\n{\n" in log and f'"harness_home": "{home}"' in log


def test_context_injector_prefixes_a_timestamp(examples):
    outcome, _ = fire(examples[0], "pre_message", {"prompt": "hello"})
    first, rest = outcome["prompt"].split("\n", 1)
    assert first.startswith("[20") and first.endswith("]") and rest == "hello"


def test_safety_guard_blocks_rm_rf(examples):
    plugins = examples[0]
    blocked, _ = fire(plugins, "pre_tool", {"tool_name": "shell_exec",
                                            "arguments": {"command": "rm -rf /"}})
    assert blocked == {"blocked": True, "arguments": {"command": "rm -rf /"},
                       "message": "Blocked: rm -rf commands are not allowed"}
    allowed, _ = fire(plugins, "pre_tool", {"tool_name": "shell_exec",
                                            "arguments": {"command": "ls"}})
    assert allowed["blocked"] is False


def test_tool_filter(examples):
    tools = [{"name": n, "type": "builtin"} for n in
             ("update_goals", "update_reflection", "file_head", "file_grep", "greet")]
    safe, _ = fire(examples[0], "pre_api_tools", {"context_name": "safe", "tools": tools})
    assert safe == {"tools": ["update_goals", "update_reflection"]}
    other, _ = fire(examples[0], "pre_api_tools", {"context_name": "x", "tools": tools})
    assert other == {"tools": ["update_goals", "update_reflection", "greet"]}


def test_temp_override(examples):
    body = {"model": "m", "temperature": 0.7}
    coding, _ = fire(examples[0], "pre_api_request",
                     {"context_name": "coding", "request_body": body})
    assert coding == {"request_body": {"model": "m", "temperature": 0.1}}
    plain, _ = fire(examples[0], "pre_api_request",
                    {"context_name": "default", "request_body": body})
    assert plain == {"request_body": body}


def test_guardrails(examples):
    payload = {"fuel_remaining": 3, "current_fallback": "call_agent",
               "tool_calls": [{"name": "write_file", "arguments": {}}]}
    outcome, _ = fire(examples[0], "post_tool_batch", payload)
    assert outcome == {"fallback": "call_user", "fuel_remaining": 0}


def test_context_logger(examples, tmp_path, monkeypatch):
    log = tmp_path / "contexts.txt"
    monkeypatch.setenv("CONTEXT_LOG_FILE", str(log))
    fire(examples[0], "on_context_switch", {"from_context": "default", "to_context": "coding",
                                            "is_ephemeral": False})
    assert log.read_text() == "default -> coding\n"


def test_tools(examples, tmp_path):
    plugins = examples[0]
    assert plugins.call_tool("greet", {"name": "world"}).output == "Hello, world!\n"
    (tmp_path / "f").write_text("x" * 10)
    usage = plugins.call_tool("disk_usage", {"path": str(tmp_path)})
    assert usage.error is None and usage.output.rstrip().endswith(str(tmp_path))


@pytest.mark.skipif(shutil.which("python3") is None, reason="examples are python3 scripts")
def test_examples_answer_direct_runs_like_the_guide_says(examples):
    plugins = examples[0]
    result = plugins.call_tool("logger", {})
    assert result.output == "This tool only handles hooks\n"
