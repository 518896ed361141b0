"""The embedding API: a ``Runtime`` over a harness home.

```python
from harness.runtime import Runtime

with Runtime("~/.harness") as rt:
    decision = rt.fire("pre_tool", {"tool_name": "shell_exec", "arguments": {"command": "ls"}})
    if decision["outcome"]["blocked"]: ...
    result = rt.call_tool("word-count", {"text": "a b c"})
```

A home holds ``plugins/`` (executables), ``tools/`` (``.scm``, ``.hy`` and ``.py`` files,
loaded recursively in path order), ``hooks.toml`` (declared handlers, beside those of the
Claude Code settings files harness.toml names) and ``harness.toml`` (tiers, limits,
timeouts). A host adds Python hooks and tools of its own with ``register_hook`` /
``register_tool``. ``.cache/`` holds what may be
deleted at any time: the plugins' schemas and the read data of the tool files.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Self

from harness.builtins import builtin_tools
from harness.calls.tool_result import ToolResult
from harness.config import Config, HomeNotFoundError, load_config
from harness.guards import guard_path, is_guard_file
from harness.handlers import HandlerSet
from harness.hooks.dispatcher import Dispatcher, PermissionHandler
from harness.load_failures.last_good import LastGoodStore
from harness.loading.loader import TOOL_SUFFIXES, ToolLoadError, load_tool_file, load_tool_source
from harness.loading.registry import (
    GUARD_LAYER,
    FileRegistration,
    LoadFailure,
    PythonHook,
    PythonTool,
    Registry,
    file_source,
)
from harness.loading.tool_schema import parameters_from_python
from harness.plugins import PluginSet
from harness.sandbox.file_memory import LiveMemory
from harness.sandbox.python_calls import route_print_output
from harness.sandbox.scheme_calls import Limits
from harness.sandbox.thread_context import in_tier, using_runtime
from harness.scheme.errors import ReadError
from harness.scheme.parse_cache import ParseCache
from harness.scheme.source_text import decode_source

# Imported where used, so that a runtime that never talks to a model or touches the VFS (a
# hook dispatch) does not pay for their modules at every start.
if TYPE_CHECKING:
    from harness.model import Model, ModelReply, ModelRequest
    from harness.vfs.store import Vfs

__all__ = ["Runtime", "ToolResult", "resolve_home"]


def resolve_home(home: str | os.PathLike | None = None) -> Path:
    """``home``, else $HARNESS_HOME, else ~/.harness."""
    if home is None:
        home = os.environ.get("HARNESS_HOME") or "~/.harness"
    return Path(home).expanduser().resolve()


def _builtin_source(tool) -> str:
    """``builtin:tools/fs_read.scm`` for a builtin written in Scheme, ``builtin:NAME``
    for one in Python."""
    file = getattr(tool, "file", None)
    return f"builtin:tools/{Path(file).name}" if file else tool.source


class Runtime:
    """Plugins and Scheme tool files of one home, and the dispatcher that fires hooks.

    Raises HomeNotFoundError when the home is not a directory and ConfigError when its
    harness.toml is malformed (``config`` given: used instead of reading harness.toml).
    ``retry_failed_plugins``: run the ``--schema`` of plugins whose last one failed again
    (otherwise the cached failure stands until the executable changes)."""

    def __init__(self, home: str | os.PathLike | None = None, *, watch: bool = False,
                 permission_handler: PermissionHandler | None = None,
                 load_plugins: bool = True, model: Model | None = None,
                 config: Config | None = None, retry_failed_plugins: bool = False) -> None:
        self.home = resolve_home(home)
        if not self.home.is_dir():
            raise HomeNotFoundError(self.home)
        self.tools_dir = self.home / "tools"
        self._tools_prefix = f"{self.tools_dir}{os.sep}"
        self.plugins_dir = self.home / "plugins"
        self.config: Config = (config if config is not None
                               else load_config(self.home / "harness.toml"))
        #: the host's model (harness.model); None falls back to [model] in harness.toml
        self.host_model = model
        self.registry = Registry(home=str(self.home))
        self.live_memory = LiveMemory()  # what each file's code keeps between calls
        self.load_errors: dict[str, str] = {}
        #: the last good versions of the tool files, kept in the home (never open)
        self.last_good = LastGoodStore(self.home)
        #: path -> when its running good version was kept
        self._good_saved: dict[str, str | None] = {}
        self._load_lock = threading.RLock()
        self.parse_cache = ParseCache(self.home / ".cache" / "parsed")
        self.plugins = PluginSet(self.plugins_dir if load_plugins else self.home / ".none",
                                 home=self.home, schema_timeout=self.config.schema_timeout,
                                 hook_timeout=self.config.hook_timeout,
                                 tool_timeout=self.config.tool_timeout,
                                 concurrent_observers=self.config.concurrent_observers,
                                 retry_failed=retry_failed_plugins)
        self.handlers = HandlerSet(self.home, self.config.hooks, self.ask_model)
        self.dispatcher = Dispatcher(self, permission_handler)
        #: the audit log ([record] in harness.toml; harness.record), None when off
        self.recorder = None
        if self.config.record is not None:
            from harness.record import open_recorder
            self.recorder = open_recorder(self.config.record)
        #: where shell_exec runs and relative file paths of the builtin tools start
        self.project_root = Path(self.config.project_root or os.getcwd())
        self.registry.builtins = builtin_tools(self.parse_cache)
        #: the contexts tool calls were made as (the VFS lists them under /sys/contexts)
        self.contexts_seen: set[str] = {"default"}
        self.load_all()
        self._watcher = None
        if watch:
            self.watch()

    @cached_property
    def vfs(self) -> Vfs:
        """The home's virtual file system (made on first use)."""
        from harness.vfs.store import Vfs
        return Vfs(self.home, tool_schemas=lambda: self.tools(builtins=True),
                   contexts=self.contexts, unsandboxed_tool_path=self._unsandboxed_tool_path,
                   tool_file_changed=self._tool_file_changed)

    # -- loading -------------------------------------------------------------------------
    def tool_files(self) -> list[Path]:
        if not self.tools_dir.is_dir():
            return []
        from harness.reload.files import is_tool_path
        # the same rule as hot reload: editor droppings and dot directories are not tools
        return sorted(p for suffix in TOOL_SUFFIXES for p in self.tools_dir.rglob(f"*{suffix}")
                      if p.is_file() and is_tool_path(str(p.relative_to(self.tools_dir))))

    def tier_of(self, path: Path) -> str:
        # os.path, not pathlib: this runs once per tool file of every start
        real, root = os.path.realpath(path), os.path.realpath(self.tools_dir) + os.sep
        if is_guard_file(real):
            return "sandboxed"  # the ready guards need no more, whatever [tools.tiers] says
        return self.config.tier_of(real[len(root):] if real.startswith(root) else str(path))

    def limits_for(self, tier: str) -> Limits:
        return self.config.limits[tier]

    def load_all(self) -> None:
        self.load_guards()
        files = self.tool_files()
        with self.registry.batch():  # one index for all the files: linear in their number
            for path in files:
                self.load_file(path)
        from harness.home_layout import stray_files
        self.registry.set_notices(tuple(
            {"source": f"home:{where}", "message": f"{where} {why}"}
            for where, why in stray_files(self.home)))
        self.parse_cache.prune()  # older versions of the files
        self.last_good.forget_missing(set(map(str, files)))  # deleted files are gone

    def load_guards(self) -> None:
        """Load the ready guards harness.toml enables ([guards], harness.guards) and unload
        those it no longer does."""
        wanted = {str(guard_path(name)) for name in self.config.guards}
        for reg in self.registry.files:
            if reg.layer == GUARD_LAYER and reg.path not in wanted:
                self.unload_file(reg.path)
        for path in list(self.load_errors):
            if is_guard_file(path) and path not in wanted:
                self.unload_file(path)
        for path in sorted(wanted):
            if self.registry.get(path) is None:
                self.load_file(path)

    def load_file(self, path: str | os.PathLike) -> str | None:
        """(Re)load one tool file; on failure keep its last good version and return the
        error message (FILE:LINE:COL: …). The last good version is the one running, else
        the one kept on disk (see harness.load_failures.last_good), loaded under the same path. A
        file whose path lost the unsandboxed tier is unloaded instead: its last good
        version must not keep powers the configuration took away."""
        path = Path(path)
        tier = self.tier_of(path)
        with self._load_lock, using_runtime(self), in_tier(tier):
            try:
                reg = load_tool_file(path, tier, self.limits_for(tier), self.parse_cache,
                                     home=self.home)
            except ToolLoadError as exc:
                return self._load_failed(path, tier, exc.message)
            if reg.tier == "sandboxed" and is_guard_file(str(path)):
                reg = replace(reg, layer=GUARD_LAYER)
            self.registry.replace(reg)
            self.load_errors.pop(str(path), None)
            self.live_memory.forget(str(path))
            self._keep_good(path, reg)
            return None

    def _load_failed(self, path: Path, tier: str, message: str) -> str:
        """``path`` did not load: keep (or bring back) its last good version, note the
        failure, return the message."""
        key = str(path)
        if "needs the unsandboxed tier" in message:  # say how to give it
            message += self._tier_fix(path)
        last_good = self.registry.get(key)
        if last_good is not None and last_good.tier == "unsandboxed" and \
                tier != "unsandboxed":
            self.registry.remove(key)
            message += (f"\n(its last good version ran {last_good.tier} and was "
                        f"unloaded: the path is {tier} now)")
            last_good = None
        from harness.load_failures.guarded_points import permission_points_named  # failures only
        points = permission_points_named(path)
        if last_good is None and self._in_tools(key):
            kept = self.last_good.recall(key)
            if kept is not None:
                points |= set(kept.points)
                try:  # in the path's tier now, whatever it had when it was kept
                    reg = load_tool_source(key, kept.text, tier, self.limits_for(tier),
                                           self.parse_cache, home=self.home)
                except ToolLoadError as again:
                    message += (f"\n(its last good version, saved {kept.saved}, does not "
                                f"load either: {again.message})")
                else:
                    self.registry.replace(reg)
                    self._good_saved[key] = kept.saved
        self.registry.fail(LoadFailure(key, message, self._good_saved.get(key),
                                       frozenset(points)))
        self.load_errors[key] = message
        return message

    def _keep_good(self, path: Path, reg: FileRegistration) -> None:
        """Keep the version of ``path`` that just loaded as its last good one (on disk,
        unless the store already has it: one lookup)."""
        key = str(path)
        if not self._in_tools(key):  # (a REPL's ,load of a file elsewhere)
            return
        saved = self.last_good.saved(key, reg.digest)
        if saved is None:
            try:
                text = decode_source(path.read_bytes(), key)
            except (OSError, ReadError):
                text = None
            if text is not None and hashlib.sha256(text.encode()).hexdigest() == reg.digest:
                saved = self.last_good.remember(key, reg.digest,
                                                [h.point for h in reg.hooks], text)
        self._good_saved[key] = saved

    def _in_tools(self, path: str) -> bool:
        """Whether ``path`` is a file of the home's tools/ (those have kept versions)."""
        return path.startswith(self._tools_prefix)

    def _tier_fix(self, path: Path) -> str:
        """How to give the tool file ``path`` the unsandboxed tier, said after a load error."""
        real, root = os.path.realpath(path), os.path.realpath(self.tools_dir) + os.sep
        relative = real[len(root):] if real.startswith(root) else path.name
        return (f'\n(to allow it, give the file the unsandboxed tier in '
                f'{self.home / "harness.toml"}: [tools.tiers] "{relative}" = "unsandboxed")')

    def _tool_file_changed(self, path: Path) -> None:
        """A tool (through the VFS) wrote or deleted ``path`` under tools/: reload it now,
        as chibi does (a watcher, if any, then finds nothing new)."""
        from harness.reload.files import is_tool_path, tool_files_under
        if path.is_dir():
            for file in tool_files_under(str(path)):
                self.load_file(file)
        elif path.is_file():
            relative = os.path.relpath(path, self.tools_dir)
            if is_tool_path(relative):
                self.load_file(path)
        else:
            self.unload_file(path)
            with self._load_lock:
                for gone in self.registry.remove_under(str(path)):
                    self.last_good.forget(gone)

    def _unsandboxed_tool_path(self, relative: str) -> bool:
        """True when a tool file at or below ``relative`` (under tools/) could get the
        unsandboxed tier from harness.toml."""
        return any(tier == "unsandboxed" and (relative.startswith(prefix)
                                              or prefix.startswith(relative + "/"))
                   for prefix, tier in self.config.tiers.items())

    @property
    def cache_threshold(self) -> float:
        """Bytes above which a tool's output is cached in the VFS ([tools] in harness.toml)."""
        threshold = self.config.output_cache_threshold
        return float("inf") if threshold is None else threshold

    def allowed_paths(self) -> list[Path]:
        """Host paths the builtin tools read without asking: the project root and
        [tools] allowed_paths."""
        return [self.project_root, *map(Path, self.config.allowed_paths)]

    def contexts(self) -> list[str]:
        """The contexts this home knows: ``default``, those tool calls were made as, and
        every folder of ``vfs/home/``."""
        home = self.home / "vfs" / "home"
        found = set(self.contexts_seen)
        if home.is_dir():
            found.update(p.name for p in home.iterdir() if p.is_dir())
        return sorted(found)

    def unload_file(self, path: str | os.PathLike) -> bool:
        """Drop everything the file ``path`` registered, and its kept last good version
        (the file was deleted: a deleted guard is gone)."""
        with self._load_lock:
            self.load_errors.pop(str(path), None)
            self.live_memory.forget(str(path))
            self._good_saved.pop(str(path), None)
            self.last_good.forget(str(path))
            return self.registry.remove(str(path))

    def drop_file(self, path: str, message: str) -> None:
        """Unload a running file for what its code did (harness.sandbox.file_memory) and
        report it like a file that failed to load, until it is loaded again."""
        with self._load_lock:
            running = self.registry.get(path)
            points = frozenset(h.point for h in running.hooks) if running else frozenset()
            self.registry.remove(path)
            # (its permission points then deny, as for a guard that does not load)
            self.registry.fail(LoadFailure(path, message, points=points))
            self.load_errors[path] = message
            self.live_memory.forget(path)

    def load_failures(self) -> list[dict]:
        """What failed to load, now: ``{"source", "message", "last_good_runs"}`` for each
        plugin that did not load, each tool file whose last load failed, each handler
        source (hooks.toml, settings files) that does not load and each handler entry in
        error (``last_good_runs``: an earlier version of it is still running)."""
        out = [dict(problem, last_good_runs=False) for problem in self.plugins.not_loaded]
        running = {f.path for f in self.registry.files}
        out += [{"source": file_source(path, self.home), "message": message,
                 "last_good_runs": path in running}
                for path, message in sorted(self.load_errors.items())]
        if self.registry.builtins.loaded:  # listing must not load the layer on its own
            out += [{"source": f"builtin:tools/{Path(path).name}", "message": message,
                     "last_good_runs": False}
                    for path, message in sorted(self.registry.builtins.load_errors.items())]
        return out + self.handlers.load_failures()

    # -- firing and calling ------------------------------------------------------------------
    def fire(self, hook: str, payload: dict | None = None) -> dict:
        """Fire ``hook``: see Dispatcher.fire for the result's shape."""
        return self.dispatcher.fire(hook, payload)

    def call_tool(self, name: str, arguments: dict | None = None, *,
                  context: str | None = None) -> ToolResult:
        """Run a tool through chibi's whole pipeline as context ``context`` (default: the
        context of the tool call this one is made from, else ``"default"``): pre_tool ->
        argument check -> run -> pre_tool_output -> post_tool_output -> post_tool (see
        harness.calls.pipeline). Never raises for what a tool or hook does."""
        from harness.calls.pipeline import call_tool  # a dispatch alone never needs it
        return call_tool(self, name, arguments, context)

    # -- the host's own hooks and tools ------------------------------------------------------------
    def register_hook(self, point: str, fn: Callable[[dict], object], *,
                      name: str | None = None) -> HostRegistration:
        """Run ``fn(payload)`` on every dispatch of ``point``, after the plugins' and the
        tool files' hooks. It returns an answer (a dict of JSON values) or None; whatever
        it raises is reported in the dispatch's ``errors`` (source ``host:NAME``, NAME
        defaulting to the function's module and name), never raised here. Returns the
        handle that unregisters it. Raises UnknownHookError for a misspelt point."""
        from harness.hooks.catalogue import hook_point
        hook_point(point)
        if not callable(fn):
            raise TypeError(f"register_hook: {fn!r} is not callable")
        hook = PythonHook(point, fn, f"host:{name or _qualified_name(fn)}")
        route_print_output()  # what it prints shows in traces, not in the host's output
        self.registry.add_host_hook(hook)
        return HostRegistration(self.registry, hook)

    def register_tool(self, name: str, fn: Callable[[dict], object], *,
                      description: str = "", parameters: dict | None = None,
                      category: str | None = None) -> HostRegistration:
        """Make ``fn(arguments)`` the tool ``name``, run through the full hook stack by
        ``call_tool`` (and ``call-tool`` from Scheme). A tool file's tool of the same name
        comes first. ``parameters``: see harness.api.tool. Returns the handle that
        unregisters it."""
        if not isinstance(name, str) or not name:
            raise TypeError("register_tool: the tool name must be a non-empty string")
        if not callable(fn):
            raise TypeError(f"register_tool: {fn!r} is not callable")
        tool = PythonTool(name, description, parameters_from_python(parameters), fn,
                          f"host:{name}", category)
        route_print_output()  # what it prints is the ToolResult's stdout / stderr
        self.registry.add_host_tool(tool)
        return HostRegistration(self.registry, tool)

    def ask_model(self, request: ModelRequest) -> ModelReply:
        """Ask the host's model, else the [model] endpoint of harness.toml (re-read on
        reload). Raises harness.model.ModelError when neither is there or the model
        fails."""
        from harness.model import ask
        return ask(self.host_model or self.config.model, request)

    # -- listing --------------------------------------------------------------------------------
    def tools(self, *, builtins: bool = False) -> list[dict]:
        """Every tool's schema with its source: the home's tools (files, then the host's)
        first, then plugin tools; with ``builtins`` also the builtin tools no home tool
        shadows (last)."""
        out = [dict(t.schema(), source=t.source) for t in self.registry.tools()]
        for plugin in self.plugins.plugins:
            for schema in plugin.schemas:
                if self.plugins.find_tool(schema["name"]) is plugin:
                    out.append(dict(schema, source=plugin.source))
        if builtins:
            taken = {t["name"] for t in out}
            out += [dict(t.schema(), source=_builtin_source(t)) for name, t in
                    self.registry.builtins.items() if name not in taken]
        return out

    def shadowed_builtins(self) -> list[dict]:
        """The home's tools (files and plugins) that take a builtin tool's name, as
        ``{"source", "message"}``: a home may shadow a builtin, and is told so."""
        builtins = self.registry.builtins
        return [{"source": t["source"],
                 "message": f"tool {t['name']} shadows the builtin tool of the same name"}
                for t in self.tools() if t["name"] in builtins]

    def hooks(self) -> list[dict]:
        """Every registration: {"hook", "source"} in dispatch order per hook point."""
        from harness.hooks.catalogue import HOOK_POINTS
        out = []
        for point in HOOK_POINTS:
            for plugin in self.plugins.hooks_for(point):
                out.append({"hook": point, "source": plugin.source})
            for handler in self.handlers.table.handlers_for(point):
                out.append({"hook": point, "source": handler.source})
            for h in self.registry.hooks_for(point):
                out.append({"hook": point, "source": h.source})
        return out

    # -- hot reload --------------------------------------------------------------------------------
    def watch(self):
        """Start watching tools/, plugins/ and harness.toml (see harness.reload); return
        the Watcher (add_listener(callback) gets a dict per reload)."""
        from harness.reload import Watcher
        if self._watcher is None:
            self._watcher = Watcher(self)
            self._watcher.start()
        return self._watcher

    @property
    def watcher(self):
        """The running Watcher, or None when the runtime does not watch its home."""
        return self._watcher

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None
        self.handlers.close()
        if self.recorder is not None:
            self.recorder.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HostRegistration:
    """What ``Runtime.register_hook`` / ``register_tool`` return: ``unregister()`` (or use
    it as a context manager) removes the hook or tool; ``source`` is how results name it."""

    def __init__(self, registry: Registry, item: PythonHook | PythonTool) -> None:
        self._registry = registry
        self.item = item

    @property
    def source(self) -> str:
        return self.item.source

    def unregister(self) -> bool:
        """Remove it; False when it was already removed."""
        return self._registry.remove_host(self.item)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.unregister()

    def __repr__(self) -> str:
        return f"<HostRegistration {self.source}>"


def _qualified_name(fn: Callable) -> str:
    module = getattr(fn, "__module__", None)
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    return f"{module}.{name}" if module else name
