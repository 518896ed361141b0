"""The REPL over a pipe (stdin is not a terminal): entries are read line by line, each one
submitted once its data are complete, and only outputs are printed (no prompt, no colour)."""

from __future__ import annotations

from typing import TextIO

from harness.repl.session import ReplSession
from harness.repl.worker import run_interruptibly


def run_batch(session: ReplSession, files: list[str], lines: TextIO, out: TextIO) -> int:
    """Execute every entry of ``lines``; 0, or 1 when the input ends inside an entry."""
    for name in files:
        _execute(session, f",load {name}", out)
    entry = ""
    for line in lines:
        entry += line
        if session.is_complete(entry):
            _execute(session, entry, out)
            entry = ""
            if session.finished:
                return 0
    if entry.strip():
        _execute(session, entry, out)  # shows the reader's "never closed" error
        return 1
    return 0


def _execute(session: ReplSession, entry: str, out: TextIO) -> None:
    text = run_interruptibly(lambda: session.execute(entry))
    if text:
        out.write(text + "\n")
        out.flush()
