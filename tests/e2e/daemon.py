"""``harness serve --http 127.0.0.1:0`` as a context manager, for the end-to-end tests."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Self

__all__ = ["HttpDaemon", "harness_command"]


def harness_command(*argv: str) -> str:
    """A shell command line that runs ``harness ARGV`` with this interpreter."""
    import shlex
    return " ".join(shlex.quote(a) for a in (sys.executable, "-m", "harness.cli", *argv))


class HttpDaemon:
    """A running ``harness serve --http`` for `home`: ``url``, ``token``."""

    def __init__(self, home: Path) -> None:
        self.home = home

    def __enter__(self) -> Self:
        self.process = subprocess.Popen([sys.executable, "-m", "harness.cli", "serve",
                                         "--home", str(self.home), "--http", "127.0.0.1:0"],
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"harness serve --http did not start: {line}"
                               f"{self.process.stderr.read()}")
        self.port = int(match.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = (self.home / "serve.token").read_text().strip()
        return self

    def __exit__(self, *exc) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)
