"""Files of a home that look meant to run but are not loaded: a ``.scm`` file beside
``tools/`` instead of in it, a ``py/`` folder, ``tools/guard.sch``, a plugin never made
executable, a Scheme file in ``plugins/``. Each is said where the user is looking — in every
dispatch's ``errors`` (through the registry's notices), on the commands' stderr and in
``harness check`` — since a guard that silently does not load guards nothing.

Only what is most likely a mistake is named: notes, READMEs and data files are left alone
(``harness check`` lists every file it does not read).
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.loading.loader import TOOL_SUFFIXES

#: the names harness reads in a home (a feature that reads another one adds it here)
KNOWN_ENTRIES = ("tools", "plugins", "vfs", "tests", "harness.toml", "hooks.toml", ".cache",
                 ".repl_history", ".harness-state")
#: suffixes of Scheme and Lisp files that harness does not load (it loads TOOL_SUFFIXES)
_NEAR_SUFFIXES = (".sch", ".ss", ".scheme", ".rkt", ".lisp", ".sls")
_SCAN_LIMIT = 200  # entries looked at in a folder that is not read (a huge one is no mistake)


def stray_files(home: Path) -> list[tuple[str, str]]:
    """(path relative to ``home``, why it is not loaded and what to do) for each file of
    ``home`` that looks meant to run but is not loaded, sorted by path."""
    found: list[tuple[str, str]] = []
    for name in _names(home):
        path = home / name
        if name in KNOWN_ENTRIES or name.startswith("."):
            continue
        if path.is_file() and name.endswith(TOOL_SUFFIXES):
            found.append((name, (f"is not loaded: tool files go in {home / 'tools'}/ "
                                f"(mv {path} {home / 'tools'}/)")))
        elif path.is_dir() and name in ("tool", "plugin", "tools.d"):
            found.append((f"{name}/", (f"is not read by harness; did you mean "
                                      f"{'plugins' if name == 'plugin' else 'tools'}?")))
        elif path.is_dir() and _holds_tool_files(path):
            found.append((f"{name}/", (f"holds tool files that are not loaded: tool files go "
                                      f"in {home / 'tools'}/")))
    found += _near_misses(home / "tools", home)
    found += _plugin_mistakes(home / "plugins", home)
    return sorted(found)


def _names(folder: Path) -> list[str]:
    try:
        return sorted(os.listdir(folder))[:_SCAN_LIMIT]
    except OSError:
        return []


def _holds_tool_files(folder: Path) -> bool:
    return any(name.endswith(TOOL_SUFFIXES) and (folder / name).is_file()
               for name in _names(folder))


def not_a_tool_file(path: Path) -> str:
    """Why the file ``path`` in ``tools/`` is not loaded, with the ``mv`` that makes it a
    tool file when it is Scheme under another suffix: the words of every dispatch's errors,
    the commands' stderr and ``harness check`` alike."""
    kinds = ", ".join(TOOL_SUFFIXES[:-1]) + f" or {TOOL_SUFFIXES[-1]}"
    why = f"is not loaded: tool files end in {kinds}"
    if path.name.endswith(_NEAR_SUFFIXES):
        why += f" (mv {path} {path.with_suffix('.scm')})"
    return why


def _near_misses(tools: Path, home: Path) -> list[tuple[str, str]]:
    """``tools/guard.sch``: Scheme under another suffix, in ``tools/`` or a folder of it."""
    found = []
    for root, dirs, files in os.walk(tools):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.endswith(_NEAR_SUFFIXES):
                path = Path(root) / name
                found.append((str(path.relative_to(home)), not_a_tool_file(path)))
    return found


def _plugin_mistakes(plugins: Path, home: Path) -> list[tuple[str, str]]:
    """A tool file in ``plugins/``, and a script there that was never made executable."""
    found = []
    for name in _names(plugins):
        path = plugins / name
        if name.startswith(".") or name.endswith((".disabled", "~")) or not path.is_file() \
                or os.access(path, os.X_OK):
            continue
        where = str(path.relative_to(home))
        if name.endswith((".scm", ".hy")):
            found.append((where, (f"is a tool file, not a plugin: tool files go in "
                                 f"{home / 'tools'}/ (mv {path} {home / 'tools'}/)")))
        elif _starts_with_shebang(path):
            found.append((where, (f"is not executable, so it is not a plugin (chmod +x "
                                 f"{path}; or name it {name}.disabled to keep it unused)")))
    return found


def _starts_with_shebang(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            return file.read(2) == b"#!"
    except OSError:
        return False
