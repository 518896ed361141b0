"""``harness fire|call|tools|hooks|sample|serve``: the hook runtime from the command line.

Exit status (``exit_status``): 0 on success, 1 for bad input (unknown hook point, malformed
JSON, a home that does not exist, a bad ``harness.toml``) or a failed tool call, and 2 when
what ``fire`` dispatched blocks or denies.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

from harness.cli.exit_status import BLOCKED, FAILED, OK
from harness.repl.render import table

# Every harness command builds this module's parsers (harness run too), so JSON (orjson
# and the bridge, which brings the hook catalogue) is imported where it is used.


class UsageError(Exception):
    """A problem with what the user typed; reported on stderr with exit status 1."""


def register(sub) -> None:
    fire = sub.add_parser(
        "fire", help="fire a hook point and print the dispatch result",
        description="Fire a hook point of the home and print the dispatch result as JSON: "
                    "the combined outcome, every answer and every error with its source. "
                    "Exit status 2 when the outcome blocks or denies, 1 on bad input.")
    fire.add_argument("hook", help="hook point name, e.g. pre_tool")
    fire.add_argument("payload", nargs="?", default=None,
                      help="payload as a JSON object, or - to read it from stdin "
                           "(default: the hook point's sample, see harness sample)")
    fire.add_argument("--allow", action="store_true",
                      help="approve permission requests (stands in for a host handler)")
    fire.add_argument("--trace", action="store_true",
                      help="add a trace: who ran, how long and what each printed")
    fire.add_argument("--compact", action="store_true", help="print JSON on one line")
    home_option(fire)
    fire.set_defaults(run=_fire)

    call = sub.add_parser(
        "call", help="run a tool through the full hook stack",
        description="Run a tool through the whole pipeline (pre_tool, the permission gate "
                    "of its category, the tool, pre_tool_output, the output cache, "
                    "post_tool_output, post_tool) and print its output; hook failures go "
                    "to stderr. Exit status 1 when it fails, is blocked or denied, or does "
                    "not exist.")
    call.add_argument("tool", help="tool name")
    call.add_argument("args", nargs="?", default=None,
                      help="arguments as a JSON object, or - to read them from stdin")
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    call.add_argument("--context", default="default", metavar="NAME",
                      help="the calling context: %%context-name%%, the VFS zones "
                           "/home/NAME and the tool cache (default: default)")
    call.add_argument("--allow", action="store_true",
                      help="approve permission requests (stands in for a host handler)")
    home_option(call)
    call.set_defaults(run=_call)

    tools = sub.add_parser("tools", help="list the registered tools",
                           description="List the home's tools with their sources; load "
                                       "errors go to stderr.")
    tools.add_argument("--json", action="store_true", help="print the schemas as JSON")
    tools.add_argument("--builtins", action="store_true",
                       help="also list the builtin tools the home does not shadow")
    home_option(tools)
    tools.set_defaults(run=_tools)

    hooks = sub.add_parser(
        "hooks", help="list the registered hooks in dispatch order",
        description="List the home's hook registrations in dispatch order with their "
                    "sources; --all lists every hook point instead (needs no home).")
    hooks.add_argument("--json", action="store_true", help="print the list as JSON")
    hooks.add_argument("--all", action="store_true",
                       help="list every hook point (the catalogue), not what is registered")
    home_option(hooks)
    hooks.set_defaults(run=_hooks)

    sample = sub.add_parser(
        "sample", help="print a hook point's sample payload as JSON",
        description="Print a hook point's sample payload as JSON on stdout and its doc and "
                    "answer keys on stderr: harness sample pre_tool | harness fire pre_tool -")
    sample.add_argument("hook", help="hook point name, e.g. pre_tool")
    sample.set_defaults(run=_sample)

    serve = sub.add_parser(
        "serve", help="JSON-RPC 2.0 over stdin/stdout, one message a line",
        description="Serve the home over JSON-RPC 2.0, one message a line: methods fire "
                    "{hook, payload}, call {tool, args, context}, tools, hooks, load_errors "
                    "and claude_hook {event, cwd, env}. The home is watched: every reload is "
                    "sent as a reload notification, and load_errors whenever what failed to "
                    "load changes.")
    where = serve.add_mutually_exclusive_group()
    where.add_argument("--socket", default=None, metavar="PATH",
                       help="serve on a Unix socket instead (any number of clients, e.g. "
                            "harness hook HOST --socket PATH) until SIGTERM")
    where.add_argument("--http", default=None, metavar="[HOST:]PORT",
                       help="answer every host's hook events over HTTP (POST /<host>, "
                            "token in HOME/serve.token; loopback unless HOST is given; "
                            "docs/hosts.md) until SIGTERM")
    serve.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                       help="with --http: deny a guard event not answered within SECONDS "
                            "(keep it below the host's own hook timeout)")
    serve.add_argument("--allow", action="store_true",
                       help="approve permission requests (stands in for a host handler)")
    home_option(serve)
    serve.set_defaults(run=_serve)


def home_option(parser) -> None:
    """Add ``--home DIR`` to a subcommand's parser."""
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")


# -- shared helpers -----------------------------------------------------------------------

def usage_errors(fn):
    """Turn UsageError, a missing home and a malformed harness.toml into a message and exit
    status 1."""
    def run(args) -> int:
        from harness.config import ConfigError
        try:
            return fn(args)
        except (UsageError, ConfigError) as exc:
            print(f"harness {args.command}: {exc}", file=sys.stderr)
            return FAILED
    return run


def parse_json_object(text: str, what: str) -> dict:
    """``text`` as a JSON object; a UsageError says where it is malformed."""
    import orjson

    from harness.json_errors import json_error
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise UsageError(json_error(what, text, exc)) from None
    if not isinstance(value, dict):
        raise UsageError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


def _json_argument(text: str | None, what: str) -> dict:
    if text is None:
        return {}
    if text == "-":
        text = sys.stdin.read()
    return parse_json_object(text, what)


def to_json(value: object, compact: bool = False) -> str:
    """``value`` as JSON text: indented by two, or on one line when ``compact``."""
    import orjson

    from harness.bridge import dumps
    if compact:
        return dumps(value).decode()
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # integers beyond 64 bits: exact through the bridge's slow path
        return json.dumps(json.loads(dumps(value)), indent=2, ensure_ascii=False)


def open_runtime(args, permission_handler=None):
    """The Runtime of ``--home``; what failed to load is reported on stderr."""
    from harness.cli.frozen_imports import freeze_imports
    from harness.runtime import Runtime
    freeze_imports()
    rt = Runtime(args.home, permission_handler=permission_handler)
    report_load_problems(rt)
    return rt


def report_load_problems(rt) -> None:
    """Print what harness.toml has that harness does not know, the tool files that failed
    to load and the plugin problems on stderr."""
    for warning in rt.config.warnings:
        print(f"harness: warning: {warning}", file=sys.stderr)
    for path, message in rt.load_errors.items():
        failure = rt.registry.failures.get(path)
        if failure is not None and rt.registry.get(path) is not None:
            message = failure.report(running=True)  # its last good version runs instead
        print(f"harness: load error: {message}", file=sys.stderr)
    for entry in rt.plugins.problems:
        print(f"harness: {entry['source']}: {entry['message']}", file=sys.stderr)
    for entry in (*rt.registry.standing_notices(), *rt.shadowed_builtins()):
        print(f"harness: {entry['source']}: {entry['message']}", file=sys.stderr)


def _approve(hook: str, payload: dict) -> bool:
    return True


# -- commands ------------------------------------------------------------------------------

def hook_point_named(name: str):
    """The hook point ``name``; a UsageError names the closest valid one."""
    from harness.hooks.catalogue import UnknownHookError, hook_point
    try:
        return hook_point(name)
    except UnknownHookError as exc:
        raise UsageError(str(exc)) from None


@usage_errors
def _fire(args) -> int:
    from harness.hooks.outcome import blocks_or_denies
    point = hook_point_named(args.hook)
    payload = None if args.payload is None else _json_argument(args.payload, "payload")
    rt = open_runtime(args, _approve if args.allow else None)
    if payload is None:
        print(f"harness fire: no payload given: using the sample payload of {point.name} "
              f"(harness sample {point.name} prints it)", file=sys.stderr)
        payload = point.sample_payload()
    try:
        rt.dispatcher.trace_enabled = args.trace
        result = rt.fire(point.name, payload)
    finally:
        rt.close()
    print(to_json(result, args.compact))
    return BLOCKED if blocks_or_denies(result["outcome"]) else OK


@usage_errors
def _call(args) -> int:
    from harness.loading.registry import file_source
    from harness.vfs.paths import context_name_problem
    arguments = _json_argument(args.args, "arguments")
    problem = context_name_problem(args.context)
    if problem is not None:
        raise UsageError(f"--context: {problem}")
    rt = open_runtime(args, _approve if args.allow else None)
    try:
        result = rt.call_tool(args.tool, arguments, context=args.context)
    finally:
        rt.close()
    if args.json:
        print(to_json(asdict(result)))
        return FAILED if result.error is not None or result.blocked else OK
    # the tool's own display output is diagnostics; stdout carries only the result
    captured = result.stdout + result.stderr
    if captured:
        sys.stderr.write(captured if captured.endswith("\n") else captured + "\n")
    said = {file_source(path, rt.home) for path in rt.load_errors}  # at open_runtime
    for entry in result.errors:  # hook failures never pass silently
        if entry["source"] not in said:
            print(f"harness call: {entry['source']}: {entry['message']}", file=sys.stderr)
    if result.blocked:
        print(f"harness call: {args.tool}: blocked: {result.output}", file=sys.stderr)
        return FAILED
    if result.error is not None:
        hint = ""
        if result.denied and result.error.endswith("no permission handler configured"):
            hint = (" (the fail-safe deny: no host approves here; --allow stands in for a "
                    "host that approves)")
        print(f"harness call: {args.tool}: {result.error}{hint}", file=sys.stderr)
        return FAILED
    sys.stdout.write(result.output if result.output.endswith("\n") else result.output + "\n")
    return OK


@usage_errors
def _tools(args) -> int:
    rt = open_runtime(args)
    tools = rt.tools(builtins=args.builtins)
    rt.close()
    if args.json:
        print(to_json(tools))
    elif tools:
        rows = [(t["name"], t["source"], t.get("description", ""))
                for t in tools]
        print(table(rows, ("NAME", "SOURCE", "DESCRIPTION")))
    else:
        print(f"no tools in {rt.home}")
    if not args.builtins and not args.json:
        print(f"(and {len(rt.registry.builtins)} builtin tools: harness tools --builtins)")
    return OK


@usage_errors
def _hooks(args) -> int:
    if args.all:
        return _catalogue(args.json)
    rt = open_runtime(args)
    hooks = rt.hooks()
    rt.close()
    if args.json:
        print(to_json(hooks))
    elif hooks:
        rows = [(h["hook"], h["source"]) for h in hooks]
        print(table(rows, ("HOOK", "SOURCE")))
    else:
        print(f"no hooks in {rt.home} (harness hooks --all lists the hook points)")
    return OK


def _catalogue(as_json: bool) -> int:
    """Every hook point: its payload fields, answer keys and when it fires."""
    from harness.hooks.catalogue import CLAUDE_OUTPUT_KEYS, HOOK_POINTS
    if as_json:
        print(to_json([{"hook": p.name, "doc": p.doc, "fields": list(p.fields),
                        "answer_keys": list(p.answer_keys), "combine": p.combine}
                       for p in HOOK_POINTS.values()]))
        return OK
    rows = [(p.name, _answer_keys(p, CLAUDE_OUTPUT_KEYS), p.doc)
            for p in HOOK_POINTS.values() if p.combine != "host"]
    print(table(rows, ("HOOK", "ANSWER KEYS", "WHEN")))
    print("\nharness sample HOOK prints a hook point's payload; answers are objects of the "
          "answer keys (- : observe only).")
    print(f"+ : Claude Code's common keys too ({' '.join(CLAUDE_OUTPUT_KEYS)}).")
    from harness.hooks.host_events import HOST_EVENTS
    print("\nEach other host's own events, as HOST.EVENT (payloads and answers: the host's "
          "own; docs/hosts.md):")
    for host, events in HOST_EVENTS.items():
        print(f"  {host}: {' '.join(events)}")
    return OK


def _answer_keys(point, common: tuple[str, ...]) -> str:
    """A point's answer keys; for a Claude Code event, ``common`` (the keys every event
    reads, said once under the table) stands as ``+``."""
    if point.combine == "claude":
        return " ".join(["+", *(k for k in point.answer_keys if k not in common)])
    return " ".join(point.answer_keys) or "-"


@usage_errors
def _sample(args) -> int:
    point = hook_point_named(args.hook)
    # the JSON alone on stdout, so that `harness sample H | harness fire H -` works
    answers = " ".join(point.answer_keys) or "none (observe only)"
    print(f"; {point.name}: {point.doc}\n; answer keys: {answers}", file=sys.stderr)
    print(to_json(point.sample))
    return OK


@usage_errors
def _serve(args) -> int:
    runtime = open_runtime(args, _approve if args.allow else None)
    if args.socket is not None:
        from harness.cli.serve_socket import serve_socket
        return serve_socket(runtime, args.socket)
    if args.http is not None:
        from harness.cli.serve_http import serve_http
        return serve_http(runtime, args.http, deadline=args.timeout)
    from harness.cli.serve import serve_stdio
    return serve_stdio(runtime)
