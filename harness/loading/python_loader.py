"""Loading a ``.py`` or ``.hy`` tool file: run it as a fresh module and collect what its
``harness.api`` decorators registered.

Such a file runs as Python, which cannot be sandboxed: it loads only in the unsandboxed
tier. A ``.hy`` file is read and compiled by Hy (positions from Hy's own reader), a
``.py`` file by Python; either way a problem is reported as ``FILE:LINE:COL: message``
with the source line and a caret, and the file's top level runs under the tier's
wall-clock limit (see harness.sandbox.python_calls).
"""

from __future__ import annotations

import hashlib
import linecache
import sys
import types
from pathlib import Path

from harness.loading.load_error import ToolLoadError
from harness.loading.registry import LANGUAGES, FileRegistration, PythonHook, PythonTool, shown_path
from harness.sandbox.python_calls import PythonTimeout, route_print_output
from harness.sandbox.scheme_calls import Limits
from harness.sandbox.thread_context import call_slot, loading


class PythonCollector:
    """Receives what ``@hook`` and ``@tool`` register while one file loads."""

    def __init__(self, path: str, language: str, home: Path | None = None) -> None:
        self.path = path
        self.shown = shown_path(path, home)  # how sources name it
        self.language = language
        self.hooks: list[PythonHook] = []
        self.tools: list[PythonTool] = []

    def line_of_caller(self) -> int:
        """The line of this file that is running now (a decorator being applied)."""
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.path:
                return frame.f_lineno
            frame = frame.f_back
        return 0

    def source(self, line: int) -> str:
        return f"{self.language}:{self.shown}:{line}"

    def add_hook(self, point: str, fn) -> None:
        self.hooks.append(PythonHook(point, fn, self.source(self.line_of_caller()),
                                     self.path))

    def add_tool(self, name: str, fn, description: str, parameters: dict,
                 category: str | None) -> None:
        if any(t.name == name for t in self.tools):
            raise ValueError(f"tool {name} is defined twice in this file")
        self.tools.append(PythonTool(name, description, parameters, fn,
                                     self.source(self.line_of_caller()), category, self.path))


def load_python_source(path: str, text: str, tier: str, limits: Limits, *,
                       home: Path | None = None) -> FileRegistration:
    """Run ``text`` (the contents of the ``.py`` / ``.hy`` file ``path``) as a fresh module
    and return what it registered. Raises ToolLoadError (FILE:LINE:COL: …)."""
    language = LANGUAGES[Path(path).suffix]
    if tier != "unsandboxed":
        raise ToolLoadError(path, f"{path}:1:1: a .{language} file runs as Python, which "
                            "cannot be sandboxed: give its path the \"unsandboxed\" tier in "
                            "harness.toml ([tools.tiers]) to load it")
    route_print_output()  # what its hooks and tools print is theirs, not the host's
    module = types.ModuleType(_module_name(path))
    module.__file__ = path
    collector = PythonCollector(path, language, home)
    previous = sys.modules.get(module.__name__)
    # registered while it runs, as an import would be (dataclasses and pickle look it up)
    sys.modules[module.__name__] = module
    try:
        with loading(collector):
            code = _compile(path, text, language, module)
            call_slot().call(lambda namespace: exec(code, namespace),  # noqa: S102 - the
                             module.__dict__, limits.seconds)  # user's unsandboxed tool file
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ToolLoadError(path, describe_python_error(exc, path, text)) from None
    finally:
        if previous is None:
            sys.modules.pop(module.__name__, None)
        else:
            sys.modules[module.__name__] = previous
    return FileRegistration(path=path, tier=tier, tools=tuple(collector.tools),
                            hooks=tuple(collector.hooks),
                            digest=hashlib.sha256(text.encode()).hexdigest())


def _module_name(path: str) -> str:
    stem = "".join(c if c.isalnum() else "_" for c in Path(path).stem)
    return f"harness_tool_{stem}_{hashlib.sha1(path.encode()).hexdigest()[:8]}"


def _compile(path: str, text: str, language: str, module: types.ModuleType):
    # the text as loaded, for carets in errors raised later by this file's code
    linecache.cache[path] = (len(text), None, text.splitlines(keepends=True), path)
    if language == "py":
        return compile(text, path, "exec", dont_inherit=True)
    import hy  # ~20-70 ms: only homes with .hy files pay for it
    from hy.compiler import hy_compile
    tree = hy.read_many(text, filename=path, skip_shebang=True)
    return compile(hy_compile(tree, module, filename=path, source=text), path, "exec",
                   dont_inherit=True)


def describe_python_error(exc: BaseException, path: str | None = None,
                          text: str | None = None) -> str:
    """``FILE:LINE:COL: message`` with the source line and a caret, for an exception
    raised by Python or Hy code: at the innermost frame in ``path`` when given, else at
    the innermost frame. A syntax error points at its own position."""
    message = _message(exc)
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        # Hy's errors carry the text of the whole form; the file's own line reads better
        return _located(exc.filename, exc.lineno, exc.offset or 1, message,
                        text if exc.filename == path else None)
    import traceback  # only a failing Python hook or tool is described
    frames = traceback.extract_tb(exc.__traceback__)
    chosen = [f for f in frames if f.filename == path] if path else frames
    if not chosen:
        return f"{path}: {message}" if path else message
    frame = chosen[-1]
    # Python's code positions count columns from 0; Hy puts its reader's (from 1) there
    col = (frame.colno or 0) + (0 if frame.filename.endswith(".hy") else 1)
    return _located(frame.filename, frame.lineno or 1, col, message,
                    text if frame.filename == path else None)


def _message(exc: BaseException) -> str:
    if isinstance(exc, PythonTimeout):
        return str(exc) or "time limit exceeded"
    if isinstance(exc, SyntaxError):
        return exc.msg if type(exc) is SyntaxError else str(exc.msg)
    detail = str(exc)
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def _located(file: str, line: int, col: int, message: str, text: str | None) -> str:
    lines = text.splitlines() if text is not None else None
    source = (lines[line - 1] if lines is not None and 0 < line <= len(lines)
              else linecache.getline(file, line).rstrip("\n"))
    head = f"{file}:{line}:{col}: {message}"
    if not source:
        return head
    return f"{head}\n{source.expandtabs(1)}\n{' ' * max(col - 1, 0)}^"
