"""The tool list an MCP client sees: the home's tools (and the builtins when asked), each
with its parameters as its input schema and its description; the guard tool last.

A tool whose file was edited into something that does not load keeps running its last
good version (``Runtime.load_file``); its description says so and carries the load error,
so the agent that wrote the file learns it from the tool list itself.
"""

from __future__ import annotations

import mcp_types as types

from harness.mcp_server.guard import GUARD_TOOL, guard_tool

_EMPTY_SCHEMA = {"type": "object", "properties": {}}


def tool_schemas(runtime, builtins: bool) -> list[dict]:
    """The runtime's tool schemas as MCP lists them: the home's (files, host, plugins),
    then the builtins no home tool shadows when ``builtins``; never one named like the
    guard tool (the guard keeps its name)."""
    return [t for t in runtime.tools(builtins=builtins) if t["name"] != GUARD_TOOL]


def stale_notes(runtime) -> dict[str, str]:
    """``{source: note}`` for each tool file whose last edit does not load while its last
    good version runs."""
    return {entry["source"]: f"[harness: this tool runs an older version of its file; the "
                             f"file as it is now does not load: {entry['message']}]"
            for entry in runtime.load_failures() if entry["last_good_runs"]}


def mcp_tools(runtime, builtins: bool) -> list[types.Tool]:
    """The ``tools/list`` answer for ``runtime`` (see the module doc)."""
    notes = stale_notes(runtime)
    out = []
    for schema in tool_schemas(runtime, builtins):
        description = schema.get("description") or ""
        note = notes.get(schema.get("source", ""))
        if note is not None:
            description = f"{description}\n\n{note}" if description else note
        out.append(types.Tool(name=schema["name"], description=description or None,
                              input_schema=_input_schema(schema.get("parameters"))))
    out.append(guard_tool())
    return out


def _input_schema(parameters: object) -> dict:
    """A tool's parameters as an input schema: MCP wants an object schema at the root."""
    if not isinstance(parameters, dict) or parameters.get("type") != "object":
        return dict(_EMPTY_SCHEMA)
    return parameters
