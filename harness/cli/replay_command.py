"""``harness replay PATH... [--home DIR] [--host HOST] [--against OTHER_HOME] [--fixtures DIR]
[--handlers] [--json]``: what the home would have done to past sessions (SPEC §17).

Exit status: 0 replayed (whatever the home decided; problems in the files are reported and
skipped), 1 bad input (a missing home, a broken harness.toml, an unknown host).
"""

from __future__ import annotations

import sys

from harness.cli.exit_status import FAILED

DESCRIPTION = (
    "Read session transcripts (Claude Code project JSONL files, Codex rollouts) and harness "
    "recordings (the [record] audit log), rebuild the hook events each prompt and tool call "
    "produced, fire them through the home without running any tool, and report per event "
    "and per hook source what the home decides: allow, block, deny, ask or rewrite. "
    "Folders are read recursively. Broken lines and unknown files are reported as FILE:LINE "
    "and skipped.")


def register(sub) -> None:
    parser = sub.add_parser("replay", help="replay past sessions through the home's hooks",
                            description=DESCRIPTION)
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="transcript files or folders (read recursively)")
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")
    parser.add_argument("--host", default=None, metavar="HOST",
                        help="the host that wrote the transcripts (default: told from each "
                             "file): claude-code, codex")
    parser.add_argument("--against", default=None, metavar="OTHER_HOME",
                        help="fire every event through this home too and report only the "
                             "events the two decide differently")
    parser.add_argument("--fixtures", default=None, metavar="DIR",
                        help="write the reported events as harness test cases whose "
                             "expectations are this home's outcomes")
    parser.add_argument("--handlers", action="store_true",
                        help="run declared handlers (command, http, mcp, prompt, agent) too: "
                             "they have side effects, so they are skipped by default")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=run)


def run(args) -> int:
    from harness.bridge import dumps
    from harness.config import ConfigError
    from harness.replay import replay
    from harness.replay.report import render_text
    from harness.replay.sources import unknown_host
    from harness.runtime import Runtime
    if args.host is not None:
        problem = unknown_host(args.host)
        if problem:
            print(f"harness replay: {problem}", file=sys.stderr)
            return FAILED
    runtimes = []
    try:
        for home in (args.home, *((args.against,) if args.against else ())):
            runtimes.append(Runtime(home))
    except ConfigError as exc:
        print(f"harness replay: {exc}", file=sys.stderr)
        for runtime in runtimes:
            runtime.close()
        return FAILED
    try:
        report = replay(args.paths, runtimes[0], host=args.host,
                        against=runtimes[1] if len(runtimes) > 1 else None,
                        handlers=args.handlers, fixtures=args.fixtures)
    finally:
        for runtime in runtimes:
            runtime.close()
    if args.json:
        sys.stdout.write(dumps(report).decode() + "\n")
    else:
        sys.stdout.write(render_text(report["events"], report["summary"], report["problems"],
                                     against=args.against is not None))
    return 0
