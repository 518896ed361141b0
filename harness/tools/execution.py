"""Calling Scheme procedures for the host: under a budget, with output captured."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Self

from harness.scheme.limits import Budget
from harness.scheme.parameters import pop_binding, push_binding


@dataclass(frozen=True)
class Limits:
    """The budget of one Scheme call: ``steps`` (None: unlimited) and ``seconds``."""

    steps: int | None = 10_000_000
    seconds: float | None = 5.0
    max_output: int = 1 << 20
    max_memory: int | None = 512 << 20


@dataclass
class SchemeCall:
    """What one call produced: ``value``, or ``error`` (an exception), plus its output."""

    value: object = None
    error: BaseException | None = None
    stdout: str = ""
    stderr: str = ""


class OutputCapture:
    """Routes current-output-port / current-error-port to strings and current-input-port
    to an empty port for every Scheme call made inside ``with OutputCapture(...)``.

    One capture serves many calls (a whole dispatch); each call's output is the part of
    the buffers it wrote.
    """

    def __init__(self, max_output: int, watch_deadline: bool = True) -> None:
        from harness.scheme.primitives import ports
        self._ports = ports
        self.out = ports.StringOutputPort(limit=max_output)
        self.err = ports.StringOutputPort(limit=max_output)
        self.stdin = ports.TextInputPort("")
        # One budget for the whole capture, reset for each call: every call gets its own
        # limits without a Budget allocation and thread-local push per call.
        self.budget = Budget(steps=None, seconds=None, watch=watch_deadline)
        self._return_to: list | None = None

    def prepare(self, max_output: int, watch_deadline: bool, pool: list | None) -> None:
        """Empty the buffers for reuse; ``pool`` gets the capture back on exit."""
        self.out.clear(max_output)
        self.err.clear(max_output)
        self.stdin = self._ports.TextInputPort("")
        self.budget.watch = watch_deadline
        self._return_to = pool

    def __enter__(self) -> Self:
        ports = self._ports
        push_binding(ports.current_output_port, self.out)
        push_binding(ports.current_error_port, self.err)
        push_binding(ports.current_input_port, self.stdin)
        self.budget.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.budget.__exit__()
        ports = self._ports
        pop_binding(ports.current_input_port)
        pop_binding(ports.current_error_port)
        pop_binding(ports.current_output_port)
        if self._return_to is not None:
            self._return_to.append(self)
            self._return_to = None

    def call(self, proc, args: tuple, limits: Limits) -> SchemeCall:
        """Run ``proc(*args)`` under ``limits``. Never raises for what the Scheme code does
        (errors, exhausted budgets, exit): the exception is returned in ``error``."""
        # a previous call may have closed them (close-port on current-output-port): every
        # call starts with open ports
        self.out.is_open = self.err.is_open = self.stdin.is_open = True
        out_mark, err_mark = self.out.tell(), self.err.tell()
        result = SchemeCall()
        self.budget.reset(limits.steps, limits.seconds, limits.max_memory)
        try:
            result.value = proc(*args)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            result.error = exc
        if self.out.tell() != out_mark:
            result.stdout = self.out.getvalue()[out_mark:]
        if self.err.tell() != err_mark:
            result.stderr = self.err.getvalue()[err_mark:]
        return result


_pool = threading.local()


def capture_for_dispatch(max_output: int, watch_deadline: bool) -> OutputCapture:
    """A reusable OutputCapture of this thread (a fresh one when the pooled one is in use,
    as in a nested dispatch). Saves building ports and a Budget on every dispatch."""
    free = getattr(_pool, "free", None)
    if free is None:
        free = _pool.free = []
    capture = free.pop() if free else OutputCapture(max_output, watch_deadline)
    capture.prepare(max_output, watch_deadline, free)
    return capture


def call_scheme(proc, args: tuple, limits: Limits) -> SchemeCall:
    """One Scheme call with its own output capture (see OutputCapture.call)."""
    with OutputCapture(limits.max_output) as capture:
        return capture.call(proc, args, limits)


def describe_error(exc: BaseException) -> str:
    """One-paragraph description of a Scheme call's failure with its source position."""
    from harness.scheme.interpreter import format_error
    from harness.scheme.primitives.system import SchemeExit
    if isinstance(exc, SchemeExit):
        return f"exit called with status {exc.code}"
    return format_error(exc)
