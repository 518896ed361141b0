"""The audit log ([record] in harness.toml): every dispatch as a JSON line, secrets
redacted, rotated past its size cap."""

from __future__ import annotations

import json
import subprocess
import sys
import threading

import pytest

from harness.config import ConfigError, load_config
from harness.hosts import answer
from harness.record import RecordConfig, Recorder, Redactor
from harness.runtime import Runtime

GUARD = """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (p)
    (if (equal? (cdr (assoc "tool_name" p)) "danger")
        (list (cons "block" #t) (cons "message" "no"))
        '())))
"""


def _home(tmp_path, record: str = 'path = "audit.jsonl"\n'):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD)
    (home / "harness.toml").write_text("[record]\n" + record)
    return home


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_dispatch_is_a_line_with_its_hooks(tmp_path):
    home = _home(tmp_path)
    with Runtime(home) as runtime:
        runtime.fire("pre_tool", {"tool_name": "danger", "arguments": {}})
        result = runtime.fire("pre_tool", {"tool_name": "fine", "arguments": {}})
    assert "trace" not in result  # recording does not turn tracing on for the caller
    first, second = _lines(home / "audit.jsonl")
    assert first["harness_record"] == 1 and first["host"] is None
    assert first["event"] == "pre_tool"
    assert first["payload"] == {"tool_name": "danger", "arguments": {}}
    assert first["outcome"] == {"blocked": True, "message": "no", "arguments": {}}
    [hook] = first["hooks"]
    assert hook["source"].endswith("guard.scm:2") and hook["answer"]["block"] is True
    assert isinstance(hook["ms"], float) and isinstance(first["ms"], float)
    assert second["outcome"]["blocked"] is False and "answer" not in second["hooks"][0]


FAILING = """(import (harness hooks))
(register-hook 'pre_tool (lambda (p) (car '())))
"""


def test_hooks_answered_lists_only_the_hooks_that_answered_or_failed(tmp_path):
    home = _home(tmp_path, 'path = "audit.jsonl"\nhooks = "answered"\n')
    with Runtime(home) as runtime:
        runtime.fire("pre_tool", {"tool_name": "danger", "arguments": {}})
        runtime.fire("pre_tool", {"tool_name": "fine", "arguments": {}})
    (home / "tools" / "zz_failing.scm").write_text(FAILING)
    with Runtime(home) as runtime:
        failed = runtime.fire("pre_tool", {"tool_name": "danger", "arguments": {}})
    blocked, quiet, failing = _lines(home / "audit.jsonl")
    assert blocked["outcome"]["blocked"] is True
    [hook] = blocked["hooks"]
    assert hook["source"].endswith("guard.scm:2") and hook["answer"]["block"] is True
    assert "ms" not in hook and blocked["ran"] == 1 and isinstance(blocked["ms"], float)
    assert quiet["hooks"] == [] and quiet["ran"] == 1  # it ran and said nothing
    answered, error = failing["hooks"]  # in the order they ran
    assert answered["source"] == hook["source"] and failing["ran"] == 2
    assert error["source"].endswith("zz_failing.scm:2")
    assert error["error"] == failed["errors"][0]["message"]


def test_hooks_answered_counts_the_hooks_of_each_dispatch_of_a_host_event(tmp_path):
    home = _home(tmp_path, 'path = "audit.jsonl"\nhooks = "answered"\n')
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "danger",
             "tool_input": {"x": 1}, "cwd": str(tmp_path)}
    with Runtime(home) as runtime:
        answer(runtime, "claude-code", json.dumps(event))
    [line] = _lines(home / "audit.jsonl")
    assert line["decision"] == "deny"
    assert [(d["hook"], d["ran"], len(d["hooks"])) for d in line["dispatches"]] == \
        [("PreToolUse", 0, 0), ("pre_tool", 1, 1)]


def test_a_caller_that_traces_gets_every_hook_in_the_log_too(tmp_path):
    home = _home(tmp_path, 'path = "audit.jsonl"\nhooks = "answered"\n')
    with Runtime(home) as runtime:
        runtime.dispatcher.trace_enabled = True
        result = runtime.fire("pre_tool", {"tool_name": "fine", "arguments": {}})
    [line] = _lines(home / "audit.jsonl")
    [hook] = result["trace"]
    assert line["hooks"] == [hook] and isinstance(hook["ms"], float) and "ran" not in line


def test_a_host_event_is_one_line_with_its_reply_and_dispatches(tmp_path):
    home = _home(tmp_path)
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "danger",
             "tool_input": {"x": 1}, "cwd": str(tmp_path)}
    with Runtime(home) as runtime:
        reply = answer(runtime, "claude-code", json.dumps(event))
    [line] = _lines(home / "audit.jsonl")
    assert line["host"] == "claude-code" and line["event"] == "PreToolUse"
    assert line["payload"] == event and line["decision"] == "deny"
    assert line["reply"] == reply.to_json() and reply.exit_code == 2
    assert [d["hook"] for d in line["dispatches"]] == ["PreToolUse", "pre_tool"]


def test_no_record_table_means_no_recorder(tmp_path):
    home = tmp_path / "plain"
    home.mkdir()
    with Runtime(home) as runtime:
        assert runtime.recorder is None
        assert "trace" not in runtime.fire("pre_tool", {"tool_name": "x", "arguments": {}})
    assert list(home.iterdir()) == []


def test_secrets_are_redacted_by_default():
    redact = Redactor(("customer_id",), (r"ACME-\d+",))
    assert redact({
        "env": {"GITHUB_TOKEN": "ghp_x", "PATH": "/bin", "api_key": "k", "Password": ""},
        "command": "export AWS_SECRET_ACCESS_KEY=abc123 && deploy --user bob",
        "note": "key sk-ant-api03-abcdefghijklmnopqrstuv and AKIAABCDEFGHIJKLMNOP",
        "header": "Authorization: Bearer abcdefghijklmnop.qrstuv",
        "customer_id": 42, "ticket": "see ACME-123", "count": 3}) == {
        "env": {"GITHUB_TOKEN": "[redacted]", "PATH": "/bin", "api_key": "[redacted]",
                "Password": ""},
        "command": "export AWS_SECRET_ACCESS_KEY=[redacted] && deploy --user bob",
        "note": "key [redacted] and [redacted]",
        "header": "Authorization: [redacted]",
        "customer_id": "[redacted]", "ticket": "see [redacted]", "count": 3}


def test_the_default_patterns_can_be_turned_off():
    assert Redactor((), (), defaults=False)({"token": "t", "s": "sk-abcdefghijklmnopqrst"}) \
        == {"token": "t", "s": "sk-abcdefghijklmnopqrst"}


def test_the_log_rotates_past_its_size_cap(tmp_path):
    log = tmp_path / "audit.jsonl"
    recorder = Recorder(RecordConfig(str(log), max_bytes=400, keep=2))
    for n in range(12):
        recorder.write({"host": None, "event": "on_start", "n": n, "pad": "x" * 60})
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert all(p.stat().st_size <= 400 for p in tmp_path.iterdir())
    numbers = [line["n"] for name in ("audit.jsonl.2", "audit.jsonl.1", "audit.jsonl")
               for line in _lines(tmp_path / name)]
    assert numbers == list(range(12 - len(numbers), 12))  # the newest, in order


def test_a_log_that_cannot_be_written_never_breaks_a_dispatch(tmp_path, capsys):
    home = _home(tmp_path, 'path = "no/such/dir/audit.jsonl"\n')
    with Runtime(home) as runtime:
        result = runtime.fire("pre_tool", {"tool_name": "danger", "arguments": {}})
        runtime.fire("pre_tool", {"tool_name": "danger", "arguments": {}})
    assert result["outcome"]["blocked"] is True
    assert capsys.readouterr().err.count("cannot write the audit log") == 1


@pytest.mark.parametrize(("table", "message"), [
    ("path = 3", "[record] path must be a file path"),
    ('path = "a"\nkeep = -1', "[record] keep must be a whole number"),
    ('path = "a"\nredact = "token"', "[record] redact must be a list of strings"),
    ('path = "a"\nredact_patterns = ["("]', "'(' is not a regular expression"),
    ('path = "a"\nmax_bytes = "big"', "record.max_bytes must be a positive number"),
    ('path = "a"\nredact_defaults = "yes"', "redact_defaults must be true or false"),
    ('path = "a"\nhooks = "some"', "[record] hooks must be \"all\""),
])
def test_a_malformed_record_table_is_an_error_naming_the_key(tmp_path, table, message):
    toml = tmp_path / "harness.toml"
    toml.write_text("[record]\n" + table + "\n")
    with pytest.raises(ConfigError, match=str(toml)) as caught:
        load_config(toml)
    assert message in str(caught.value)


def test_an_unknown_record_key_is_a_warning_with_the_closest_name(tmp_path):
    toml = tmp_path / "harness.toml"
    toml.write_text('[record]\npath = "a.jsonl"\nmax_byte = 10\n')
    config = load_config(toml)
    assert config.record.path == str(tmp_path / "a.jsonl")
    assert len(config.warnings) == 1 and "did you mean max_bytes" in config.warnings[0]


def test_dispatches_from_many_threads_are_written_whole_by_the_writer_thread(tmp_path):
    home = _home(tmp_path)
    with Runtime(home) as runtime:
        def fire(n: int) -> None:
            for k in range(50):
                runtime.fire("pre_tool", {"tool_name": "fine", "arguments": {"n": n, "k": k}})
        threads = [threading.Thread(target=fire, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        runtime.recorder.flush()  # the dispatches did not wait for the disk: flush does
        written = _lines(home / "audit.jsonl")
    assert sorted((d["payload"]["arguments"]["n"], d["payload"]["arguments"]["k"])
                  for d in written) == [(n, k) for n in range(4) for k in range(50)]


def test_the_size_cap_holds_for_records_written_in_batches(tmp_path):
    home = _home(tmp_path, 'path = "audit.jsonl"\nmax_bytes = 2000\nkeep = 2\n')
    with Runtime(home) as runtime:
        for n in range(60):
            runtime.fire("pre_tool", {"tool_name": "fine", "arguments": {"n": n}})
    logs = sorted(p.name for p in home.iterdir() if p.name.startswith("audit"))
    assert logs == ["audit.jsonl", "audit.jsonl.1", "audit.jsonl.2"]
    assert all((home / name).stat().st_size <= 2000 for name in logs)
    assert _lines(home / "audit.jsonl")[-1]["payload"]["arguments"]["n"] == 59


def test_a_process_that_exits_writes_what_it_recorded(tmp_path):
    home = _home(tmp_path)
    program = ("import sys; from harness.runtime import Runtime\n"
               "runtime = Runtime(sys.argv[1])\n"
               "runtime.fire('pre_tool', {'tool_name': 'danger', 'arguments': {}})\n")
    subprocess.run([sys.executable, "-c", program, str(home)], check=True)  # no close()
    [line] = _lines(home / "audit.jsonl")
    assert line["outcome"]["blocked"] is True


def test_a_dispatch_is_written_as_it_was_when_the_caller_changes_it_later(tmp_path):
    home = _home(tmp_path)
    with Runtime(home) as runtime:
        arguments = {"path": "a.txt"}
        result = runtime.fire("pre_tool", {"tool_name": "fine", "arguments": arguments})
        arguments["path"] = "changed.txt"  # before the writer thread wrote the line
        result["outcome"]["arguments"]["path"] = "changed too"
        runtime.recorder.flush()
        [line] = _lines(home / "audit.jsonl")
    assert line["payload"]["arguments"] == {"path": "a.txt"}
    assert line["outcome"]["arguments"] == {"path": "a.txt"}


def test_only_the_lines_of_a_batch_that_hold_a_secret_are_redacted(tmp_path):
    home = _home(tmp_path)
    commands = ["ls", "export GITHUB_TOKEN=abc123", "make", "curl -H 'Authorization: x'"]
    with Runtime(home) as runtime:
        for command in commands:
            runtime.fire("pre_tool", {"tool_name": "Bash", "arguments": {"command": command}})
        runtime.recorder.flush()  # the four go to the writer thread as one batch
        written = [line["payload"]["arguments"]["command"]
                   for line in _lines(home / "audit.jsonl")]
    assert written == ["ls", "export GITHUB_TOKEN=[redacted]", "make",
                       "curl -H 'Authorization: [redacted]"]


def test_the_markers_of_a_batch_are_found_line_by_line():
    redact = Redactor(("customer_id",))
    lines = [b'{"a":"ls"}', b'{"Customer_ID":7}', b'{"b":"make"}', b'{"c":"sk-"}', b'{}']
    assert redact.may_hold_secrets(lines) == [1, 3]
    assert Redactor(defaults=False).may_hold_secrets(lines) == []
    assert Redactor(patterns=("x",)).may_hold_secrets(lines[:2]) == [0, 1]


def test_a_writer_that_breaks_says_so_once_and_flush_still_returns(tmp_path, capfd):
    recorder = Recorder(RecordConfig(path=str(tmp_path / "audit.jsonl")))

    def broken_scan(lines):
        raise RuntimeError("scan broke")

    recorder.redact.may_hold_secrets = broken_scan
    for _ in range(2):
        recorder.dispatched("pre_tool", {}, {"outcome": {}, "errors": []}, [], 0.0, False)
        flushing = threading.Thread(target=recorder.flush, daemon=True)
        flushing.start()
        flushing.join(10)
        assert not flushing.is_alive(), "flush waits for a writer that died"
    recorder.close()
    said = capfd.readouterr().err
    assert said.count("RuntimeError: scan broke") == 1
    assert recorder.failure.startswith("cannot record to ")
