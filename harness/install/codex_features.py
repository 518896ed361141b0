"""Codex's feature flag for hooks: ``[features] hooks = true`` in the ``config.toml`` beside
the ``hooks.json`` harness writes.

Hooks are on by default since Codex 0.124; older versions need the flag, so the installer
adds it when the file does not set it (as a line marked ``# harness install codex``, which
uninstall removes), and warns when the file turns hooks off: harness does not overrule a
choice the user wrote down. The file is edited as text, so its comments and layout stay.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from harness.atomic_file import write_atomically
from harness.install.config_file import InstallError, backup_path

MARK = "# harness install codex"
_FEATURES = re.compile(r"^[ \t]*\[[ \t]*features[ \t]*\][ \t]*(#.*)?$", re.MULTILINE)
_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")


def config_path(hooks_file: Path) -> Path:
    return hooks_file.with_name("config.toml")


def read(path: Path) -> tuple[str | None, dict]:
    """The file's text (None: no file) and its parsed content; InstallError naming
    FILE:LINE:COL when it is not valid TOML."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"{path}: cannot read: {exc}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = _POSITION.search(str(exc))
        place = f":{where.group(1)}:{where.group(2)}" if where else ""
        message = _POSITION.sub("", str(exc)).strip()
        raise InstallError(f"{path}{place}: not valid TOML: {message}; nothing was "
                           "changed") from None


def hooks_setting(data: dict) -> object:
    """What the file says about hooks: True, False, or None when it says nothing."""
    features = data.get("features")
    if not isinstance(features, dict):
        return None
    for key in ("hooks", "codex_hooks"):
        if key in features:
            return features[key]
    return None


def with_flag(text: str | None) -> str:
    """``text`` with ``hooks = true`` added to its ``[features]`` table (made at the end
    when there is none)."""
    text = text or ""
    line = f"hooks = true  {MARK}\n"
    header = _FEATURES.search(text)
    if header is not None:
        end = header.end() + 1 if header.end() < len(text) else header.end()
        before = text[:end] if text[:end].endswith("\n") else text[:end] + "\n"
        return before + line + text[end:]
    gap = "" if not text or text.endswith("\n\n") else "\n" if text.endswith("\n") else "\n\n"
    return f"{text}{gap}[features]  {MARK}\n{line}"


def without_flag(text: str) -> str:
    """``text`` without the lines ``with_flag`` added."""
    lines = text.splitlines(keepends=True)
    return "".join(line for line in lines if not line.rstrip().endswith(MARK))


def add(path: Path, text: str | None) -> Path | None:
    """Write the flag into the file; returns the backup made of it, if any."""
    made = None
    if text is not None and MARK not in text:
        made = backup_path(path)
        write_atomically(made, text.encode("utf-8"))
    write_atomically(path, with_flag(text).encode("utf-8"))
    return made


def remove(path: Path) -> str:
    """Take the flag out again: the backup's bytes when they are what is left, no file
    when harness made it and nothing else is in it. Returns what was done."""
    text, _ = read(path)
    if text is None or MARK not in text:
        return "unchanged"
    rest = without_flag(text)
    backup = backup_path(path)
    if backup.is_file():
        old = backup.read_text(encoding="utf-8")
        if old.strip() == rest.strip():
            write_atomically(path, old.encode("utf-8"))
            backup.unlink()
            return "restored"
    elif not rest.strip():
        path.unlink()
        return "deleted"
    write_atomically(path, rest.encode("utf-8"))
    return "written"
