"""Calling Scheme procedures for the host: under a budget, with output captured."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Self

from harness.sandbox.tier_limits import Limits
from harness.scheme.continuations import prompt
from harness.scheme.limits import Budget
from harness.scheme.primitives.ports import (
    StringOutputPort,
    TextInputPort,
    redirect,
    restore,
)


@dataclass
class SchemeCall:
    """What one call produced: ``value``, or ``error`` (an exception), plus its output."""

    value: object = None
    error: BaseException | None = None
    stdout: str = ""
    stderr: str = ""
    #: resident bytes when the call first measured its memory (None: it never did)
    memory_start: int | None = None


class OutputCapture:
    """Routes current-output-port / current-error-port to strings and current-input-port
    to an empty port for every Scheme call made inside ``with OutputCapture(...)``.

    One capture serves many calls (a whole dispatch); each call's output is the part of
    the buffers it wrote. The ports are made when a call first uses them: a hook that
    prints nothing costs no port at all.
    """

    def __init__(self, max_output: int, watch_deadline: bool = True) -> None:
        self.max_output = max_output
        self._out: StringOutputPort | None = None
        self._err: StringOutputPort | None = None
        self._stdin: TextInputPort | None = None
        # One budget for the whole capture, reset for each call: every call gets its own
        # limits without a Budget allocation and thread-local push per call.
        self.budget = Budget(steps=None, seconds=None, watch=watch_deadline)
        self._restore: tuple | None = None
        self._return_to: list | None = None

    # the StandardPorts of harness.scheme.primitives.ports.redirect
    def output_port(self) -> StringOutputPort:
        if self._out is None:
            self._out = StringOutputPort(limit=self.max_output)
        return self._out

    def error_port(self) -> StringOutputPort:
        if self._err is None:
            self._err = StringOutputPort(limit=self.max_output)
        return self._err

    def input_port(self) -> TextInputPort:
        if self._stdin is None:
            self._stdin = TextInputPort("")
        return self._stdin

    def __enter__(self) -> Self:
        self._restore = redirect(self)
        self.budget.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        budget = self.budget
        budget.__exit__()
        budget.deadline = None  # the next dispatch must not watch this one's deadline
        restore(self._restore)
        if self._return_to is not None:
            self._return_to.append(self)
            self._return_to = None

    def start_call(self, limits: Limits) -> tuple[int, int]:
        """Get ready for one call under ``limits``; returns the output marks ``output``
        takes."""
        self.budget.reset(limits.steps, limits.seconds, limits.max_memory)
        # a previous call may have closed them (close-port on current-output-port): every
        # call starts with open ports
        out_mark = err_mark = 0
        if self._stdin is not None:
            self._stdin.is_open = True
        if self._out is not None:
            self._out.is_open = True
            out_mark = self._out.tell()
        if self._err is not None:
            self._err.is_open = True
            err_mark = self._err.tell()
        return out_mark, err_mark

    def output(self, marks: tuple[int, int]) -> tuple[str, str]:
        """(stdout, stderr) written since ``start_call`` returned ``marks``."""
        out, err = self._out, self._err
        stdout = "" if out is None or out.tell() == marks[0] else out.getvalue()[marks[0]:]
        stderr = "" if err is None or err.tell() == marks[1] else err.getvalue()[marks[1]:]
        return stdout, stderr

    def call(self, proc, args: tuple, limits: Limits) -> SchemeCall:
        """Run ``proc(*args)`` under ``limits``. Never raises for what the Scheme code does
        (errors, exhausted budgets, exit): the exception is returned in ``error``."""
        marks = self.start_call(limits)
        result = SchemeCall()
        try:
            # (a C-level call: nested calls are bounded by call-tool's nesting limit)
            result.value = prompt(proc, *args)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            result.error = exc
        result.stdout, result.stderr = self.output(marks)
        result.memory_start = self.budget.memory_start
        return result


_pool = threading.local()


def pooled_capture(max_output: int, watch_deadline: bool) -> OutputCapture:
    """A reusable OutputCapture of this thread (a fresh one when the pooled one is in use,
    as in a nested dispatch), its ports forgotten. Saves building a Budget per dispatch."""
    try:
        free = _pool.free
    except AttributeError:
        free = _pool.free = []
    if not free:
        capture = OutputCapture(max_output, watch_deadline)
    else:
        capture = free.pop()
        capture.max_output = max_output
        capture._out = capture._err = capture._stdin = None
        capture.budget.watch = watch_deadline
    capture._return_to = free  # back to the pool on exit
    return capture


def call_scheme(proc, args: tuple, limits: Limits, watch_deadline: bool = True) -> SchemeCall:
    """One Scheme call with its own output capture (see OutputCapture.call).
    ``watch_deadline=False`` is for code that counts steps (it checks its deadline
    itself)."""
    with pooled_capture(limits.max_output, watch_deadline) as capture:
        return capture.call(proc, args, limits)


def describe_error(exc: BaseException) -> str:
    """One-paragraph description of a Scheme call's failure with its source position.

    Never raises (but KeyboardInterrupt): what a hostile file raised can be huge, cyclic
    or deep, and describing it must not become a second failure that escapes to the
    host."""
    from harness.scheme.interpreter import format_error
    from harness.scheme.primitives.system import SchemeExit
    try:
        if isinstance(exc, SchemeExit):
            return f"exit called with status {exc.code}"
        return format_error(exc)
    except KeyboardInterrupt:
        raise
    except BaseException as failure:  # noqa: BLE001 - see the docstring
        return (f"error: a {type(exc).__name__} whose message could not be shown "
                f"({type(failure).__name__})")
