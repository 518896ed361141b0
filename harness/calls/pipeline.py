"""A tool call through chibi's whole per-call pipeline (reference §2), for the host
(``Runtime.call_tool``, ``harness call``, serve's ``call``, the REPL's ``,call``) and for
Scheme (``call-tool``) alike (beyond chibi, whose call-tool skips every step but 4):

1. ``pre_tool`` — may block the call or replace its arguments;
2. the tool is found (home, plugins, then builtins); sandboxed code may not reach the
   host through it (harness.calls.permissions.sandbox_refusal);
3. the permission gate of its category (``pre_file_read``, ``pre_file_write``,
   ``pre_shell_exec``, ``pre_fetch_url``; deny-only, fail-safe deny);
   a ``vfs:///`` write fires the advisory ``pre_vfs_write``;
4. its arguments are checked and it runs as the calling context (harness.calls.run_tool);
5. ``pre_tool_output`` — may replace or block the output;
6. an output over 4,000 bytes is cached in the VFS and the model sees a stub
   (harness.calls.output_cache: ``pre_cache_output`` / ``post_cache_output``);
7. ``post_tool_output``, ``post_tool`` (the original arguments, the full output), then
   ``post_vfs_write`` after a successful ``vfs:///`` write.

Every hook failure of every dispatch the call made is in ``ToolResult.errors``.
"""

from __future__ import annotations

import threading

from harness.calls.hook_caller import hook_call_refusal
from harness.calls.output_cache import cache_output, reads_cache, should_cache
from harness.calls.permissions import gate, sandbox_refusal
from harness.calls.run_tool import ToolRun, find_tool, run_tool, tool_category, unknown_tool
from harness.calls.tool_result import ToolResult
from harness.sandbox.thread_context import (
    in_hook_callback,
    thread_context,
    tool_call_scope,
    using_runtime,
)
from harness.vfs.paths import is_vfs_uri, misspelt_uri


class _Call:
    """One call's state: the runtime, who calls, and the errors gathered so far."""

    def __init__(self, runtime, name: str, context: str) -> None:
        self.runtime = runtime
        self.name = name
        self.context = context
        self.errors: list[dict] = []
        self.summary_params: tuple[str, ...] = ()

    def fire(self, hook: str, payload: dict) -> dict:
        """Fire ``hook``; keep its errors (once each: a file that does not load is in the
        errors of every dispatch); return its outcome."""
        result = self.runtime.fire(hook, payload)
        for error in result["errors"]:
            if error not in self.errors:
                self.errors.append(error)
        return result["outcome"]

    def result(self, output: str, **fields) -> ToolResult:
        return ToolResult(self.name, output, errors=self.errors, context=self.context,
                          **fields)


_active = threading.local()  # the innermost call of this thread (for fire_in_call)


def fire_in_call(runtime, hook: str, payload: dict) -> dict:
    """Fire ``hook`` from inside a running tool (send_message, spawn_agent): its errors
    join the call's ``errors``. Returns the outcome."""
    call = getattr(_active, "call", None)
    if call is None or call.runtime is not runtime:
        return runtime.fire(hook, payload)["outcome"]
    return call.fire(hook, payload)


def call_tool(runtime, name: str, arguments: dict | None = None,
              context: str | None = None) -> ToolResult:
    """Run the tool ``name`` through the pipeline (see the module doc) as ``context``
    (default: the dispatch's context when a hook calls, else the context of the enclosing
    tool call, else ``default``). A sandboxed hook's call its file may not make is refused
    (harness.calls.hook_caller)."""
    state = thread_context()
    from_hook = in_hook_callback()
    if context is None:  # a hook's call acts for the dispatch's context (hook_caller)
        context = state.context_name if from_hook else state.calling_context
    if from_hook and state.tier == "sandboxed":
        refusal = hook_call_refusal(runtime, state.code_file, context)
        if refusal is not None:
            return ToolResult(name, refusal, error=refusal, denied=True, context=context)
    call = _Call(runtime, name, context)
    runtime.contexts_seen.add(context)
    outer = getattr(_active, "call", None)
    _active.call = call
    try:
        with using_runtime(runtime), tool_call_scope(context):
            return _pipeline(call, dict(arguments or {}))
    finally:
        _active.call = outer


def _pipeline(call: _Call, original: dict) -> ToolResult:
    name, runtime = call.name, call.runtime
    caller_tier = thread_context().tier  # the tier of the Scheme code calling, if any
    decision = call.fire("pre_tool", {"tool_name": name, "arguments": original})
    if decision.get("blocked"):
        return call.result(decision.get("message") or "Tool call blocked by hook",
                           blocked=True)
    arguments = decision.get("arguments", original)
    if not isinstance(arguments, dict):
        arguments = original
    tool = find_tool(runtime, name)
    if tool is None:
        return _finish(call, original, arguments, None, unknown_tool(runtime, name))
    misspelt = next(filter(None, map(misspelt_uri, arguments.values())), None)
    if misspelt is not None:
        return _finish(call, original, arguments, None, f"argument {misspelt}")
    category = tool_category(tool, name)
    call.summary_params = tuple(getattr(tool, "summary_params", ()))
    if caller_tier == "sandboxed":
        refusal = sandbox_refusal(tool, category, name, arguments,
                                  runtime.registry.builtins.get(name) is tool)
        if refusal is not None:
            return _finish(call, original, arguments, None, refusal, denied=True)
    denial = gate(call, category, arguments, tool)
    if denial is not None:
        return _finish(call, original, arguments, None, denial, denied=True)
    vfs_write = category == "fs_write" and is_vfs_uri(arguments.get("path"))
    if vfs_write:
        content = arguments.get("content")
        call.fire("pre_vfs_write", {"tool_name": name, "path": arguments["path"],
                                    "content": content if isinstance(content, str) else None,
                                    "caller": call.context})
    run = run_tool(runtime, tool, name, arguments)
    for problem in run.problems:
        call.errors.append({"source": f"tool:{name}", "message": problem})
    result = _finish(call, original, arguments, run, run.error)
    if vfs_write and run.error is None:
        call.fire("post_vfs_write", {"tool_name": name, "path": arguments["path"],
                                     "caller": call.context})
    return result


def _finish(call: _Call, original: dict, arguments: dict, run: ToolRun | None,
            error: str | None, denied: bool = False) -> ToolResult:
    """Steps 5 to 7 for an output, whether the tool ran or was refused."""
    name = call.name
    if denied:
        output = error  # a denial is the whole text the model sees
    else:
        output = f"Error: {error}" if error is not None else run.output
    changed = call.fire("pre_tool_output", {"tool_name": name, "arguments": arguments,
                                            "output": output})
    output = changed.get("output", output)
    if not isinstance(output, str):
        output = run.output if run is not None and error is None else str(output)
    final = None
    if error is None and should_cache(output, call.runtime.cache_threshold) \
            and not reads_cache(arguments):
        final = cache_output(call, arguments, output)
    cached = final is not None
    final = final if cached else output
    call.fire("post_tool_output", {"tool_name": name, "arguments": arguments,
                                   "output": output, "final_output": final,
                                   "cached": cached})
    call.fire("post_tool", {"tool_name": name, "arguments": original, "result": output,
                            "cached": cached})
    fields = {"error": error, "denied": denied, "cached": cached}
    if run is not None:
        fields.update(stdout=run.stdout, stderr=run.stderr)
    return call.result(final, **fields)
