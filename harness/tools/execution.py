"""Calling Scheme procedures for the host: under a budget, with output captured."""

from __future__ import annotations

from dataclasses import dataclass

from harness.scheme.limits import Budget
from harness.scheme.parameters import pop_binding, push_binding


@dataclass(frozen=True)
class Limits:
    """The budget of one Scheme call: ``steps`` (None: unlimited) and ``seconds``."""

    steps: int | None = 10_000_000
    seconds: float | None = 5.0
    max_output: int = 1 << 20


@dataclass
class SchemeCall:
    """What one call produced: ``value``, or ``error`` (an exception), plus its output."""

    value: object = None
    error: BaseException | None = None
    stdout: str = ""
    stderr: str = ""


def call_scheme(proc, args: tuple, limits: Limits) -> SchemeCall:
    """Run ``proc(*args)`` with ``limits``; stdout/stderr go to strings, stdin is empty.

    Never raises for what the Scheme code does (errors, exhausted budgets, exits): the
    exception is returned in ``error``.
    """
    from harness.scheme.primitives import ports
    out = ports.StringOutputPort(limit=limits.max_output)
    err = ports.StringOutputPort(limit=limits.max_output)
    stdin = ports.TextInputPort("")
    push_binding(ports.current_output_port, out)
    push_binding(ports.current_error_port, err)
    push_binding(ports.current_input_port, stdin)
    result = SchemeCall()
    try:
        with Budget(steps=limits.steps, seconds=limits.seconds):
            result.value = proc(*args)
    except BaseException as exc:  # noqa: BLE001 - a hook must never take the host down
        if isinstance(exc, KeyboardInterrupt):
            raise
        result.error = exc
    finally:
        pop_binding(ports.current_input_port)
        pop_binding(ports.current_error_port)
        pop_binding(ports.current_output_port)
    result.stdout = out.getvalue()
    result.stderr = err.getvalue()
    return result


def describe_error(exc: BaseException) -> str:
    """One-paragraph description of a Scheme call's failure with its source position."""
    from harness.scheme.interpreter import format_error
    from harness.scheme.primitives.system import SchemeExit
    if isinstance(exc, SchemeExit):
        return f"exit called with status {exc.code}"
    return format_error(exc)
