"""Plugins that misbehave, end to end through Runtime.fire (issue 6): none stops the
dispatch, a hung plugin dies with its whole process group at the timeout, 100 MB of stdout
is cut off without the host buffering it, and permission hooks fail closed.
(harness/plugins has the unit tests; these go through discovery, the schema cache, the
dispatcher and the combine rules.)"""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest
from security_helpers import PLUGIN_TIMEOUT, answers_of, hook_on, messages_of, write_home

from harness.runtime import Runtime

TIMED_OUT = f"timed out after {PLUGIN_TIMEOUT:g} s; its process group was killed"


def schema_plugin(name: str, hooks: list[str], body: str, schema: str | None = None) -> str:
    """A shell plugin answering --schema with ``schema`` (default: one tool ``name`` on
    ``hooks``) and running ``body`` for a call."""
    hook_list = ", ".join(f'"{h}"' for h in hooks)
    schema = schema or (f'{{"name": "{name}", "description": "d", "parameters": {{}}, '
                        f'"hooks": [{hook_list}]}}')
    return (f"#!/bin/sh\nif [ \"$1\" = \"--schema\" ]; then\ncat <<'JSON'\n{schema}\nJSON\n"
            f"exit 0\nfi\n{body}\n")


GOOD = schema_plugin("zz_good", ["pre_message", "pre_shell_exec"],
                     "cat > /dev/null\necho '{\"prompt\": \"good plugin\"}'")
SCHEME_ANSWER = {"bystander.scm": hook_on("pre_message", '(list (cons "prompt" "scheme hook"))')}


def _runtime(tmp_path: Path, plugins: dict[str, str], handler=None) -> Runtime:
    home = write_home(tmp_path, SCHEME_ANSWER, plugins={**plugins, "zz_good": GOOD})
    return Runtime(home, permission_handler=handler)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its parent does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _fire(rt: Runtime, hook: str = "pre_message", payload: dict | None = None
          ) -> tuple[dict, float]:
    start = time.monotonic()
    result = rt.fire(hook, payload if payload is not None else {"prompt": "p"})
    return result, time.monotonic() - start


def _assert_others_answered(result: dict) -> None:
    assert answers_of(result)[-2:] == [{"prompt": "good plugin"}, {"prompt": "scheme hook"}]
    assert result["outcome"] == {"prompt": "scheme hook"}


def test_hang_is_killed_at_the_timeout_with_its_process_group(tmp_path):
    pids = tmp_path / "pids"
    hang = schema_plugin("a_hang", ["pre_message"],
                         f"sleep 30 &\necho \"$$ $!\" > {pids}\nsleep 30")
    rt = _runtime(tmp_path, {"a_hang": hang})
    result, elapsed = _fire(rt)
    assert PLUGIN_TIMEOUT <= elapsed < PLUGIN_TIMEOUT + 2
    assert messages_of(result) == [TIMED_OUT]
    assert [e["source"] for e in result["errors"]] == ["plugin:a_hang"]
    _assert_others_answered(result)
    plugin_pid, grandchild_pid = map(int, pids.read_text().split())
    deadline = time.monotonic() + 2
    while (_alive(plugin_pid) or _alive(grandchild_pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(plugin_pid) and not _alive(grandchild_pid)
    with pytest.raises(ChildProcessError):  # the plugin was reaped: no zombie of ours
        os.waitpid(plugin_pid, os.WNOHANG)


def test_crash_is_reported_and_the_others_answer(tmp_path):
    crash = schema_plugin("a_crash", ["pre_message"],
                          "cat > /dev/null\necho '{\"prompt\": \"half'\nexit 3")
    result, _ = _fire(_runtime(tmp_path, {"a_crash": crash}))
    assert result["errors"] == [{"source": "plugin:a_crash", "message": "exited with code 3"}]
    _assert_others_answered(result)


def test_killed_by_a_signal_is_reported(tmp_path):
    suicide = schema_plugin("a_kill", ["pre_message"], "cat > /dev/null\nkill -SEGV $$")
    result, _ = _fire(_runtime(tmp_path, {"a_kill": suicide}))
    assert messages_of(result) == ["killed by signal SIGSEGV"]
    _assert_others_answered(result)


def test_100_mb_of_stdout_is_cut_off_without_buffering_it(tmp_path):
    flood = schema_plugin("a_flood", ["pre_message"],
                          "cat > /dev/null\nhead -c 104857600 /dev/zero")
    rt = _runtime(tmp_path, {"a_flood": flood})
    tracemalloc.start()
    try:
        result, _ = _fire(rt)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 48 * 1024 * 1024, f"peak Python allocation {peak / 2**20:.0f} MiB"
    (message,) = messages_of(result)
    assert message.startswith("output exceeded ") and message.endswith("process group was killed")
    _assert_others_answered(result)


def test_invalid_utf8_is_replaced_and_reported(tmp_path):
    bad = schema_plugin("a_bad_utf8", ["pre_message"],
                        "cat > /dev/null\nprintf '{\"prompt\": \"caf\\351\"}'")
    result, _ = _fire(_runtime(tmp_path, {"a_bad_utf8": bad}))
    assert answers_of(result)[0] == {"prompt": "caf\ufffd"}
    assert messages_of(result) == [
        "output is not valid UTF-8; invalid bytes were replaced with U+FFFD"]
    _assert_others_answered(result)


def test_broken_json_output_is_a_failure_that_says_so_and_text_a_text_answer(tmp_path):
    garbage = schema_plugin("a_garbage", ["pre_message"], "cat > /dev/null\necho '{not json'")
    result, _ = _fire(_runtime(tmp_path, {"a_garbage": garbage}))
    [message] = messages_of(result)
    # said as every bad JSON is: where, line, column, the line and a caret under the fault
    assert message.startswith("printed an answer that starts as JSON but is not valid JSON: "
                              "stdout:1:2: invalid JSON: "), message
    assert message.endswith("\n{not json\n ^"), message
    _assert_others_answered(result)
    text = schema_plugin("a_text", ["pre_message"], "cat > /dev/null\necho 'logged it'")
    result, _ = _fire(_runtime(tmp_path / "t", {"a_text": text}))
    assert answers_of(result)[0] == "logged it"
    assert messages_of(result) == ["pre_message: answer is a string, not an object; ignored"]


BIG_PAYLOAD = {"prompt": "x" * 1_000_000}  # far more than a pipe buffer


def test_plugin_that_never_reads_stdin_answers(tmp_path):
    deaf = schema_plugin("a_deaf", ["pre_message"], "echo '{\"prompt\": \"deaf\"}'")
    result, elapsed = _fire(_runtime(tmp_path, {"a_deaf": deaf}), payload=BIG_PAYLOAD)
    assert elapsed < PLUGIN_TIMEOUT
    assert messages_of(result) == []
    assert answers_of(result)[0] == {"prompt": "deaf"}
    _assert_others_answered(result)


def test_plugin_that_never_reads_stdin_and_sleeps_is_timed_out(tmp_path):
    deaf = schema_plugin("a_deaf", ["pre_message"], "sleep 30")
    result, elapsed = _fire(_runtime(tmp_path, {"a_deaf": deaf}), payload=BIG_PAYLOAD)
    assert elapsed < PLUGIN_TIMEOUT + 2
    assert messages_of(result) == [TIMED_OUT]
    _assert_others_answered(result)


def test_plugin_that_exits_before_reading_the_payload(tmp_path):
    gone = schema_plugin("a_gone", ["pre_message"], "exit 0")
    result, elapsed = _fire(_runtime(tmp_path, {"a_gone": gone}), payload=BIG_PAYLOAD)
    assert elapsed < PLUGIN_TIMEOUT
    assert messages_of(result) == [] and len(answers_of(result)) == 2
    _assert_others_answered(result)


def test_background_child_holding_stdout_does_not_hold_the_dispatch(tmp_path):
    # by design the harness leaves a child of a plugin that exited normally alone
    pids = tmp_path / "pids"
    daemon = schema_plugin("a_daemon", ["pre_message"],
                           f"cat > /dev/null\necho '{{}}'\nsleep 3 &\necho $! > {pids}")
    result, elapsed = _fire(_runtime(tmp_path, {"a_daemon": daemon}))
    assert elapsed < PLUGIN_TIMEOUT
    assert messages_of(result) == []
    _assert_others_answered(result)
    os.kill(int(pids.read_text()), 9)


def test_schema_that_hangs_costs_one_schema_timeout_and_is_reported(tmp_path):
    hung = "#!/bin/sh\nsleep 30\n"
    start = time.monotonic()
    rt = _runtime(tmp_path, {"a_schema_hang": hung})
    assert time.monotonic() - start < PLUGIN_TIMEOUT + 2
    problems = [p for p in rt.plugins.problems if p["source"] == "plugin:a_schema_hang"]
    assert len(problems) == 1 and "timed out" in problems[0]["message"]
    assert [p.name for p in rt.plugins.plugins] == ["zz_good"]
    result, _ = _fire(rt)
    # a plugin that did not load is in every dispatch's errors, never silent (SPEC §9)
    assert [e["source"] for e in result["errors"]] == ["plugin:a_schema_hang"]
    _assert_others_answered(result)


def test_schema_that_lies(tmp_path):
    lies = schema_plugin("a_liar", [], "cat > /dev/null\nexit 1", schema="""[
        {"name": "liar", "description": "claims hooks it cannot answer",
         "hooks": ["pre_message", "pre_tools", "no_such_hook", 7]},
        {"name": 5, "description": "name is not a string"},
        {"name": "nodesc"},
        {"name": "shout", "description": "shadows the Scheme tool of the same name"},
        {"name": "zz_good", "description": "shadows another plugin's tool"}
    ]""")
    home = write_home(tmp_path, {**SCHEME_ANSWER, "shout.scm": """
        (define-tool shout (description "d") (parameters '())
          (execute (lambda (args) "scheme shout")))"""},
        plugins={"a_liar": lies, "zz_good": GOOD})
    rt = Runtime(home)
    messages = " | ".join(p["message"] for p in rt.plugins.problems)
    assert "pre_tools" in messages and "no_such_hook" in messages
    assert [p.name for p in rt.plugins.plugins] == ["a_liar", "zz_good"]
    assert rt.call_tool("shout").output == "scheme shout"  # a Scheme tool is not shadowed
    # the hook it claimed but cannot answer fails alone
    result, _ = _fire(rt)
    assert result["errors"] == [{"source": "plugin:a_liar", "message": "exited with code 1"}]
    _assert_others_answered(result)


def test_plugin_tool_that_hangs_is_timed_out(tmp_path):
    slow = schema_plugin("slow_tool", [], "sleep 30")
    rt = _runtime(tmp_path, {"slow_tool": slow})
    start = time.monotonic()
    result = rt.call_tool("slow_tool", {})
    assert time.monotonic() - start < PLUGIN_TIMEOUT + 2
    assert "timed out" in result.error


@pytest.mark.parametrize("body, why", [
    ("cat > /dev/null\nexit 3", "exited with code 3"),
    ("sleep 30", TIMED_OUT),
    ("cat > /dev/null\nhead -c 104857600 /dev/zero", "output exceeded"),
])
def test_permission_hooks_fail_closed(tmp_path, body, why):
    guard = schema_plugin("a_guard", ["pre_shell_exec"], body)
    rt = _runtime(tmp_path, {"a_guard": guard}, handler=lambda hook, payload: True)
    result, _ = _fire(rt, "pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert result["outcome"]["denied"] is True
    assert result["outcome"]["reason"] == "hook failed: plugin:a_guard"
    assert why in messages_of(result)[0]


def test_exit_2_on_a_permission_hook_is_a_deny_not_a_failure(tmp_path):
    guard = schema_plugin("a_guard", ["pre_shell_exec"], "cat > /dev/null\nexit 2")
    rt = _runtime(tmp_path, {"a_guard": guard}, handler=lambda hook, payload: True)
    result, _ = _fire(rt, "pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert result["outcome"] == {"denied": True, "reason": "denied by plugin",
                                 "decided_by": "hook"}
    assert "plugin:a_guard" not in {e["source"] for e in result["errors"]}


def test_permission_hook_allows_when_every_plugin_answers(tmp_path):
    rt = _runtime(tmp_path, {}, handler=lambda hook, payload: True)
    result, _ = _fire(rt, "pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert result["outcome"]["denied"] is False


def test_all_faults_in_one_dispatch(tmp_path):
    faults = {
        "a_crash": schema_plugin("a_crash", ["pre_message"], "cat >/dev/null\nexit 3"),
        "b_hang": schema_plugin("b_hang", ["pre_message"], "sleep 30"),
        "c_flood": schema_plugin("c_flood", ["pre_message"],
                                 "cat >/dev/null\nhead -c 104857600 /dev/zero"),
        "d_utf8": schema_plugin("d_utf8", ["pre_message"],
                                "cat >/dev/null\nprintf '\\377\\376'"),
        "e_deaf": schema_plugin("e_deaf", ["pre_message"], "exit 0"),
    }
    result, elapsed = _fire(_runtime(tmp_path, faults), payload=BIG_PAYLOAD)
    assert elapsed < PLUGIN_TIMEOUT + 3
    assert [e["source"] for e in result["errors"]] == [
        "plugin:a_crash", "plugin:b_hang", "plugin:c_flood", "plugin:d_utf8", "plugin:d_utf8"]
    assert messages_of(result)[-1] == "pre_message: answer is a string, not an object; ignored"
    _assert_others_answered(result)


def test_hang_with_a_grandchild_that_left_the_process_group(tmp_path):
    pid_file = tmp_path / "escaped"
    hang = schema_plugin("a_escape", ["pre_message"],
                         f"setsid sleep 30 </dev/null >/dev/null 2>&1 &\n"
                         f"echo $! > {pid_file}\nsleep 30")
    result, _ = _fire(_runtime(tmp_path, {"a_escape": hang}))
    assert messages_of(result) == [TIMED_OUT]
    escaped = int(pid_file.read_text())
    time.sleep(0.2)
    try:
        assert not _alive(escaped), "the setsid grandchild outlived the timeout"
    finally:
        if _alive(escaped):
            os.kill(escaped, 9)
