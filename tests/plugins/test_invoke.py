"""Calling plugins: the hook and tool conventions, and every way a plugin can misbehave."""

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from plugin_helpers import fixture_plugin, write_plugin

from harness.bridge import dumps
from harness.hooks.outcome import NO_ANSWER
from harness.plugins.discovery import PluginFile
from harness.plugins.invoke import call_hook, call_tool
from harness.plugins.process import MAX_STDERR, run_plugin

PAYLOAD = {"prompt": "hi", "context_name": "default", "summary": ""}


def script(tmp_path: Path, body: str, name: str = "p") -> PluginFile:
    return PluginFile(name, write_plugin(tmp_path / name, "#!/bin/sh\n" + body))


def alive_in_group(pgid: int) -> list[int]:
    """Pids of processes in group `pgid` that are still running (zombies do not count)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            alive.append(int(entry))
    return alive


# --- the conventions ---------------------------------------------------------------------------

def test_hook_gets_payload_on_stdin_and_in_env(monkeypatch):
    monkeypatch.setenv("CHIBI_TOOL_NAME", "stale")  # inherited tool variables are dropped
    result = call_hook(fixture_plugin("echo_hook"), "pre_message", PAYLOAD, 10,
                       env={"HARNESS_HOME": "/h"})
    assert result.error is None and not result.failed
    assert result.exit_code == 0
    assert result.source == "plugin:echo_hook"
    answer = result.answer
    assert answer["hook"] == answer["harness_hook"] == "pre_message"
    assert answer["stdin"] == answer["env_data"] == PAYLOAD
    assert answer["stdin_bytes"] == len(dumps(PAYLOAD)), "compact JSON on stdin"
    assert answer["tool"] is None
    assert answer["home"] == "/h"


def test_big_payload_goes_on_stdin_only():
    payload = {"request_body": {"messages": ["x" * 300_000]}}
    answer = call_hook(fixture_plugin("echo_hook"), "pre_api_request", payload, 10).answer
    assert answer["stdin"] == payload
    assert answer["env_data"] is None  # too big for one environment string


def test_pre_encoded_payload_is_sent_as_is():
    answer = call_hook(fixture_plugin("echo_hook"), "on_start", b'{"tool_count":3}', 10).answer
    assert answer["stdin"] == {"tool_count": 3}


def test_tool_call(monkeypatch):
    monkeypatch.setenv("CHIBI_HOOK", "stale")  # would make the plugin think it is a hook
    result = call_tool(fixture_plugin("echo_hook"), "echo_hook", {"x": [1, 2]}, 10)
    assert result.error is None
    assert result.output.endswith("\n"), "a tool result is stdout, untrimmed"
    assert '"tool": "echo_hook"' in result.output
    assert '"hook": null' in result.output
    assert '"stdin": {"x": [1, 2]}' in result.output


def test_tool_failure_keeps_its_output(tmp_path):
    result = call_tool(script(tmp_path, "echo partial; exit 2\n"), "t", {}, 5)
    assert result.error == "exited with code 2"
    assert result.output == "partial\n"


# --- answers -------------------------------------------------------------------------------------

def test_empty_output_is_no_answer(tmp_path):
    result = call_hook(script(tmp_path, "cat > /dev/null\nprintf '  \\n\\n'\n"), "on_end", {}, 5)
    assert result.answer is NO_ANSWER and not result.failed


def test_json_scalars_are_answers(tmp_path):
    assert call_hook(script(tmp_path, "echo true\n"), "on_end", {}, 5).answer is True
    assert call_hook(script(tmp_path, "echo '[1, 2]'\n", "q"), "on_end", {}, 5).answer == [1, 2]


def test_big_integers_in_answers_are_exact(tmp_path):
    plugin = script(tmp_path, "echo '{\"fuel\": 123456789012345678901234567890}'\n")
    assert call_hook(plugin, "pre_agentic_loop", {}, 5).answer == {
        "fuel": 123456789012345678901234567890}


def test_garbage_is_a_string_answer():
    result = call_hook(fixture_plugin("garbage"), "pre_message", PAYLOAD, 5)
    assert result.answer == "this is {not json"
    assert result.error is None


def test_invalid_utf8_is_replaced_and_reported():
    result = call_hook(fixture_plugin("bad_utf8"), "pre_message", PAYLOAD, 5)
    assert result.answer == {"prompt": "caf\ufffd"}
    assert result.error is None
    assert "not valid UTF-8" in result.warnings[0]


# --- failures ------------------------------------------------------------------------------------

def test_crash_is_no_answer_with_an_error(capfd):
    result = call_hook(fixture_plugin("crash"), "pre_message", PAYLOAD, 5)
    assert result.answer is NO_ANSWER
    assert result.error == "exited with code 3; stderr: crash: something went wrong"
    assert result.exit_code == 3
    assert result.stderr == "crash: something went wrong\n"
    assert "crash: something went wrong" in capfd.readouterr().err, "stderr passes through"


def test_killed_by_a_signal(tmp_path):
    result = call_hook(script(tmp_path, "kill -9 $$\n"), "on_end", {}, 5)
    assert result.error == "killed by signal SIGKILL"


def test_hang_is_killed_in_time_with_its_whole_group(tmp_path, monkeypatch):
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("FIXTURE_PID_FILE", str(pid_file))
    start = time.monotonic()
    result = call_hook(fixture_plugin("hang"), "pre_message", PAYLOAD, 0.5)
    elapsed = time.monotonic() - start
    assert result.failed and result.answer is NO_ANSWER
    assert result.error.startswith("timed out after 0.5 s")
    assert 0.5 <= elapsed < 1.5
    leader, child = map(int, pid_file.read_text().split())
    assert not Path(f"/proc/{leader}").exists(), "the plugin was reaped (no zombie)"
    deadline = time.monotonic() + 2
    while alive_in_group(leader) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert alive_in_group(leader) == [], "the background child was killed too"
    assert child != leader


def test_output_is_capped():
    start = time.monotonic()
    result = call_hook(fixture_plugin("flood"), "pre_message", PAYLOAD, 10)
    assert result.error == ("output exceeded 16777216 bytes; its process group was killed")
    assert result.answer is NO_ANSWER
    assert time.monotonic() - start < 5


def test_small_cap(tmp_path):
    result = call_hook(script(tmp_path, "echo 0123456789\n"), "on_end", {}, 5, max_output=4)
    assert result.error.startswith("output exceeded 4 bytes")


def test_plugin_that_ignores_a_big_stdin_still_answers():
    payload = {"request_body": {"messages": ["x" * 2_000_000]}}
    result = call_hook(fixture_plugin("early_exit"), "pre_api_request", payload, 5)
    assert result.error is None
    assert result.answer == {"request_body": {"temperature": 0.1}}


def test_plugin_that_closes_stdin_early(tmp_path):
    plugin = script(tmp_path, "head -c 10 > /dev/null\necho '{\"ok\": 1}'\n")
    result = call_hook(plugin, "on_start", {"big": "y" * 1_000_000}, 5)
    assert result.answer == {"ok": 1}


def test_descendant_holding_stdout_does_not_hold_the_call():
    start = time.monotonic()
    result = call_hook(fixture_plugin("daemon"), "on_start", {}, 10)
    assert result.answer == {} and result.error is None
    assert time.monotonic() - start < 1.5


def test_missing_and_non_executable_plugins(tmp_path):
    missing = call_hook(PluginFile("gone", tmp_path / "gone"), "on_start", {}, 5)
    assert missing.error.startswith("cannot run ") and missing.failed
    plain = write_plugin(tmp_path / "plain", "#!/bin/sh\n", mode=0o644)
    assert "Permission denied" in call_hook(PluginFile("plain", plain), "on_start", {},
                                            5).error
    bad_interpreter = script(tmp_path, "", name="x")
    bad_interpreter.path.write_text("#!/nonexistent/interpreter\n")
    assert call_hook(bad_interpreter, "on_start", {}, 5).error.startswith("cannot run ")


def test_run_plugin_with_arguments_and_no_stdin(tmp_path):
    plugin = script(tmp_path, 'echo "args:$*"; cat\n')
    run = run_plugin(plugin.path, ("--schema",), b"", 5)
    assert run.stdout == b"args:--schema\n"
    assert run.exit_code == 0 and run.error is None


def test_plugin_that_closes_stdout_and_keeps_running_is_timed_out(tmp_path):
    plugin = script(tmp_path, "cat > /dev/null\necho '{}'\nexec >&-\nsleep 30\n")
    result = call_hook(plugin, "on_start", {}, 0.5)
    assert result.error.startswith("timed out after 0.5 s")


# --- exit 2 and stderr (SPEC §3) ----------------------------------------------------------------

BLOCKER = "cat > /dev/null\necho '{\"ignored\": true}'\necho 'no force pushes' >&2\nexit 2\n"


def test_exit_2_blocks_where_the_point_can_block_with_stderr_as_the_message(tmp_path):
    result = call_hook(script(tmp_path, BLOCKER), "pre_tool", {}, 5)
    assert result.answer == {"block": True, "message": "no force pushes"}
    assert result.error is None, "a block by exit 2 is an answer, not a failure"
    denied = call_hook(script(tmp_path, BLOCKER), "pre_shell_exec", {}, 5)
    assert denied.answer == {"denied": True, "reason": "no force pushes"}


def test_exit_2_with_nothing_on_stderr_leaves_the_default_message(tmp_path):
    result = call_hook(script(tmp_path, "exit 2\n"), "pre_spawn_agent", {}, 5)
    assert result.answer == {"block": True}


def test_exit_2_where_nothing_can_block_is_a_failure_with_stderr(tmp_path):
    result = call_hook(script(tmp_path, BLOCKER), "post_tool", {}, 5)
    assert result.answer is NO_ANSWER
    assert result.error == "exited with code 2; stderr: no force pushes"


def test_stderr_is_kept_and_still_reaches_the_terminal(tmp_path, capfd):
    result = call_hook(script(tmp_path, "echo progress >&2\necho '{}'\n"), "on_end", {}, 5)
    assert result.answer == {} and result.stderr == "progress\n"
    assert "progress" in capfd.readouterr().err


def test_a_long_stderr_is_kept_by_its_end_and_quoted_by_its_end(tmp_path):
    body = ("i=0; while [ $i -lt 20000 ]; do echo \"line $i\" >&2; i=$((i+1)); done\n"
            "echo 'ValueError: the real reason' >&2\nexit 1\n")
    run = run_plugin(script(tmp_path, body).path, (), b"", 5, capture_stderr=True)
    assert len(run.stderr) == MAX_STDERR
    assert run.stderr.endswith(b"line 19999\nValueError: the real reason\n")
    short = "i=0; while [ $i -lt 300 ]; do echo \"line $i\" >&2; i=$((i+1)); done\n"
    result = call_hook(script(tmp_path, short + "echo 'ValueError: why' >&2\nexit 1\n"),
                       "on_end", {}, 5)
    assert result.error.startswith("exited with code 1; stderr: ...")
    assert result.error.endswith("ValueError: why") and len(result.error) < 2100


def test_a_timed_out_plugin_says_what_it_wrote_to_stderr(tmp_path):
    result = call_hook(script(tmp_path, "echo 'waiting for the lock' >&2\nsleep 30\n"),
                       "on_end", {}, 0.5)
    assert result.error.startswith("timed out after 0.5 s")
    assert result.error.endswith("stderr: waiting for the lock")


def test_a_failed_tool_call_says_what_it_wrote_to_stderr(tmp_path):
    plugin = script(tmp_path, "echo 'KeyError: name' >&2\nexit 1\n")
    result = call_tool(plugin, "greet", {}, 5)
    assert result.error == "exited with code 1; stderr: KeyError: name"


# --- what the plugin inherits --------------------------------------------------------------------

def test_plugin_inherits_no_descriptor_of_the_host_but_stderr(tmp_path):
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)  # as a host's own inherited descriptors may be
    try:
        result = call_hook(script(tmp_path, "ls /proc/$$/fd | tr '\\n' ' '\n"), "on_end", {}, 5)
    finally:
        os.close(read_end)
        os.close(write_end)
    fds = set(map(int, result.answer.split()))
    assert {0, 1, 2} <= fds and write_end not in fds


def test_plugin_starts_with_sigpipe_at_its_default(tmp_path):
    # Python ignores SIGPIPE; a plugin writing into a closed pipe must still die of it
    result = call_hook(script(tmp_path, "grep SigIgn /proc/$$/status\n"), "on_end", {}, 5)
    ignored = int(result.answer.split()[1], 16)
    assert not ignored & (1 << (signal.SIGPIPE - 1))


def test_host_with_stdin_and_stdout_closed(tmp_path):
    echo = fixture_plugin("echo_hook")
    program = ("import os, sys; os.close(0); os.close(1)\n"
               "from harness.plugins.discovery import PluginFile\n"
               "from harness.plugins.invoke import call_hook\n"
               f"r = call_hook(PluginFile('echo_hook', {str(echo.path)!r}), 'on_end', {{'a': 1}},"
               " 5)\n"
               "sys.stderr.write(repr(r.answer['stdin']))\n")
    done = subprocess.run([sys.executable, "-c", program], stderr=subprocess.PIPE, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=30, check=False)
    assert done.stderr == "{'a': 1}"


# --- without pidfd (not Linux >= 5.3): the plugin's exit is polled for ---------------------------

@pytest.fixture
def no_pidfd(monkeypatch):
    def refuse(pid, flags=0):
        raise OSError(errno.ENOSYS, "no pidfd here")
    monkeypatch.setattr(os, "pidfd_open", refuse)


def test_without_pidfd_answers(no_pidfd):
    result = call_hook(fixture_plugin("echo_hook"), "pre_message", PAYLOAD, 10)
    assert result.answer["stdin"] == PAYLOAD and result.exit_code == 0


def test_without_pidfd_a_hang_is_killed(tmp_path, no_pidfd, monkeypatch):
    pid_file = tmp_path / "pids"
    monkeypatch.setenv("FIXTURE_PID_FILE", str(pid_file))
    result = call_hook(fixture_plugin("hang"), "pre_message", PAYLOAD, 0.5)
    assert result.error.startswith("timed out after 0.5 s")
    leader, _ = map(int, pid_file.read_text().split())
    assert alive_in_group(leader) == [] or _settles_empty(leader)


def test_without_pidfd_a_descendant_holding_stdout_does_not_hold_the_call(no_pidfd):
    result = call_hook(fixture_plugin("daemon"), "on_start", {}, 10)
    assert result.answer == {} and result.error is None


def test_without_pidfd_early_exit_and_crash(no_pidfd):
    payload = {"request_body": {"messages": ["x" * 2_000_000]}}
    early = call_hook(fixture_plugin("early_exit"), "pre_api_request", payload, 5)
    assert early.answer == {"request_body": {"temperature": 0.1}}
    assert call_hook(fixture_plugin("crash"), "pre_message", PAYLOAD, 5).error.split(";")[0] == \
        "exited with code 3"


def _settles_empty(pgid: int) -> bool:
    deadline = time.monotonic() + 2
    while alive_in_group(pgid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return alive_in_group(pgid) == []
