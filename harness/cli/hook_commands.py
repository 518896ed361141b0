"""``harness fire|call|tools|hooks|check|serve``: the hook runtime from the command line.

Exit status: 0 on success, 1 when a tool call or a checked file failed, 2 for a usage
error (unknown hook point, malformed JSON, bad ``harness.toml``).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import orjson

from harness.bridge import dumps
from harness.repl.render import table

USAGE_ERROR = 2


class UsageError(Exception):
    """A problem with what the user typed; reported on stderr with exit status 2."""


def register(sub) -> None:
    fire = sub.add_parser("fire", help="fire a hook point and print the dispatch result")
    fire.add_argument("hook", help="hook point name, e.g. pre_tool")
    fire.add_argument("payload", nargs="?", default=None,
                      help="payload as a JSON object, or - to read it from stdin")
    fire.add_argument("--allow", action="store_true",
                      help="approve permission requests (stands in for a host handler)")
    fire.add_argument("--trace", action="store_true", help="include who ran and how long")
    fire.add_argument("--compact", action="store_true", help="print JSON on one line")
    _home_option(fire)
    fire.set_defaults(run=_fire)

    call = sub.add_parser("call", help="run a tool through the full hook stack")
    call.add_argument("tool", help="tool name")
    call.add_argument("args", nargs="?", default=None,
                      help="arguments as a JSON object, or - to read them from stdin")
    call.add_argument("--json", action="store_true", help="print the whole result as JSON")
    call.add_argument("--context", default="default", metavar="NAME",
                      help="the calling context: %%context-name%%, the VFS zones "
                           "/home/NAME and the tool cache (default: default)")
    call.add_argument("--allow", action="store_true",
                      help="approve permission requests (stands in for a host handler)")
    _home_option(call)
    call.set_defaults(run=_call)

    tools = sub.add_parser("tools", help="list the registered tools")
    tools.add_argument("--json", action="store_true", help="print the schemas as JSON")
    tools.add_argument("--builtins", action="store_true",
                       help="also list the builtin tools the home does not shadow")
    _home_option(tools)
    tools.set_defaults(run=_tools)

    hooks = sub.add_parser("hooks", help="list the registered hooks in dispatch order")
    hooks.add_argument("--json", action="store_true", help="print the list as JSON")
    _home_option(hooks)
    hooks.set_defaults(run=_hooks)

    check = sub.add_parser("check", help="load tool files in their tiers and report them")
    check.add_argument("files", nargs="+", metavar="FILE", help=".scm tool files")
    check.add_argument("--tier", choices=("sandboxed", "unsandboxed"), default=None,
                       help="load in this tier (default: from the home's harness.toml)")
    _home_option(check)
    check.set_defaults(run=_check)

    serve = sub.add_parser("serve", help="JSON-RPC 2.0 over stdin/stdout, one message a line")
    serve.add_argument("--socket", default=None, metavar="PATH",
                       help="serve on a Unix socket instead (any number of clients, e.g. "
                            "harness claude-hook --socket PATH) until SIGTERM")
    serve.add_argument("--allow", action="store_true",
                       help="approve permission requests (stands in for a host handler)")
    _home_option(serve)
    serve.set_defaults(run=_serve)


def _home_option(parser) -> None:
    parser.add_argument("--home", default=None, metavar="DIR",
                        help="harness home (default: $HARNESS_HOME, else ~/.harness)")


# -- shared helpers -----------------------------------------------------------------------

def _usage_errors(fn):
    """Turn UsageError and a malformed harness.toml into a message and exit status 2."""
    def run(args) -> int:
        from harness.config import ConfigError
        try:
            return fn(args)
        except (UsageError, ConfigError) as exc:
            print(f"harness {args.command}: {exc}", file=sys.stderr)
            return USAGE_ERROR
    return run


def parse_json_object(text: str, what: str) -> dict:
    """``text`` as a JSON object; a UsageError says where it is malformed."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise UsageError(f"{what} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno} (char {exc.pos})") from None
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
    if compact:
        return dumps(value).decode()
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # integers beyond 64 bits: exact through the bridge's slow path
        return json.dumps(json.loads(dumps(value)), indent=2, ensure_ascii=False)


def open_runtime(args, permission_handler=None):
    """The Runtime of ``--home``; what failed to load is reported on stderr."""
    from harness.runtime import Runtime
    rt = Runtime(args.home, permission_handler=permission_handler)
    report_load_problems(rt)
    return rt


def report_load_problems(rt) -> None:
    """Print the tool files that failed to load and the plugin problems on stderr."""
    for message in rt.load_errors.values():
        print(f"harness: load error: {message}", file=sys.stderr)
    for entry in rt.plugins.problems:
        print(f"harness: {entry['source']}: {entry['message']}", file=sys.stderr)
    for entry in rt.shadowed_builtins():
        print(f"harness: {entry['source']}: {entry['message']}", file=sys.stderr)


def _approve(hook: str, payload: dict) -> bool:
    return True


def _short_source(source: str, home: Path) -> str:
    """``scm:/home/tools/x.scm:3`` -> ``scm:tools/x.scm:3`` for readable tables."""
    prefix = f"scm:{home}/"
    return "scm:" + source[len(prefix):] if source.startswith(prefix) else source


# -- commands ------------------------------------------------------------------------------

@_usage_errors
def _fire(args) -> int:
    from harness.hooks.catalogue import UnknownHookError, hook_point
    try:
        hook_point(args.hook)
    except UnknownHookError as exc:
        raise UsageError(str(exc)) from None
    payload = _json_argument(args.payload, "the payload")
    rt = open_runtime(args, _approve if args.allow else None)
    try:
        rt.dispatcher.trace_enabled = args.trace
        print(to_json(rt.fire(args.hook, payload), args.compact))
    finally:
        rt.close()
    return 0


@_usage_errors
def _call(args) -> int:
    from harness.vfs.paths import context_name_problem
    arguments = _json_argument(args.args, "the tool arguments")
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
        return 1 if result.error is not None or result.blocked else 0
    # the tool's own display output is diagnostics; stdout carries only the result
    captured = result.stdout + result.stderr
    if captured:
        sys.stderr.write(captured if captured.endswith("\n") else captured + "\n")
    for entry in result.errors:  # hook failures never pass silently
        print(f"harness call: {entry['source']}: {entry['message']}", file=sys.stderr)
    if result.blocked:
        print(f"harness call: {args.tool}: blocked: {result.output}", file=sys.stderr)
        return 1
    if result.error is not None:
        print(f"harness call: {args.tool}: {result.error}", file=sys.stderr)
        return 1
    sys.stdout.write(result.output if result.output.endswith("\n") else result.output + "\n")
    return 0


@_usage_errors
def _tools(args) -> int:
    rt = open_runtime(args)
    tools = rt.tools(builtins=args.builtins)
    rt.close()
    if args.json:
        print(to_json(tools))
    elif tools:
        rows = [(t["name"], _short_source(t["source"], rt.home), t.get("description", ""))
                for t in tools]
        print(table(rows, ("NAME", "SOURCE", "DESCRIPTION")))
    else:
        print(f"no tools in {rt.home}")
    if not args.builtins and not args.json:
        print(f"(and {len(rt.registry.builtins)} builtin tools: harness tools --builtins)")
    return 0


@_usage_errors
def _hooks(args) -> int:
    rt = open_runtime(args)
    hooks = rt.hooks()
    rt.close()
    if args.json:
        print(to_json(hooks))
    elif hooks:
        rows = [(h["hook"], _short_source(h["source"], rt.home)) for h in hooks]
        print(table(rows, ("HOOK", "SOURCE")))
    else:
        print(f"no hooks in {rt.home}")
    return 0


@_usage_errors
def _check(args) -> int:
    from harness.config import load_config
    from harness.runtime import resolve_home
    from harness.tools.loader import ToolLoadError, load_tool_file
    home = resolve_home(args.home)
    config = load_config(home / "harness.toml")
    failures = 0
    for name in args.files:
        path = Path(name)
        tier = args.tier or _tier_in_home(path, home / "tools", config)
        try:
            reg = load_tool_file(path, tier, config.limits[tier])
        except ToolLoadError as exc:
            failures += 1
            print(f"{name}: error ({tier})\n{exc.message}")
            continue
        print(f"{name}: ok ({tier})")
        for tool in reg.tools:
            print(f"  tool {tool.name}" + (f": {tool.description}" if tool.description else ""))
        for hook in reg.hooks:
            print(f"  hook {hook.point} (line {hook.line})")
    if len(args.files) > 1:
        print(f"{len(args.files) - failures} ok, {failures} failed")
    return 1 if failures else 0


def _tier_in_home(path: Path, tools_dir: Path, config) -> str:
    """The tier ``harness.toml`` gives ``path`` under HOME/tools; elsewhere sandboxed."""
    try:
        relative = path.resolve().relative_to(tools_dir.resolve())
    except ValueError:
        return "sandboxed"
    return config.tier_of(relative.as_posix())


@_usage_errors
def _serve(args) -> int:
    runtime = open_runtime(args, _approve if args.allow else None)
    if args.socket is not None:
        from harness.cli.serve_socket import serve_socket
        return serve_socket(runtime, args.socket)
    from harness.cli.serve import serve_stdio
    return serve_stdio(runtime)
