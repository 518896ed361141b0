"""Loading a ``.scm`` tool file: evaluate it in a fresh environment of its tier and collect
what it registered (hooks, ``define-tool`` tools, and the conventional single tool).
(harness.loading.loader picks the loader of a file by its suffix.)"""

from __future__ import annotations

import hashlib
from pathlib import Path

from harness.host_libraries import offer_to_scheme
from harness.loading.load_error import ToolLoadError
from harness.loading.registry import FileRegistration, SchemeHook, SchemeTool, shown_path
from harness.sandbox.scheme_calls import Limits, call_scheme, describe_error
from harness.sandbox.thread_context import current_context_name, loading
from harness.scheme.datatypes import NIL, String, Symbol, Vector, list_to_py
from harness.scheme.interpreter import libraries_cached_in, make_environment, run_source
from harness.scheme.libraries import PRELUDE_LIBRARIES
from harness.scheme.parse_cache import ParseCache
from harness.scheme.reader import read_all

offer_to_scheme()  # a tool file may import the (harness ...) libraries

#: what every tool file can use without an import (the reference runtime's prelude plus
#: the harness libraries); definitions in the file may shadow any of these names
TOOL_PRELUDE = PRELUDE_LIBRARIES + (("harness", "json"), ("harness", "hooks"),
                                    ("harness", "tools"))


#: register-hook and define-tool calls one file may make (issue 23, items 7 and 8: a
#: file's hooks share its budget, and each registration is analysed at load)
MAX_REGISTRATIONS = 1000


class LoadCollector:
    """Receives register-hook and define-tool calls while one file loads."""

    def __init__(self, path: str, env, home: Path | None = None) -> None:
        self.path = path
        self.shown = shown_path(path, home)  # how sources name it
        self.env = env
        self.hooks: list[SchemeHook] = []
        self.tools: list[SchemeTool] = []

    def _count(self, what: str, line: int) -> None:
        if len(self.hooks) + len(self.tools) >= MAX_REGISTRATIONS:
            raise _scheme_error(f"{what} ({self.path}:{line}): a file may make at most "
                                f"{MAX_REGISTRATIONS} registrations (register-hook and "
                                "define-tool)")

    def add_hook(self, point: str, proc, line: int) -> None:
        self._count("register-hook", line)
        self.hooks.append(SchemeHook(point, proc, self.path, line, self.env,
                                     f"scm:{self.shown}:{line}"))

    def add_tool(self, name: str, clauses: dict, line: int) -> None:
        self._count(f"define-tool {name}", line)
        where = f"define-tool {name} ({self.path}:{line})"
        if any(t.name == name for t in self.tools):
            raise _scheme_error(f"{where}: tool {name} is defined twice in this file")
        self.tools.append(_make_tool(name, clauses, self.path, self.env, where,
                                     f"scm:{self.shown}"))


def _scheme_error(message: str):
    from harness.scheme.errors import error
    return error(message)


def _text_of(value, what: str, where: str) -> str:
    if isinstance(value, String):
        return value.s
    if isinstance(value, Symbol):
        return value.name
    raise _scheme_error(f"{where}: {what} must be a string")


def _make_tool(name: str, clauses: dict, path: str, env, where: str,
               source: str) -> SchemeTool:
    if "execute" not in clauses:
        raise _scheme_error(f"{where}: missing (execute procedure)")
    execute = clauses["execute"]
    if not callable(execute):
        raise _scheme_error(f"{where}: execute must be a procedure")
    description = _text_of(clauses.get("description", String("")), "description", where)
    parameters = parameters_schema(clauses.get("parameters", NIL), where)
    category = clauses.get("category")
    summary = clauses.get("summary-params", NIL)
    return SchemeTool(
        name=name, description=description, parameters=parameters, execute=execute, file=path,
        env=env, source=source, category=_text_of(category, "category", where) if category not in (None, False)
        else None,
        summary_params=tuple(_text_of(s, "summary-params", where) for s in list_to_py(summary)))


def parameters_schema(spec, where: str) -> dict:
    """``((name . ((type . "string") (description . "…"))) …)`` -> a JSON Schema object.

    Every parameter is required unless it says ``(required . #f)``. A whole JSON Schema
    (an alist with ``(type . "object")``) is kept as it is.
    """
    from harness.bridge import BridgeError, scheme_to_json
    if _is_whole_schema(spec):
        try:
            schema = scheme_to_json(spec, where=f"{where}: parameters")
        except BridgeError as exc:
            raise _scheme_error(str(exc)) from None
        if not isinstance(schema, dict):
            raise _scheme_error(f"{where}: parameters must be a JSON Schema object")
        return schema
    properties: dict = {}
    required: list[str] = []
    for entry in list_to_py(spec):
        if entry.__class__ is not list:
            raise _scheme_error(f"{where}: each parameter must be (name . ((attr . value) ...))")
        pname = _text_of(entry[0], "a parameter name", where)
        attrs: dict = {}
        is_required = True
        for attr in list_to_py(entry[1]):
            if attr.__class__ is not list:
                raise _scheme_error(f"{where}: parameter {pname}: attributes must be pairs")
            key = _text_of(attr[0], "an attribute name", where)
            if key == "required":
                is_required = attr[1] is not False
                continue
            value = attr[1]
            if key == "enum" and (value.__class__ is list or value is NIL):
                value = Vector(list_to_py(value))
            try:
                attrs[key] = scheme_to_json(value, where=f"{where}: parameter {pname} {key}")
            except BridgeError as exc:
                raise _scheme_error(str(exc)) from None
        properties[pname] = attrs
        if is_required:
            required.append(pname)
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _is_whole_schema(spec) -> bool:
    """True for ``((type . "object") (properties . ...) ...)``: a JSON Schema, not a list
    of parameters (a parameter's attributes are an alist, never the string "object")."""
    for entry in list_to_py(spec) if spec.__class__ is list else ():
        if entry.__class__ is list and isinstance(entry[0], (String, Symbol)):
            key = entry[0].s if isinstance(entry[0], String) else entry[0].name
            if key == "type" and isinstance(entry[1], String) and entry[1].s == "object":
                return True
    return False


def _conventional_tool(env, path: str, source: str) -> SchemeTool | None:
    if not env.is_bound("tool-name"):
        return None
    where = f"{path}: tool-name"
    name = _text_of(env.lookup("tool-name"), "tool-name", where)
    clauses = {"description": env.lookup("tool-description", String(""))}
    if env.is_bound("tool-parameters"):
        clauses["parameters"] = env.lookup("tool-parameters")
    if not env.is_bound("tool-execute"):
        raise _scheme_error(f"{where}: the file defines tool-name but no (tool-execute args)")
    clauses["execute"] = env.lookup("tool-execute")
    if env.is_bound("tool-category"):
        clauses["category"] = env.lookup("tool-category")
    if env.is_bound("tool-summary-params"):
        clauses["summary-params"] = env.lookup("tool-summary-params")
    return _make_tool(name, clauses, path, env, f"{path}: tool {name}", source)


def load_scheme_source(path: str, text: str, tier: str, limits: Limits,
                       parse_cache: ParseCache | None = None, *,
                       home: Path | None = None) -> FileRegistration:
    """Evaluate ``text`` (the contents of ``path``) and return what it registered. With
    ``parse_cache`` an unchanged text is not read again (its evaluation still runs)."""
    read = read_all if parse_cache is None else parse_cache.read
    with libraries_cached_in(parse_cache):  # the prelude's .sld files too
        # code counts steps when its tier has a step budget (always, by default, when
        # sandboxed)
        env = make_environment(tier, "steps" if limits.steps is not None else "flag",
                               imports=TOOL_PRELUDE, name=path)
        env.dynamic["%context-name%"] = current_context_name
        collector = LoadCollector(path, env, home)

        def load():
            with loading(collector):
                run_source(env, text, path, read)
                conventional = _conventional_tool(env, path, f"scm:{collector.shown}")
                if conventional is not None:
                    collector.tools.insert(0, conventional)
                # the dispatcher's analyses of each hook (cached on it) run here, once the
                # file's globals are all defined, under the load's budget (issue 23, item
                # 8: they had run after it, unbounded: 300 big lambdas took 125 s)
                for hook in collector.hooks:
                    hook.analyse()

        result = call_scheme(load, (), limits)
    if result.error is not None:
        raise ToolLoadError(path, describe_error(result.error))
    names = [t.name for t in collector.tools]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ToolLoadError(path, f"{path}: tool {dup} is defined twice in this file")
    return FileRegistration(path=path, tier=tier, tools=tuple(collector.tools),
                            hooks=tuple(collector.hooks),
                            digest=hashlib.sha256(text.encode()).hexdigest())
