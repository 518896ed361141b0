"""``harness mcp``: the home's tools served to MCP clients (harness.mcp_server), over stdio or
streamable HTTP. The SDK is imported only when the command runs."""

from __future__ import annotations

import logging
import sys

from harness.cli.exit_status import FAILED
from harness.cli.hook_commands import UsageError, home_option, open_runtime, usage_errors


def register(sub) -> None:
    mcp = sub.add_parser(
        "mcp", help="serve the home's tools to MCP clients (stdio or streamable HTTP)",
        description="Serve the home's tools over MCP: tools/list lists them (each tool's "
                    "parameters as its input schema), tools/call runs one through the whole "
                    "pipeline (pre_tool, permission gates, output cache, post_tool). Edits "
                    "of the home change the tool list live and the clients are told. The "
                    "tool harness_hook answers a host's hook event (for mcp_tool hooks). "
                    "Serves stdio unless --http is given.")
    mcp.add_argument("--context", default="default", metavar="NAME",
                     help="the context the calls are made as (default: default)")
    mcp.add_argument("--builtins", action="store_true",
                     help="also serve the builtin tools the home does not shadow")
    mcp.add_argument("--http", default=None, metavar="[HOST:]PORT",
                     help="serve streamable HTTP at http://HOST:PORT/mcp instead (host "
                          "127.0.0.1 by default; a bearer token is required: the contents "
                          "of HOME/serve.token, made with mode 0600 on first start)")
    mcp.add_argument("--allow", action="store_true",
                     help="approve permission requests no hook answers (otherwise the "
                          "client is asked by elicitation, or they are denied)")
    home_option(mcp)
    mcp.set_defaults(run=_mcp)


@usage_errors
def _mcp(args) -> int:
    from harness.vfs.paths import context_name_problem
    problem = context_name_problem(args.context)
    if problem is not None:
        raise UsageError(f"--context: {problem}")
    address = None
    if args.http is not None:
        from harness.cli.serve_http import parse_address
        try:
            address = parse_address(args.http)
        except ValueError as exc:
            raise UsageError(f"--http: {exc}") from None
    try:
        from harness.mcp_server.asking import PermissionAsker
        from harness.mcp_server.server import HarnessMcp
    except ImportError as exc:
        print(f"harness mcp: the MCP SDK is missing ({exc}): pip install 'harness[mcp]'",
              file=sys.stderr)
        return FAILED
    _log_to_stderr()
    asker = PermissionAsker(allow=args.allow)
    runtime = open_runtime(args, asker)
    app = HarnessMcp(runtime, asker, context=args.context, builtins=args.builtins)
    from harness.mcp_server import transports
    if address is None:
        return transports.serve_stdio(app)
    from harness.cli.serve_http import read_token  # the token of serve --http, shared
    try:
        token = read_token(runtime.home)
    except PermissionError as exc:
        runtime.close()
        raise UsageError(str(exc)) from None
    return transports.serve_http(app, address[0], address[1], token)


def _log_to_stderr() -> None:
    """The server log: harness's own loggers on stderr (the SDK's warnings too)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("harness mcp: %(message)s"))
    for name in ("harness", "mcp"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO if name == "harness" else logging.WARNING)
        logger.propagate = False
