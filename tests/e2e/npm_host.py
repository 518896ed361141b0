"""Installing a pinned coding-agent host from npm, once, for the end-to-end tests.

``installed(package, version)`` installs ``package@version`` into
``~/.cache/harness-e2e/<package with / as +>@<version>`` (``npm install --prefix``) under an
fcntl lock beside that folder, so two processes never install at once, and returns the
folder; ``npm_command(package, version, name)`` is the path of its command ``name``. It
skips the test (pytest.skip) only when npm itself is missing.
"""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

__all__ = ["CACHE", "installed", "npm_command"]

CACHE = Path.home() / ".cache" / "harness-e2e"


def installed(package: str, version: str) -> Path:
    """The folder ``package@version`` is installed in (installing it the first time)."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed: the end-to-end host tests need it")
    folder = CACHE / f"{package.replace('/', '+')}@{version}"
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = folder / "node_modules" / package / "package.json"
        if not marker.exists():
            done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix",
                                   str(folder), f"{package}@{version}"], capture_output=True,
                                  text=True, timeout=900, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"npm install {package}@{version} failed:\n{done.stderr}")
    return folder


def npm_command(package: str, version: str, name: str) -> Path:
    """The command `name` of ``package@version`` (installing it the first time)."""
    return installed(package, version) / "node_modules" / ".bin" / name
