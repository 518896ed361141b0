"""``allowedHttpHookUrls`` entries, matched part by part (issue 23, item 14).

A plain text glob let ``*`` run across ``/``, ``.``, ``:`` and ``@``:
``http://127.0.0.1:80*`` allowed ``http://127.0.0.1:8080/``, and a Bearer token went to
another port. Here an entry is ``SCHEME://HOST[:PORT][PATH]`` and each part is matched on
its own against the parsed URL:

- the scheme exactly (case-insensitive);
- the host label by label: ``*`` stays inside one label (``*.example.com`` allows
  ``a.example.com``, not ``a.b.example.com`` nor ``example.com``);
- the port: ``*`` is any port (digits only); no port in the entry means the scheme's
  default;
- the path segment by segment: ``*`` stays inside one segment, ``**`` crosses ``/``; an
  entry with no path allows every path. Query and fragment are not matched.

A URL with a user name or password, or one that does not parse, matches nothing.
"""

from __future__ import annotations

import re
import urllib.parse
from functools import lru_cache

__all__ = ["url_matches"]

_ENTRY = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<host>\[[^\]]*\]|[^/:]*)"
                    r"(?::(?P<port>[^/]*))?(?P<path>/.*)?", re.DOTALL)
_DEFAULT_PORTS = {"http": 80, "https": 443}


def url_matches(url: str, entry: str) -> bool:
    """Whether ``url`` is one that the allowlist entry ``entry`` allows (see the module)."""
    parts = _url_parts(url)
    if parts is None:
        return False
    compiled = _compile(entry)
    if compiled is None:
        return False
    scheme, host, port, path = parts
    want_scheme, want_host, want_port, want_path = compiled
    if scheme != want_scheme or not want_host.fullmatch(host):
        return False
    if want_port is None:
        if port != _DEFAULT_PORTS.get(scheme):
            return False
    elif not want_port.fullmatch(str(port if port is not None else "")):
        return False
    return want_path is None or want_path.fullmatch(path) is not None


def _url_parts(url: str) -> tuple[str, str, int | None, str] | None:
    try:
        split = urllib.parse.urlsplit(url)
        port = split.port
    except ValueError:
        return None
    if split.username is not None or split.password is not None or not split.hostname:
        return None
    scheme = split.scheme.lower()
    return scheme, split.hostname.lower(), port if port is not None else \
        _DEFAULT_PORTS.get(scheme), split.path or "/"


@lru_cache(maxsize=256)
def _compile(entry: str):
    found = _ENTRY.fullmatch(entry.strip())
    if found is None:
        return None
    host = found.group("host").lower().strip("[]")
    port, path = found.group("port"), found.group("path")
    return (found.group("scheme").lower(),
            re.compile(_glob(host, "[^.]*")),
            None if port is None else re.compile(_glob(port, "[0-9]*")),
            None if path is None else re.compile(_glob(path, "[^/]*", "**")))


def _glob(text: str, star: str, deep: str | None = None) -> str:
    """``text`` as a regex where ``*`` is ``star`` and ``deep`` (``**``) crosses ``/``."""
    pieces = re.split(r"(\*\*|\*)", text)
    out = []
    for piece in pieces:
        if piece == "**":
            out.append(".*" if deep else star)
        elif piece == "*":
            out.append(star)
        else:
            out.append(re.escape(piece))
    return "".join(out)
