"""What each loaded tool file (``.scm``, ``.hy``, ``.py``) registered, swapped atomically per
file, and what the host registered in-process.

The registry holds an immutable snapshot (a tuple of ``FileRegistration`` sorted by path);
a reload builds the new registration completely and then replaces the snapshot in one
assignment, so a dispatch running on another thread sees the old set or the new set of a
file, never a mix. Hooks and tools the host registers (``Runtime.register_hook`` /
``register_tool``) come after every file's.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from pathlib import Path

from harness.scheme.hook_bounds import CallsCheck, PrimitiveCalls, leaf_hook
from harness.scheme.payload_use import PayloadKeys, entry_keys, payload_keys


@dataclass(frozen=True)
class SchemeHook:
    """A ``register-hook`` callback: ``proc`` called with the payload alist."""

    point: str
    proc: object
    file: str
    line: int
    env: object
    #: ``scm:PATH:LINE``, PATH relative to the home when the file is in it (``shown_path``)
    source: str

    def analyse(self) -> None:
        """Work out (and cache) what the dispatcher asks of this hook: ``payload_keys``
        and ``leaf``. The analyses charge the running budget as they read code, so a
        file's load pays for them (harness.loading.scheme_loader)."""
        self.payload_keys  # noqa: B018 - computed for the cache
        self.leaf  # noqa: B018

    @cached_property
    def payload_keys(self) -> PayloadKeys | None:
        """The payload keys ``proc`` can look up (none: it never looks at its argument),
        or None when it may see the whole payload (see payload_use.py)."""
        return payload_keys(self.proc)

    @cached_property
    def blind(self) -> bool:
        """``proc`` never reads its payload, nor passes it on: it gets ``'()``."""
        keys = self.payload_keys
        return keys is not None and not keys.strings and not keys.callees

    @cached_property
    def leaf(self) -> PrimitiveCalls | None:
        """What ``proc`` calls when it is a leaf hook (it runs under a bare budget, or
        none when it is also straight-line), else None (see hook_bounds.py)."""
        return leaf_hook(self.proc)


@dataclass(frozen=True, eq=False)
class PythonHook:
    """A Python function on a hook point, called with the payload dict: from ``@hook`` in
    a ``.py`` / ``.hy`` tool file (``source`` ``py:PATH:LINE`` / ``hy:PATH:LINE``) or from
    ``Runtime.register_hook`` (``host:NAME``). ``file`` is "" for the host's."""

    point: str
    fn: Callable[[dict], object]
    source: str
    file: str = ""

    @property
    def line(self) -> int:
        """The line of the file that registered it (0 for the host's)."""
        return int(self.source.rsplit(":", 1)[1]) if self.file else 0


@dataclass(frozen=True)
class SchemeTool:
    """A tool defined by a ``.scm`` file (by convention or with ``define-tool``)."""

    name: str
    description: str
    parameters: dict
    execute: object
    file: str
    env: object
    #: ``scm:PATH``, PATH relative to the home when the file is in it (``shown_path``)
    source: str
    category: str | None = None
    summary_params: tuple[str, ...] = ()

    def schema(self) -> dict:
        return _schema(self)


@dataclass(frozen=True, eq=False)
class PythonTool:
    """A tool that is a Python function taking the arguments dict: from ``@tool`` in a
    ``.py`` / ``.hy`` file (``source`` ``py:PATH:LINE`` / ``hy:PATH:LINE``), from
    ``Runtime.register_tool`` (``host:NAME``) or a builtin (``builtin:NAME``).

    ``fn(arguments)`` returns the result (a string as is; any other value as JSON where it
    has a JSON form, see harness.calls.run_tool) or raises: ``ToolError(message)`` for a
    failure the tool describes itself, any other exception for a crash. It runs on the
    caller's thread; the calling context, runtime and tier are in
    ``harness.sandbox.thread_context.thread_context()``."""

    name: str
    description: str
    parameters: dict
    fn: Callable[[dict], object]
    source: str
    category: str | None = None
    #: the file that defined it ("" for the host's and the builtins)
    file: str = ""

    def schema(self) -> dict:
        return _schema(self)


def _schema(tool: SchemeTool | PythonTool) -> dict:
    out = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
    if tool.category:
        out["category"] = tool.category
    return out


Hook = SchemeHook | PythonHook
Tool = SchemeTool | PythonTool


#: HookRun.runner: which of the dispatcher's runners (harness.hooks.runners) runs a run of
#: Python hooks, of leaf Scheme hooks (bare budget or none: hook_bounds.py), of other
#: Scheme hooks
PYTHON_RUNNER, LEAF_RUNNER, SCHEME_RUNNER = 0, 1, 2


@dataclass(frozen=True)
class HookRun:
    """Consecutive hooks of one point in one language, as the dispatcher runs them.
    ``watch_deadline``: some Scheme hook of the run does not count steps, so the deadline
    monitor must watch it (worked out here once, not on every dispatch)."""

    python: bool
    hooks: tuple
    watch_deadline: bool = False
    #: every hook of a Scheme run is a leaf hook: the check that they still call only
    #: their primitives (None: some hook of the run needs the whole budget machinery; see
    #: hook_bounds.py)
    leaf: CallsCheck | None = None
    #: every hook of the run is also straight-line (it may run without a budget)
    straight: bool = False
    #: the tiers of the run's Scheme hooks
    tiers: frozenset[str] = frozenset()
    #: per file of a Scheme run, the payload keys its hooks can look up, as
    #: ``payload_use.entry_keys`` pairs (None: they may see all of it)
    file_keys: Mapping[str, tuple | None] = field(default_factory=dict, compare=False)
    #: some file has several hooks in this Scheme run: they share its budget (see
    #: harness.hooks.runners.SchemeRunner and tier_limits.budget_shares)
    shared: bool = False
    #: the runner of this run (``PYTHON_RUNNER``, ``LEAF_RUNNER``, ``SCHEME_RUNNER``),
    #: chosen here once: a dispatch indexes its runners with it
    runner: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        runner = PYTHON_RUNNER if self.python else \
            SCHEME_RUNNER if self.leaf is None else LEAF_RUNNER
        object.__setattr__(self, "runner", runner)


def hook_runs(hooks: list[Hook]) -> tuple[HookRun, ...]:
    """``hooks`` (in dispatch order) cut into runs of one language."""
    runs: list[HookRun] = []
    start = 0
    for i in range(1, len(hooks) + 1):
        if i == len(hooks) or type(hooks[i]) is not type(hooks[start]):
            group = tuple(hooks[start:i])
            python = type(group[0]) is PythonHook
            if python:
                runs.append(HookRun(True, group))
            else:
                watch = any(h.env.budget_check != "steps" for h in group)
                leaf = tuple(h.leaf for h in group)
                runs.append(HookRun(False, group, watch,
                                    None if None in leaf else CallsCheck(
                                        (h.env, calls) for h, calls in zip(group, leaf)),
                                    None not in leaf and all(c.straight for c in leaf),
                                    frozenset(h.env.tier for h in group), _file_keys(group),
                                    any(a.file == b.file for a, b in pairwise(group))))
            start = i
    return tuple(runs)


def _file_keys(hooks: tuple) -> dict[str, tuple | None]:
    """Per file, the union of the payload keys its hooks can look up as ``entry_keys``
    (None when one of them may see the whole payload): a file's hooks share one converted
    payload."""
    texts: dict[str, frozenset[str] | None] = {}
    for h in hooks:
        keys = h.payload_keys
        known = texts.get(h.file, frozenset())
        texts[h.file] = None if keys is None or known is None else known | keys.texts
    return {file: None if known is None else entry_keys(known)
            for file, known in texts.items()}


@dataclass(frozen=True)
class FileRegistration:
    """Everything one file registered, from one successful load of its source."""

    path: str
    tier: str
    tools: tuple[Tool, ...] = ()
    hooks: tuple[Hook, ...] = ()
    digest: str = ""
    #: where its hooks run among the files': GUARD_LAYER (the ready guards a home
    #: enables, harness.guards) before HOME_LAYER (the home's tool files); by path within
    layer: int = 1


#: FileRegistration.layer of the ready guards and of the home's tool files
GUARD_LAYER, HOME_LAYER = 0, 1


@dataclass(frozen=True)
class LoadFailure:
    """A file whose last load failed (its previous registration, if any, stays live).

    ``saved``: when the good version that runs instead was kept (see last_good.py), if
    known; ``points``: the hook points it was going to guard (the permission points its
    source names, and those its last good version registered): while no good version of
    it runs, those permission points deny (see Dispatcher)."""

    path: str
    message: str
    saved: str | None = None
    points: frozenset[str] = frozenset()

    def report(self, running: bool) -> str:
        """What every dispatch says about it: the last good version that runs instead, or
        that nothing of it runs."""
        if running:
            when = f" (saved {self.saved})" if self.saved else ""
            return f"running last good version of {self.path}{when}; {self.message}"
        return f"failed to load, so none of its hooks and tools run: {self.message}"


#: file suffix -> the language name used in sources (``hy:PATH:LINE``) and [failure] keys
#: (any other tool file is Scheme: ``scm:``)
LANGUAGES = {".py": "py", ".hy": "hy"}


def shown_path(path: str, home: str | os.PathLike | None) -> str:
    """How sources name a tool file: relative to ``home`` when it is inside it
    (``tools/guard.scm``, as the user wrote it), else as given. One form everywhere: the
    dispatch results, ``call``, ``check``, the REPL, serve and the audit log."""
    if home is not None:
        prefix = str(home).rstrip("/") + "/"
        if path.startswith(prefix):
            return path[len(prefix):]
    return path


def file_source(path: str, home: str | os.PathLike | None = None) -> str:
    """How errors about a whole tool file name it: ``scm:PATH``, ``py:PATH`` or
    ``hy:PATH`` (the sources of its hooks add ``:LINE``), PATH as ``shown_path`` gives it."""
    return f"{LANGUAGES.get(Path(path).suffix, 'scm')}:{shown_path(path, home)}"


@dataclass
class Registry:
    """The one registry of a runtime: the tool files' registrations, then the host's."""

    #: the runtime's home: sources name the files in it relative to it (``shown_path``)
    home: str | None = None
    files: tuple[FileRegistration, ...] = ()
    failures: dict[str, LoadFailure] = field(default_factory=dict)
    #: the failures of the files, as ``{"source", "message"}`` entries that every dispatch
    #: lists in its errors (SPEC §9, §14): a file with a good version running says so, one
    #: with none says nothing of it runs; kept up to date here so a dispatch only reads them
    broken: tuple[dict, ...] = ()
    #: the failures of the files with no good version running (the dispatcher makes their
    #: guarded points fail closed, see Dispatcher)
    unguarded: tuple[LoadFailure, ...] = ()
    #: standing problems of the home listed in every dispatch's errors beside ``broken``:
    #: files meant to run that are not loaded (harness.home_layout, set by the runtime) and
    #: tools defined twice (found here)
    notices: tuple[dict, ...] = ()
    host_hooks: tuple[PythonHook, ...] = ()
    host_tools: tuple[PythonTool, ...] = ()
    #: the builtin layer (harness.builtins), by name in registration order: found
    #: only when neither the home nor its plugins provide a tool of that name
    builtins: dict[str, Tool] = field(default_factory=dict)
    #: point -> its hooks cut into runs of one language (``HookRun``), in dispatch order:
    #: rebuilt whenever a file or the host registers or drops something (in one
    #: assignment), so a dispatch only reads it
    runs: Mapping[str, tuple[HookRun, ...]] = field(default_factory=dict, init=False,
                                                    repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    # (point -> hooks, tool name -> tool): rebuilt with ``runs``
    _index: tuple = field(default=({}, {}), init=False, repr=False)
    # inside ``batch``: the registrations waiting to be installed together, by path
    _pending: dict | None = field(default=None, init=False, repr=False)
    # the parts of ``broken``: the files' failures, and the notices of tools defined twice
    _failed: tuple[dict, ...] = field(default=(), init=False, repr=False)
    _twice: tuple[dict, ...] = field(default=(), init=False, repr=False)

    def __post_init__(self) -> None:
        self._reindex()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Install what ``replace`` and ``fail`` get inside in one step at the end (a
        start-up loading every file): one index instead of one per file, which made
        loading N files O(N²) (issue 23, item 9: 10,000 files took 440 s)."""
        with self._lock:
            outer = self._pending
            if outer is None:
                self._pending = {}
        try:
            yield
        finally:
            if outer is None:
                with self._lock:
                    pending, self._pending = self._pending, None
                    if pending:
                        kept = {f.path: f for f in self.files}
                        kept.update(pending)
                        self.files = tuple(sorted(kept.values(),
                                                  key=lambda f: (f.layer, f.path)))
                    self._note_broken()
                    self._reindex()

    def replace(self, reg: FileRegistration) -> None:
        """Install ``reg`` for its path in one step, keeping path order."""
        with self._lock:
            if self._pending is not None:
                self._pending[reg.path] = reg
                self.failures.pop(reg.path, None)
                return
            others = [f for f in self.files if f.path != reg.path]
            others.append(reg)
            others.sort(key=lambda f: (f.layer, f.path))
            self.files = tuple(others)
            self.failures.pop(reg.path, None)
            self._note_broken()
            self._reindex()

    def remove(self, path: str) -> bool:
        with self._lock:
            if self._pending is not None:
                self._pending.pop(path, None)
            before = len(self.files)
            self.files = tuple(f for f in self.files if f.path != path)
            self.failures.pop(path, None)
            self._note_broken()
            if len(self.files) != before:
                self._reindex()
                return True
            return False

    def remove_under(self, directory: str) -> list[str]:
        prefix = str(Path(directory)) + "/"
        gone = [f.path for f in self.files if f.path.startswith(prefix)]
        for path in gone:
            self.remove(path)
        return gone

    def fail(self, failure: LoadFailure) -> None:
        """Note that ``failure.path`` failed to load (what it registered, if anything,
        stays)."""
        with self._lock:
            self.failures[failure.path] = failure
            if self._pending is None:  # (else: at the end of the batch)
                self._note_broken()

    def _note_broken(self) -> None:
        running = {f.path for f in self.files}
        failures = sorted(self.failures.items())
        self._failed = tuple({"source": file_source(path, self.home),
                              "message": failure.report(path in running)}
                             for path, failure in failures)
        self.unguarded = tuple(failure for path, failure in failures if path not in running)
        self._publish()

    def set_notices(self, notices: tuple[dict, ...]) -> None:
        """The home's standing problems (``{"source", "message"}``) every dispatch lists."""
        with self._lock:
            self.notices = notices
            self._publish()

    def _publish(self) -> None:
        self.broken = (*self._failed, *self.notices, *self._twice)

    def standing_notices(self) -> tuple[dict, ...]:
        """The notices of ``broken`` that are no load failure: files not loaded, tools
        defined twice."""
        return (*self.notices, *self._twice)

    def get(self, path: str) -> FileRegistration | None:
        pending = self._pending
        if pending and path in pending:
            return pending[path]
        for f in self.files:
            if f.path == path:
                return f
        return None

    def add_host_hook(self, hook: PythonHook) -> None:
        """Add a hook of the host after every other hook of its point."""
        with self._lock:
            self.host_hooks = (*self.host_hooks, hook)
            self._reindex()

    def add_host_tool(self, tool: PythonTool) -> None:
        with self._lock:
            self.host_tools = (*self.host_tools, tool)
            self._reindex()

    def remove_host(self, item: PythonHook | PythonTool) -> bool:
        """Drop a hook or tool the host registered; False if it was not registered."""
        with self._lock:
            hooks = tuple(h for h in self.host_hooks if h is not item)
            tools = tuple(t for t in self.host_tools if t is not item)
            if len(hooks) == len(self.host_hooks) and len(tools) == len(self.host_tools):
                return False
            self.host_hooks, self.host_tools = hooks, tools
            self._reindex()
            return True

    def hooks_for(self, point: str) -> tuple[Hook, ...]:
        """The hooks of ``point`` in dispatch order (the ready guards', then by file path,
        then registration; the host's last)."""
        return self._index[0].get(point, ())

    def runs_for(self, point: str) -> tuple[HookRun, ...]:
        """``hooks_for(point)`` cut into runs of one language (see ``HookRun``)."""
        return self.runs.get(point, ())

    def tools(self) -> list[Tool]:
        """Every tool: the files' in path order, then the host's."""
        return [t for f in self.files for t in f.tools] + list(self.host_tools)

    def find_tool(self, name: str) -> Tool | None:
        """The tool ``name`` (of the first file, in path order, that defines it; else the
        host's)."""
        return self._index[1].get(name)

    def find_builtin(self, name: str) -> Tool | None:
        return self.builtins.get(name)

    def _reindex(self) -> None:
        # (under the lock, by every change) a dispatch reads the result without a check
        by_point: dict[str, list] = {}
        by_name: dict[str, Tool] = {}
        twice = []
        for f in self.files:
            for h in f.hooks:
                by_point.setdefault(h.point, []).append(h)
            for t in f.tools:
                first = by_name.setdefault(t.name, t)
                if first is not t:
                    twice.append({"source": f"tool:{t.name}",
                                  "message": f"tool {t.name} is defined in {first.file} and "
                                             f"in {t.file}: the one in {first.file} is used "
                                             f"(the first by path)"})
        for h in self.host_hooks:
            by_point.setdefault(h.point, []).append(h)
        for t in self.host_tools:
            by_name.setdefault(t.name, t)
        self._index = ({p: tuple(hooks) for p, hooks in by_point.items()}, by_name)
        if tuple(twice) != self._twice:
            self._twice = tuple(twice)
            self._publish()
        self.runs = {p: hook_runs(hooks) for p, hooks in by_point.items()}
