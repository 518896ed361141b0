"""What each loaded ``.scm`` file registered, swapped atomically per file.

The registry holds an immutable snapshot (a tuple of ``FileRegistration`` sorted by path);
a reload builds the new registration completely and then replaces the snapshot in one
assignment, so a dispatch running on another thread sees the old set or the new set of a
file, never a mix.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from harness.tools.payload_use import ignores_argument


@dataclass(frozen=True)
class SchemeHook:
    """A ``register-hook`` callback: ``proc`` called with the payload alist."""

    point: str
    proc: object
    file: str
    line: int
    env: object

    @cached_property
    def source(self) -> str:
        return f"scm:{self.file}:{self.line}"

    @cached_property
    def reads_payload(self) -> bool:
        """False when ``proc`` provably never looks at its argument (no conversion)."""
        return not ignores_argument(self.proc)


@dataclass(frozen=True)
class SchemeTool:
    """A tool defined by a ``.scm`` file (by convention or with ``define-tool``)."""

    name: str
    description: str
    parameters: dict
    execute: object
    file: str
    env: object
    category: str | None = None
    summary_params: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return f"scm:{self.file}"

    def schema(self) -> dict:
        return _schema(self)


@dataclass(frozen=True, eq=False)
class PythonTool:
    """A tool that is a Python function taking the arguments dict: from ``@tool`` in a
    ``.py`` / ``.hy`` file (``source`` ``py:PATH:LINE`` / ``hy:PATH:LINE``), from
    ``Runtime.register_tool`` (``host:NAME``) or a builtin (``builtin:NAME``).

    ``fn(arguments)`` returns the result (a string as is; any other value as JSON where it
    has a JSON form, see harness.tools.invoke) or raises: ``ToolError(message)`` for a
    failure the tool describes itself, any other exception for a crash. It runs on the
    caller's thread; the calling context, runtime and tier are in
    ``harness.tools.context.thread_context()``."""

    name: str
    description: str
    parameters: dict
    fn: Callable[[dict], object]
    source: str
    category: str | None = None

    def schema(self) -> dict:
        return _schema(self)


def _schema(tool: SchemeTool | PythonTool) -> dict:
    out = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
    if tool.category:
        out["category"] = tool.category
    return out


Tool = SchemeTool | PythonTool


@dataclass(frozen=True)
class FileRegistration:
    """Everything one file registered, from one successful load of its source."""

    path: str
    tier: str
    tools: tuple[SchemeTool, ...] = ()
    hooks: tuple[SchemeHook, ...] = ()
    digest: str = ""


@dataclass
class LoadFailure:
    """A file whose last load failed (its previous registration, if any, stays live)."""

    path: str
    message: str


@dataclass
class Registry:
    """The one registry of Scheme registrations of a runtime."""

    files: tuple[FileRegistration, ...] = ()
    failures: dict[str, LoadFailure] = field(default_factory=dict)
    #: the failures of the files with no good version running: ``{"source", "message"}``
    #: entries that every dispatch lists in its errors (SPEC §9), kept up to date here so
    #: that a dispatch only reads them
    broken: tuple[dict, ...] = ()
    #: the builtin layer (harness.tools.builtins), by name in registration order: found
    #: only when neither the home nor its plugins provide a tool of that name
    builtins: dict[str, Tool] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # (the files they were built from, point -> hooks, tool name -> tool): rebuilt when
    # ``files`` changes
    _index: tuple = field(default=((), {}, {}), repr=False)

    def replace(self, reg: FileRegistration) -> None:
        """Install ``reg`` for its path in one step, keeping path order."""
        with self._lock:
            others = [f for f in self.files if f.path != reg.path]
            others.append(reg)
            others.sort(key=lambda f: f.path)
            self.files = tuple(others)
            self.failures.pop(reg.path, None)
            self._note_broken()

    def remove(self, path: str) -> bool:
        with self._lock:
            before = len(self.files)
            self.files = tuple(f for f in self.files if f.path != path)
            self.failures.pop(path, None)
            self._note_broken()
            return len(self.files) != before

    def remove_under(self, directory: str) -> list[str]:
        prefix = str(Path(directory)) + "/"
        gone = [f.path for f in self.files if f.path.startswith(prefix)]
        for path in gone:
            self.remove(path)
        return gone

    def fail(self, path: str, message: str) -> None:
        with self._lock:
            self.failures[path] = LoadFailure(path, message)
            self._note_broken()

    def _note_broken(self) -> None:
        running = {f.path for f in self.files}
        self.broken = tuple(
            {"source": f"scm:{failure.path}",
             "message": f"failed to load, so none of its hooks and tools run: "
                        f"{failure.message}"}
            for path, failure in sorted(self.failures.items()) if path not in running)

    def get(self, path: str) -> FileRegistration | None:
        for f in self.files:
            if f.path == path:
                return f
        return None

    def hooks_for(self, point: str) -> tuple[SchemeHook, ...]:
        """The hooks of ``point`` in dispatch order (file path, then registration)."""
        index = self._index
        if index[0] is not self.files:  # checked here, not in a call: on every dispatch
            index = self._reindex()
        return index[1].get(point, ())

    def tools(self) -> list[SchemeTool]:
        return [t for f in self.files for t in f.tools]

    def find_tool(self, name: str) -> SchemeTool | None:
        """The tool ``name`` (of the first file, in path order, that defines it)."""
        index = self._index
        if index[0] is not self.files:
            index = self._reindex()
        return index[2].get(name)

    def find_builtin(self, name: str) -> Tool | None:
        return self.builtins.get(name)

    def _reindex(self) -> tuple:
        files = self.files
        by_point: dict[str, list] = {}
        by_name: dict[str, SchemeTool] = {}
        for f in files:
            for h in f.hooks:
                by_point.setdefault(h.point, []).append(h)
            for t in f.tools:
                by_name.setdefault(t.name, t)
        index = (files, {p: tuple(hooks) for p, hooks in by_point.items()}, by_name)
        self._index = index  # one assignment: readers see the old index or the new
        return index
