"""The virtual filesystem of a home (reference §6): one tree of ``vfs:///`` paths over
three kinds of storage, chosen by the longest matching mount:

| mount | storage |
|---|---|
| ``/`` | the home's ``vfs/`` folder (writes atomic, parents created) |
| ``/tools`` | the home's ``tools/`` folder: a tool file written there is hot-reloaded |
| ``/tools/sys`` | read-only, virtual: one file per registered tool, its schema as JSON |
| ``/sys/contexts`` | read-only, virtual: ``<ctx>/state.json`` and ``<ctx>/task-dirs`` |

Every write is checked against the caller's zones (harness.vfs.zones). A path is first
checked as text (harness.vfs.paths: no ``..``, ``//`` or NUL), then its host file is
resolved and must stay inside its mount's folder, so neither a spelling nor a symbolic
link leads out.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import orjson

from harness.atomic_file import write_atomically
from harness.vfs.paths import VfsError, check_path, join, parts_of
from harness.vfs.zones import HOST, SYSTEM, check_write

#: files a context may keep in one zone folder of tools/ (tools/shared/, tools/home/<ctx>/,
#: tools/flocks/<flock>/), and the size of one
MAX_ZONE_TOOL_FILES = 100
MAX_TOOL_FILE_BYTES = 1 << 20


class VfsNotFound(VfsError):
    """The path names nothing (``No such file or directory (os error 2)``)."""

    def __init__(self, message: str = "No such file or directory (os error 2)") -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Entry:
    """One name in a directory listing."""

    name: str
    is_dir: bool


@dataclass(frozen=True)
class Info:
    """What ``vfs_info`` shows: kind, size in bytes, and times when the storage has them."""

    is_dir: bool
    size: int
    created: datetime | None = None
    modified: datetime | None = None


def os_error_text(exc: OSError) -> str:
    """``No such file or directory (os error 2)``: the OS text and number, as chibi says."""
    if exc.errno is None:
        return str(exc)
    return f"{exc.strerror or os.strerror(exc.errno)} (os error {exc.errno})"


def _append_whole(host: Path, data: bytes, record: bool) -> None:
    import fcntl
    fd = os.open(host, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if record and size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except BaseException:
            os.ftruncate(fd, size)  # what was written of it goes: all or nothing
            raise
    finally:
        os.close(fd)  # (releases the lock)


def _error(exc: OSError) -> VfsError:
    if isinstance(exc, FileNotFoundError):
        return VfsNotFound(os_error_text(exc))
    return VfsError(os_error_text(exc))


class Vfs:
    """The VFS of one home. The runtime lends it what only it knows: the registered tools
    (``tool_schemas``), the known contexts, whether a tool file at or below a path under
    tools/ could run unsandboxed, and what to do when a tool file changes."""

    def __init__(self, home: Path, *,
                 tool_schemas: Callable[[], list[dict]] = list,
                 contexts: Callable[[], list[str]] = lambda: ["default"],
                 unsandboxed_tool_path: Callable[[str], bool] = lambda rel: False,
                 tool_file_changed: Callable[[Path], None] = lambda path: None) -> None:
        self.home = Path(home)
        self.root = self.home / "vfs"
        self.tools_dir = self.home / "tools"
        self.tool_schemas = tool_schemas
        self.known_contexts = contexts
        self.unsandboxed_tool_path = unsandboxed_tool_path
        self.tool_file_changed = tool_file_changed
        # the host name as socket.gethostname() gives it (the kernel's node name), without
        # importing socket into every runtime
        self.site_id = f"{os.uname().nodename}-{_short_hash(str(self.home))}"
        self._real_bases: dict[Path, str] = {}  # a mount folder's real path, found once

    # -- where a path lives ------------------------------------------------------------------
    def _host(self, path: str) -> Path | None:
        """The host file of ``path``, or None for the virtual mounts. Raises VfsError when
        the host file would be outside its mount's folder (a symbolic link)."""
        parts = parts_of(check_path(path))
        if parts[:1] == ["tools"]:
            if parts[1:2] == ["sys"]:
                return None
            base, rest = self.tools_dir, parts[1:]
        elif parts[:2] == ["sys", "contexts"]:
            return None
        else:
            base, rest = self.root, parts
        host = base.joinpath(*rest)
        real_base = self._real_bases.get(base)
        if real_base is None:
            real_base = self._real_bases[base] = os.path.realpath(base)
        real = os.path.realpath(host)
        if real != real_base and not real.startswith(real_base + os.sep):
            raise VfsError(f"'{path}' leads outside the virtual filesystem (a symbolic link?)")
        return host

    def _virtual_children(self, path: str) -> list[Entry]:
        """Mount points shown inside a real directory."""
        return {"/": [Entry("sys", True), Entry("tools", True)],
                "/sys": [Entry("contexts", True)],
                "/tools": [Entry("sys", True)]}.get(path, [])

    # -- reading ---------------------------------------------------------------------------------
    def read(self, path: str) -> bytes:
        """The content of the file ``path``; VfsNotFound when there is none."""
        host = self._host(path)
        if host is None:
            return self._read_virtual(path)
        try:
            return host.read_bytes()
        except OSError as exc:
            raise _error(exc) from None

    def open_binary(self, path: str):
        """The file ``path`` opened for reading bytes (close it); VfsNotFound when there is
        none. Readers that need a part of a big file stream it from here."""
        host = self._host(path)
        if host is None:
            import io
            return io.BytesIO(self._read_virtual(path))
        try:
            return host.open("rb")
        except OSError as exc:
            raise _error(exc) from None

    def read_text(self, path: str) -> str:
        """``read`` decoded as UTF-8, bad bytes replaced (chibi reads lossily)."""
        return self.read(path).decode("utf-8", errors="replace")

    def exists(self, path: str) -> bool:
        try:
            self.info(path)
        except VfsNotFound:
            return False
        return True

    def list(self, path: str) -> list[Entry]:
        """The entries of the directory ``path``, sorted by name (dotfiles included); a
        missing directory lists as empty; a file is an error."""
        host = self._host(path)
        if host is None:
            return self._list_virtual(path)
        entries = {e.name: e for e in self._virtual_children(path)}
        try:
            with os.scandir(host) as found:
                for item in found:
                    if item.name not in entries:
                        entries[item.name] = Entry(item.name, item.is_dir())
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise _error(exc) from None
        return sorted(entries.values(), key=lambda e: e.name.encode())

    def info(self, path: str) -> Info:
        host = self._host(path)
        if host is None:
            return self._info_virtual(path)
        if path in ("/", "/sys", "/tools") and not host.exists():
            return Info(True, 0)  # a mount point with nothing stored yet
        try:
            st = host.stat()
        except OSError as exc:
            raise _error(exc) from None
        is_dir = host.is_dir()
        birth = getattr(st, "st_birthtime", None)
        return Info(is_dir, 0 if is_dir else st.st_size,
                    _utc(birth) if birth is not None else None, _utc(st.st_mtime))

    # -- writing ---------------------------------------------------------------------------------
    def check_write(self, caller: str, path: str) -> Path:
        """The host file ``caller`` may write at ``path``; VfsError with the reason when it
        may not (zones, the read-only mounts, tool paths of the unsandboxed tier)."""
        check_path(path)
        check_write(caller, path, self.is_member)
        host = self._host(path)
        if host is None:  # the zone table covers every virtual mount
            raise VfsError(f"'{path}' is read-only")
        if caller != HOST and parts_of(path)[:1] == ["tools"]:
            self._check_tier(path)
        return host

    def _check_tier(self, path: str) -> None:
        """Only the host writes where a tool file would run unsandboxed: a tool call (as a
        context, or as System from a sandboxed hook) doing so would hand sandboxed code
        the host's powers."""
        if self.unsandboxed_tool_path(path[len("/tools/"):]):
            raise VfsError(f"'{path}' is a tool path of the unsandboxed tier: only the host "
                           "may write there")

    def _check_tool_quota(self, caller: str, path: str, host: Path, size: int,
                          adding: int = 1) -> None:
        """A context writing under tools/ keeps to MAX_ZONE_TOOL_FILES files per zone
        folder and MAX_TOOL_FILE_BYTES a file (issue 23, item 9: every file there loads at
        each start, and a context had written 2,000)."""
        parts = parts_of(path)
        if caller in (HOST, SYSTEM) or parts[:1] != ["tools"]:
            return
        if size > MAX_TOOL_FILE_BYTES:
            raise VfsError(f"'{path}': a context may write tool files of at most "
                           f"{MAX_TOOL_FILE_BYTES} bytes")
        if host.exists() and not host.is_dir():
            adding = 0  # a file replaced: no new one
        zone = parts[:2] if parts[1:2] == ["shared"] else parts[:3]
        folder = self.tools_dir.joinpath(*zone[1:])
        held = sum(1 for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else 0
        if held + adding > MAX_ZONE_TOOL_FILES:
            raise VfsError(f"'{path}': /{'/'.join(zone)}/ holds {held} files; a context may "
                           f"keep at most {MAX_ZONE_TOOL_FILES} there")

    def write(self, caller: str, path: str, data: bytes) -> None:
        """Replace the file's content atomically (parents created)."""
        host = self.check_write(caller, path)
        self._check_tool_quota(caller, path, host, len(data))
        try:
            if host.is_dir():
                raise IsADirectoryError(21, os.strerror(21))
            write_atomically(host, data)
        except OSError as exc:
            raise _error(exc) from None
        self._changed(path, host)

    def append(self, caller: str, path: str, data: bytes, record: bool = False) -> None:
        """Add ``data`` at the end, all of it or nothing (issue 23, item 12: a full disk
        had left half a record, and the next one was glued onto it). Appends to one file
        take turns (an fcntl lock: other processes too). ``record``: ``data`` is one line
        of a line-per-record file; after a line some crash left unfinished it starts on
        a line of its own."""
        host = self.check_write(caller, path)
        if parts_of(path)[:1] == ["tools"]:
            size = host.stat().st_size if host.is_file() else 0
            self._check_tool_quota(caller, path, host, size + len(data))
        try:
            host.parent.mkdir(parents=True, exist_ok=True)
            _append_whole(host, data, record)
        except OSError as exc:
            raise _error(exc) from None
        self._changed(path, host)

    def mkdir(self, caller: str, path: str) -> None:
        """``mkdir -p``: an existing directory is no error."""
        host = self.check_write(caller, path)
        try:
            host.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _error(exc) from None

    def delete(self, caller: str, path: str) -> None:
        """Remove a file, or a directory with everything in it."""
        host = self.check_write(caller, path)
        if path in ("/", "/tools"):
            raise VfsError(f"'{path}' cannot be deleted")
        try:
            if host.is_dir() and not host.is_symlink():
                shutil.rmtree(host)
            else:
                host.unlink()
        except OSError as exc:
            raise _error(exc) from None
        self._changed(path, host)

    def copy(self, caller: str, src: str, dst: str) -> None:
        source = self._host(src)
        if source is None:
            target = self.check_write(caller, dst)
            self.write(caller, dst, self.read(src))
            return
        target = self.check_write(caller, dst)
        self._check_incoming(caller, dst, target, source)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
            else:
                shutil.copyfile(source, target)
        except OSError as exc:
            raise _error(exc) from None
        self._changed(dst, target)

    def move(self, caller: str, src: str, dst: str) -> None:
        source = self.check_write(caller, src)
        target = self.check_write(caller, dst)
        self._check_incoming(caller, dst, target, source)
        try:
            if not source.exists() and not source.is_symlink():
                raise FileNotFoundError(2, os.strerror(2))
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
        except OSError as exc:
            raise _error(exc) from None
        self._changed(src, source)
        self._changed(dst, target)

    def _check_incoming(self, caller: str, dst: str, target: Path, source: Path) -> None:
        """The tool quota for a copy or move of ``source`` to ``dst``."""
        if parts_of(dst)[:1] != ["tools"]:
            return
        if source.is_dir():
            files = [p for p in source.rglob("*") if p.is_file()]
            self._check_tool_quota(caller, dst, target, max((p.stat().st_size for p in files),
                                                            default=0), len(files))
        elif source.exists():
            self._check_tool_quota(caller, dst, target, source.stat().st_size)

    def _changed(self, path: str, host: Path) -> None:
        if parts_of(path)[:1] == ["tools"]:
            self.tool_file_changed(host)

    # -- flocks and contexts --------------------------------------------------------------------
    def flock_registry(self) -> list[dict]:
        """The flocks of ``/flocks/registry.json`` (``{"name", "members": [{"context",
        "site"}]}``); none when it is missing or unreadable."""
        try:
            data = orjson.loads(self.read("/flocks/registry.json"))
        except (VfsError, orjson.JSONDecodeError):
            return []
        flocks = data.get("flocks") if isinstance(data, dict) else None
        return [f for f in flocks if isinstance(f, dict)] if isinstance(flocks, list) else []

    def flocks_of(self, context: str) -> list[str]:
        """The explicit flocks ``context`` belongs to, sorted."""
        names = set()
        for flock in self.flock_registry():
            members = flock.get("members")
            if isinstance(flock.get("name"), str) and isinstance(members, list) and any(
                    isinstance(m, dict) and m.get("context") == context for m in members):
                names.add(flock["name"])
        return sorted(names)

    def is_member(self, flock: str, context: str) -> bool:
        return flock in self.flocks_of(context)

    @property
    def site_flock(self) -> str:
        return f"site:{self.site_id}"

    def task_dirs(self, context: str) -> list[str]:
        """Where the tasks of ``context`` live: its own folder, the site's, its flocks'."""
        return [f"/home/{context}/tasks", "/site/tasks",
                *(f"/flocks/{f}/tasks" for f in self.flocks_of(context))]

    def _context(self, name: str) -> str:
        if name not in self.known_contexts():
            raise VfsNotFound(f"no context: {name}")
        return name

    def _context_files(self, context: str) -> dict[str, bytes]:
        flocks = self.flocks_of(context)
        state = {"name": context, "flocks": [self.site_flock, *flocks],
                 "paths": {"tasks": f"/home/{context}/tasks",
                           "goals": ["/site/goals.md", *(f"/flocks/{f}/goals.md"
                                                         for f in flocks)]}}
        dirs = " ".join(_scheme_string(d) for d in self.task_dirs(context))
        return {"state.json": orjson.dumps(state, option=orjson.OPT_INDENT_2),
                "task-dirs": f"({dirs})".encode()}

    # -- the virtual mounts ---------------------------------------------------------------------
    def _virtual(self, path: str) -> tuple[str, list[str]]:
        parts = parts_of(path)
        return ("tools", parts[2:]) if parts[:1] == ["tools"] else ("contexts", parts[2:])

    def _read_virtual(self, path: str) -> bytes:
        mount, rest = self._virtual(path)
        if mount == "tools":
            if len(rest) == 1:
                for schema in self.tool_schemas():
                    if schema.get("name") == rest[0]:
                        shown = {"category": schema.get("category", "synthesised"),
                                 "description": schema.get("description", ""),
                                 "name": schema["name"],
                                 "parameters": schema.get("parameters", {})}
                        return orjson.dumps(shown, option=orjson.OPT_INDENT_2
                                            | orjson.OPT_SORT_KEYS)
            if not rest:
                raise VfsError("Is a directory (os error 21)")
            raise VfsNotFound()
        if len(rest) == 2:
            files = self._context_files(self._context(rest[0]))
            if rest[1] in files:
                return files[rest[1]]
        elif len(rest) < 2:
            if rest:
                self._context(rest[0])
            raise VfsError("Is a directory (os error 21)")
        raise VfsNotFound()

    def _list_virtual(self, path: str) -> list[Entry]:
        mount, rest = self._virtual(path)
        if mount == "tools":
            if rest:
                self._read_virtual(path)  # a tool's file, or nothing
                raise VfsError("Not a directory (os error 20)")
            names = sorted({s["name"] for s in self.tool_schemas()})
            return [Entry(n, False) for n in names]
        if not rest:
            return [Entry(n, True) for n in sorted(self.known_contexts())]
        if len(rest) == 1:
            return [Entry(n, False) for n in self._context_files(self._context(rest[0]))]
        self._read_virtual(path)
        raise VfsError("Not a directory (os error 20)")

    def _info_virtual(self, path: str) -> Info:
        mount, rest = self._virtual(path)
        if (mount == "tools" and not rest) or (mount == "contexts" and len(rest) < 2):
            if rest:
                self._context(rest[0])
            return Info(True, 0)
        self._read_virtual(path)
        return Info(False, 0)  # virtual files report no size, as in chibi


def _short_hash(text: str) -> str:
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def _utc(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _scheme_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def uri_join(path: str, name: str) -> str:
    """The ``vfs:///`` URI of ``name`` inside the directory ``path``."""
    return "vfs://" + join(path, name)
