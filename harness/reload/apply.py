"""Applying a change to the runtime, and reporting it.

Every report is logged (logger ``harness.reload``) and sent to listeners as a
JSON-serialisable dict ``{"event", "path", "error", "tools", "hooks"}``, where ``event`` is
``reloaded``, ``unloaded``, ``failed`` (the last good version stays live), ``plugins``,
``config``, ``handlers`` (a declared handlers' source was read again; ``error`` when it does
not parse and its last good version stays live) or ``polling``, and ``tools`` / ``hooks``
are the tool names and hook points live for that path (or for all plugins) after the event.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from harness.config import ConfigError, load_config
from harness.reload.files import content_digest, is_tool_path, tool_files_under
from harness.scheme.errors import ResourceLimitExceeded

if TYPE_CHECKING:
    from harness.runtime import Runtime

log = logging.getLogger("harness.reload")

Listener = Callable[[dict], None]


class Reloader:
    """Makes a runtime agree with its home, one key at a time (on the worker thread).

    ``sync_watches`` is called when tools/ or plugins/ may have come or gone."""

    def __init__(self, runtime: Runtime, sync_watches: Callable[[], None]) -> None:
        self.runtime = runtime
        self.tools_dir = str(runtime.tools_dir)
        self.sync_watches = sync_watches
        self.listeners: list[Listener] = []
        self.stopping = False
        self._applied: dict[str, str] = {}  # tool file -> digest of the content last loaded

    def seed(self) -> None:
        """Take what the runtime loaded as applied, so unchanged files are not reloaded."""
        self._applied = {f.path: f.digest for f in self.runtime.registry.files}
        for path in self.runtime.load_errors:  # failed at start-up: no need to say it twice
            self._applied[path] = content_digest(path) or ""

    def apply(self, kind: str, path: str) -> None:
        """Apply one key; a failure is reported, never raised."""
        try:
            {"config": self.reload_config, "plugins": self.reload_plugins,
             "tree": self.resync_tree, "file": self.reload_file,
             "handlers": self.reload_handlers}[kind](path)
        except (Exception, ResourceLimitExceeded) as exc:  # the worker must outlive any bug
            log.exception("hot reload of %s failed", path)
            self.report("failed", path, error=f"{type(exc).__name__}: {exc}")

    def reload_file(self, path: str, force: bool = False) -> None:
        """Load ``path`` if its content changed (or ``force``); unload it if it is gone."""
        digest = content_digest(path)
        if digest is not None and not force and self._applied.get(path) == digest:
            return  # touched, or saved without a change
        if digest is not None:
            self._applied[path] = digest
            error = self.runtime.load_file(path)
            if not error or content_digest(path) is not None:
                self.report("failed" if error else "reloaded", path, error=error)
                return
        # gone (perhaps while it was being read): it loses everything it registered
        self._applied.pop(path, None)
        had_error = path in self.runtime.load_errors
        if self.runtime.unload_file(path) or had_error:
            self.report("unloaded", path)

    def resync_tree(self, directory: str) -> None:
        """Make every tool file under ``directory`` (loaded before or present now) agree."""
        if directory == self.tools_dir:
            self.sync_watches()
        inside = directory + os.sep
        known = set(self._applied) | set(self.runtime.load_errors)
        known.update(f.path for f in self.runtime.registry.files)
        known = {p for p in known if p.startswith(inside) and is_tool_path(p[len(inside):])}
        for path in sorted(known | set(tool_files_under(directory))):
            if self.stopping:
                return
            self.reload_file(path)

    def reload_plugins(self, directory: str) -> None:
        """Discover the plugins again (schemas re-read for changed executables)."""
        self.sync_watches()
        plugins = self.runtime.plugins
        plugins.reload()
        problems = "; ".join(f"{p['source']}: {p['message']}" for p in plugins.problems)
        self.report("plugins", directory, error=problems or None,
                    tools=[schema["name"] for schema in plugins.tools()],
                    hooks=sorted({point for p in plugins.plugins for point in p.hooks}))

    def reload_handlers(self, path: str) -> None:
        """Read a declared handlers' source again (a file that does not parse keeps its last
        good version)."""
        handlers = self.runtime.handlers
        error = handlers.reload(path)
        points = sorted({h.point for hs in handlers.table.by_point.values() for h in hs
                         if h.file == path})
        self.report("handlers", path, error=error, hooks=points)

    def reload_config(self, path: str) -> None:
        """Re-read harness.toml; load the ready guards it enables now (and unload the others);
        reload the tool files whose tier changed (limits apply per call already). A
        malformed file keeps the old configuration."""
        try:
            config = load_config(Path(path))
        except ConfigError as exc:
            self.report("failed", path, error=f"{exc} (keeping the previous configuration)")
            return
        runtime = self.runtime
        if config == runtime.config:
            return
        hooks_changed = config.hooks != runtime.config.hooks
        guards_changed = config.guards != runtime.config.guards
        runtime.config = config
        if guards_changed:  # [guards] enable: load the guards it names, unload the others
            runtime.load_guards()
        if hooks_changed:  # other settings files, project directory: read and watch them
            runtime.handlers.configure(config.hooks)
            self.sync_watches()
        runtime.plugins.hook_timeout = config.hook_timeout
        runtime.plugins.tool_timeout = config.tool_timeout
        runtime.plugins.cache.timeout = config.schema_timeout
        # unknown tables and keys: what they meant to set is not applied, so say so
        self.report("config", path, error="\n".join(config.warnings) or None)
        for file in tool_files_under(self.tools_dir):
            reg = runtime.registry.get(file)
            if (reg is None or file in runtime.load_errors
                    or reg.tier != runtime.tier_of(Path(file))):
                self.reload_file(file, force=True)

    def report(self, event: str, path: str, error: str | None = None,
               tools: list[str] | None = None, hooks: list[str] | None = None) -> None:
        """Log one change and send it to every listener (a failing listener is logged)."""
        if event in ("reloaded", "unloaded", "failed") and tools is None:
            reg = self.runtime.registry.get(path)
            tools = [t.name for t in reg.tools] if reg else []
            hooks = [h.point for h in reg.hooks] if reg else []
        message = {"event": event, "path": path, "error": error, "tools": list(tools or ()),
                   "hooks": list(hooks or ())}
        if error is not None:
            log.warning("%s %s: %s", event, path, error)
        else:
            log.info("%s %s (tools: %s; hooks: %s)", event, path,
                     ", ".join(message["tools"]) or "-", ", ".join(message["hooks"]) or "-")
        for listener in list(self.listeners):
            try:
                listener(message)
            except Exception:  # a broken listener must not stop reloading
                log.exception("hot reload listener %r failed", listener)
