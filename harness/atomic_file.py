"""Writing a file so that readers see the old contents or the new, never half of them
(the on-disk caches: plugin schemas, read tool files)."""

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
