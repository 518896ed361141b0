"""A tool call through chibi's whole per-call pipeline (reference §2), for the host
(``Runtime.call_tool``, ``harness call``, serve's ``call``, the REPL's ``,call``) and for
Scheme (``call-tool``) alike:

1. ``pre_tool`` — may block the call or replace its arguments;
2. the tool is found, its arguments are checked (harness.tools.invoke);
3. it runs as the calling context (``%context-name%``);
4. ``pre_tool_output`` — may replace or block the output;
5. ``post_tool_output``, then ``post_tool`` (with the original arguments).

Every hook failure of every dispatch the call made is in ``ToolResult.errors``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.tools.context import thread_context, tool_call_scope, using_runtime
from harness.tools.invoke import find_tool, run_tool, unknown_tool


@dataclass
class ToolResult:
    """A tool call through the hook stack.

    ``output`` is what the model sees; ``error`` is set when the tool failed, was refused
    or does not exist (``output`` then starts with ``Error: ``); ``blocked`` when
    ``pre_tool`` blocked it; ``stdout`` / ``stderr`` what a Scheme tool printed;
    ``errors`` every hook failure (``{"source", "message"}``) of every dispatch the call
    made; ``context`` the calling context."""

    tool: str
    output: str
    error: str | None = None
    blocked: bool = False
    stdout: str = ""
    stderr: str = ""
    errors: list[dict] = field(default_factory=list)
    context: str = "default"


class _Call:
    """One call's state: the runtime, who calls, and the errors gathered so far."""

    def __init__(self, runtime, name: str, context: str) -> None:
        self.runtime = runtime
        self.name = name
        self.context = context
        self.errors: list[dict] = []

    def fire(self, hook: str, payload: dict) -> dict:
        """Fire ``hook``; keep its errors; return its outcome."""
        result = self.runtime.fire(hook, payload)
        if result["errors"]:
            self.errors.extend(result["errors"])
        return result["outcome"]

    def result(self, output: str, **fields) -> ToolResult:
        return ToolResult(self.name, output, errors=self.errors, context=self.context,
                          **fields)


def call_tool(runtime, name: str, arguments: dict | None = None,
              context: str | None = None) -> ToolResult:
    """Run the tool ``name`` through the pipeline (see the module doc) as ``context``
    (default: the context of the enclosing tool call, else ``default``)."""
    if context is None:
        context = thread_context().calling_context
    call = _Call(runtime, name, context)
    with using_runtime(runtime), tool_call_scope(context):
        return _pipeline(call, dict(arguments or {}))


def _pipeline(call: _Call, original: dict) -> ToolResult:
    name = call.name
    decision = call.fire("pre_tool", {"tool_name": name, "arguments": original})
    if decision.get("blocked"):
        return call.result(decision.get("message") or "Tool call blocked by hook",
                           blocked=True)
    arguments = decision.get("arguments", original)
    if not isinstance(arguments, dict):
        arguments = original
    tool = find_tool(call.runtime, name)
    if tool is None:
        run_error, run = unknown_tool(call.runtime, name), None
    else:
        run = run_tool(call.runtime, tool, name, arguments)
        for problem in run.problems:
            call.errors.append({"source": f"tool:{name}", "message": problem})
        run_error = run.error
    output = f"Error: {run_error}" if run_error is not None else run.output
    changed = call.fire("pre_tool_output", {"tool_name": name, "arguments": arguments,
                                            "output": output})
    final = changed.get("output", output)
    if not isinstance(final, str):
        final = output
    call.fire("post_tool_output", {"tool_name": name, "arguments": arguments,
                                   "output": output, "final_output": final, "cached": False})
    call.fire("post_tool", {"tool_name": name, "arguments": original, "result": output,
                            "cached": False})
    if run is None:
        return call.result(final, error=run_error)
    return call.result(final, error=run_error, stdout=run.stdout, stderr=run.stderr)
