"""What decides the code harness derives from scheme_lib, as one digest, cheaply.

Entries derived from scheme_lib files and kept across processes (the compiled code of
their definitions, compiled_definitions.py; the names each library exports,
library_exports.py) are keyed by this digest with the file's text, so that changing the
reader, expander, compiler, a primitive or another library file invalidates them.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

try:  # hashlib's own blake2b, without hashlib loading OpenSSL (see parse_cache.py)
    from _blake2 import blake2b
except ImportError:
    from hashlib import blake2b

from harness.shipped import shipped_dir

__all__ = ["sources_fingerprint"]

_HARNESS = Path(__file__).resolve().parent.parent


@cache
def sources_fingerprint() -> bytes:
    """The Python version and the path, size and modification time of every file of what
    decides code derived from scheme_lib: harness/scheme/ (reader, expander, compiler,
    primitives), harness/host_libraries/ (the primitives of the (harness ...) libraries)
    and scheme_lib/ (bytecode caches aside)."""
    digest = blake2b(sys.version.encode() + b"\0" + sys.implementation.cache_tag.encode())
    for root in (_HARNESS / "scheme", _HARNESS / "host_libraries", shipped_dir("scheme_lib")):
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode(
                    "utf-8", "surrogateescape"))
    return digest.digest()
