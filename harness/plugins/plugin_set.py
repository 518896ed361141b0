"""All the subprocess plugins of one plugins directory, ready to be fired.

`PluginSet` ties discovery and the schema cache together: it knows which plugins hook
which point (in plugin-name order), which tools they provide, and calls them with the
home's timeouts and environment. `reload()` swaps in a new state in one step, so a
concurrent `hooks_for` sees the old set or the new one, never a mix.

The plugins of a point whose answers are never combined (observe, advisory) run at the
same time, up to `concurrent_observers` of them; every other point calls its plugins one
after the other, in name order. Results always come back in name order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from harness.bridge import dumps
from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.outcome import Problem, problem
from harness.plugins.discovery import PluginFile, discover
from harness.plugins.invoke import (
    HOOK_TIMEOUT,
    TOOL_TIMEOUT,
    HookCallResult,
    ToolCallResult,
    call_hook,
    call_hooks,
    call_tool,
)
from harness.plugins.schema_cache import SCHEMA_TIMEOUT, SchemaCache

__all__ = ["CONCURRENT_OBSERVERS", "Plugin", "PluginSet", "PluginState"]

_SCHEMA_WORKERS = 8  # --schema runs of a cold start go in parallel
#: how many plugins of one observe / advisory point may run at once by default
CONCURRENT_OBSERVERS = 8
#: combine rules that never read an answer into the outcome: their plugins' order of
#: running cannot change what a dispatch returns (answers are still listed in name order)
_ORDER_FREE_RULES = ("observe", "advisory")


@dataclass(frozen=True)
class Plugin:
    """A loaded plugin: its executable, its tool schemas and the hook points it answers."""

    name: str
    path: Path
    schemas: tuple[dict, ...]
    hooks: tuple[str, ...]

    @property
    def source(self) -> str:
        return f"plugin:{self.name}"


@dataclass(frozen=True)
class PluginState:
    """What one load found: a snapshot that a reload replaces in one assignment, so a
    reader that takes ``PluginSet.state`` once sees one load's plugins throughout."""

    plugins: tuple[Plugin, ...]
    by_hook: dict[str, tuple[Plugin, ...]]
    by_tool: dict[str, Plugin]
    problems: tuple[Problem, ...]
    #: the problems of the plugins that did not load at all
    not_loaded: tuple[Problem, ...] = ()


class PluginSet:
    """The plugins of `plugins_dir`, loaded on construction and by `reload()`.

    `home` (optional) is exported to plugins as HARNESS_HOME and CHIBI_HOME and holds the
    schema cache file (`home/.cache/plugin-schemas.json`) unless `cache` is given.
    `concurrent_observers` bounds how many plugins of an observe / advisory point run at
    once (1: one after the other, like every other point). `retry_failed`: the first load
    runs a cached ``--schema`` failure again.
    """

    def __init__(self, plugins_dir: str | os.PathLike, *, home: str | os.PathLike | None = None,
                 cache: SchemaCache | None = None, schema_timeout: float = SCHEMA_TIMEOUT,
                 hook_timeout: float = HOOK_TIMEOUT, tool_timeout: float = TOOL_TIMEOUT,
                 env: Mapping[str, str] | None = None,
                 concurrent_observers: int = CONCURRENT_OBSERVERS,
                 retry_failed: bool = False) -> None:
        self.plugins_dir = Path(plugins_dir)
        if cache is None:
            cache_file = Path(home) / ".cache" / "plugin-schemas.json" if home else None
            cache = SchemaCache(cache_file, timeout=schema_timeout)
        self.cache = cache
        self.hook_timeout = hook_timeout
        self.tool_timeout = tool_timeout
        self.concurrent_observers = max(1, concurrent_observers)
        self.env = dict(env or {})
        if home is not None:
            self.env.setdefault("HARNESS_HOME", os.fspath(home))
            self.env.setdefault("CHIBI_HOME", os.fspath(home))
        #: the last load (read it once per use: a reload replaces it)
        self.state = PluginState((), {}, {}, ())
        self.reload(retry_failed)

    # --- loading ---

    def reload(self, retry_failed: bool = False) -> None:
        """Discover the plugins again and read their schemas (cached when unchanged; a
        cached failure is run again only with ``retry_failed``)."""
        problems: list[Problem] = []
        files = discover(self.plugins_dir, problems)
        # a warm start answers from the cache; only changed plugins are run, in parallel
        declared = [self.cache.cached(f, retry_failed) for f in files]
        stale = [i for i, schemas in enumerate(declared) if schemas is None]
        if stale:
            from concurrent.futures import ThreadPoolExecutor  # a warm start needs no thread
            with ThreadPoolExecutor(max_workers=min(_SCHEMA_WORKERS, len(stale))) as pool:
                for i, schemas in zip(stale, pool.map(
                        lambda f: self.cache.schemas_of(f, retry_failed),
                        [files[i] for i in stale])):
                    declared[i] = schemas
        plugins = []
        for file, schemas in zip(files, declared):
            problems.extend(problem(file.source, message) for message in schemas.problems)
            if schemas.schemas:
                plugins.append(Plugin(file.name, file.path, schemas.schemas, schemas.hooks))
        try:
            self.cache.save(keep=[f.path for f in files])
        except OSError as exc:
            problems.append(problem("plugins", f"cannot write the schema cache: {exc}"))
        self.state = _index(tuple(plugins), problems)

    @property
    def plugins(self) -> tuple[Plugin, ...]:
        """The loaded plugins, sorted by name."""
        return self.state.plugins

    @property
    def problems(self) -> tuple[Problem, ...]:
        """What went wrong in the last load (refused entries, bad schemas, dropped hooks)."""
        return self.state.problems

    @property
    def not_loaded(self) -> tuple[Problem, ...]:
        """The problems of the plugins that did not load at all (refused, or no usable
        ``--schema``): their hooks are not running."""
        return self.state.not_loaded

    # --- queries ---

    def hooks_for(self, point: str) -> list[Plugin]:
        """The plugins registered for `point`, in name order (UnknownHookError if invalid)."""
        hook_point(point)
        return list(self.state.by_hook.get(point, ()))

    def tools(self) -> list[dict]:
        """The tool schemas of all plugins (copies), in plugin-name order."""
        return [dict(schema) for plugin in self.state.plugins for schema in plugin.schemas
                if self.state.by_tool.get(schema["name"]) is plugin]

    def find_tool(self, name: str) -> Plugin | None:
        """The plugin that provides the tool `name`, if any."""
        return self.state.by_tool.get(name)

    # --- calls ---

    def call_hook(self, plugin: Plugin | PluginFile, point: str,
                  payload: Mapping | bytes) -> HookCallResult:
        """Call one plugin for `point` with this set's timeout and environment."""
        return call_hook(plugin, point, payload, self.hook_timeout, env=self.env)

    def call_hooks(self, point: str, payload: Mapping) -> list[HookCallResult]:
        """Call every plugin registered for `point` (the payload is encoded once); results
        in name order. On an observe / advisory point up to `concurrent_observers` run at
        once, elsewhere one after the other. One plugin's failure never stops the others."""
        plugins = self.state.by_hook.get(point)
        if not plugins:
            if point not in HOOK_POINTS:
                hook_point(point)  # an unknown name is an error even with no plugins
            return []
        order_free = hook_point(point).combine in _ORDER_FREE_RULES
        return call_hooks(plugins, point, dumps(payload), self.hook_timeout, env=self.env,
                          at_once=self.concurrent_observers if order_free else 1)

    def call_tool(self, name: str, args: Mapping | bytes) -> ToolCallResult | None:
        """Run the tool `name` (None if no plugin provides it)."""
        plugin = self.find_tool(name)
        if plugin is None:
            return None
        return call_tool(plugin, name, args, self.tool_timeout, env=self.env)


def _index(plugins: tuple[Plugin, ...], problems: list[Problem]) -> PluginState:
    by_hook: dict[str, list[Plugin]] = {}
    by_tool: dict[str, Plugin] = {}
    for plugin in plugins:
        for hook in plugin.hooks:  # once per plugin, however many tools it declares
            by_hook.setdefault(hook, []).append(plugin)
        for schema in plugin.schemas:
            owner = by_tool.setdefault(schema["name"], plugin)
            if owner is not plugin:
                problems.append(problem(plugin.source, f"tool '{schema['name']}' is already "
                                                       f"provided by {owner.source}; skipped"))
    loaded = {plugin.source for plugin in plugins}
    not_loaded = tuple(p for p in problems
                       if p["source"].startswith("plugin:") and p["source"] not in loaded)
    return PluginState(plugins, {k: tuple(v) for k, v in by_hook.items()}, by_tool, tuple(problems),
                  not_loaded)
