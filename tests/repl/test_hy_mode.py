"""The REPL in Hy mode (``harness-repl --hy`` or ``,hy on``): Hy code at the prompt, hooks
and tools defined there live at once, and ,fire / ,call / ,sample / ,trace as in Scheme."""

from __future__ import annotations

import io
import json

import pytest
from repl_helpers import write_home

from harness.repl.batch import run_batch
from harness.repl.session import ReplSession
from harness.runtime import Runtime

NO_RM = """\
(defn [(hook "pre_tool")] no-rm [payload]
  (when (in "rm" (.get (get payload "arguments") "command" ""))
    {"block" True "message" "no rm here"}))"""


@pytest.fixture
def hy_repl(tmp_path):
    runtime = Runtime(write_home(tmp_path / "home"))
    yield ReplSession(runtime, language="hy")
    runtime.close()


def test_hy_expressions_print_their_value_and_output(hy_repl):
    assert hy_repl.prompt == "hy> "
    assert hy_repl.execute("(+ 1 2)") == "3"
    assert hy_repl.execute("(defn twice [x] (* 2 x))") == ""
    assert hy_repl.execute("(twice 21)") == "42"
    assert hy_repl.execute('(print "hi") ["a" 1]') == 'hi\n["a" 1]'


def test_hy_errors_use_the_caret_format(hy_repl):
    assert hy_repl.execute("(/ 1 0)") == \
        "<repl-1>:1:2: ZeroDivisionError: division by zero\n(/ 1 0)\n ^"
    assert hy_repl.execute("(setv x (").startswith(
        "<repl-2>:1:9: Premature end of input")


def test_a_hook_defined_at_the_prompt_is_fired_and_replaced_by_its_redefinition(hy_repl):
    hy_repl.execute(NO_RM)
    rm = '{"tool_name": "shell_exec", "arguments": {"command": "rm x"}}'
    out = hy_repl.execute(f",fire pre_tool {rm}")
    assert 'outcome  {"blocked": true, "message": "no rm here"' in out
    assert "answer   hy:<repl-1>:1 " in out
    hy_repl.execute(NO_RM.replace("no rm here", "still no"))
    sources = [line.split()[1] for line in hy_repl.execute(",hooks").splitlines()[1:]]
    assert sources == ["scm:tools/guard.scm:2", "hy:<repl-2>:1"]  # replaced, not added
    assert '"still no"' in hy_repl.execute(f",fire pre_tool {rm}")


def test_payloads_and_arguments_may_be_hy_dicts(hy_repl):
    hy_repl.execute(NO_RM)
    out = hy_repl.execute(',fire pre_tool {"tool_name" "shell_exec" '
                          '"arguments" {"command" "rm x"}}')
    assert '"blocked": true' in out
    assert hy_repl.execute(',call greet {"name" "Ada"}').splitlines()[0] == "result   Hello, Ada!"
    hy_repl.execute('(defn [(tool :description "doubles")] twice [args] (* 2 (get args "n")))')
    assert hy_repl.execute(',call twice {"n" 21}').splitlines()[0] == "result   42"
    assert "no JSON form" in hy_repl.execute(",fire pre_tool #{1 2}")


def test_a_failing_prompt_hook_shows_its_line_in_the_trace(hy_repl):
    hy_repl.execute('(defn [(hook "post_tool")] broken [payload] (get payload "nope"))')
    assert hy_repl.execute(",trace on") == "trace: on"
    out = hy_repl.execute(",fire post_tool")
    assert "trace    hy:<repl-1>:1 " in out and "failed" in out
    assert "<repl-1>:1:46: KeyError: 'nope'" in out


def test_switching_languages_keeps_each_sides_definitions(hy_repl):
    hy_repl.execute("(setv x 41)")
    assert hy_repl.execute(",hy off") == "hy: off (Scheme)"
    assert hy_repl.prompt == "harness> "
    assert hy_repl.execute("(define y 1)") == ""
    assert hy_repl.execute(",hy on").startswith("hy: on")
    assert hy_repl.execute("(+ x 1)") == "42"
    assert hy_repl.execute(",hy maybe") == "usage: ,hy [on|off]"


def test_sample_and_load_work_in_hy_mode(hy_repl, tmp_path):
    sample = hy_repl.execute(",sample pre_tool").splitlines()[-1]
    assert json.loads(sample)["tool_name"] == "shell_exec"
    guard = tmp_path / "guard.hy"
    guard.write_text('(import harness.api [hook])\n(defn [(hook "on_start")] f [p] None)\n')
    out = hy_repl.execute(f",load {guard}")
    assert "cannot be sandboxed" in out  # outside HOME/tools: the sandboxed default


def test_piped_entries_are_complete_hy_forms(tmp_path):
    runtime = Runtime(write_home(tmp_path / "home"))
    session = ReplSession(runtime, language="hy")
    out = io.StringIO()
    lines = io.StringIO("(defn f [x]\n  (+ x 1))\n(f 1)\n,fire on_start\n(f\n")
    assert run_batch(session, [], lines, out) == 1  # the input ends inside (f
    shown = out.getvalue().splitlines()
    assert shown[0] == "2"
    assert shown[1].startswith("outcome  {}")
    assert "Premature end of input" in out.getvalue()
    runtime.close()


def test_tab_completes_names_bound_at_the_hy_prompt(hy_repl):
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from harness.repl.completion import ReplCompleter
    hy_repl.execute("(defn word-count [args] 0)")

    def complete(text: str) -> list[str]:
        found = ReplCompleter(hy_repl).get_completions(
            Document(text), CompleteEvent(completion_requested=True))
        return [c.text for c in found]

    assert complete("(word-") == ["word-count"]  # as Hy spells it
    assert complete(",hy o") == ["on", "off"]
