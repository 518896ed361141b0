"""What each plugin declares with `PLUGIN --schema`, validated and cached (SPEC §3).

A schema answer is one JSON object or an array of them: `name` and `description`
(strings, required), `parameters` (a JSON Schema object; an empty object schema if
absent) and optional `hooks` (hook point names; unknown ones are dropped with a warning
naming the closest valid one). Answers are cached by (path, mtime_ns, size), in memory and
in a JSON file written atomically, so a warm start runs no plugin at all. Failures
(timeouts, crashes, non-zero exits) are cached too, marked as failed: a plugin whose
``--schema`` hangs costs its timeout once, not on every start. A failed answer is run again
when the executable changes, or when asked (``retry_failed``: ``harness check`` and the
REPL's ``,reload`` do).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from harness.atomic_file import write_atomically
from harness.bridge import dumps, loads
from harness.hooks.catalogue import HOOK_POINTS, closest_hook_name
from harness.plugins.discovery import PluginFile
from harness.plugins.invoke import with_stderr
from harness.plugins.process import run_plugin

__all__ = ["SCHEMA_TIMEOUT", "PluginSchemas", "SchemaCache", "parse_schema_output",
           "read_schemas"]

#: seconds `PLUGIN --schema` may take
SCHEMA_TIMEOUT = 10.0
_CACHE_VERSION = 1
_REMEMBERED = ("not run again until the file changes (harness check, or ,reload in the "
               "REPL, runs it again)")
_SCHEMA_OUTPUT_MAX = 4 * 1024 * 1024
_EMPTY_PARAMETERS = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class PluginSchemas:
    """The validated schema entries of one plugin (none if it was refused), the hook
    points it registers for (union over entries, first-seen order) and what was wrong;
    ``failed`` when ``--schema`` itself failed (did not run, timed out, exited non-zero)."""

    schemas: tuple[dict, ...]
    hooks: tuple[str, ...]
    problems: tuple[str, ...]
    failed: bool = False


def parse_schema_output(text: str) -> PluginSchemas:
    """Validate the text a plugin printed for --schema."""
    text = text.strip()
    if not text:
        return PluginSchemas((), (), ("printed nothing for --schema",))
    try:
        declared = loads(text)
    except ValueError as exc:
        from harness.json_errors import json_error
        return PluginSchemas((), (), (json_error("--schema output", text, exc),))
    entries = declared if isinstance(declared, list) else [declared]
    if not isinstance(declared, (list, dict)) or not entries:
        refusal = "--schema must print an object or a non-empty array of objects"
        return PluginSchemas((), (), (refusal,))
    problems: list[str] = []
    schemas: list[dict] = []
    hooks: dict[str, None] = {}
    for index, entry in enumerate(entries):
        schema = _validate_entry(index, entry, problems)
        if schema is None:
            continue
        if any(s["name"] == schema["name"] for s in schemas):
            problems.append(f"tool '{schema['name']}' is declared twice; the second is "
                            "skipped")
            continue
        schemas.append(schema)
        hooks.update(dict.fromkeys(schema["hooks"]))
    if not schemas:
        problems.append("no valid tool in --schema output; plugin not loaded")
    return PluginSchemas(tuple(schemas), tuple(hooks), tuple(problems))


def _validate_entry(index: int, entry: object, problems: list[str]) -> dict | None:
    if not isinstance(entry, dict):
        problems.append(f"schema entry {index} is not an object; skipped")
        return None
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        problems.append(f"schema entry {index} has no string 'name'; skipped")
        return None
    if not isinstance(entry.get("description"), str):
        problems.append(f"tool '{name}' has no string 'description'; skipped")
        return None
    parameters = entry.get("parameters", _EMPTY_PARAMETERS)
    if not isinstance(parameters, dict):
        problems.append(f"tool '{name}': 'parameters' must be an object; skipped")
        return None
    return {**entry, "parameters": parameters, "hooks": _valid_hooks(name, entry, problems)}


def _valid_hooks(name: str, entry: dict, problems: list[str]) -> list[str]:
    declared = entry.get("hooks", [])
    if not isinstance(declared, list):
        problems.append(f"tool '{name}': 'hooks' must be a list of hook names; ignored")
        return []
    valid: list[str] = []
    for hook in declared:
        if not isinstance(hook, str):
            problems.append(f"tool '{name}': hook {hook!r} is not a string; dropped")
        elif hook not in HOOK_POINTS:
            close = closest_hook_name(hook)
            hint = f"; did you mean '{close}'?" if close else ""
            problems.append(f"tool '{name}': unknown hook '{hook}' dropped{hint}")
        elif hook not in valid:
            valid.append(hook)
    return valid


def read_schemas(plugin: PluginFile, timeout: float = SCHEMA_TIMEOUT) -> PluginSchemas:
    """Run `plugin --schema` and validate what it printed. A failure to run, a timeout or a
    non-zero exit is a PluginSchemas marked ``failed`` whose problem ends with the end of
    the plugin's stderr."""
    run = run_plugin(plugin.path, ("--schema",), b"", timeout, max_output=_SCHEMA_OUTPUT_MAX,
                     capture_stderr=True, stderr_to=2)
    stderr = run.stderr.decode("utf-8", "replace")
    if run.error is not None:
        return _failed(with_stderr(f"--schema: {run.error}", stderr))
    if run.exit_code != 0:
        return _failed(with_stderr(f"--schema exited with code {run.exit_code}", stderr))
    try:
        text = run.stdout.decode("utf-8")
    except UnicodeDecodeError:
        return PluginSchemas((), (), ("--schema output is not valid UTF-8",))
    return parse_schema_output(text)


def _failed(problem: str) -> PluginSchemas:
    return PluginSchemas((), (), (f"{problem}; {_REMEMBERED}",), failed=True)


class SchemaCache:
    """Schema answers by plugin path, valid while the file's (mtime_ns, size) is unchanged.

    `cache_file` (optional) persists them across runs; `runs` counts the --schema runs this
    cache made (a warm start makes none). Safe to use from several threads.
    """

    def __init__(self, cache_file: str | os.PathLike | None = None,
                 timeout: float = SCHEMA_TIMEOUT) -> None:
        self.cache_file = Path(cache_file) if cache_file is not None else None
        self.timeout = timeout
        self.runs = 0
        self._entries: dict[str, dict] = {}
        self._loaded = False
        self._dirty = False
        self._lock = threading.Lock()

    def cached(self, plugin: PluginFile, retry_failed: bool = False) -> PluginSchemas | None:
        """The plugin's schemas if the cache holds them for its file as it is now (with
        ``retry_failed``: not a failure), else None (this runs nothing, so a warm start can
        skip starting threads for the runs)."""
        key = os.fspath(plugin.path)
        try:
            st = os.stat(key)
        except OSError:
            return None
        return self._lookup(key, [st.st_mtime_ns, st.st_size], retry_failed)

    def schemas_of(self, plugin: PluginFile, retry_failed: bool = False) -> PluginSchemas:
        """The plugin's schemas: from the cache if its file is unchanged (and, with
        ``retry_failed``, its answer is not a failure), else by running it."""
        key = os.fspath(plugin.path)
        try:
            st = os.stat(key)
        except OSError as exc:
            return PluginSchemas((), (), (f"cannot stat {key}: {exc.strerror}",))
        stamp = [st.st_mtime_ns, st.st_size]
        hit = self._lookup(key, stamp, retry_failed)
        if hit is not None:
            return hit
        schemas = read_schemas(plugin, self.timeout)
        with self._lock:
            self.runs += 1
            self._entries[key] = _entry_of(stamp, schemas)
            self._dirty = True
        return schemas

    def _lookup(self, key: str, stamp: list[int], retry_failed: bool) -> PluginSchemas | None:
        with self._lock:
            self._load_file()
            entry = self._entries.get(key)
            if (entry is not None and entry["stamp"] == stamp
                    and not (retry_failed and entry.get("failed"))):
                return _schemas_from(entry)
        return None

    def invalidate(self) -> None:
        """Forget every cached answer (the next lookups run the plugins again)."""
        with self._lock:
            self._load_file()
            self._dirty = self._dirty or bool(self._entries)
            self._entries.clear()

    def save(self, keep: Iterable[str | os.PathLike] | None = None) -> None:
        """Write the cache file atomically if anything changed; with `keep`, entries for
        other paths (removed plugins) are dropped first."""
        with self._lock:
            self._load_file()
            if keep is not None:
                wanted = {os.fspath(p) for p in keep}
                for key in [k for k in self._entries if k not in wanted]:
                    del self._entries[key]
                    self._dirty = True
            if not self._dirty or self.cache_file is None:
                return
            document = {"version": _CACHE_VERSION, "entries": self._entries}
            write_atomically(self.cache_file, dumps(document))
            self._dirty = False

    def _load_file(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if self.cache_file is None:
            return
        try:
            document = loads(self.cache_file.read_bytes())
        except (OSError, ValueError):
            return  # missing or corrupt: start empty, it is only a cache
        if isinstance(document, dict) and document.get("version") == _CACHE_VERSION:
            entries = document.get("entries")
            if isinstance(entries, dict):
                self._entries = {k: v for k, v in entries.items() if _well_formed(v)}


def _entry_of(stamp: list[int], schemas: PluginSchemas) -> dict:
    return {"stamp": stamp, "schemas": list(schemas.schemas), "hooks": list(schemas.hooks),
            "problems": list(schemas.problems), "failed": schemas.failed}


def _schemas_from(entry: dict) -> PluginSchemas:
    return PluginSchemas(tuple(entry["schemas"]), tuple(entry["hooks"]),
                         tuple(entry["problems"]), entry.get("failed") is True)


def _well_formed(entry: object) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("stamp"), list)
            and all(isinstance(entry.get(k), list) for k in ("schemas", "hooks", "problems")))
