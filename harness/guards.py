"""The catalogue of ready guards (SPEC §14): Scheme files in the repository's top-level
``tools/guards/`` folder, each named for what it stops, that a home enables by name::

    [guards]
    enable = ["destructive-deletes", "secrets"]     # or "all"

Enabled guards load as a layer before the home's own tool files, always in the sandboxed
tier; their hooks run first on each point and show in ``harness hooks`` and ``harness
check`` with their file as the source. Each guard has its fixtures beside it
(``NAME.hooktest.json``, run by ``harness test``); docs/guards.md says what each one stops
and lets through.
"""

from __future__ import annotations

from pathlib import Path

from harness.shipped import shipped_dir

#: the ready guards: NAME.scm, with NAME.hooktest.json beside it
GUARDS_DIR = shipped_dir("tools") / "guards"
_GUARDS_PREFIX = str(GUARDS_DIR.resolve()) + "/"
#: the word that enables every guard of the catalogue
ALL = "all"


class UnknownGuardError(ValueError):
    """A name that no guard of the catalogue has; the message names the closest one."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def guard_names() -> list[str]:
    """The names of the guards of the catalogue, sorted."""
    return sorted(path.stem for path in GUARDS_DIR.glob("*.scm"))


def guard_path(name: str) -> Path:
    """The file of the guard ``name`` (which must be a name of the catalogue)."""
    return GUARDS_DIR / f"{name}.scm"


def is_guard_file(path: str) -> bool:
    """Whether ``path`` (resolved) is a guard of the catalogue."""
    return path.startswith(_GUARDS_PREFIX) and path.endswith(".scm") and \
        "/" not in path[len(_GUARDS_PREFIX):]


def enabled_guards(value: object) -> tuple[str, ...]:
    """The guards ``[guards] enable`` names, in catalogue order: ``"all"`` (alone or in
    the list) is every guard. Raises TypeError for a value that is not a name or a list
    of names, UnknownGuardError for a name the catalogue does not have."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise TypeError("[guards] enable must be a list of guard names, or \"all\"")
    known = guard_names()
    if ALL in names:
        return tuple(known)
    for name in names:
        if name not in known:
            from harness.spelling import closest_name
            close = closest_name(name, known)
            hint = f"; did you mean {close!r}?" if close else ""
            raise UnknownGuardError(name, f"[guards] enable: unknown guard {name!r}{hint} (the "
                                    f"guards are {', '.join(known)}, or \"all\")")
    return tuple(name for name in known if name in names)
