"""The ``harness`` command line: one subcommand per module in this package."""

from __future__ import annotations

import argparse
import sys


def build_parser():
    """The parser of every subcommand (each module registers its own)."""
    from harness.cli import (
        check_command,
        claude_command,
        demo,
        hook_commands,
        scheme_commands,
        test_command,
    )
    from harness.cli.parser import HarnessParser
    parser = HarnessParser(
        prog="harness", description="An embeddable, Scheme-scripted hook runtime for LLM "
        "agent hosts.", epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    # in the order a user meets them (and the README's command table lists them)
    hook_commands.register(sub)
    check_command.register(sub)
    test_command.register(sub)
    claude_command.register(sub)
    scheme_commands.register(sub)
    demo.register(sub)
    return parser


_EPILOG = """\
The home is --home DIR, else $HARNESS_HOME, else ~/.harness: tools/ (.scm, .hy, .py files),
plugins/ (executables), vfs/, hooks.toml, harness.toml. harness-repl tries hooks and tools
interactively. `harness COMMAND --help` describes a command; README.md has the rest.

exit status: 0 done; 1 bad input (an unknown option, command or hook point, invalid JSON,
a missing home, a malformed harness.toml) or a failure (a tool call, a check, a test case);
2 when what fire or claude-hook dispatched blocks or denies, or a test fixture is unusable."""


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["claude-hook"]:  # on every Claude Code event: import nothing else
        from harness.cli import claude_command
        return claude_command.main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
