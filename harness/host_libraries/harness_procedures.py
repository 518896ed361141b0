"""The procedures of (harness hooks), (harness tools), (harness json), (harness io),
(harness docs) and the reader under (harness guards), as seen from Scheme.

They reach the running runtime and the file being loaded through harness.sandbox.thread_context;
``define-tool`` itself is a macro in scheme_lib/harness/tools.sld over ``%register-tool``.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from harness.sandbox.thread_context import current_load, current_runtime
from harness.scheme.datatypes import NIL, String, Symbol, list_to_py, py_to_list
from harness.scheme.errors import DepthLimitExceeded, error, wrong_type
from harness.scheme.limits import MAX_ALLOC, charge_alloc, raise_if_exceeded
from harness.scheme.names import SCHEME_CODE_PREFIX
from harness.scheme.primitives import define, primitive
from harness.scheme.printer import MAX_WRITTEN_CHARS

HOOKS, TOOLS, JSON, IO, DOCS, GUARDS = (
    "harness hooks", "harness tools-base", "harness json", "harness io", "harness docs",
    "harness guards-base")


def _text(who: str, x) -> str:
    if isinstance(x, String):
        return x.s
    if isinstance(x, Symbol):
        return x.name
    raise wrong_type(who, "a string or symbol", x)


def _call_site_line() -> int:
    """The Scheme source line of the innermost compiled caller (for hook sources)."""
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


@primitive(HOOKS)
def project_directory():
    """(project-directory): the project the home guards, as an absolute path: [tools]
    project_root of harness.toml, else [hooks] project_dir, else $CLAUDE_PROJECT_DIR,
    else the directory harness runs in. A guard reads it where a payload has no cwd."""
    runtime = current_runtime()
    if runtime is None:
        raise error("project-directory: no runtime is running this code")
    return String(runtime.config.project_root or runtime.handlers.project_dir)


# -- (harness guards) ------------------------------------------------------------------------
# The Python half of scheme_lib/harness/guards.sld: see harness.host_libraries.shell_words.
def _words_of(who: str, words) -> list[str]:
    items = list_to_py(words)
    if not all(isinstance(w, String) for w in items):
        raise wrong_type(who, "a list of strings", words)
    return [w.s for w in items]


def _strings(words: list[str]):
    return py_to_list(String(w) for w in words)


@primitive(GUARDS, name="shell-pipelines")
def shell_pipelines(text):
    """(shell-pipelines text): every pipeline the shell command runs, inner ones included;
    each a list of commands, each a list of words."""
    from harness.host_libraries.shell_words import CommandTooLargeError
    from harness.host_libraries.shell_words import shell_pipelines as read
    if not isinstance(text, String):
        return NIL  # no command: nothing runs
    charge_alloc(len(text.s))
    try:
        pipelines = read(text.s)
    except CommandTooLargeError as exc:
        raise error(f"shell-pipelines: {exc}") from None
    return py_to_list(py_to_list(_strings(command) for command in pipeline)
                      for pipeline in pipelines)


@primitive(GUARDS)
def unwrap(words):
    """(unwrap words): the words from the program they really run (sudo, env, xargs, VAR=x
    ... skipped)."""
    from harness.host_libraries.shell_words import unwrap as inner
    return _strings(inner(_words_of("unwrap", words)))


@primitive(GUARDS)
def command_name(words):
    """(command-name words): the name of the program the command really runs, or ""."""
    from harness.host_libraries.shell_words import program_name
    return String(program_name(_words_of("command-name", words)))


@primitive(GUARDS)
def programs(words):
    """(programs words): the names of the programs the command goes through, wrappers
    first."""
    from harness.host_libraries.shell_words import programs as chain
    return _strings(chain(_words_of("programs", words)))


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


#: how deep call-tool calls may nest on one thread (a tool that calls itself ends here)
MAX_TOOL_NESTING = 32
_nesting = threading.local()


def in_call_tool() -> bool:
    """A ``call-tool`` from Scheme is running on this thread: its tool call follows chibi's
    rule for missing and unknown arguments (harness.calls.arguments)."""
    return getattr(_nesting, "depth", 0) > 0


@primitive(TOOLS)
def call_tool(name, args=NIL):
    """(call-tool name args-alist) -> the tool's result string, through every hook.

    The called tool and its hooks run inside the caller's budget (limits.py): what they
    spend is charged to the caller too, and the caller's limits bound them."""
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
    depth = getattr(_nesting, "depth", 0)
    if depth >= MAX_TOOL_NESTING:
        # remembered, so that every level re-raises it as it is (not wrapped 32 times)
        _nesting.overflow = (f"recursion too deep: tool calls nested more than "
                             f"{MAX_TOOL_NESTING} deep (call-tool {tool})")
        raise DepthLimitExceeded(_nesting.overflow)
    _nesting.depth = depth + 1
    try:
        result = runtime.call_tool(tool, arguments)
    finally:
        _nesting.depth = depth
        overflow = getattr(_nesting, "overflow", None)
        if depth == 0:
            _nesting.overflow = None
    if overflow is not None:
        raise DepthLimitExceeded(overflow)
    # a limit of the caller that ran out inside the call stays a limit error (uncatchable)
    raise_if_exceeded()
    if result.error is not None:
        raise error(f"call-tool {tool}: {result.error}")
    return String(result.output)


@primitive(TOOLS)
def generate_id():
    import secrets  # imported by the first call: every interpreter loads this module
    return String(secrets.token_hex(4))


@primitive(TOOLS)
def current_timestamp():
    from datetime import UTC, datetime  # as secrets above
    return String(datetime.now(UTC).strftime("%Y%m%d-%H%Mz"))


# -- (harness json) ---------------------------------------------------------------------------
@primitive(JSON)
def json_parse(text):
    from harness.bridge import json_to_scheme, loads
    if not isinstance(text, String):
        raise wrong_type("json-parse", "a string", text)
    charge_alloc(len(text.s), 16)  # the data it builds is about as big as the text
    try:
        return json_to_scheme(loads(text.s))
    except ValueError as exc:
        raise error(f"json-parse: invalid JSON: {exc}", text) from None


@primitive(JSON)
def json_stringify(value):
    from harness.bridge import NO_ANSWER, TEXT_DEPTH, BridgeError, dumps, scheme_to_json
    try:
        data = scheme_to_json(value, where="json-stringify", max_depth=TEXT_DEPTH,
                              max_nodes=MAX_ALLOC, max_chars=MAX_WRITTEN_CHARS)
    except BridgeError as exc:
        raise error(str(exc)) from None  # (it starts with "json-stringify: ")
    if data is NO_ANSWER:
        data = []
    return String(dumps(data).decode())


# -- (harness io): unsandboxed tier only --------------------------------------------------------
# vfs:/// paths go to the runtime's VFS as the System caller (every zone but the read-only
# mounts); other paths are host paths, relative to the process's working directory. No
# hook fires for any of them.

def _io_target(who: str, path):
    """(vfs, VFS path) for a ``vfs://`` path, else (None, host Path)."""
    from harness.vfs.paths import SCHEME, VfsError, check_path
    text = _text(who, path)
    if not text.startswith(SCHEME):
        return None, Path(text)
    runtime = current_runtime()
    if runtime is None:
        raise error(f"{who}: vfs:// paths need a runtime home")
    try:
        return runtime.vfs, check_path(text[len(SCHEME):])
    except VfsError as exc:
        raise error(f"{who}: {exc}") from None


def _io_failure(who: str, where, exc: Exception):
    from harness.vfs.store import os_error_text
    message = os_error_text(exc) if isinstance(exc, OSError) else str(exc)
    return error(f"{who}: {where}: {message}", String(str(where)), kind="file")


@primitive(IO)
def io_read(path):
    from harness.vfs.paths import VfsError
    from harness.vfs.store import VfsNotFound
    vfs, where = _io_target("io-read", path)
    try:
        if vfs is not None:
            return String(vfs.read_text(where))
        return String(where.read_text(encoding="utf-8", errors="replace"))
    except (FileNotFoundError, VfsNotFound):
        return False
    except (OSError, VfsError) as exc:
        raise _io_failure("io-read", where, exc) from None


def _io_store(who: str, path, content, append: bool) -> bool:
    from harness.atomic_file import replace_contents
    from harness.vfs.paths import VfsError
    from harness.vfs.zones import HOST
    vfs, where = _io_target(who, path)
    data = _text(who, content).encode("utf-8", errors="surrogatepass")
    try:
        if vfs is not None:
            (vfs.append if append else vfs.write)(HOST, where, data)
        elif append:
            where.parent.mkdir(parents=True, exist_ok=True)
            with where.open("ab") as f:
                f.write(data)
        else:
            replace_contents(where, data)
    except (OSError, VfsError) as exc:
        raise _io_failure(who, where, exc) from None
    return True


@primitive(IO)
def io_write(path, content):
    return _io_store("io-write", path, content, append=False)


@primitive(IO)
def io_append(path, content):
    return _io_store("io-append", path, content, append=True)


@primitive(IO)
def io_list(path):
    from harness.vfs.paths import VfsError
    vfs, where = _io_target("io-list", path)
    try:
        names = [e.name for e in vfs.list(where)] if vfs is not None else \
            sorted((x.name for x in where.iterdir()), key=str.encode)
    except FileNotFoundError:
        return NIL
    except (OSError, VfsError) as exc:
        raise _io_failure("io-list", where, exc) from None
    return py_to_list([String(n) for n in names])


@primitive(IO, name="io-exists?")
def io_exists(path):
    from harness.vfs.paths import VfsError
    vfs, where = _io_target("io-exists?", path)
    try:
        return vfs.exists(where) if vfs is not None else where.exists()
    except VfsError as exc:
        raise _io_failure("io-exists?", where, exc) from None


@primitive(IO)
def io_delete(path):
    """Delete a file (a VFS directory with everything in it); a missing path is an error."""
    from harness.vfs.paths import VfsError
    from harness.vfs.zones import HOST
    vfs, where = _io_target("io-delete", path)
    try:
        if vfs is not None:
            if not vfs.exists(where):
                raise FileNotFoundError(2, "No such file or directory")
            vfs.delete(HOST, where)
        else:
            where.unlink()
    except (OSError, VfsError) as exc:
        raise _io_failure("io-delete", where, exc) from None
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
