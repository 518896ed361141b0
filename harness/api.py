"""Hooks and tools written in Python or Hy: the API of ``.py`` and ``.hy`` tool files.

```python
# HOME/tools/guards.py  (a path harness.toml gives the "unsandboxed" tier)
from harness.api import hook, tool

@hook("pre_tool")
def no_force(payload):
    command = payload.get("arguments", {}).get("command", "")
    if "--force" in command.split():
        return {"block": True, "message": "force push refused"}
    return None                      # no answer

@tool(description="count the words of a text",
      parameters={"text": {"type": "string", "description": "the text"}})
def word_count(args):
    return len(args["text"].split())
```

In Hy: ``(defn [(hook "pre_tool")] no-force [payload] ...)``.

While harness loads such a file, the decorators register the function with that file
(hot reload replaces them together). Anywhere else, say a test that imports the file,
they return the function unchanged, so a hook can be unit-tested as a plain function.
An embedding host registers functions with ``Runtime.register_hook`` and
``Runtime.register_tool`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from harness.hooks.catalogue import hook_point
from harness.loading.python_loader import PythonCollector
from harness.loading.tool_schema import parameters_from_python
from harness.sandbox.thread_context import current_load, current_runtime

__all__ = ["ToolCallError", "call_tool", "home", "hook", "tool"]

F = TypeVar("F", bound=Callable)


def hook(point: str) -> Callable[[F], F]:
    """``@hook("pre_tool")``: register the function on a hook point. It is called with the
    payload (a dict, shared with the other Python hooks of the dispatch: read it, don't
    change it) and returns an answer (a dict of JSON values) or None for no answer.
    Raises UnknownHookError (naming the closest point) for a misspelt point."""
    if not isinstance(point, str):
        raise TypeError("hook(point): point is a hook point name, as in @hook(\"pre_tool\")")
    hook_point(point)

    def register(fn: F) -> F:
        if not callable(fn):
            raise TypeError(f"@hook({point!r}) must decorate a function, not {fn!r}")
        collector = current_load()
        if isinstance(collector, PythonCollector):
            collector.add_hook(point, fn)
        return fn
    return register


def tool(name: str | None = None, *, description: str = "", parameters: dict | None = None,
         category: str | None = None) -> Callable[[F], F]:
    """``@tool(description=..., parameters=...)``: make the function a tool. It is called
    with the arguments (a dict) and returns the result: a string as is, None as "", any
    other JSON value as JSON text. ``name`` defaults to the function's name (in a Hy file,
    as written: ``word-count``). ``parameters`` is a JSON Schema object, or a dict of
    parameter name -> attributes (``type``, ``description``, ``enum``, ``default``,
    ``items``; every parameter is required unless ``"required": False``)."""
    if callable(name):
        raise TypeError("tool(...): call it, as in @tool(description=\"...\")")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"tool(name=...): the name must be a string, not {name!r}")
    if not isinstance(description, str):
        raise TypeError("tool(description=...): the description must be a string")
    if category is not None and not isinstance(category, str):
        raise TypeError("tool(category=...): the category must be a string")
    schema = parameters_from_python(parameters)

    def register(fn: F) -> F:
        if not callable(fn):
            raise TypeError(f"@tool must decorate a function, not {fn!r}")
        collector = current_load()
        if isinstance(collector, PythonCollector):
            collector.add_tool(name or _tool_name(fn, collector.language), fn, description,
                               schema, category)
        return fn
    return register


def _tool_name(fn: Callable, language: str) -> str:
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or name == "<lambda>":
        raise TypeError("@tool: give the tool a name (tool(name=...)): the function has none")
    if language == "hy":
        import hy
        return hy.unmangle(name)  # word_count -> word-count, as the Hy file spells it
    return name


class ToolCallError(Exception):
    """A tool called with ``call_tool`` failed, was blocked or does not exist."""


def call_tool(name: str, arguments: dict | None = None) -> str:
    """Run a tool through its full hook stack from a Python hook or tool and return its
    output (a string). Raises ToolCallError when it fails, is blocked or is unknown.
    Outside a dispatch or tool call of a runtime there is nothing to call: RuntimeError."""
    runtime = current_runtime()
    if runtime is None:
        raise RuntimeError("call_tool: no harness runtime is running this code")
    result = runtime.call_tool(name, arguments)
    if result.blocked:
        raise ToolCallError(f"{name}: blocked: {result.output}")
    if result.error is not None:
        raise ToolCallError(f"{name}: {result.error}")
    return result.output


def home() -> Path:
    """The home of the runtime running this code (a hook, a tool, a file's top level), for
    files of its own such as ``home() / "vfs" / "hook.log"``. RuntimeError elsewhere."""
    runtime = current_runtime()
    if runtime is None:
        raise RuntimeError("home: no harness runtime is running this code")
    return runtime.home
