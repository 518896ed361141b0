"""The names a scheme_lib library exports, known without loading it.

A tool file's environment binds the Scheme half of its prelude libraries when it first
meets a name it has not bound (``libraries.load_pending``): one library after another,
in their order, until one binds the name. A name none of them exports (a tool's own
helper, a name of a library it imports further down) loaded and bound every one: on a
home of the shipped guards, (srfi 69), (srfi 130) and (srfi 132), ~3 ms of each start,
for nothing. So load_pending skips a library whose export names, read here, lack the
name, and leaves it pending.

The names of each library file are kept in the parse cache (``ParseCache.load_blob``),
keyed by the file's text, the library's name and ``sources_fingerprint()`` (what decides
what a library file exports: the expander, the features cond-expand tests, the other
library files it may include). A missing, corrupt or stale entry is a miss: the library
is loaded, as before, and its names kept for the next start.
"""

from __future__ import annotations

import marshal

try:  # hashlib's own blake2b, without hashlib loading OpenSSL (see parse_cache.py)
    from _blake2 import blake2b
except ImportError:
    from hashlib import blake2b

from harness.scheme.libraries import find_library, library_path
from harness.scheme.parse_cache import ParseCache
from harness.scheme.sources_fingerprint import sources_fingerprint

__all__ = ["library_exports"]

_MAGIC = b"harness-library-exports 1\n"

#: the names found so far in this process, by library (a tool file asks for each unbound
#: name it meets; the library files of a process do not change under it, as the libraries
#: it loaded do not)
_KNOWN: dict[tuple, frozenset[str]] = {}


def library_exports(cache: ParseCache | None, key: tuple) -> frozenset[str] | None:
    """The names the scheme_lib library ``key`` exports: kept in ``cache``, or found by
    loading the library (then kept). None when they cannot be known without loading it
    (no cache, not a scheme_lib file, an unreadable file, no such library)."""
    known = _KNOWN.get(key)
    if known is not None or cache is None:
        return known
    path = library_path(key)
    if path is None:
        return None
    try:
        text = path.read_bytes()
    except OSError:
        return None
    digest = blake2b(_MAGIC + sources_fingerprint(), digest_size=32)
    digest.update(" ".join(key).encode("utf-8", "surrogatepass") + b"\0" + text)
    entry = digest.hexdigest()
    names = _decode(cache.load_blob(entry))
    if names is None:
        library = find_library(key)
        if library is None:
            return None
        names = frozenset(library.exports)
        cache.store_blob(entry, marshal.dumps(tuple(sorted(names))))
    _KNOWN[key] = names
    return names


def _decode(payload: bytes | None) -> frozenset[str] | None:
    if payload is None:
        return None
    try:
        names = marshal.loads(payload)
    except Exception:  # noqa: BLE001 - a damaged entry is only a miss
        return None
    if names.__class__ is not tuple or not all(n.__class__ is str for n in names):
        return None
    return frozenset(names)
