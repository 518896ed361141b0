"""VFS addresses: ``vfs:///`` URIs, the paths they name, and context names (reference §6.1).

A path is never normalised, only accepted or rejected: it must be non-empty, absolute,
free of NUL, ``//``, a trailing ``/`` (except the root) and ``.`` / ``..`` components. So
no spelling of a path can climb out of the VFS root.
"""

from __future__ import annotations

import re

SCHEME = "vfs://"
URI_PREFIX = "vfs:///"

_CONTEXT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*\Z")


class VfsError(Exception):
    """A refused VFS path or operation; the message is chibi's text for it."""


def is_vfs_uri(text: object) -> bool:
    """True for a string starting with ``vfs:///`` (three slashes)."""
    return isinstance(text, str) and text.startswith(URI_PREFIX)


def misspelt_uri(text: object) -> str | None:
    """Why ``text`` is not a path at all: a ``vfs:`` URI with fewer or more than three
    slashes (``vfs://home/x`` would otherwise name a host file ``vfs:/home/x``), else None."""
    if not isinstance(text, str) or not text.startswith("vfs:") or text.startswith(URI_PREFIX):
        return None
    rest = text[len("vfs:"):].lstrip("/")
    return (f"{text!r} is not a VFS URI: a VFS URI has three slashes "
            f"(vfs:///{rest}); a host path has none")


def path_of_uri(uri: str) -> str:
    """``vfs:///home/a/x`` -> ``/home/a/x`` (checked); VfsError for anything else."""
    if not is_vfs_uri(uri):
        raise VfsError(f"not a vfs:/// URI (requires three slashes): {uri}")
    return check_path(uri[len(SCHEME):])


def check_path(path: str) -> str:
    """``path`` if it is a valid VFS path, else VfsError with chibi's message."""
    if not path:
        raise VfsError("VFS path cannot be empty")
    if not path.startswith("/"):
        raise VfsError(f"VFS path must start with '/': {path}")
    if "\0" in path:
        raise VfsError("VFS path cannot contain null bytes")
    if path == "/":
        return path
    if path.endswith("/"):
        raise VfsError(f"VFS path cannot have trailing slash: {path}")
    if "//" in path:
        raise VfsError(f"VFS path cannot contain '//': {path}")
    if any(part in (".", "..") for part in path[1:].split("/")):
        raise VfsError(f"VFS path cannot contain '.' or '..': {path}")
    return path


def parts_of(path: str) -> list[str]:
    """``/home/a/x`` -> ``["home", "a", "x"]``; the root has none."""
    return [] if path == "/" else path[1:].split("/")


def join(path: str, name: str) -> str:
    return f"/{name}" if path == "/" else f"{path}/{name}"


def context_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a context name (None when it can): letters, digits, ``-``
    and ``_``, not starting with ``-``, and not ``system`` in any case."""
    if not isinstance(name, str) or not name:
        return "a context name cannot be empty"
    if name.lower() == "system":
        return f"'{name}' is reserved (the system caller)"
    if not _CONTEXT_NAME.match(name):
        return (f"invalid context name '{name}': use letters, digits, '-' and '_', not "
                "starting with '-'")
    return None
