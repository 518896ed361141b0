"""Find the plugin executables of a plugins directory (SPEC §3).

Rules: every executable regular file, sorted by name; `NAME.disabled` is skipped; a
directory `X` means the executable `X/X`; a symbolic link whose target leaves the plugins
directory is refused. Dot files and editor backups (`NAME~`) are skipped silently. A
refused entry is reported, never fatal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from harness.hooks.outcome import Problem, problem

__all__ = ["PluginFile", "discover", "not_executable"]



@dataclass(frozen=True)
class PluginFile:
    """A discovered plugin: `name` (its entry in the plugins directory) and `path`, the
    resolved executable to run (symbolic links already followed and checked)."""

    name: str
    path: Path

    @property
    def source(self) -> str:
        """How answers and problems of this plugin are attributed: 'plugin:NAME'."""
        return f"plugin:{self.name}"


def discover(plugins_dir: str | os.PathLike, problems: list[Problem] | None = None
             ) -> list[PluginFile]:
    """The plugins of `plugins_dir`, sorted by name. A missing directory has none.

    Refused entries (links leaving the directory, a directory without its executable,
    broken links) are appended to `problems` when given, else logged as warnings.
    """
    root = Path(plugins_dir)
    try:
        names = sorted(os.listdir(root))
    except FileNotFoundError:
        return []
    except NotADirectoryError:
        _report(problems, "plugins", f"{root} is not a directory")
        return []
    real_root = root.resolve()
    found = []
    for name in names:
        if _skipped(name):
            continue
        plugin = _plugin_of(root / name, name, real_root, problems)
        if plugin is not None:
            found.append(plugin)
    return found


def not_executable(plugins_dir: str | os.PathLike) -> list[Path]:
    """The regular files of `plugins_dir` that are not plugins only because they are not
    executable (a missed ``chmod +x``), sorted; skipped names are not listed."""
    root = Path(plugins_dir)
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    return [root / name for name in names if not _skipped(name)
            and (root / name).is_file() and not os.access(root / name, os.X_OK)]


def _skipped(name: str) -> bool:
    """Dot files, editor backups and ``NAME.disabled``: never plugins, never reported."""
    return name.startswith(".") or name.endswith((".disabled", "~"))


def _plugin_of(entry: Path, name: str, real_root: Path,
               problems: list[Problem] | None) -> PluginFile | None:
    source = f"plugin:{name}"
    executable = entry / name if entry.is_dir() else entry
    try:
        target = executable.resolve(strict=True)
    except FileNotFoundError:
        what = f"has no executable {name}/{name}" if entry.is_dir() else "is a broken link"
        _report(problems, source, f"{entry} {what}")
        return None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        _report(problems, source, f"cannot resolve {entry}: {exc}")
        return None
    if not target.is_relative_to(real_root):
        _report(problems, source, f"refused {entry}: it resolves to {target}, outside "
                                  f"{real_root}")
        return None
    if not target.is_file() or not os.access(target, os.X_OK):
        if entry.is_dir():
            _report(problems, source, f"{executable} is not an executable file")
        return None  # a plain non-executable file (README, notes) is not a plugin
    return PluginFile(name=name, path=target)


def _report(problems: list[Problem] | None, source: str, message: str) -> None:
    if problems is None:
        import logging  # only a refused entry with no list to go to is logged
        logging.getLogger("harness.plugins").warning("%s: %s", source, message)
    else:
        problems.append(problem(source, message))
