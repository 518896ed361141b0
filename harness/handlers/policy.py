"""Which declared handlers may run: the kill switch, managed-only policy and allowlists.

Sources are read in order — the home's ``hooks.toml``, the ``claude_settings`` files as
listed, then the managed settings file — and their handlers merge (none replaces
another's). The policy keys follow Claude Code:

* ``disableAllHooks: true`` in the managed file turns every declared handler off; in any
  other file it turns off all but the managed file's. Between the other files the last one
  that sets it wins (so a later ``false`` overrides an earlier ``true``).
* ``allowManagedHooksOnly: true`` (managed file only): only the managed file's handlers
  run, and only it defines MCP servers and the allowlists (issue 23: a project's server
  of the managed one's name had been started by the managed ``mcp_tool`` handler).
* ``allowedHttpHookUrls`` lists merge across files, but never from the project's own
  settings file (scope ``project``: a hostile project would widen them). harness fails
  closed: an ``http`` handler runs only if its URL matches an entry
  (harness.handlers.url_allowlist), so with no list no HTTP handler runs.
* ``httpHookAllowedEnvVars`` lists merge (as the URLs do) into an outer limit on every
  handler's own ``allowedEnvVars``.
* MCP servers: the managed file's win over every other file's of the same name; then the
  first file that names one.

Neither switch touches Scheme, Hy, Python or plugin hooks: they are not declared handlers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.handlers.sources import LoadedSource
from harness.handlers.spec import Handler, LoadProblem
from harness.handlers.url_allowlist import url_matches

__all__ = ["HandlerTable", "build_table"]


@dataclass(frozen=True)
class HandlerTable:
    """The handlers that may run, by hook point in declaration order, and the allowlists.

    ``allowed_env_vars`` is None when no file limits ``${VAR}`` names (each handler's own
    ``allowedEnvVars`` alone then decides). ``switched_off`` says why handlers are off (or
    limited), for ``check``; ``problems`` are the sources' problems."""

    by_point: dict[str, tuple[Handler, ...]] = field(default_factory=dict)
    allowed_urls: tuple[str, ...] = ()
    allowed_env_vars: tuple[str, ...] | None = None
    mcp_servers: dict[str, dict] = field(default_factory=dict)
    problems: tuple[LoadProblem, ...] = ()
    switched_off: str | None = None

    def handlers_for(self, point: str) -> tuple[Handler, ...]:
        return self.by_point.get(point, ())

    def url_allowed(self, url: str) -> bool:
        """Whether an http handler may call `url` (fail closed: no list, no call)."""
        return any(url_matches(url, pattern) for pattern in self.allowed_urls)


def build_table(sources: Sequence[LoadedSource]) -> HandlerTable:
    """The table of `sources`, given in precedence order (hooks.toml, settings files, then
    the managed file)."""
    managed = [s for s in sources if s.source.scope == "managed"]
    others = [s for s in sources if s.source.scope != "managed"]
    switched_off = None
    runnable = list(sources)
    managed_only = any(s.setting("allowManagedHooksOnly") is True for s in managed)
    if any(s.setting("disableAllHooks") is True for s in managed):
        runnable = []
        switched_off = f"disableAllHooks is true in the managed file {managed[0].source.path}"
    elif managed_only:
        runnable = managed
        switched_off = "allowManagedHooksOnly is true in the managed file: only its " \
                       "handlers run"
    else:
        last = None
        for s in others:
            value = s.setting("disableAllHooks")
            if value is not None:
                last = (value, s.source.path)
        if last is not None and last[0] is True:
            runnable = managed
            switched_off = f"disableAllHooks is true in {last[1]}" + \
                           (": only the managed file's handlers run" if managed else "")
    by_point: dict[str, list[Handler]] = {}
    for s in runnable:
        for handler in s.handlers:
            by_point.setdefault(handler.point, []).append(handler)
    urls: list[str] = []
    env_vars: list[str] | None = None
    servers: dict[str, dict] = {}
    # (project files set no allowlist: harness.handlers.sources drops theirs)
    for s in managed if managed_only else sources:
        urls.extend(s.setting("allowedHttpHookUrls", ()))
        limit = s.setting("httpHookAllowedEnvVars")
        if limit is not None:
            env_vars = [*(env_vars or ()), *limit]
    for s in managed if managed_only else [*managed, *others]:
        for name, spec in s.mcp_servers:
            servers.setdefault(name, spec)  # the first file that names a server wins
    return HandlerTable({p: tuple(h) for p, h in by_point.items()}, tuple(dict.fromkeys(urls)),
                        None if env_vars is None else tuple(dict.fromkeys(env_vars)), servers,
                        tuple(p for s in sources for p in s.problems), switched_off)
