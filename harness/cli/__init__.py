"""The ``harness`` command line: one subcommand per module in this package."""

from __future__ import annotations

import sys

#: the module of ``harness.cli`` that registers each subcommand, in the order a user meets
#: them (and docs/reference/cli.md lists them)
_COMMANDS = {
    "hook_commands": ("fire", "call", "tools", "hooks", "sample", "serve"),
    "check_command": ("check",),
    "test_command": ("test",),
    "install_command": ("install", "uninstall"),
    "host_command": ("hook", "claude-hook"),
    "replay_command": ("replay",),
    "scheme_commands": ("run", "eval"),
    "demo": ("demo",),
    "mcp_command": ("mcp",),
}


def build_parser(command: str | None = None):
    """The parser of every subcommand (each module registers its own); given the
    ``command`` argv names, only the parsers of the module that holds it. A process runs
    one command, and importing every command's module and building every parser cost
    ``harness run`` a third of its start-up (bench/commands.py); a subcommand's parser,
    its ``--help`` and its errors are the same either way (tests/cli/test_parser.py)."""
    import argparse
    import importlib

    from harness.cli.parser import HarnessParser
    parser = HarnessParser(
        prog="harness", description="An embeddable, Scheme-scripted hook runtime for LLM "
        "agent hosts.", epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    owners = [module for module, names in _COMMANDS.items() if command in names]
    for module in owners or _COMMANDS:
        importlib.import_module(f"harness.cli.{module}").register(sub)
    return parser


_EPILOG = """\
The home is --home DIR, else $HARNESS_HOME, else ~/.harness: tools/ (.scm, .hy, .py files),
plugins/ (executables), vfs/, hooks.toml, harness.toml. harness-repl tries hooks and tools
interactively. `harness COMMAND --help` describes a command; docs/ has the rest.

exit status: 0 done; 1 bad input (an unknown option, command or hook point, invalid JSON,
a missing home, a malformed harness.toml) or a failure (a tool call, a check, a test case);
2 when what fire, hook or claude-hook dispatched blocks or denies, or a test fixture is unusable."""


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] in (["hook"], ["claude-hook"]):  # on every host event: import nothing else
        from harness.cli import host_command
        return host_command.main(argv[1:], "claude-code" if argv[0] == "claude-hook" else None)
    args = None
    if argv[:1] == ["run"]:  # the commonest command: see plain_run_args
        from harness.cli.scheme_commands import plain_run_args
        args = plain_run_args(argv[1:])
    if args is None:
        args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        return args.run(args) or 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
