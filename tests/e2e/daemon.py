"""``harness serve --http 127.0.0.1:0`` as a context manager, for the end-to-end tests."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Self

__all__ = ["CLIENTS", "HttpDaemon", "client_command", "harness_command"]

#: the ways a host that runs commands reaches the daemon
CLIENTS = ("harness hook --http", "hook-client.sh")


def harness_command(*argv: str) -> str:
    """A shell command line that runs ``harness ARGV`` with this interpreter."""
    import shlex
    return " ".join(shlex.quote(a) for a in (sys.executable, "-m", "harness.cli", *argv))


def client_command(client: str, host: str, url: str, home: Path, *extra: str) -> str:
    """The command line of `client` (one of CLIENTS) asking the daemon at `url`."""
    import shlex
    if client == "harness hook --http":
        return harness_command("hook", host, *extra, "--http", url, "--home", str(home))
    from harness.cli.hook_client import shell_client_argv
    event = extra[extra.index("--event") + 1] if "--event" in extra else None
    argv = shell_client_argv(host, url, str(home), event)
    return f"HARNESS_PYTHON={shlex.quote(sys.executable)} " + \
        " ".join(shlex.quote(a) for a in argv)


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
