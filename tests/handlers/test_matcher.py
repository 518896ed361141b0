"""Matchers exactly as Claude Code matches, and the ``if`` permission rules."""

import pytest

from harness.handlers.if_rule import compile_if
from harness.handlers.matcher import compile_matcher, matched_value


@pytest.mark.parametrize(("matcher", "value", "hit"), [
    (None, "Bash", True), ("", "Bash", True), ("*", "Bash", True),
    ("Bash", "Bash", True), ("Bash", "bash", False), ("Bash", "BashOutput", False),
    ("Edit|Write", "Write", True), (" Edit , Write ", "Edit", True),
    ("Edit|Write", "NotebookEdit", False), ("Edit.*", "NotebookEdit", True),
    ("^Edit$", "NotebookEdit", False), ("code-reviewer", "senior-code-reviewer", False),
    ("mcp__memory__.*", "mcp__memory__create", True), ("mcp__memory", "mcp__memory__x", False),
    (r"^\w+$", "Bash", True), (r"\d", "٣", False),  # JavaScript's \d is ASCII
    ("(?<tool>Bash)", "Bash", True),  # named groups as JavaScript writes them
    ("^my-plugin:reviewer$", "my-plugin:reviewer", True),
])
def test_exact_names_or_unanchored_regex(matcher, value, hit):
    assert compile_matcher(matcher, "PreToolUse").matches(value) is hit


def test_file_changed_has_the_narrow_exact_set_and_matches_base_names():
    assert compile_matcher(".envrc|.env", "FileChanged").pattern is not None
    names = compile_matcher("package_json|Makefile", "FileChanged")
    assert names.names == {"package_json", "Makefile"}
    assert compile_matcher("a, b", "FileChanged").pattern is not None, "a comma means regex"
    assert matched_value("FileChanged", "file_path", {"file_path": "/p/.envrc"}) == ".envrc"


def test_a_bad_regex_is_an_error_with_the_reason():
    with pytest.raises(ValueError, match=r"matcher '\(Bash' is not a valid regular expr"):
        compile_matcher("(Bash", "PreToolUse")


def test_a_non_string_value_never_matches_a_real_matcher():
    assert not compile_matcher("Bash", "PreToolUse").matches(None)
    assert compile_matcher("*", "PreToolUse").matches(None)


def _if(rule, tool, **tool_input):
    return compile_if(rule).matches(tool, tool_input, "/work/p", "/work/p")


@pytest.mark.parametrize(("rule", "command", "hit"), [
    ("Bash(git *)", "git push", True), ("Bash(git *)", "FOO=1 BAR=2 git status", True),
    ("Bash(git *)", "npm test && git commit -m x", True),
    ("Bash(git *)", "echo $(git rev-parse HEAD)", True),
    ("Bash(git *)", "echo `git log`", True), ("Bash(git *)", "ls | grep git", False),
    ("Bash(git *)", "gitk", False), ("Bash(npm run test:*)", "npm run test --watch", True),
    ("Bash(npm run test:*)", "npm run testing", False), ("Bash", "anything", True),
    ("Bash(git *)", 'echo "unclosed', True),  # cannot be parsed: fails open
])
def test_shell_rules_test_every_subcommand(rule, command, hit):
    assert _if(rule, "Bash", command=command) is hit


@pytest.mark.parametrize(("rule", "path", "hit"), [
    ("Edit(*.ts)", "/work/p/src/a.ts", True), ("Edit(*.ts)", "/work/p/src/a.tsx", False),
    ("Edit(/src/**/*.ts)", "/work/p/src/deep/a.ts", True),
    ("Edit(/src/**/*.ts)", "/work/p/src/a.ts", True),
    ("Edit(/src/*.ts)", "/work/p/src/deep/a.ts", False),
    ("Edit(//etc/*)", "/etc/hosts", True), ("Edit(./docs/*)", "docs/a.md", True),
])
def test_file_rules_are_gitignore_patterns(rule, path, hit):
    assert _if(rule, "Edit", file_path=path) is hit


def test_other_tools_and_other_rules():
    assert _if("WebFetch(domain:example.com)", "WebFetch", url="https://docs.example.com/x")
    assert not _if("WebFetch(domain:example.com)", "WebFetch", url="https://example.org")
    assert _if("Agent(Explore)", "Agent", subagent_type="Explore")
    assert not _if("Edit(*.ts)", "Write", file_path="a.ts"), "another tool never matches"
    assert _if("mcp__memory__*", "mcp__memory__store")


@pytest.mark.parametrize("rule", ["Bash(git *) && Edit", "Bash(git *) || Edit", "Bash(git",
                                  "not a rule!"])
def test_if_is_one_rule(rule):
    with pytest.raises(ValueError):
        compile_if(rule)
