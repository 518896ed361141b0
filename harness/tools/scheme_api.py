"""The procedures of (harness hooks), (harness tools), (harness json), (harness io) and
(harness docs), as seen from Scheme.

They reach the running runtime and the file being loaded through harness.tools.context;
``define-tool`` itself is a macro in scheme_lib/harness/tools.sld over ``%register-tool``.
"""

from __future__ import annotations

import secrets
import sys
from datetime import UTC, datetime
from pathlib import Path

from harness.scheme.datatypes import NIL, String, Symbol, list_to_py, py_to_list
from harness.scheme.errors import error, wrong_type
from harness.scheme.primitives import define, primitive
from harness.tools.context import current_load, current_runtime, current_tier

HOOKS, TOOLS, JSON, IO, DOCS = (
    "harness hooks", "harness tools-base", "harness json", "harness io", "harness docs")


def _text(who: str, x) -> str:
    if isinstance(x, String):
        return x.s
    if isinstance(x, Symbol):
        return x.name
    raise wrong_type(who, "a string or symbol", x)


def _call_site_line() -> int:
    """The Scheme source line of the innermost compiled caller (for hook sources)."""
    from harness.scheme.compiler import SCHEME_CODE_PREFIX
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(SCHEME_CODE_PREFIX):
            for i, (line, *_rest) in enumerate(code.co_positions()):
                if i * 2 == frame.f_lasti:
                    return line or code.co_firstlineno
            return code.co_firstlineno
        frame = frame.f_back
    return 0


# -- (harness hooks) ------------------------------------------------------------------------
@primitive(HOOKS)
def register_hook(point, proc):
    """(register-hook 'point proc): proc gets the payload alist, returns an answer or '()."""
    from harness.hooks.catalogue import UnknownHookError, hook_point
    name = _text("register-hook", point)
    try:
        hook_point(name)
    except UnknownHookError as exc:
        raise error(f"register-hook: {exc}") from None
    if not callable(proc):
        raise wrong_type("register-hook", "a procedure", proc)
    collector = current_load()
    if collector is None:
        raise error("register-hook: hooks can only be registered while a tool file loads")
    collector.add_hook(name, proc, _call_site_line())


@primitive(HOOKS)
def hook_points():
    from harness.hooks.catalogue import HOOK_POINTS
    return py_to_list([Symbol.intern(n) for n in HOOK_POINTS])


@primitive(HOOKS)
def hook_doc(point):
    from harness.hooks.catalogue import UnknownHookError, hook_point
    try:
        hp = hook_point(_text("hook-doc", point))
    except UnknownHookError as exc:
        raise error(f"hook-doc: {exc}") from None
    return String(hp.doc)


# -- (harness tools) -------------------------------------------------------------------------
_TOOL_CLAUSES = ("description", "parameters", "execute", "category", "summary-params")


@primitive(TOOLS, name="%register-tool")
def register_tool(name, clauses):
    """Target of the define-tool macro: clauses is an alist of (clause-name . value)."""
    collector = current_load()
    if collector is None:
        raise error("define-tool: tools can only be defined while a tool file loads")
    tool_name = _text("define-tool", name)
    values: dict[str, object] = {}
    for entry in list_to_py(clauses):
        key = _text("define-tool", entry[0])
        if key not in _TOOL_CLAUSES:
            raise error(f"define-tool {tool_name}: unknown clause {key} (expected one of "
                        f"{', '.join(_TOOL_CLAUSES)})")
        if key in values:
            raise error(f"define-tool {tool_name}: clause {key} given twice")
        values[key] = entry[1]
    collector.add_tool(tool_name, values, _call_site_line())


@primitive(TOOLS)
def call_tool(name, args=NIL):
    """(call-tool name args-alist) -> the tool's result string, through every hook."""
    runtime = current_runtime()
    if runtime is None:
        raise error("call-tool: no runtime is running this code")
    from harness.bridge import NO_ANSWER, BridgeError, scheme_to_json
    tool = _text("call-tool", name)
    try:
        arguments = scheme_to_json(args, where=f"call-tool {tool} arguments")
    except BridgeError as exc:
        raise error(f"call-tool: {exc}") from None
    if arguments is NO_ANSWER:
        arguments = {}
    if not isinstance(arguments, dict):
        raise wrong_type("call-tool", "an alist of arguments", args)
    if current_tier() == "sandboxed":
        # A sandboxed caller must not borrow the powers of a plugin (a process) or of an
        # unsandboxed tool (a .py / .hy file's tools are). The host's own tools it may
        # call: the host offers them to the model anyway.
        target = runtime.registry.find_tool(tool)
        if target is None or not _sandbox_may_call(target):
            kind = "a plugin tool" if target is None and runtime.plugins.find_tool(tool) \
                else ("an unsandboxed tool" if target is not None else "unknown")
            if kind == "unknown":
                raise error(f"call-tool: unknown tool {tool!r}")
            raise error(f"call-tool: sandboxed code cannot call {tool} ({kind})")
    result = runtime.call_tool(tool, arguments)
    if result.error is not None:
        raise error(f"call-tool {tool}: {result.error}")
    return String(result.output)


def _sandbox_may_call(tool) -> bool:
    """A sandboxed Scheme tool, or a tool the host registered."""
    env = getattr(tool, "env", None)  # a Scheme tool's environment knows its tier
    if env is not None:
        return env.tier == "sandboxed"
    return tool.source.startswith("host:")


@primitive(TOOLS)
def generate_id():
    return String(secrets.token_hex(4))


@primitive(TOOLS)
def current_timestamp():
    return String(datetime.now(UTC).strftime("%Y%m%d-%H%Mz"))


# -- (harness json) ---------------------------------------------------------------------------
@primitive(JSON)
def json_parse(text):
    from harness.bridge import json_to_scheme, loads
    if not isinstance(text, String):
        raise wrong_type("json-parse", "a string", text)
    try:
        return json_to_scheme(loads(text.s))
    except ValueError as exc:
        raise error(f"json-parse: invalid JSON: {exc}", text) from None


@primitive(JSON)
def json_stringify(value):
    from harness.bridge import NO_ANSWER, BridgeError, dumps, scheme_to_json
    try:
        data = scheme_to_json(value, where="json-stringify")
    except BridgeError as exc:
        raise error(f"json-stringify: {exc}") from None
    if data is NO_ANSWER:
        data = []
    return String(dumps(data).decode())


# -- (harness io): unsandboxed tier only --------------------------------------------------------
def _io_path(who: str, path) -> Path:
    runtime = current_runtime()
    text = _text(who, path)
    if text.startswith("vfs://"):
        if runtime is None:
            raise error(f"{who}: vfs:// paths need a runtime home")
        root = (Path(runtime.home) / "vfs").resolve()
        rel = text[len("vfs://"):].lstrip("/")
        target = (root / rel).resolve()
        if target != root and root not in target.parents:
            raise error(f"{who}: {text} leaves the virtual filesystem")
        return target
    return Path(text)


def _file_error(who: str, path: Path, exc: OSError):
    return error(f"{who}: {path}: {exc.strerror or exc}", String(str(path)), kind="file")


@primitive(IO)
def io_read(path):
    p = _io_path("io-read", path)
    try:
        return String(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _file_error("io-read", p, exc) from None


@primitive(IO)
def io_write(path, content):
    p = _io_path("io-write", path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(_text("io-write", content), encoding="utf-8")
    except OSError as exc:
        raise _file_error("io-write", p, exc) from None
    return True


@primitive(IO)
def io_append(path, content):
    p = _io_path("io-append", path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("a", encoding="utf-8") as f:
            f.write(_text("io-append", content))
    except OSError as exc:
        raise _file_error("io-append", p, exc) from None
    return True


@primitive(IO)
def io_list(path):
    p = _io_path("io-list", path)
    try:
        return py_to_list([String(n) for n in sorted(x.name for x in p.iterdir())])
    except FileNotFoundError:
        return NIL
    except OSError as exc:
        raise _file_error("io-list", p, exc) from None


@primitive(IO, name="io-exists?")
def io_exists(path):
    return _io_path("io-exists?", path).exists()


@primitive(IO)
def io_delete(path):
    p = _io_path("io-delete", path)
    try:
        p.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise _file_error("io-delete", p, exc) from None
    return True


# -- (harness docs) -------------------------------------------------------------------------------
@primitive(DOCS)
def hook_catalogue():
    """The hook points as data: a list of alists (name, doc, fields, combine, can-modify)."""
    from harness.hooks.catalogue import HOOK_POINTS
    out = []
    for hp in HOOK_POINTS.values():
        out.append(py_to_list([
            [String("name"), String(hp.name)],
            [String("doc"), String(hp.doc)],
            [String("fields"), py_to_list([String(f) for f in hp.fields])],
            [String("combine"), String(hp.combine)],
            [String("can-modify"), bool(hp.can_modify)],
        ]))
    return py_to_list(out)


define(DOCS, "hook-doc", hook_doc)
define(DOCS, "hook-points", hook_points)
