"""``harness.toml``: tiers per path, limits per tier, plugin timeouts.

```toml
[tools]                       # the builtin tools (SPEC §11)
project_root = "."            # shell_exec runs here; relative file paths start here
allowed_paths = ["~/notes"]   # host paths read without asking (beside the project root)
output_cache_threshold = 4000 # bytes: a larger output is cached in the VFS (false: never)

[tools.tiers]                 # longest matching path prefix wins; default "sandboxed"
"admin/" = "unsandboxed"

[limits.sandboxed]            # per hook callback / tool call / file load
steps = 10000000
seconds = 5.0
max_output = 1048576
memory_mb = 512               # how much the process may grow during one call

[limits.unsandboxed]
seconds = 30.0

[plugins]
hook_timeout = 30.0
tool_timeout = 30.0
schema_timeout = 10.0
concurrent_observers = true   # observe/advisory plugins run at once (up to 8); false, or N

[failure]                     # what a hook that crashes or times out counts as
"plugin:audit" = "closed"     # by plugin name, by tool file path prefix (scm:, py:, hy:
"scm:legacy/" = "open"        # for .scm, .py, .hy files), or host:NAME for a hook the
"host:audit" = "closed"       # host registered; default: guards closed, others open
default = "closed"            # (optional) every other source closed too

[hooks]                       # declared handlers (see harness.handlers)
claude_settings = ["~/.claude/settings.json", ".claude/settings.json"]
managed_settings = "/etc/claude-code/managed-settings.json"
project_dir = "~/src/app"     # $CLAUDE_PROJECT_DIR for handlers; relative paths start here
async_limit = 16              # async handlers running at once

[record]                      # the audit log of every dispatch (see harness.record)
path = "audit.jsonl"          # relative to the home
max_bytes = 10485760          # rotate past this size; keep = 3 rotated files
redact = ["customer_id"]      # keys whose values are never written (beside the defaults)

[model]                       # an OpenAI-compatible endpoint (see harness.model)
url = "http://127.0.0.1:8080/v1"
model = "gpt-4o-mini"
api_key_env = "OPENAI_API_KEY"
timeout = 60.0
```

A value of the wrong kind is an error (ConfigError). A table or key harness does not know
is a warning with the closest known name (``Config.warnings``): the settings it meant are
not applied, so the CLI reports it and ``harness check`` fails on it. A feature that adds
settings adds them to ``KNOWN_SETTINGS``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.plugins.plugin_set import CONCURRENT_OBSERVERS
from harness.sandbox.tier_limits import DEFAULT_LIMITS, Limits
from harness.spelling import closest_name

if TYPE_CHECKING:  # imported where used: a home without [model] / [record] never needs them
    from harness.model import Endpoint
    from harness.record import RecordConfig

TIERS = ("sandboxed", "unsandboxed")
#: the source kinds of tool file hooks (scm:PATH:LINE, ...): [failure] keys by path prefix
FILE_SOURCES = ("scm", "py", "hy")
_DEFAULT_LIMITS = DEFAULT_LIMITS


#: any key is allowed in this table (its entries are checked where they are read)
ANY_KEYS = "any keys"
_LIMIT_KEYS = {"steps": None, "seconds": None, "max_output": None, "memory_mb": None}
#: every table and key of harness.toml: a key maps to None (a value), to a dict (a table
#: of known names) or to ANY_KEYS
KNOWN_SETTINGS: dict = {
    "tools": {"tiers": ANY_KEYS, "project_root": None, "allowed_paths": None,
              "output_cache_threshold": None},
    "limits": {tier: _LIMIT_KEYS for tier in TIERS},
    "plugins": {"hook_timeout": None, "tool_timeout": None, "schema_timeout": None,
                "concurrent_observers": None},
    "failure": ANY_KEYS,
    "model": {"url": None, "model": None, "api_key_env": None, "timeout": None},
    "hooks": {"claude_settings": None, "managed_settings": None, "project_dir": None,
              "async_limit": None},
    "guards": {"enable": None},
    "record": {"path": None, "max_bytes": None, "keep": None, "redact": None,
               "redact_patterns": None, "redact_defaults": None, "hooks": None},
}


class ConfigError(ValueError):
    """The home cannot be used: it does not exist, or its harness.toml is malformed. The
    message names the path and the problem."""


class HomeNotFoundError(ConfigError):
    """The home directory does not exist (or is not a directory): an error, never an empty
    runtime that allows everything."""

    def __init__(self, home: Path) -> None:
        if home.exists():  # a file: creating tools/ in it cannot work
            message = (f"harness home {home} is not a directory: give a directory with "
                       f"--home DIR or $HARNESS_HOME")
        else:
            message = (f"harness home {home} does not exist: give an existing one with "
                       f"--home DIR or $HARNESS_HOME, or create it (mkdir -p {home}/tools)")
        super().__init__(message)
        self.home = home


@dataclass(frozen=True)
class HooksConfig:
    """``[hooks]``: the Claude Code settings files whose handlers run (in order), the
    managed settings file, the project directory and the async handler bound."""

    claude_settings: tuple[str, ...] = ()
    managed_settings: str | None = None
    project_dir: str | None = None
    async_limit: int = 16


@dataclass
class Config:
    tiers: dict[str, str] = field(default_factory=dict)
    limits: dict[str, Limits] = field(default_factory=lambda: dict(_DEFAULT_LIMITS))
    hook_timeout: float = 30.0
    tool_timeout: float = 30.0
    schema_timeout: float = 10.0
    #: how many plugins of an observe / advisory hook point may run at once (1: in turn)
    concurrent_observers: int = CONCURRENT_OBSERVERS
    failure: dict[str, str] = field(default_factory=dict)
    #: ``[failure] default``: "closed" makes every hook and every tool file that does not
    #: load fail closed unless a key of its own says "open" (None, "open": the built-in
    #: default, guards closed and others open)
    failure_default: str | None = None
    #: the [model] endpoint, when harness.toml names one
    model: Endpoint | None = None
    #: [tools] project_root (None: the working directory), allowed_paths, and the size
    #: above which a tool's output is cached (None: never)
    project_root: str | None = None
    allowed_paths: list[str] = field(default_factory=list)
    output_cache_threshold: int | None = 4000
    hooks: HooksConfig = field(default_factory=HooksConfig)
    #: the ready guards [guards] enable names (harness.guards), in catalogue order
    guards: tuple[str, ...] = ()
    #: [record]: the audit log (None: nothing is recorded)
    record: RecordConfig | None = None
    #: tables and keys harness does not know, each with the closest known name
    warnings: list[str] = field(default_factory=list)

    def failure_override(self, source: str, tools_dir: str) -> str | None:
        """The configured failure policy ("open"/"closed") for a hook source, if any.

        ``plugin:NAME`` and ``host:NAME`` match exactly; ``scm:PREFIX`` (``py:``, ``hy:``)
        matches the hooks of ``.scm`` (``.py``, ``.hy``) files whose path relative to
        tools/ starts with PREFIX (longest prefix wins)."""
        kind, _, rest = source.partition(":")
        if kind in ("plugin", "host"):
            return self.failure.get(source)
        if kind not in FILE_SOURCES:
            return None
        path = rest.rsplit(":", 1)[0]
        prefix = tools_dir.rstrip("/") + "/"  # (a file outside the home: its whole path)
        rel = path.removeprefix(prefix) if os.path.isabs(path) else path.removeprefix("tools/")
        best, best_len = None, -1
        for key, policy in self.failure.items():
            key_kind, _, key_prefix = key.partition(":")
            if key_kind == kind and path_matches(key_prefix, rel) and len(key) > best_len:
                best, best_len = policy, len(key)
        return best

    def tier_of(self, relative_path: str) -> str:
        """The tier of a tool file, by the longest matching prefix of its path."""
        best, best_len = "sandboxed", -1
        for prefix, tier in self.tiers.items():
            if path_matches(prefix, relative_path) and len(prefix) > best_len:
                best, best_len = tier, len(prefix)
        return best


def path_matches(prefix: str, relative_path: str) -> bool:
    """Whether a ``[tools.tiers]`` / ``[failure]`` key names ``relative_path`` (under
    tools/), by whole path components: ``"admin/"`` is the folder, ``"admin"`` the folder
    ``admin/`` or a file ``admin.scm`` (``.hy``, ...), never ``administrivia.scm``; a key
    with an extension (``"guard.scm"``) is that file; ``""`` is every file."""
    if not prefix or prefix.endswith("/"):
        return relative_path.startswith(prefix)
    if not relative_path.startswith(prefix):
        return False
    rest = relative_path[len(prefix):]
    return rest == "" or rest[0] == "/" or (rest[0] == "." and "/" not in rest)


def load_config(path: Path) -> Config:
    """Read ``path`` (a missing file means the defaults)."""
    config = Config()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return config
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    import tomllib  # only a home with a harness.toml pays for the TOML parser's import
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        from harness.toml_errors import toml_error
        raise ConfigError(toml_error(path, text, str(exc))) from None
    config.warnings = [f"{path}: {warning}" for warning in unknown_settings(data)]
    _tools_table(path, data.get("tools", {}), config)
    tiers = data.get("tools", {}).get("tiers", {})
    if not isinstance(tiers, dict):
        raise ConfigError(f"{path}: [tools.tiers] must be a table of path prefix = tier")
    for prefix, tier in tiers.items():
        if tier not in TIERS:
            raise ConfigError(f"{path}: [tools.tiers] {prefix!r} = {tier!r}: tier must be one "
                              f"of {', '.join(TIERS)}")
        config.tiers[prefix] = tier
    limits = data.get("limits", {})
    if not isinstance(limits, dict):
        raise ConfigError(f"{path}: limits must be tables: [limits.sandboxed], "
                          "[limits.unsandboxed]")
    for tier, table in limits.items():
        if tier not in TIERS:
            continue  # an unknown tier is a warning (above)
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: limits.{tier} must be a table: [limits.{tier}]")
        base = config.limits[tier]
        config.limits[tier] = Limits(
            steps=_number(path, f"limits.{tier}.steps", table.get("steps", base.steps), int),
            seconds=_number(path, f"limits.{tier}.seconds", table.get("seconds", base.seconds),
                            float),
            max_output=_number(path, f"limits.{tier}.max_output",
                               table.get("max_output", base.max_output), int),
            max_memory=_megabytes(path, f"limits.{tier}.memory_mb", table, base.max_memory))
    failure = data.get("failure", {})
    if not isinstance(failure, dict):
        raise ConfigError(f"{path}: [failure] must be a table of source = \"open\"|\"closed\"")
    for source, policy in failure.items():
        kinds = tuple(f"{kind}:" for kind in ("plugin", "host", *FILE_SOURCES))
        if policy not in ("open", "closed") or not (source == "default" or
                                                    source.startswith(kinds)):
            raise ConfigError(f"{path}: [failure] {source!r} = {policy!r}: keys are "
                              "default, plugin:NAME, host:NAME, or scm:, py: or hy: and a "
                              "path prefix, values \"open\" or \"closed\"")
        if source == "default":
            config.failure_default = policy
        else:
            config.failure[source] = policy
    plugins = data.get("plugins", {})
    if not isinstance(plugins, dict):
        raise ConfigError(f"{path}: plugins must be a table: [plugins]")
    for key in ("hook_timeout", "tool_timeout", "schema_timeout"):
        if key in plugins:
            setattr(config, key, _number(path, f"plugins.{key}", plugins[key], float))
    if "concurrent_observers" in plugins:
        config.concurrent_observers = _concurrency(path, plugins["concurrent_observers"],
                                                   config.concurrent_observers)
    if "model" in data:
        config.model = _endpoint(path, data["model"])
    if "hooks" in data:
        config.hooks = _hooks(path, data["hooks"])
    if "guards" in data:
        config.guards = _guards(path, data["guards"], text)
    if "record" in data:
        config.record = _record(path, data["record"])
    return config


def _guards(path: Path, table, text: str) -> tuple[str, ...]:
    """[guards]: enable (names of the ready guards, or "all"). An unknown name is an
    error at its place in the file, naming the closest guard."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [guards] must be a table: enable = [NAMES] or \"all\"")
    from harness.guards import UnknownGuardError, enabled_guards
    try:
        return enabled_guards(table.get("enable", []))
    except TypeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except UnknownGuardError as exc:
        raise ConfigError(f"{path}{_place(text, exc.name)}: {exc}") from None


def _place(text: str, name: str) -> str:
    """``:LINE:COL`` of the first quoted ``name`` in ``text`` (or "" when not found)."""
    for quote in ('"', "'"):
        at = text.find(f"{quote}{name}{quote}")
        if at >= 0:
            line = text.count("\n", 0, at) + 1
            column = at - text.rfind("\n", 0, at)
            return f":{line}:{column}"
    return ""


def _tools_table(path: Path, table, config: Config) -> None:
    """[tools]: project_root (a path), allowed_paths (paths), output_cache_threshold."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tools] must be a table")
    root = table.get("project_root")
    if root is not None and not isinstance(root, str):
        raise ConfigError(f"{path}: [tools] project_root must be a path")
    base = path.parent
    config.project_root = str((base / os.path.expanduser(root)).resolve()) if root else None
    allowed = table.get("allowed_paths", [])
    if not isinstance(allowed, list) or not all(isinstance(a, str) for a in allowed):
        raise ConfigError(f"{path}: [tools] allowed_paths must be a list of paths")
    config.allowed_paths = [str((base / os.path.expanduser(a)).resolve()) for a in allowed]
    if "output_cache_threshold" in table:
        config.output_cache_threshold = _number(
            path, "tools.output_cache_threshold", table["output_cache_threshold"], int)


def _hooks(path: Path, table) -> HooksConfig:
    """[hooks]: claude_settings (paths), managed_settings, project_dir, async_limit."""
    keys = ("claude_settings", "managed_settings", "project_dir", "async_limit")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [hooks] must be a table with {', '.join(keys)}")
    settings = table.get("claude_settings", [])
    if isinstance(settings, str):
        settings = [settings]
    if not isinstance(settings, list) or not all(isinstance(s, str) and s for s in settings):
        raise ConfigError(f"{path}: [hooks] claude_settings must be a list of paths")
    for key in ("managed_settings", "project_dir"):
        if key in table and not (isinstance(table[key], str) and table[key]):
            raise ConfigError(f"{path}: [hooks] {key} must be a path")
    limit = table.get("async_limit", 16)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ConfigError(f"{path}: [hooks] async_limit must be a positive integer")
    return HooksConfig(tuple(settings), table.get("managed_settings"), table.get("project_dir"),
                       limit)


def _record(path: Path, table) -> RecordConfig | None:
    """[record]: path (required; relative to the home), max_bytes, keep, redact,
    redact_patterns, redact_defaults, hooks. ``path = false`` turns recording off."""
    import re

    from harness.record import RecordConfig
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [record] must be a table with path, max_bytes, keep, "
                          "redact, redact_patterns, redact_defaults, hooks")
    target = table.get("path")
    if target is False:
        return None
    if not isinstance(target, str) or not target:
        raise ConfigError(f"{path}: [record] path must be a file path (the audit log), or "
                          "false for none")
    max_bytes = _number(path, "record.max_bytes", table.get("max_bytes", 10 << 20), int)
    keep = table.get("keep", 3)
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise ConfigError(f"{path}: [record] keep must be a whole number of rotated files")
    lists = {}
    for key in ("redact", "redact_patterns"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise ConfigError(f"{path}: [record] {key} must be a list of strings")
        lists[key] = tuple(value)
    for pattern in lists["redact_patterns"]:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ConfigError(f"{path}: [record] redact_patterns: {pattern!r} is not a "
                              f"regular expression: {exc}") from None
    defaults = table.get("redact_defaults", True)
    if not isinstance(defaults, bool):
        raise ConfigError(f"{path}: [record] redact_defaults must be true or false")
    hooks = table.get("hooks", "all")
    if hooks not in ("all", "answered"):
        raise ConfigError(f"{path}: [record] hooks must be \"all\" (every hook with its ms) "
                          f"or \"answered\" (the hooks that answered or failed), not {hooks!r}")
    log = Path(path.parent, os.path.expanduser(target)).resolve()
    return RecordConfig(str(log), max_bytes, keep, lists["redact"], lists["redact_patterns"],
                        defaults, hooks == "all")


def _endpoint(path: Path, table) -> Endpoint:
    """[model]: url (required), model, api_key_env (strings) and timeout (seconds)."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [model] must be a table with url, model, api_key_env, "
                          "timeout")
    url = table.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ConfigError(f"{path}: [model] url must be an http:// or https:// URL")
    for key in ("model", "api_key_env"):
        if key in table and not isinstance(table[key], str):
            raise ConfigError(f"{path}: [model] {key} must be a string")
    timeout = _number(path, "model.timeout", table.get("timeout", 60.0), float) or 60.0
    from harness.model import Endpoint
    return Endpoint(url, table.get("model"), table.get("api_key_env"), timeout)


def unknown_settings(data: dict, known: dict = KNOWN_SETTINGS, prefix: str = "") -> list[str]:
    """A warning for each table or key of ``data`` (parsed TOML) that ``known`` does not
    list, with the closest known name (in another table when that is where it belongs)."""
    warnings = []
    for key, value in data.items():
        name = f"{prefix}{key}"
        if key in known:
            inner = known[key]
            if isinstance(inner, dict) and isinstance(value, dict):
                warnings.extend(unknown_settings(value, inner, f"{name}."))
            continue
        close = closest_name(key, known)
        if isinstance(value, dict):
            written = _header(name, value)
            hint = f"; did you mean [{prefix}{close}{written[len(name):]}]?" if close else ""
            warnings.append(f"unknown table [{written}] is ignored{hint}")
            continue
        where = f" in [{prefix[:-1]}]" if prefix else " at the top level"
        if close:
            hint = f"; did you mean {close}?"
        else:
            elsewhere = _closest_key_anywhere(key)
            hint = f"; did you mean {elsewhere[1]} in [{elsewhere[0]}]?" if elsewhere else ""
        warnings.append(f"unknown key {key}{where} is ignored{hint}")
    return warnings


def _header(name: str, table: dict) -> str:
    """The header the user most likely wrote for ``table``: ``limit.sandboxed`` for
    ``[limit.sandboxed]`` (a table holding only one table)."""
    while len(table) == 1:
        (key, value), = table.items()
        if not isinstance(value, dict):
            break
        name, table = f"{name}.{key}", value
    return name


def _closest_key_anywhere(key: str) -> tuple[str, str] | None:
    """(table, known key) closest to ``key`` over every table of KNOWN_SETTINGS."""
    places: dict[str, str] = {}

    def collect(table: dict, prefix: str) -> None:
        for name, inner in table.items():
            if isinstance(inner, dict):
                collect(inner, f"{prefix}{name}.")
            elif inner is None and prefix:
                places.setdefault(name, prefix[:-1])

    collect(KNOWN_SETTINGS, "")
    close = closest_name(key, places)
    return (places[close], close) if close else None


def _concurrency(path: Path, value, default: int) -> int:
    """[plugins] concurrent_observers: true (the default bound), false (one at a time) or
    a positive number of plugins at once."""
    if value is True:
        return default
    if value is False:
        return 1
    if isinstance(value, int) and value > 0:
        return value
    raise ConfigError(f"{path}: plugins.concurrent_observers must be true, false or a "
                      "positive integer")


def _megabytes(path: Path, key: str, table: dict, default: int | None) -> int | None:
    if "memory_mb" not in table:
        return default
    mb = _number(path, key, table["memory_mb"], int)
    return None if mb is None else mb << 20


def _number(path: Path, key: str, value, kind):
    if value is None or value is False:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ConfigError(f"{path}: {key} must be a positive number (or false for no limit)")
    return kind(value)
