"""The ``harness`` command line: one subcommand per module in this package."""

from __future__ import annotations

import argparse
import sys

from harness.cli import (
    check_command,
    claude_command,
    demo,
    hook_commands,
    scheme_commands,
    test_command,
)
from harness.cli.exit_status import FAILED


class _Parser(argparse.ArgumentParser):
    """argparse with bad input exiting FAILED (1), not 2: for ``harness fire`` 2 means
    that the outcome blocks, and a typo must never read as a block."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(FAILED, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="harness", description="Scheme-scripted hook runtime for LLM agent hosts")
    sub = parser.add_subparsers(dest="command", required=True)
    scheme_commands.register(sub)
    demo.register(sub)
    test_command.register(sub)
    hook_commands.register(sub)
    check_command.register(sub)
    claude_command.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["claude-hook"]:  # on every Claude Code event: no parser for the rest
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
