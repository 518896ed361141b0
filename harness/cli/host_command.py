"""``harness hook HOST`` (and ``harness claude-hook``, its Claude Code alias): answer one
host event, read on stdin, as that host's command hook.

Where the answer comes from, in order:

1. ``--http URL`` (or ``$HARNESS_HOOK_URL``): a running ``harness serve --http``;
2. ``--socket PATH`` (or ``$HARNESS_SOCKET``): a running ``harness serve --socket``;
3. this process: the home is loaded and the event answered here. Also when nothing listens
   at the given socket or URL.

Never open: when no answer can be had — the home is missing, ``harness.toml`` is broken,
harness fails, the daemon answers 401 or garbage or nothing within ``--timeout`` seconds,
a socket belongs to another user — a guard event (a tool call, a permission, a prompt) is
denied in the host's format, with the reason; any other event gets exit 1 (reported,
blocks nothing). ``HARNESS_FAIL_OPEN=1`` turns those denies into exit 1, loudly.

The client paths (1, 2) import only the standard library (harness.cli.hook_client), which
also runs as a script of its own without harness's package, the lightest per-event client:
``python3 -S -I .../harness/cli/hook_client.py HOST --http URL`` (bench/hosts.py). Path 3
and the denies are harness.cli.answer_here's, which that script loads when the daemon
cannot answer (so neither client module imports this one: no import circle).
"""

from __future__ import annotations

import os
import sys

from harness.cli.answer_here import after_client, answer_here, emit

__all__ = ["DESCRIPTION", "main", "register", "run"]

DESCRIPTION = ("Read one hook event of HOST on stdin, run everything registered for it and "
               "for its harness hook points, and answer as HOST's command hook. When "
               "harness cannot answer, a guard event is denied (never open); see "
               "docs/hosts.md.")
_DEFAULT_TIMEOUT = 60.0  # seconds a client waits for a daemon


def register(sub) -> None:
    hook = sub.add_parser("hook", help="answer one host hook event (stdin) as that host's "
                                       "command hook", description=DESCRIPTION)
    hook.add_argument("host", metavar="HOST", help="claude-code, codex, gemini, cursor, "
                                                   "copilot, windsurf, cline or kiro")
    _options(hook)
    hook.set_defaults(run=run)
    alias = sub.add_parser("claude-hook", help="answer one Claude Code hook event (stdin): "
                                               "harness hook claude-code",
                           description=DESCRIPTION)
    _options(alias)
    alias.set_defaults(run=run, host="claude-code")


def _options(parser) -> None:
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")
    parser.add_argument("--event", default=None, metavar="NAME",
                        help="the event's name, for hosts whose payload does not carry it "
                             "(copilot, windsurf, kiro's IDE)")
    via = parser.add_mutually_exclusive_group()
    via.add_argument("--socket", default=None, metavar="PATH",
                     help="ask `harness serve --socket PATH` (default: $HARNESS_SOCKET)")
    via.add_argument("--http", default=None, metavar="URL",
                     help="ask `harness serve --http` at URL, e.g. http://127.0.0.1:8765 "
                          "(default: $HARNESS_HOOK_URL); the token is $HARNESS_TOKEN, else "
                          "HOME/serve.token")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help=f"deny a guard event when no answer came within SECONDS (a "
                             f"daemon: default {_DEFAULT_TIMEOUT:g}; this process: none); "
                             "keep it below the host's own hook timeout")


def main(argv: list[str], host: str | None = None) -> int:
    """``harness hook ARGV`` (``host`` given: ``harness claude-hook ARGV``), parsed on its
    own — the fast path of harness.cli.main; a usage error is exit 1, never 2."""
    import argparse
    prog = "harness claude-hook" if host else "harness hook"
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION, exit_on_error=False)
    if host is None:
        parser.add_argument("host", metavar="HOST")
    _options(parser)
    try:
        args, unknown = parser.parse_known_args(argv)
    except argparse.ArgumentError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    except SystemExit as exc:  # --help, or a missing HOST
        return 0 if exc.code == 0 else 1
    if unknown:
        print(f"{prog}: unknown arguments: {' '.join(unknown)}", file=sys.stderr)
        return 1
    if host is not None:
        args.host = host
    return run(args)


def run(args) -> int:
    host = "claude-code" if args.host == "claude" else args.host
    data = sys.stdin.buffer.read()
    url = args.http or (None if args.socket else os.environ.get("HARNESS_HOOK_URL"))
    path = args.socket or (None if url else os.environ.get("HARNESS_SOCKET"))
    if url or path:
        from harness.cli import hook_client as client
        try:
            reply = client.ask(host, data, url, path, args.event, _token(args.home),
                               args.timeout or _DEFAULT_TIMEOUT)
        except (client.Unreachable, client.ClientFailure) as exc:
            return after_client(host, args, data, str(exc),
                                isinstance(exc, client.Unreachable))
        return emit(reply["exit_code"], reply["stdout"], reply["stderr"])
    return answer_here(host, args, data)


def _token(home: str | None) -> str | None:
    from harness.cli.hook_client import token
    return token(home)
