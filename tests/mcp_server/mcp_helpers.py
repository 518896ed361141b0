"""Helpers for driving ``harness mcp`` with the official SDK client (``mcp.Client``), in a
fresh process over stdio or over streamable HTTP."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

GREET = """(import (harness tools))
(define-tool greet
  (description "Greet someone by name")
  (parameters '((name . ((type . "string") (description . "Name to greet")))))
  (execute (lambda (args) (string-append "Hello, " (cdr (assoc "name" args)) "!"))))
"""
#: a pre_tool guard: greet may not greet Mallory
NO_MALLORY = """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (payload)
    (let ((args (cdr (assoc "arguments" payload))))
      (if (and (equal? (cdr (assoc "tool_name" payload)) "greet")
               (equal? (cdr (assoc "name" args)) "Mallory"))
          (list (cons "block" #t) (cons "message" "no greeting Mallory"))
          '()))))
"""
#: a tool whose body fails at run time, at a known place (line 4)
BROKEN_AT_RUN = """(import (harness tools))
(define-tool crash
  (description "Always fails")
  (execute (lambda (args) (car '()))))
"""


def tool_source(name: str, text: str) -> str:
    """A Scheme tool ``name`` of no parameters that answers ``text``."""
    return (f'(import (harness tools))\n(define-tool {name}\n  (description "Says {text}")\n'
            f'  (execute (lambda (args) "{text}")))\n')


def make_home(tmp_path: Path) -> Path:
    """A home with greet, the Mallory guard and a tool that fails."""
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "greet.scm").write_text(GREET)
    (home / "tools" / "guard.scm").write_text(NO_MALLORY)
    (home / "tools" / "crash.scm").write_text(BROKEN_AT_RUN)
    return home


def harness_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "harness.cli", "mcp", *args]


def stdio_client(home: Path, *args: str, mode: str = "legacy", errlog=None,
                 **kwargs) -> Client:
    """An SDK client of ``harness mcp --home HOME ARGS...`` over stdio (the server's stderr
    to ``errlog``). ``mode``: ``legacy`` (the 2025 handshake) or ``2026-07-28``."""
    from mcp.client.stdio import stdio_client as transport
    params = StdioServerParameters(command=sys.executable,
                                   args=harness_argv("--home", str(home), *args)[1:],
                                   env=dict(os.environ))
    return Client(transport(params, errlog=errlog or sys.stderr), mode=mode, **kwargs)


@contextmanager
def http_server(home: Path, *args: str):
    """``harness mcp --http 127.0.0.1:0`` started; yields (url, token, process)."""
    log = open(home.parent / "mcp-http.log", "w+")  # noqa: SIM115 - closed below
    process = subprocess.Popen(harness_argv("--home", str(home), "--http", "127.0.0.1:0", *args),
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
    try:
        url = _wait_for_url(home.parent / "mcp-http.log", process)
        token = (home / "serve.token").read_text().strip()
        yield url, token, process
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def _wait_for_url(path: Path, process: subprocess.Popen) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"serving (http://\S+/mcp)", path.read_text())
        if found:
            return found.group(1)
        if process.poll() is not None:
            pytest.fail(f"harness mcp --http exited: {path.read_text()}")
        time.sleep(0.05)
    pytest.fail("harness mcp --http did not start")


@asynccontextmanager
async def http_client(url: str, token: str | None, mode: str = "legacy", **kwargs):
    """An SDK client of ``url`` sending ``token`` as its bearer token."""
    import httpx2
    from mcp.client.streamable_http import streamable_http_client
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            Client(streamable_http_client(url, http_client=http), mode=mode, **kwargs) as client:
        yield client


def run(scenario) -> object:
    """Run an async scenario to its end (a minute at most)."""
    async def bounded():
        with anyio.fail_after(60):
            return await scenario()
    return anyio.run(bounded)


async def wait_for(predicate, timeout: float = 1.0, step: float = 0.02) -> bool:
    """Poll the async ``predicate`` until it is true; False after ``timeout`` seconds."""
    deadline = anyio.current_time() + timeout
    while True:
        if await predicate():
            return True
        if anyio.current_time() >= deadline:
            return False
        await anyio.sleep(step)
