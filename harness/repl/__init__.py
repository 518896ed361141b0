"""``harness-repl [--home DIR] [FILE...]``: try hooks and tools interactively.

``session.ReplSession`` is the REPL without a terminal (commands in ``commands``, output in
``render``); ``app`` is the prompt_toolkit front end over it, ``batch`` reads a pipe.
"""

from __future__ import annotations

import argparse
import sys

from harness.cli.exit_status import FAILED
from harness.cli.parser import HarnessParser


def build_parser() -> argparse.ArgumentParser:
    parser = HarnessParser(
        prog="harness-repl", description="Try hooks and tools of a harness home interactively")
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="tool files to load (as ,load FILE) before the first prompt")
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")
    parser.add_argument("--tier", choices=("sandboxed", "unsandboxed"), default="sandboxed",
                        help="tier of the expressions typed at the prompt (default: sandboxed)")
    parser.add_argument("--hy", action="store_true",
                        help="type Hy instead of Scheme at the prompt (,hy off goes back)")
    parser.add_argument("--no-watch", action="store_true",
                        help="do not reload the home's files when they change")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the REPL (on a terminal, or over a pipe); the exit status is 0, or 1 for bad
    input as for every ``harness`` command (an unknown option, a home that cannot be
    opened, piped input that ends inside an entry)."""
    args = build_parser().parse_args(argv)
    from harness.config import ConfigError
    from harness.repl.session import ReplSession
    from harness.runtime import Runtime
    try:
        runtime = Runtime(args.home)
    except ConfigError as exc:
        print(f"harness-repl: {exc}", file=sys.stderr)
        return FAILED
    session = ReplSession(runtime, args.tier, "hy" if args.hy else "scheme")
    try:
        if not sys.stdin.isatty():
            from harness.repl.batch import run_batch
            return run_batch(session, args.files, sys.stdin, sys.stdout)
        from harness.repl.app import run
        return run(session, args.files, watch=not args.no_watch)
    finally:
        runtime.close()


__all__ = ["main"]
