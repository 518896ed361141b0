"""``harness COMMAND ...`` builds only the parsers of the module that holds COMMAND
(harness.cli.build_parser): what a user sees — each command's ``--help``, its usage errors,
``harness --help`` and an unknown command's error — is what the parser of every command
says."""

from __future__ import annotations

import contextlib
import io

import pytest

from harness.cli import _COMMANDS, build_parser, main
from harness.cli.scheme_commands import plain_run_args

EVERY_COMMAND = [name for names in _COMMANDS.values() for name in names]


def said(parser, argv: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of parsing ``argv`` with ``parser`` (it exits)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            pytest.raises(SystemExit) as exited:
        parser.parse_args(argv)
    return exited.value.code, out.getvalue(), err.getvalue()


def test_every_subcommand_of_the_full_parser_has_an_owner():
    full = build_parser()
    (sub,) = [a for a in full._actions if a.dest == "command"]
    assert sorted(sub.choices) == sorted(EVERY_COMMAND)


@pytest.mark.parametrize("command", EVERY_COMMAND)
def test_a_commands_help_is_the_same_from_its_own_parser(command):
    own = said(build_parser(command), [command, "--help"])
    assert own == said(build_parser(), [command, "--help"])
    assert own[0] == 0 and own[1].startswith(f"usage: harness {command} ")


@pytest.mark.parametrize("argv", [["run"], ["eval", "1", "--steps", "many"],
                                  ["fire"], ["check", "--tier", "wide"], ["run", "--nope", "x"]])
def test_a_commands_usage_errors_are_the_same_from_its_own_parser(argv):
    own = said(build_parser(argv[0]), argv)
    assert own == said(build_parser(), argv)
    assert own[0] == 1 and ": error: " in own[2]


def test_help_and_an_unknown_command_list_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    listing = capsys.readouterr().out
    assert all(name in listing for name in EVERY_COMMAND)
    with pytest.raises(SystemExit) as exited:
        main(["fier", "pre_tool"])
    assert exited.value.code == 1
    assert "invalid choice: 'fier' (choose from 'fire', 'call'" in capsys.readouterr().err


@pytest.mark.parametrize("words", [["prog.scm"], ["prog.scm", "a", "b c", ""], [""],
                                   ["dir/prog.scm", "run", "eval", "x=1", "@args"]])
def test_harness_run_without_options_reads_its_words_as_the_parser_does(words):
    parsed = build_parser("run").parse_args(["run", *words])
    assert vars(plain_run_args(words)) == vars(parsed)


@pytest.mark.parametrize("words", [[], ["-"], ["--unsandboxed", "p.scm"], ["p.scm", "--steps=9"],
                                   ["p.scm", "-5"], ["p.scm", "--", "x"], ["p.scm", "-h"]])
def test_harness_run_leaves_options_and_a_missing_file_to_the_parser(words):
    assert plain_run_args(words) is None
