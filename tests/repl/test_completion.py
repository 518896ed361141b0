"""Tab completion of commands, hook points, tools, tiers, paths and bound names."""

from __future__ import annotations

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from harness.repl.completion import ReplCompleter


def complete(repl, text: str) -> list[str]:
    found = ReplCompleter(repl).get_completions(Document(text),
                                                CompleteEvent(completion_requested=True))
    return [c.text for c in found]


@pytest.mark.parametrize(("text", "expected"), [
    (",fi", ["fire"]),
    (",fire pre_to", ["pre_tool", "pre_tool_output"]),
    ("  ,sample on_", ["on_start", "on_end", "on_context_switch"]),
    (",call gr", ["greet"]),
    (",call file_h", ["file_head"]),
    ('(call-tool "shell_e', ["shell_exec"]),
    (",tier un", ["unsandboxed"]),
    (",trace o", ["on", "off"]),
    (",hooks a", ["all"]),
    (",help re", ["reload"]),
    ("(string-app", ["string-append"]),
    ("(register-hook 'pre_api_t", ["pre_api_tools"]),
    ('(call-tool "gr', ["greet"]),
    (",fire pre_tool (lis", ["list", "list->string", "list->vector"]),
])
def test_completions(repl, text, expected):
    assert complete(repl, text)[:len(expected)] == expected


def test_names_defined_at_the_prompt_complete(repl):
    assert complete(repl, "(my-hel") == []
    repl.execute("(define (my-helper x) x)")
    assert complete(repl, "(my-hel") == ["my-helper"]


def test_nothing_to_complete_in_an_empty_word(repl):
    assert complete(repl, "(+ 1 ") == []
    assert complete(repl, ",fire pre_tool {") == []


def test_load_completes_paths(repl, home):
    assert complete(repl, f",load {home}/to") == ["ols"]
