"""Writing a file so that readers see the old contents or the new, never half of them:
``write_atomically`` for harness's own files (the on-disk caches: plugin schemas, read
tool files), ``replace_contents`` for a user's files (it keeps their mode, owner and
links)."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``
    (making the directory if needed). The temporary file never outlives a failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # not at the top: a runtime that writes no cache entry never needs it
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def replace_contents(path: Path, data: bytes) -> None:
    """Give the file at ``path`` the contents ``data`` as an editor saves a user's file
    (write_file, file_edit, io-write on host paths; issue 23, item 13):

    - through a symbolic link: the file it leads to changes, the link stays a link;
    - a file with other hard links is rewritten in place, so every name sees the change
      (not atomic: a reader may see it half written; breaking the links would be worse);
    - else a temporary file beside it, given the old file's mode bits (execute bits
      included) and, where the process may, its owner and group, is renamed over it;
    - a new file gets 0666 less the umask, as any program's new file does.

    A failure leaves the old contents and no temporary file."""
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and st.st_nlink > 1:
        with open(target, "r+b") as f:
            f.write(data)
            f.truncate()
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    import secrets  # as tempfile above
    tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                 0o666 if st is None else st.st_mode & 0o777)
    try:
        with os.fdopen(fd, "wb") as f:
            if st is not None:
                try:
                    os.fchown(f.fileno(), st.st_uid, st.st_gid)
                except PermissionError:
                    pass  # another user's file: it becomes ours, as with any editor
                os.fchmod(f.fileno(), st.st_mode & 0o7777)  # (after chown, which clears setuid)
            f.write(data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
