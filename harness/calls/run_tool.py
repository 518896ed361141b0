"""Running one tool of any kind: the one place where a tool is found, its arguments are
checked and its result becomes the text a model sees.

Kinds: a ``SchemeTool`` (a ``.scm`` file of the home or of the builtin layer), a
``PythonTool`` (builtin, ``Runtime.register_tool``, ``@tool`` in a .py/.hy file) and a
plugin tool (a subprocess). A name resolves in that order of layers: the home's files and
the host's tools, then the home's plugins, then the builtins (so a home may shadow a
builtin).

Results (SPEC §11): a string as is; any other value with a JSON form as compact JSON (a
Scheme alist is an object, a list an array, ``#t`` is ``true``); anything else in its
written form (Scheme) or ``str`` (Python). A plugin's stdout is its result.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.calls.arguments import check_arguments
from harness.loading.registry import PythonTool, SchemeTool
from harness.spelling import closest_name


class ToolError(Exception):
    """Raised by a Python tool for a failure it describes itself: the message is the whole
    error text (no exception type in front), e.g. ``No such file or directory``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class ToolRun:
    """What running a tool produced: ``output`` text, or ``error`` when it failed, plus
    what it printed (Scheme tools) and ``problems`` worth reporting beside the result."""

    output: str = ""
    error: str | None = None
    stdout: str = ""
    stderr: str = ""
    problems: tuple[str, ...] = ()


def find_tool(runtime, name: str):
    """The tool ``name`` resolves to: a SchemeTool or PythonTool of the home or the host,
    else a plugin (harness.plugins.Plugin), else a builtin; None when nothing has it."""
    registry = runtime.registry
    tool = registry.find_tool(name)
    if tool is not None:
        return tool
    plugin = runtime.plugins.find_tool(name)
    if plugin is not None:
        return plugin
    return registry.find_builtin(name)


def unknown_tool(runtime, name: str) -> str:
    """The error for a tool ``name`` that nothing provides, with the closest known name
    (or, for a builtin whose file failed to load, that file's error)."""
    broken = runtime.registry.builtins.failure_of(name)
    if broken is not None:
        return f"the builtin tool {name!r} failed to load: {broken}"
    known = [tool.name for tool in runtime.registry.tools()]
    known += [schema["name"] for schema in runtime.plugins.tools()]
    known += list(runtime.registry.builtins)
    close = closest_name(name, known)
    return f"unknown tool {name!r}" + (f"; did you mean {close!r}?" if close else "")


def tool_schema(tool, name: str) -> dict | None:
    """The JSON Schema of the arguments of ``tool`` (found as ``name``), if it has one."""
    if isinstance(tool, (SchemeTool, PythonTool)):
        return tool.parameters
    for schema in getattr(tool, "schemas", ()):
        if schema.get("name") == name:
            return schema.get("parameters")
    return None


def tool_category(tool, name: str) -> str:
    """chibi's category of a tool (permission gate and hook routing): its declared one,
    else ``synthesised`` for Scheme tools and ``plugin`` for everything else."""
    category = getattr(tool, "category", None)
    if category:
        return category
    for schema in getattr(tool, "schemas", ()):
        if schema.get("name") == name and isinstance(schema.get("category"), str):
            return schema["category"]
    return "synthesised" if isinstance(tool, SchemeTool) else "plugin"


def run_tool(runtime, tool, name: str, arguments: dict) -> ToolRun:
    """Check ``arguments`` against the schema of ``tool`` and run it (see the module doc).
    Never raises for what the tool does: a failure is in ``error``."""
    from harness.host_libraries.harness_procedures import in_call_tool
    nested = in_call_tool()
    check = check_arguments(tool_schema(tool, name), arguments, unknown_ok=nested,
                            missing_ok=nested or _handles_absence(runtime, tool, name))
    problems = (f"tool {name}: {check.schema_problem}",) if check.schema_problem else ()
    if check.error is not None:
        return ToolRun(error=check.error, problems=problems)
    if isinstance(tool, SchemeTool):
        run = _run_scheme(runtime, tool, check.arguments)
    elif isinstance(tool, PythonTool):
        run = _run_python(runtime, tool, check.arguments)
    else:
        result = runtime.plugins.call_tool(name, check.arguments)
        run = ToolRun(result.output, result.error)
    if run.error is not None:
        run.error += check.absent_note()
    run.problems = problems
    return run


def _handles_absence(runtime, tool, name: str) -> bool:
    """A Scheme or builtin tool: chibi's rule leaves a missing argument to it (chibi's
    files mark every parameter required and handle the absent ones)."""
    return isinstance(tool, SchemeTool) or runtime.registry.builtins.get(name) is tool


def _run_scheme(runtime, tool: SchemeTool, arguments: dict) -> ToolRun:
    from harness.bridge import json_to_scheme
    from harness.sandbox.scheme_calls import call_scheme, describe_error
    from harness.sandbox.thread_context import in_tier, running_file
    env = tool.env
    limits = runtime.limits_for(env.tier)
    with in_tier(env.tier), running_file(tool.file):
        call = call_scheme(tool.execute, (json_to_scheme(arguments),), limits,
                           env.budget_check != "steps")
    if call.memory_start is not None and runtime.registry.builtins.get(tool.name) is not tool:
        dropped = runtime.live_memory.note(tool.file, call.memory_start, limits.max_memory)
        if dropped is not None:
            runtime.drop_file(tool.file, dropped)
            return ToolRun(error=dropped, stdout=call.stdout, stderr=call.stderr)
    if call.error is not None:
        if runtime.registry.builtins.get(tool.name) is tool:
            error = _plain_message(call.error)  # a builtin's error text is its whole message
        else:
            error = describe_error(call.error)
        return ToolRun(error=error, stdout=call.stdout, stderr=call.stderr)
    from harness.scheme.errors import ResourceLimitExceeded
    try:  # (written out after the call's budget: capped like its output)
        text = scheme_result_text(call.value, runtime.limits_for(env.tier).max_output)
    except ResourceLimitExceeded as exc:  # a result too big to write out
        return ToolRun(error=f"tool {tool.name}: its result: {exc.message}",
                       stdout=call.stdout, stderr=call.stderr)
    return ToolRun(text, stdout=call.stdout, stderr=call.stderr)


def _plain_message(exc: BaseException) -> str:
    from harness.scheme.interpreter import error_message
    return error_message(exc)


def _run_python(runtime, tool: PythonTool, arguments: dict) -> ToolRun:
    """Run a Python tool on this thread under the unsandboxed tier's wall clock (see
    harness.sandbox.python_calls). A crash of a tool from a file or the host is described
    with the line it happened at; a builtin's ``ToolError`` is its whole message."""
    from harness.loading.python_loader import describe_python_error
    from harness.sandbox.thread_context import call_slot
    slot = call_slot()
    try:
        value = slot.call(tool.fn, arguments, runtime.limits_for("unsandboxed").seconds)
    except ToolError as exc:
        return ToolRun(error=exc.message, stdout=slot.printed_text()[0],
                       stderr=slot.printed_text()[1])
    except BaseException as exc:  # a tool's crash is its result, never the host's
        if isinstance(exc, KeyboardInterrupt):
            raise
        if tool.source.startswith("builtin:"):
            error = f"{type(exc).__name__}: {exc}"
        else:
            error = describe_python_error(exc, tool.file or None)
        stdout, stderr = slot.printed_text()
        return ToolRun(error=error, stdout=stdout, stderr=stderr)
    stdout, stderr = slot.printed_text()
    return ToolRun(python_result_text(value), stdout=stdout, stderr=stderr)


def scheme_result_text(value: object, limit: int = 1 << 20) -> str:
    """A Scheme tool's value as result text (see the module doc); its written form is
    refused past ``limit`` characters (SizeLimitExceeded)."""
    from harness.bridge import NO_ANSWER, BridgeError, dumps, scheme_to_json
    from harness.scheme.datatypes import String
    from harness.scheme.printer import write_string
    if isinstance(value, String):
        return value.s
    try:
        data = scheme_to_json(value, where="tool result")
    except BridgeError:
        return write_string(value, limit)
    return dumps([] if data is NO_ANSWER else data).decode()


def python_result_text(value: object) -> str:
    """A Python tool's value as result text (see the module doc); None is empty text."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    from harness.bridge import dumps
    try:
        return dumps(value).decode()
    except (TypeError, ValueError):
        return str(value)
