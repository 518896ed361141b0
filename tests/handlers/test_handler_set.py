"""The handler set in a runtime: where handlers run in the dispatch order, at the same time,
once each, in the background when ``async``, on harness's own hook points too, and
hot-reloaded with their sources."""

import json
import threading
import time

from claude_helpers import bash, command, event, group, make_home, script, settings_file

from harness.handlers.async_pool import AsyncPool
from harness.runtime import Runtime


def toml(event_name, *handlers, matcher=None):
    text = f"[[{event_name}]]\n" + (f'matcher = "{matcher}"\n' if matcher else "")
    for h in handlers:
        text += f"[[{event_name}.hooks]]\n" + "".join(f"{k} = {json.dumps(v)}\n"
                                                      for k, v in h.items())
    return text


def test_matching_handlers_run_at_the_same_time(tmp_path):
    flag = tmp_path / "flag"
    # the first waits for what the second does: one after the other, it would time out
    home = make_home(tmp_path, toml("Stop", command(f"while [ ! -e '{flag}' ]; do sleep 0.01;"
                                                    " done; echo first >&2; exit 2",
                                                    timeout=10),
                                    command(f"touch '{flag}'; echo second >&2; exit 2")))
    with Runtime(home) as rt:
        result = rt.fire("Stop", event("Stop"))
    assert result["errors"] == []
    assert result["outcome"]["reason"] == "first\nsecond", "answers in declaration order"


def test_declared_handlers_run_after_plugins_and_before_scheme_hooks(tmp_path):
    home = make_home(tmp_path, toml("pre_tool", command(
        """echo '{"arguments": {"command": "from the handler"}}'""")),
        tools={"last.scm": """(register-hook 'pre_tool (lambda (p) (list (cons "arguments"
            (list (cons "seen" (cdr (assoc "command" (cdr (assoc "arguments" p))))))))))"""})
    with Runtime(home) as rt:
        result = rt.fire("pre_tool", {"tool_name": "shell_exec",
                                      "arguments": {"command": "ls"}})
    assert [a["source"].split(":")[0] for a in result["answers"]] == ["handler", "scm"]
    assert result["outcome"]["arguments"] == {"seen": "ls"}, "the last answer wins"


def test_harness_points_exit_2_blocks_or_denies_and_guards_fail_closed(tmp_path):
    home = make_home(tmp_path, toml("pre_shell_exec", command(
        "grep -q 'rm -rf' && { echo 'no rm' >&2; exit 2; }; exit 0")) + toml(
        "pre_file_read", command("exit 7")))
    with Runtime(home, permission_handler=lambda hook, payload: True) as rt:
        outcome = rt.fire("pre_shell_exec", {"tool_name": "shell_exec",
                                             "command": "rm -rf /"})["outcome"]
        assert outcome == {"denied": True, "reason": "no rm", "decided_by": "hook"}
        outcome = rt.fire("pre_shell_exec", {"tool_name": "shell_exec",
                                             "command": "ls"})["outcome"]
        assert outcome["denied"] is False
        result = rt.fire("pre_file_read", {"tool_name": "file_head", "path": "/etc/hosts"})
        assert result["outcome"]["denied"] is True, "a failing guard fails closed"
        assert "failed with non-blocking status code 7" in result["errors"][0]["message"]


def test_identical_handlers_run_once_and_async_ones_in_the_background(tmp_path):
    log = tmp_path / "runs.log"
    counted = command(script("misbehave.py", "count", str(log)))
    slow = command(f"sleep 0.3; echo done >> '{tmp_path / 'async.log'}'; "
                   "echo 'ignored' >&2; exit 2", **{"async": True})
    home = make_home(tmp_path, toml("Stop", counted, counted, slow))
    settings = settings_file(tmp_path / "s.json", {"Stop": [group(counted)]})
    (home / "harness.toml").write_text(f'[hooks]\nclaude_settings = ["{settings}"]\n')
    with Runtime(home) as rt:
        result = rt.fire("Stop", event("Stop"))
        assert result["outcome"]["blocked"] is False, "an async handler's answer is ignored"
        assert len(log.read_text().split()) == 1
        assert not (tmp_path / "async.log").exists(), "the dispatch did not wait for it"
        deadline = time.monotonic() + 10
        while not (tmp_path / "async.log").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert (tmp_path / "async.log").read_text() == "done\n"


def test_a_full_async_pool_refuses_and_says_so():
    pool = AsyncPool(limit=1)
    gate = threading.Event()
    answers = [pool.submit(gate.wait, {}) for _ in range(10)]
    assert answers[:8] == [None] * 8, "one runs, seven more wait"
    assert answers[8] == "async handler not run: 8 are already waiting"
    gate.set()
    pool.close(wait=True)


def test_session_end_shares_a_short_budget(tmp_path, monkeypatch):
    home = make_home(tmp_path, toml("SessionEnd", command("sleep 5")))
    monkeypatch.setenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", "300")
    with Runtime(home) as rt:
        (error,) = rt.fire("SessionEnd", event("SessionEnd", reason="other"))["errors"]
    assert "timed out after 0.3 s" in error["message"]


def test_sources_are_hot_reloaded_and_a_bad_edit_keeps_the_last_good_one(tmp_path):
    settings = settings_file(tmp_path / "claude" / "settings.json", {
        "PreToolUse": [group(command("echo 'v1' >&2; exit 2"))]})
    home = make_home(tmp_path, harness_toml=f'[hooks]\nclaude_settings = ["{settings}"]\n')
    with Runtime(home, watch=True) as rt:
        reports = []
        rt.watcher.add_listener(reports.append)
        assert rt.fire("PreToolUse", bash("ls"))["outcome"]["reason"] == "v1"
        settings_file(settings, {"PreToolUse": [group(command("echo 'v2' >&2; exit 2"))]})
        assert rt.watcher.wait_idle(10)
        assert rt.fire("PreToolUse", bash("ls"))["outcome"]["reason"] == "v2"
        settings.write_text('{"hooks": ')
        assert rt.watcher.wait_idle(10)
        result = rt.fire("PreToolUse", bash("ls"))
        assert result["outcome"]["reason"] == "v2", "the last good version stays live"
        assert "invalid JSON" in result["errors"][0]["message"]
        (failure,) = rt.load_failures()
        assert failure["source"] == f"handlers:{settings}"
        assert "invalid JSON" in failure["message"] and failure["last_good_runs"] is True
        (home / "hooks.toml").write_text(toml("PreToolUse", command("echo toml >&2; exit 2")))
        assert rt.watcher.wait_idle(10)
        assert rt.fire("PreToolUse", bash("ls"))["outcome"]["reason"] == "toml\nv2"
        (home / "harness.toml").write_text("")  # the settings file is no longer a source
        assert rt.watcher.wait_idle(10)
        result = rt.fire("PreToolUse", bash("ls"))
        assert (result["outcome"]["reason"], result["errors"]) == ("toml", [])
        assert rt.load_failures() == []
    assert [r["event"] for r in reports if r["event"] == "handlers"] == ["handlers"] * 3
    assert reports[1]["error"] and "invalid JSON" in reports[1]["error"]


def test_load_failures_name_a_hooks_toml_that_never_loaded_and_entries_in_error(tmp_path):
    home = make_home(tmp_path, "[hooks\n")
    with Runtime(home) as rt:
        (failure,) = rt.load_failures()
        assert failure["source"] == f"handlers:{home / 'hooks.toml'}"
        assert failure["message"].startswith(f"{home / 'hooks.toml'}:1:7: ")
        assert failure["last_good_runs"] is False
    (home / "hooks.toml").write_text(toml("PreTooluse", command("exit 0")))
    with Runtime(home) as rt:
        (failure,) = rt.load_failures()
        assert "unknown event" in failure["message"] and "PreToolUse" in failure["message"]
        assert failure["last_good_runs"] is False
