"""The REPL core without a terminal: one entry in, the text to show out."""

from __future__ import annotations

import json

import pytest
from repl_helpers import BROKEN, GUARD

from harness.repl.session import ReplSession
from harness.runtime import Runtime

RM = '{"tool_name": "shell_exec", "arguments": {"command": "rm -rf /"}}'


def test_expressions_print_their_value(repl):
    assert repl.execute("(+ 1 2)") == "3"
    assert repl.execute("(define (twice x) (* 2 x))") == ""
    assert repl.execute("(twice 21)") == "42"
    assert repl.execute('(string-append "a" "b")') == '"ab"'
    assert repl.execute("(values 1 2)") == "1\n2"


def test_output_comes_before_the_value(repl):
    assert repl.execute('(display "hi") (newline) 5') == "hi\n5"


def test_a_multi_line_entry_is_one_entry(repl):
    assert repl.execute("(define (f x)\n  (+ x 1))\n(f 1)") == "2"


def test_errors_use_the_caret_format(repl):
    out = repl.execute("(car '())")
    assert out.startswith("<repl-1>:1:1: car: expected a pair, got ()")
    assert out.splitlines()[1:] == ["(car '())", "^"]
    assert "Traceback" not in out


def test_read_errors_and_unbound_names_are_scheme_errors(repl):
    assert "unexpected ')'" in repl.execute("(+ 1 2))")
    assert "nowhere" in repl.execute("(nowhere 1)")


def test_context_name_and_tool_prelude_are_there(repl):
    assert repl.execute("%context-name%") == '"default"'
    assert repl.execute("(procedure? register-hook)") == "#t"


def test_call_tool_reaches_the_runtime(repl):
    assert repl.execute("(call-tool \"greet\" '((name . \"Ada\")))") == '"Hello, Ada!"'


def test_the_budget_stops_runaway_code(repl):
    repl.runtime.config.limits["sandboxed"] = type(repl.runtime.limits_for("sandboxed"))(
        steps=100_000, seconds=5.0)
    assert "step budget" in repl.execute("(let loop () (loop))")
    assert repl.execute("(+ 1 1)") == "2"


def test_fire_with_json(repl):
    out = repl.execute(f",fire pre_tool {RM}")
    assert '"blocked": true' in out
    assert 'answer   scm:tools/guard.scm:2 {"block": true, "message": "no rm -rf"}' in out
    assert out.splitlines()[-1].startswith("1 answer, 0 errors in ")


def test_fire_with_an_alist_evaluated_in_the_repl(repl):
    repl.execute('(define (shell cmd) (list (cons "tool_name" "shell_exec")'
                 ' (cons "arguments" (list (cons "command" cmd)))))')
    assert '"blocked": true' in repl.execute(',fire pre_tool (shell "rm -rf /tmp")')
    out = repl.execute(",fire pre_tool '((tool_name . \"x\") (arguments . ((command . \"ls\"))))")
    assert '"blocked": false' in out and "0 answers" in out


def test_fire_without_payload_uses_the_sample(repl):
    out = repl.execute(",fire pre_tool")
    assert '"command": "ls -la src"' in out and '"blocked": false' in out


def test_fire_reports_hook_errors_with_their_source(repl, home):
    (home / "tools" / "guard.scm").write_text(GUARD.replace("(string-contains command",
                                                            "(string-contains 42"))
    repl.execute(",reload")
    out = repl.execute(",fire pre_tool")
    assert "error    scm:tools/guard.scm:2: pre_tool hook failed:" in out
    assert "0 answers, 1 error in" in out


def test_fire_mistakes(repl):
    assert repl.execute(",fire pre_tol") == "unknown hook point 'pre_tol'; did you mean 'pre_tool'?"
    assert repl.execute(",fire pre_tool {oops").startswith("payload:1:2: invalid JSON: ")
    assert "must be a JSON object ({...}) or an alist" in repl.execute(",fire pre_tool 42")
    assert repl.execute(",fire pre_tool [1,2]") == (
        "the payload must be a JSON object ({...}) or an alist, got [1, 2]")
    assert repl.execute(",fire pre_tool [1,").startswith("payload:1:4: invalid JSON: ")
    assert "car: expected a pair" in repl.execute(",fire pre_tool (car '())")
    assert repl.execute(",fire") == "usage: ,fire HOOK [PAYLOAD]"


def test_sample_is_json_ready_for_fire(repl):
    lines = repl.execute(",sample pre_tool").splitlines()
    assert lines[0].startswith("; pre_tool: fires before a tool runs")
    assert json.loads(lines[-1]) == {"tool_name": "shell_exec",
                                     "arguments": {"command": "ls -la src"}}


def test_trace_shows_every_hook_that_ran(repl):
    assert repl.execute(",trace on") == "trace: on"
    assert "trace    scm:tools/guard.scm:2 " in repl.execute(",fire pre_tool")
    assert repl.execute(",trace off") == "trace: off"
    assert "trace " not in repl.execute(",fire pre_tool")


def test_load_a_broken_file_then_keep_going(repl, tmp_path):
    broken = tmp_path / "broken.scm"
    broken.write_text(BROKEN)
    out = repl.execute(f",load {broken}")
    assert out.startswith(f"{broken}:4:14: car: expected a pair, got an integer")
    assert "(define oops (car 5))" in out and "Traceback" not in out
    assert repl.execute("(+ 1 2)") == "3"


def test_a_mistyped_load_is_said_once_and_then_forgotten(repl, tmp_path):
    missing = tmp_path / "gaurd.scm"
    assert "cannot read" in repl.execute(f",load {missing}")
    assert "gaurd.scm" not in repl.execute(",fire pre_tool")
    assert "gaurd.scm" not in repl.execute(",reload")


def test_load_keeps_the_last_good_version(repl, home):
    guard = home / "tools" / "guard.scm"
    guard.write_text("(register-hook 'pre_tool")
    out = repl.execute(f",load {guard}")
    assert "the last good version stays live" in out
    assert '"blocked": true' in repl.execute(f",fire pre_tool {RM}")


def test_load_a_file_outside_the_home(repl, tmp_path):
    extra = tmp_path / "extra.scm"
    extra.write_text("(register-hook 'pre_message (lambda (p) (list (cons \"prompt\" \"hi\"))))")
    assert repl.execute(f",load {extra}") == \
        f"loaded {extra} (sandboxed): tools: -; hooks: pre_message"
    assert '"prompt": "hi"' in repl.execute(",fire pre_message")
    extra.write_text("(register-hook 'pre_message (lambda (p) (list (cons \"prompt\" \"ho\"))))")
    assert repl.execute(",reload").startswith("reloaded 3 tool files")
    assert '"prompt": "ho"' in repl.execute(",fire pre_message")


def test_tier_switches_to_a_fresh_environment(repl):
    assert repl.execute(",tier") == "tier: sandboxed"
    assert "unsandboxed tier" in repl.execute("(import (harness io))")
    repl.execute("(define x 1)")
    assert repl.execute(",tier unsandboxed").startswith("tier: unsandboxed")
    assert repl.execute("(import (harness io))") == ""
    assert "x" in repl.execute("x")  # unbound again: an error that names it
    assert "unknown tier" in repl.execute(",tier root")


def test_listing_commands(repl):
    assert repl.execute(",hooks").splitlines() == ["HOOK      SOURCE",
                                                   "pre_tool  scm:tools/guard.scm:2"]
    assert "on_start" in repl.execute(",hooks all")
    assert repl.execute(",tools").splitlines()[1].split()[:2] == ["greet", "scm:tools/greet.scm"]


def test_call_runs_a_tool(repl):
    assert repl.execute(',call greet {"name": "Ada"}') == "result   Hello, Ada!"
    assert repl.execute(",call greet '((name . \"Bob\"))") == "result   Hello, Bob!"
    assert repl.execute(",call nothing") == "error    unknown tool 'nothing'"


def test_help_and_command_names(repl):
    listing = repl.execute(",help")
    for name in ("load", "tier", "fire", "sample", "hooks", "tools", "call", "trace", "reload",
                 "quit"):
        assert f",{name}" in listing
    assert repl.execute(",help fire").startswith(",fire HOOK [PAYLOAD]")
    assert repl.execute(",sa pre_tool").startswith("; pre_tool")  # a unique prefix will do
    assert "ambiguous" in repl.execute(",t")
    assert "did you mean ,sample?" in repl.execute(",sampel")


def test_quit_finishes_the_session(repl):
    assert not repl.finished
    repl.execute(",quit")
    assert repl.finished


def test_a_home_that_does_not_exist_is_an_error(tmp_path, capsys):
    from harness.config import ConfigError
    from harness.repl import main
    with pytest.raises(ConfigError, match="does not exist"):
        Runtime(tmp_path / "missing")
    assert main(["--home", str(tmp_path / "missing")]) == 1, "bad input, as for harness"
    assert "harness-repl: harness home" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--bogus"])
    assert exit_.value.code == 1


def test_a_session_over_an_empty_home(tmp_path):
    session = ReplSession(Runtime(tmp_path))
    assert session.execute("(* 6 7)") == "42"
    assert "no hooks registered" in session.execute(",hooks")


def test_reload_runs_a_failed_plugin_schema_again(tmp_path):
    ready = tmp_path / "ready"
    plugin = tmp_path / "plugins" / "late"
    plugin.parent.mkdir()
    plugin.write_text(f"#!/bin/sh\n[ -e {ready} ] || exit 1\n"
                      "echo '{\"name\": \"late\", \"description\": \"d\"}'\n")
    plugin.chmod(0o755)
    session = ReplSession(Runtime(tmp_path))
    assert "plugin:late: --schema exited with code 1" in session.execute(",fire on_start")
    ready.touch()
    assert session.execute(",reload") == "reloaded 0 tool files, 1 plugin"
