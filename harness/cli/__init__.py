"""The ``harness`` command line: one subcommand per module in this package."""

from __future__ import annotations

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
