"""The bearer token of ``harness mcp --http``: ``HOME/serve.token``, as ``serve --http``
uses it (made with mode 0600 on first start; a token file others can read is refused)."""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

TOKEN_FILE = "serve.token"


def read_token(home: Path) -> str:
    """The token in ``home/serve.token``, made (0600) if missing. Raises PermissionError
    for a token file others can read, or an empty one."""
    path = Path(home) / TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = path.stat().st_mode
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise PermissionError(f"{path} can be read by others (mode "
                                  f"{stat.S_IMODE(mode):o}): chmod 600 it") from None
        token = path.read_text(encoding="ascii").strip()
        if not token:
            raise PermissionError(f"{path} is empty: delete it to make a new token")
        return token
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(token + "\n")
    return token
