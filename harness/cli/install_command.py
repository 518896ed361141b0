"""``harness install HOST`` and ``harness uninstall HOST``: write (or take out) the host's
hook configuration that runs harness on every event (harness.install; docs/install.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.cli.exit_status import FAILED, OK

#: where ``--via http`` finds ``harness serve --http`` unless --url says otherwise
DEFAULT_URL = "http://127.0.0.1:8765"


def register(sub) -> None:
    from harness.install.hosts import HOST_NAMES
    hosts = ", ".join(HOST_NAMES)
    install = sub.add_parser(
        "install", help="install harness in a coding agent's hooks",
        description=f"Write or merge HOST's hook configuration ({hosts}) so that every "
                    "guard event and the events harness maps run harness: in the project "
                    "(--project DIR, default the current directory) or for the user "
                    "(--user). The user's own hooks stay; a second install changes "
                    "nothing; the first change to a file keeps a NAME.harness-backup. "
                    "See docs/install.md.")
    _common(install)
    install.add_argument("--via", choices=("command", "socket", "http"), default="command",
                         help="command: a harness process per event (default); socket: "
                              "hand events to `harness serve --socket PATH`; http: "
                              "`harness serve --http` (Claude Code posts to it itself)")
    install.add_argument("--socket", default=None, metavar="PATH",
                         help="with --via socket: the socket of harness serve --socket")
    install.add_argument("--url", default=None, metavar="URL",
                         help=f"with --via http: where harness serve --http listens "
                              f"(default {DEFAULT_URL})")
    install.set_defaults(run=_install)
    uninstall = sub.add_parser(
        "uninstall", help="take harness out of a coding agent's hooks",
        description="Remove exactly the hooks harness install wrote for HOST (recognised "
                    "by their harness command); the file as it was comes back from its "
                    "backup when nothing else changed, and a file harness created is "
                    "deleted.")
    _common(uninstall)
    uninstall.set_defaults(run=_uninstall)


def _common(parser) -> None:
    parser.add_argument("host", metavar="HOST", help="claude-code, codex, cursor, gemini, "
                                                     "copilot, windsurf, cline or kiro")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--project", default=None, metavar="DIR",
                       help="the project whose configuration to change (default: the "
                            "current directory)")
    where.add_argument("--user", action="store_true",
                       help="change the user's configuration ($HOME) instead")
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home the hooks use (default: $HARNESS_HOME, else "
                             "~/.harness)")


def _project(args) -> Path | None:
    return None if args.user else Path(args.project or ".")


def _install(args) -> int:
    from harness.config import HomeNotFoundError
    from harness.install import InstallError, Via, install
    from harness.runtime import resolve_home
    home = resolve_home(args.home)
    if not home.is_dir():
        return _fail(args, str(HomeNotFoundError(home)))
    if args.via == "socket" and not args.socket:
        return _fail(args, "--via socket needs --socket PATH (the socket of harness serve "
                           "--socket PATH)")
    if args.socket and args.via != "socket" or args.url and args.via != "http":
        return _fail(args, "--socket goes with --via socket, --url with --via http")
    via = Via(args.via, socket=str(Path(args.socket).resolve()) if args.socket else None,
              url=args.url or DEFAULT_URL if args.via == "http" else None)
    try:
        report = install(args.host, home, project=_project(args), via=via)
    except InstallError as exc:
        return _fail(args, str(exc))
    return _print(report)


def _uninstall(args) -> int:
    from harness.install import InstallError, uninstall
    try:
        report = uninstall(args.host, project=_project(args))
    except InstallError as exc:
        return _fail(args, str(exc))
    return _print(report)


def _print(report) -> int:
    for line in report.lines:
        print(line)
    for warning in report.warnings:
        print(f"note: {warning}")
    return OK


def _fail(args, message: str) -> int:
    print(f"harness {args.command}: {message}", file=sys.stderr)
    return FAILED
