"""Which files under tools/ are tool files, and what identifies their content."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: how the names of tool files end
TOOL_SUFFIXES = (".scm",)


def is_editor_dropping(name: str) -> bool:
    """True for names editors leave beside real files: backups (``x~``), lock and dot files
    (``.#x``, ``.x.swp``), vim's write test ``4913``, ``*.swp`` and ``*.tmp``."""
    return (name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp"))
            or name == "4913")


def is_tool_path(relative: str) -> bool:
    """True when ``relative`` (a path under tools/) names a tool file: a TOOL_SUFFIXES
    ending, and no part of it an editor dropping or a dot directory."""
    parts = relative.split(os.sep)
    return parts[-1].endswith(TOOL_SUFFIXES) and not any(is_editor_dropping(p) for p in parts)


def content_digest(path: str) -> str | None:
    """The digest the loader records for ``path`` (sha256 of its text); None if it is gone."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except OSError as exc:  # unreadable: let the loader try and report why
        return f"unreadable:{exc.errno}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def tool_files_under(directory: str) -> list[str]:
    """The tool files under ``directory``, sorted; editor droppings and dot directories are
    skipped."""
    return [path for path in files_under(directory) if path.endswith(TOOL_SUFFIXES)]


def files_under(directory: str) -> list[str]:
    """Every file under ``directory`` but editor droppings and dot directories, sorted."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not is_editor_dropping(d))
        found.extend(os.path.join(root, f) for f in sorted(files) if not is_editor_dropping(f))
    return found
