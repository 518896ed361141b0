"""(harness vfs): the VFS and host files as the *calling context* sees them — what the
builtin tools in the repository's ``tools/`` folder are written on.

Unlike ``(harness io)`` (the System caller, no zone checks), every write here is checked
against the calling context's zones, so a tool written on it can do no more than the
model could with the builtin tools. Unsandboxed tier only (it reaches host files).
Errors are raised with chibi's bare texts (``No such file or directory (os error 2)``),
which the builtin tools pass on as their error.

Procedures (PATH is a ``vfs:///`` URI, or a host path relative to the project root):
``(vfs-read PATH)`` -> string; ``(vfs-read-lines PATH START COUNT)`` and
``(vfs-read-last-lines PATH COUNT)`` -> lines, streamed (harness.host_libraries.line_stream);
``(vfs-write URI STRING)``; ``(vfs-list URI)`` -> list of
``(name . file|dir)``; ``(vfs-info URI)`` -> alist; ``(vfs-mkdir URI)``;
``(vfs-delete URI)``; ``(vfs-copy SRC DST)``; ``(vfs-move SRC DST)``;
``(vfs-path URI)`` -> the checked VFS path; ``(host-path PATH)`` -> the absolute host path;
``(host-write PATH STRING)`` (relative to the working directory, as chibi's write_file);
``(vfs-caller)`` -> the calling context's name or ``system``.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.host_libraries.line_stream import (
    last_lines,
    lines_between,
    open_source,
    resolve_host_path,
)
from harness.sandbox.thread_context import current_runtime, in_hook_callback, thread_context
from harness.scheme.datatypes import String, Symbol, py_to_list
from harness.scheme.errors import error, wrong_type
from harness.scheme.primitives import primitive

VFS = "harness vfs"
_FILE, _DIR = Symbol.intern("file"), Symbol.intern("dir")


def _text(who: str, x) -> str:
    if isinstance(x, String):
        return x.s
    raise wrong_type(who, "a string", x)


def _runtime(who: str):
    runtime = current_runtime()
    if runtime is None:
        raise error(f"{who}: no runtime is running this code")
    return runtime


def caller() -> str:
    """The VFS caller of the running code: System inside a hook callback of an unsandboxed
    file (the host wrote it), else the calling context."""
    from harness.vfs.zones import SYSTEM
    context = thread_context()
    if context.system_caller or (in_hook_callback() and context.tier == "unsandboxed"):
        return SYSTEM
    return context.calling_context


def _vfs_path(who: str, uri) -> str:
    from harness.vfs.paths import VfsError, path_of_uri
    try:
        return path_of_uri(_text(who, uri))
    except VfsError as exc:
        raise error(str(exc)) from None


def _run(operation):
    """Run ``operation()``; a refused or failed VFS or OS operation becomes a Scheme error
    with its bare text."""
    from harness.vfs.paths import VfsError
    from harness.vfs.store import os_error_text
    try:
        return operation()
    except VfsError as exc:
        raise error(str(exc)) from None
    except OSError as exc:
        raise error(os_error_text(exc)) from None


@primitive(VFS)
def vfs_read(path):
    """The content of a VFS file or a host file (bad UTF-8 replaced)."""
    text = _text("vfs-read", path)
    runtime = _runtime("vfs-read")
    from harness.vfs.paths import is_vfs_uri
    if is_vfs_uri(text):
        where = _vfs_path("vfs-read", path)
        return String(_run(lambda: runtime.vfs.read_text(where)))
    host = resolve_host_path(runtime, text)
    return String(_run(lambda: host.read_bytes()).decode("utf-8", errors="replace"))


def _count(who: str, x, allow_false: bool = False) -> int | None:
    if allow_false and x is False:
        return None
    if isinstance(x, int) and not isinstance(x, bool) and x >= 0:
        return x
    raise wrong_type(who, "an exact integer >= 0", x)


def _read_lines(who: str, path, pick) -> object:
    """``pick(binary file)`` -> lines, over the VFS or host file ``path``, as a list."""
    text = _text(who, path)
    runtime = _runtime(who)

    def read():
        with open_source(runtime, text) as source:
            return pick(source)
    return py_to_list([String(line) for line in _run(read)])


@primitive(VFS)
def vfs_read_lines(path, start, count):
    """(vfs-read-lines PATH START COUNT): lines START (from 0) on, COUNT of them (#f: to the
    end), read as a stream: a file's head never costs the whole file."""
    first = _count("vfs-read-lines", start)
    many = _count("vfs-read-lines", count, allow_false=True)
    return _read_lines("vfs-read-lines", path, lambda f: lines_between(f, first, many))


@primitive(VFS)
def vfs_read_last_lines(path, count):
    """(vfs-read-last-lines PATH COUNT): the last COUNT lines, keeping no more in memory."""
    many = _count("vfs-read-last-lines", count)
    return _read_lines("vfs-read-last-lines", path, lambda f: last_lines(f, many))


@primitive(VFS)
def vfs_write(uri, content):
    where = _vfs_path("vfs-write", uri)
    data = _text("vfs-write", content).encode("utf-8", errors="surrogatepass")
    vfs = _runtime("vfs-write").vfs
    _run(lambda: vfs.write(caller(), where, data))
    return True


@primitive(VFS)
def vfs_list(uri):
    where = _vfs_path("vfs-list", uri)
    vfs = _runtime("vfs-list").vfs
    entries = _run(lambda: vfs.list(where))
    return py_to_list([[String(e.name), _DIR if e.is_dir else _FILE] for e in entries])


@primitive(VFS)
def vfs_info(uri):
    """An alist: kind (file|directory), size (bytes), created and modified (chibi's
    ``YYYY-MM-DD HH:MM:SS UTC`` text) when the storage knows them."""
    where = _vfs_path("vfs-info", uri)
    info = _run(lambda: _runtime("vfs-info").vfs.info(where))
    rows = [[String("kind"), String("directory" if info.is_dir else "file")],
            [String("size"), info.size]]
    for key, when in (("created", info.created), ("modified", info.modified)):
        if when is not None:
            rows.append([String(key), String(when.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))])
    return py_to_list(rows)


@primitive(VFS, name="vfs-exists?")
def vfs_exists(uri):
    where = _vfs_path("vfs-exists?", uri)
    return _run(lambda: _runtime("vfs-exists?").vfs.exists(where))


@primitive(VFS)
def vfs_mkdir(uri):
    where = _vfs_path("vfs-mkdir", uri)
    vfs = _runtime("vfs-mkdir").vfs
    _run(lambda: vfs.mkdir(caller(), where))
    return True


@primitive(VFS)
def vfs_delete(uri):
    where = _vfs_path("vfs-delete", uri)
    vfs = _runtime("vfs-delete").vfs
    _run(lambda: vfs.delete(caller(), where) if vfs.exists(where) else _missing())
    return True


def _missing():
    raise FileNotFoundError(2, os.strerror(2))


def _two_paths(who: str, operation: str, src, dst) -> bool:
    source, target = _vfs_path(who, src), _vfs_path(who, dst)
    vfs = _runtime(who).vfs
    _run(lambda: getattr(vfs, operation)(caller(), source, target))
    return True


@primitive(VFS)
def vfs_copy(src, dst):
    return _two_paths("vfs-copy", "copy", src, dst)


@primitive(VFS)
def vfs_move(src, dst):
    return _two_paths("vfs-move", "move", src, dst)


@primitive(VFS)
def vfs_path(uri):
    return String(_vfs_path("vfs-path", uri))


@primitive(VFS)
def host_path(path):
    """The absolute, canonical host path of ``path`` (relative to the project root)."""
    host = resolve_host_path(_runtime("host-path"), _text("host-path", path))
    return String(os.path.realpath(host))


@primitive(VFS)
def host_write(path, content):
    """Write a host file as an editor saves it, making its folder (chibi's write_file: the
    path as given, relative to the working directory); see
    harness.atomic_file.replace_contents for links, mode and owner."""
    from harness.atomic_file import replace_contents
    target = Path(_text("host-write", path))
    data = _text("host-write", content).encode("utf-8", errors="surrogatepass")
    _run(lambda: replace_contents(target, data))
    return True


@primitive(VFS)
def vfs_caller():
    return String(caller())


__all__ = ["caller"]
