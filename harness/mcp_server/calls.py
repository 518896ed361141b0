"""A ``tools/call`` as a harness tool call: ``Runtime.call_tool`` (pre_tool, the permission
gate, the output cache, post_tool) as the server's context, and its ``ToolResult`` as an
MCP ``CallToolResult``.

What the model must not take for an answer is a tool error (``isError``): a block (the
hook's message), a denial (the reason), an unknown tool, arguments of the wrong type, a
tool that failed (its FILE:LINE:COL message). Hook failures that did not stop the call go
to the server log, never into the tool's text.
"""

from __future__ import annotations

import logging

import mcp_types as types

from harness.calls.tool_result import ToolResult

log = logging.getLogger("harness.mcp")


def text_result(text: str, error: bool = False) -> types.CallToolResult:
    """A result of one text block."""
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                is_error=error)


def call_result(result: ToolResult) -> types.CallToolResult:
    """``result`` as MCP answers it (see the module doc)."""
    for entry in result.errors:
        log.warning("%s: %s: %s", result.tool, entry["source"], entry["message"])
    if result.blocked:
        return text_result(f"blocked by a pre_tool hook: {result.output}", error=True)
    failed = result.error is not None or result.denied
    return text_result(result.output, error=failed)


def run_call(runtime, name: str, arguments: object, context: str) -> types.CallToolResult:
    """Run the tool ``name`` as ``context`` (blocking: the caller runs it on a worker
    thread)."""
    if arguments is not None and not isinstance(arguments, dict):
        return text_result(f"Error: the arguments of {name} must be an object", error=True)
    return call_result(runtime.call_tool(name, arguments or {}, context=context))
