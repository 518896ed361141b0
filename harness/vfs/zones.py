"""Who may write where in the VFS (reference §6.2–6.3): the zone table as data.

Reading is allowed for everyone. A write (write, append, mkdir, delete, the destination
of a copy, both ends of a move) is checked against ``ZONES`` in order; the first zone
whose pattern covers the path decides. ``{owner}`` and ``{flock}`` match one path part.
The System caller (``call-tool`` from a hook of an unsandboxed file; a sandboxed hook
acts for its dispatch's context, see harness.calls.hook_caller) and the host
(``(harness io)``, the tool-output cache) pass every zone except the read-only virtual
ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.vfs.paths import VfsError, parts_of

SYSTEM = "system"  # the caller that is not a context (context names cannot be "system")
#: the host itself: (harness io) in unsandboxed code, the tool-output cache, the inboxes.
#: Like SYSTEM for the zones; only it may write tool files of the unsandboxed tier
#: (harness.vfs.store). Not a valid context name either.
HOST = "<host>"

NOBODY, EVERYONE, OWNER, MEMBER, SYSTEM_ONLY = ("nobody", "everyone", "owner", "member",
                                                 "system-only")


@dataclass(frozen=True)
class Zone:
    """Paths matching ``pattern`` (and everything below) may be written by ``who``;
    ``refusal`` is the error text (None: the generic one that lists the writable zones)."""

    pattern: str
    who: str
    refusal: str | None = None

    def match(self, parts: list[str]) -> dict | None:
        """The placeholders bound when ``parts`` is at or below the pattern, else None."""
        want = parts_of(self.pattern)
        if len(parts) < len(want):
            return None
        bound: dict[str, str] = {}
        for pattern_part, part in zip(want, parts):
            if pattern_part.startswith("{"):
                bound[pattern_part[1:-1]] = part
            elif pattern_part != part:
                return None
        return bound


ZONES = (
    Zone("/tools/sys", NOBODY, "'{path}' is read-only (virtual tool registry)"),
    Zone("/sys/contexts", NOBODY, "'{path}' is read-only (virtual context metadata)"),
    Zone("/shared", EVERYONE),
    Zone("/home/{owner}", OWNER),
    Zone("/site", EVERYONE),
    Zone("/flocks/registry.json", SYSTEM_ONLY,
         "context '{caller}' cannot write to flock registry (System only)"),
    Zone("/flocks/{flock}", MEMBER, "context '{caller}' is not a member of flock '{flock}'"),
    Zone("/tools/shared", EVERYONE),
    Zone("/tools/home/{owner}", OWNER, "context '{caller}' cannot write to /tools/home/{owner}/"),
    Zone("/tools/flocks/{flock}", MEMBER,
         "context '{caller}' is not a member of flock '{flock}'"),
)

WRITABLE = ("/shared/, /home/{caller}/, /site/, /flocks/<joined-flock>/, /tools/shared/, "
            "/tools/home/{caller}/, /tools/flocks/<joined-flock>/")


def check_write(caller: str, path: str, is_member) -> None:
    """Raise VfsError unless ``caller`` may write ``path``. ``is_member(flock, context)``
    says whether a context belongs to a flock."""
    parts = parts_of(path)
    for zone in ZONES:
        bound = zone.match(parts)
        if bound is None:
            continue
        if zone.who == NOBODY:
            raise VfsError(zone.refusal.format(path=path))
        if caller in (SYSTEM, HOST) or zone.who == EVERYONE:
            return
        if zone.who == OWNER and bound["owner"] == caller:
            return
        if zone.who == MEMBER and is_member(bound["flock"], caller):
            return
        if zone.refusal is not None:
            raise VfsError(zone.refusal.format(caller=caller, path=path, **bound))
        break
    if caller in (SYSTEM, HOST):
        return
    raise VfsError(f"context '{caller}' cannot write to '{path}' (writable zones: "
                   f"{WRITABLE.format(caller=caller)})")
