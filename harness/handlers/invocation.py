"""Where a dispatch's declared handlers run: the environment and directory of the caller.

A handler gets what Claude Code would give it: Claude Code's environment (with
``CLAUDE_PROJECT_DIR``) and its current directory. In a process that Claude Code started
(``harness claude-hook``) that is simply our own; a server (``harness serve --socket``)
answers many callers, so each request brings its caller's environment and directory and
runs its dispatch inside `using_invocation`.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["Invocation", "current_invocation", "using_invocation"]


@dataclass(frozen=True)
class Invocation:
    """The caller's environment and current directory (None: this process's own)."""

    env: Mapping[str, str] | None = None
    cwd: str | None = None

    def environment(self) -> dict[str, str]:
        return dict(os.environ if self.env is None else self.env)

    def directory(self) -> str:
        if self.cwd is not None:
            return self.cwd
        try:
            return os.getcwd()
        except OSError:  # our directory was deleted
            return os.path.expanduser("~")


_OWN = Invocation()
_current: contextvars.ContextVar[Invocation] = contextvars.ContextVar("harness_invocation",
                                                                     default=_OWN)


def current_invocation() -> Invocation:
    """The invocation of the dispatch running on this thread (or task)."""
    return _current.get()


@contextmanager
def using_invocation(invocation: Invocation) -> Iterator[Invocation]:
    """Run the dispatches inside the ``with`` for `invocation`'s caller."""
    token = _current.set(invocation)
    try:
        yield invocation
    finally:
        _current.reset(token)
