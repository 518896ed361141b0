"""Every example of examples/: each plugin and each of its Scheme, Hy and Python twins is put
alone in a fresh home, its hook is fired through a Runtime, and the outcome is checked. Then
`harness demo`."""

import re
import shutil
import subprocess
import sys

import pytest

from harness.cli.demo import (
    EXAMPLES,
    PLUGIN_EXAMPLES,
    SCHEME_EXAMPLES,
    UNSANDBOXED_EXAMPLES,
)
from harness.runtime import Runtime

BOTH = ["plugin", "scheme", "hy", "python"]  # every twin of an example
PYTHON_TWINS = {"hy": EXAMPLES / "hy_hooks", "python": EXAMPLES / "python_hooks"}
SUFFIX = {"hy": ".hy", "python": ".py"}
DANGEROUS = "Blocked: rm -rf commands are not allowed"
FILE_TOOLS = ["file_head", "file_tail", "file_lines", "file_grep"]


def example_runtime(tmp_path, name: str, kind: str) -> Runtime:
    """A Runtime over a home holding only the example ``name`` (plugin or Scheme file)."""
    home = tmp_path / "home"
    if kind == "plugin":
        (home / "plugins").mkdir(parents=True)
        shutil.copy2(PLUGIN_EXAMPLES / name, home / "plugins" / name)
    elif kind in PYTHON_TWINS:  # Python cannot be sandboxed: these need the unsandboxed tier
        (home / "tools").mkdir(parents=True)
        file = name + SUFFIX[kind]
        shutil.copy2(PYTHON_TWINS[kind] / file, home / "tools" / file)
        (home / "harness.toml").write_text(f'[tools.tiers]\n"{file}" = "unsandboxed"\n')
    else:
        (home / "tools").mkdir(parents=True)
        shutil.copy2(SCHEME_EXAMPLES / f"{name}.scm", home / "tools" / f"{name}.scm")
        if f"{name}.scm" in UNSANDBOXED_EXAMPLES:
            (home / "harness.toml").write_text(f'[tools.tiers]\n"{name}.scm" = "unsandboxed"\n')
    rt = Runtime(home)
    assert rt.load_errors == {} and rt.plugins.problems == ()
    return rt


def fire(rt: Runtime, hook: str, payload: dict) -> dict:
    """Fire ``hook``; no hook may fail; return the outcome."""
    result = rt.fire(hook, payload)
    assert result["errors"] == []
    return result["outcome"]


def tools_payload(context: str) -> dict:
    names = ["update_todos", "update_goals", "update_reflection", *FILE_TOOLS, "greet"]
    return {"context_name": context, "tools": [{"name": n, "type": "builtin"} for n in names],
            "fuel_remaining": 10, "fuel_total": 10}


def batch_payload(*tools: str) -> dict:
    return {"context_name": "default", "fuel_remaining": 20, "fuel_total": 20,
            "current_fallback": "call_agent",
            "tool_calls": [{"name": t, "arguments": {}} for t in tools]}


# -- the set of examples ----------------------------------------------------------------------
def test_every_plugin_has_a_scheme_twin_except_disk_usage():
    plugins = {p.name for p in PLUGIN_EXAMPLES.iterdir()}
    twins = {p.stem for p in SCHEME_EXAMPLES.glob("*.scm")}
    assert twins <= plugins
    assert plugins - twins == {"disk_usage"}  # needs file sizes: see examples/README.md


@pytest.mark.parametrize("kind", sorted(PYTHON_TWINS))
def test_every_plugin_has_a_hy_and_a_python_twin(kind):
    plugins = {p.name for p in PLUGIN_EXAMPLES.iterdir()}
    assert {p.stem for p in PYTHON_TWINS[kind].glob("*" + SUFFIX[kind])} == plugins


def test_exactly_the_io_examples_are_unsandboxed():
    uses_io = {p.name for p in SCHEME_EXAMPLES.glob("*.scm") if "(harness io)" in p.read_text()}
    assert uses_io == set(UNSANDBOXED_EXAMPLES)


def test_an_io_example_in_the_sandbox_fails_to_load_and_says_why(tmp_path):
    (tmp_path / "tools").mkdir()
    shutil.copy2(SCHEME_EXAMPLES / "logger.scm", tmp_path / "tools" / "logger.scm")
    rt = Runtime(tmp_path)
    [message] = rt.load_errors.values()
    assert "needs the unsandboxed tier" in message and rt.hooks() == []


# -- logger ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_logger_logs_lifecycle_events(tmp_path, kind):
    rt = example_runtime(tmp_path, "logger", kind)
    assert [h["hook"] for h in rt.hooks()] == ["on_start", "on_end", "pre_message",
                                                "post_message"]
    assert fire(rt, "on_start", {"harness_home": "/h", "tool_count": 0}) == {}
    assert fire(rt, "pre_message", {"prompt": "hi", "context_name": "default"}) == {
        "prompt": "hi"}
    log = (rt.home / ("hook.log" if kind == "plugin" else "vfs/hook.log")).read_text()
    assert re.findall(r"^\[.+\] (\w+)$", log, re.MULTILINE) == ["on_start", "pre_message"]
    assert '"harness_home":' in log and '"prompt":' in log


# -- context_injector -----------------------------------------------------------------------
@pytest.mark.parametrize("kind, stamp", [("plugin", r"\d{4}-\d\d-\d\dT[\d:.]+"),
                                         ("scheme", r"\d{8}-\d{4}z"),
                                         ("hy", r"\d{8}-\d{4}z"),
                                         ("python", r"\d{8}-\d{4}z")])
def test_context_injector_puts_a_timestamp_before_the_prompt(tmp_path, kind, stamp):
    rt = example_runtime(tmp_path, "context_injector", kind)
    outcome = fire(rt, "pre_message", {"prompt": "hello", "context_name": "default",
                                       "summary": ""})
    assert re.fullmatch(rf"\[{stamp}\]\nhello", outcome["prompt"])


@pytest.mark.parametrize("kind", ["scheme", "hy", "python"])
def test_context_injector_twins_also_inject_the_context_into_the_system_prompt(tmp_path,
                                                                              kind):
    rt = example_runtime(tmp_path, "context_injector", kind)
    outcome = fire(rt, "pre_system_prompt", {"context_name": "coding", "summary": "",
                                             "flock_goals": []})
    assert outcome == {"inject": "Current context: coding"}


# -- safety_guard ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_safety_guard_blocks_rm_rf_only(tmp_path, kind):
    rt = example_runtime(tmp_path, "safety_guard", kind)
    blocked = fire(rt, "pre_tool", {"tool_name": "shell_exec",
                                    "arguments": {"command": "cd /tmp && rm -rf build"}})
    assert blocked["blocked"] is True and blocked["message"] == DANGEROUS
    for tool, arguments in [("shell_exec", {"command": "ls -la"}), ("shell_exec", {}),
                            ("write_file", {"command": "rm -rf /"}),
                            ("shell_exec", {"command": 42})]:
        allowed = fire(rt, "pre_tool", {"tool_name": tool, "arguments": arguments})
        assert allowed == {"blocked": False, "message": None, "arguments": arguments}


@pytest.mark.parametrize("kind", BOTH)
def test_safety_guard_blocks_a_tool_call_through_the_hook_stack(tmp_path, kind):
    rt = example_runtime(tmp_path, "safety_guard", kind)
    result = rt.call_tool("shell_exec", {"command": "rm -rf /"})
    assert result.blocked and result.output == DANGEROUS


# -- tool_filter ----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_tool_filter_excludes_file_tools_and_allowlists_in_safe(tmp_path, kind):
    rt = example_runtime(tmp_path, "tool_filter", kind)
    assert fire(rt, "pre_api_tools", tools_payload("coding")) == {
        "tools": ["update_todos", "update_goals", "update_reflection", "greet"]}
    assert fire(rt, "pre_api_tools", tools_payload("safe")) == {
        "tools": ["update_goals", "update_reflection"]}


# -- temp_override --------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_temp_override_merges_the_temperature_by_context(tmp_path, kind):
    rt = example_runtime(tmp_path, "temp_override", kind)
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": 0.7}
    for context, temperature in [("coding", 0.1), ("creative", 1.2), ("default", 0.7)]:
        outcome = fire(rt, "pre_api_request", {"context_name": context, "request_body": body,
                                               "fuel_remaining": 5, "fuel_total": 5})
        assert outcome == {"request_body": dict(body, temperature=temperature)}


# -- guardrails -----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_guardrails_hands_back_to_the_user_after_a_dangerous_tool(tmp_path, kind):
    rt = example_runtime(tmp_path, "guardrails", kind)
    assert fire(rt, "post_tool_batch", batch_payload("file_head", "write_file")) == {
        "fallback": "call_user", "fuel_remaining": 15}
    assert fire(rt, "post_tool_batch", batch_payload("file_head")) == {
        "fallback": "call_agent", "fuel_remaining": 20}


@pytest.mark.parametrize("kind", ["scheme", "hy", "python"])
def test_guardrails_fuel_never_goes_below_zero(tmp_path, kind):
    rt = example_runtime(tmp_path, "guardrails", kind)
    payload = dict(batch_payload("shell_exec"), fuel_remaining=3)
    assert fire(rt, "post_tool_batch", payload)["fuel_remaining"] == 0


# -- tools: greet, disk_usage ---------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_greet_is_a_tool(tmp_path, kind):
    rt = example_runtime(tmp_path, "greet", kind)
    [schema] = rt.tools()
    assert schema["name"] == "greet" and schema["parameters"]["required"] == ["name"]
    result = rt.call_tool("greet", {"name": "Ada"})
    assert result.error is None and result.output.strip() == "Hello, Ada!"


@pytest.mark.parametrize("kind", [
    pytest.param("plugin", marks=pytest.mark.skipif(shutil.which("du") is None,
                                                    reason="needs du")), "hy", "python"])
def test_disk_usage_reports_the_size_of_a_path(tmp_path, kind):
    rt = example_runtime(tmp_path, "disk_usage", kind)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "f").write_bytes(b"x" * 10_000)
    result = rt.call_tool("disk_usage", {"path": str(tmp_path / "data")})
    assert result.error is None
    assert re.fullmatch(rf"\S+\s+{re.escape(str(tmp_path / 'data'))}", result.output.strip())


# -- context_logger -------------------------------------------------------------------------
def test_context_logger_plugin_appends_each_switch(tmp_path, monkeypatch):
    log = tmp_path / "switches.txt"
    monkeypatch.setenv("CONTEXT_LOG_FILE", str(log))  # the plugin inherits our environment
    rt = example_runtime(tmp_path, "context_logger", "plugin")
    for a, b in [("default", "coding"), ("coding", "default")]:
        assert fire(rt, "on_context_switch", {"from_context": a, "to_context": b,
                                              "is_ephemeral": False}) == {}
    assert log.read_text() == "default -> coding\ncoding -> default\n"


@pytest.mark.parametrize("kind", ["scheme", "hy", "python"])
def test_context_logger_twins_log_switches_and_messages(tmp_path, kind):
    rt = example_runtime(tmp_path, "context_logger", kind)
    fire(rt, "on_context_switch", {"from_context": "default", "to_context": "coding",
                                   "is_ephemeral": False})
    assert fire(rt, "pre_message", {"prompt": "go", "context_name": "coding"}) == {
        "prompt": "go"}
    log = (rt.home / "vfs" / "context_log.txt").read_text()
    assert log == "default -> coding\nmessage in coding\n"


# -- harness demo ---------------------------------------------------------------------------
def test_harness_demo_runs_the_examples_and_exits_0():
    command = "import sys; from harness.cli import main; sys.exit(main(['demo']))"
    run = subprocess.run([sys.executable, "-c", command], check=False, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for line in [
        "== Scheme tour (examples/scheme/tour.scm)",
        "home: 8 plugins, 8 Scheme files",
        'put before the system prompt: "Current context: coding"',
        "=> allowed",
        f"=> BLOCKED: {DANGEROUS}",
        "dropped: file_head, file_grep",
        "request_body: temperature 0.7 -> 0.1",
        "request_body: temperature 0.7 -> 1.2",
        "fallback call_user (was call_agent), fuel 20 -> 10",
        '=> "Hello, Ada!"',
        # a builtin at its permission gate, and a builtin whose output is cached
        "=> DENIED: no permission handler configured",
        "=> [Output cached: vfs:///sys/tool_cache/default/file_head_",
        "Tool: file_head | Size: 11089 chars, ~2772 tokens | Lines: 400",
        "vfs/hook.log         by logger.scm: on_start; pre_message; on_end",
        "context_log.txt      by plugin:context_logger: default -> coding",
    ]:
        assert line in out, line
    assert " ! " not in out  # no hook failed and every file loaded


def test_the_demo_home_passes_harness_check(tmp_path):
    from harness.checks import OK, check_home
    from harness.cli.demo import build_demo_home
    findings = check_home(build_demo_home(tmp_path / "demo"))
    assert [f for f in findings if f.severity != OK] == []
    assert (tmp_path / "demo" / "plugins" / "greet.disabled").is_file()
