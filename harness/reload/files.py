"""Which files under tools/ are tool files, and what identifies their content."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from harness.loading.loader import is_tool_file_name


def is_editor_dropping(name: str) -> bool:
    """True for names editors leave beside real files: backups (``x~``), lock and dot files
    (``.#x``, ``.x.swp``), vim's write test ``4913``, ``*.swp`` and ``*.tmp``."""
    return (name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp"))
            or name == "4913")


def is_tool_path(relative: str) -> bool:
    """True when ``relative`` (a path under tools/) names a tool file (``.scm``, ``.hy``,
    ``.py``), and no part of it an editor dropping or a dot directory (so ``__pycache__``
    and friends are files of no one)."""
    parts = relative.split(os.sep)
    return is_tool_file_name(parts[-1]) and not any(is_skipped_name(p) for p in parts)


def is_skipped_name(name: str) -> bool:
    """True for a file or folder name under tools/ that holds no tool files: an editor
    dropping, a dot directory or Python's ``__pycache__``."""
    return is_editor_dropping(name) or name == "__pycache__"


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
    return [path for path in files_under(directory)
            if is_tool_file_name(os.path.basename(path))]


def files_under(directory: str) -> list[str]:
    """Every file under ``directory`` but editor droppings, sorted; dot directories and
    ``__pycache__`` are skipped."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not is_skipped_name(d))
        found.extend(os.path.join(root, f) for f in sorted(files) if not is_editor_dropping(f))
    return found
