"""Answering one host event in this process, or denying it at the edge (never open): what
``harness hook HOST`` does without a daemon, and what its clients (harness.cli.host_command,
and harness/cli/hook_client.py run as a script) do when the daemon cannot answer.

It imports only the standard library at module level: harness's runtime is loaded when an
event is answered here, not when a client merely might need it.
"""

from __future__ import annotations

import os
import sys

__all__ = ["after_client", "answer_here", "edge", "emit"]


def after_client(host: str, args, data: bytes, reason: str, unreachable: bool) -> int:
    """What to answer when the daemon could not, for `reason`: the event answered here
    when nothing listens there (`unreachable`), else an edge failure (a deny on a guard
    event)."""
    if unreachable:
        return answer_here(host, args, data)
    return edge(host, data, reason, args.event)


def answer_here(host: str, args, data: bytes) -> int:
    """Answer the event ``data`` of ``host`` here: load the home (``args.home``) and
    answer as the host's command hook (write the answer, return its exit code); deny a
    guard event at the edge when the home is missing or broken, or harness fails, or no
    answer came within ``args.timeout`` seconds."""
    from harness import hosts
    try:
        hosts.adapter(host)
    except hosts.UnknownHost as exc:
        print(f"harness hook: {exc}", file=sys.stderr)
        return 1
    if args.timeout:
        _deadline(host, data, args.event, args.timeout)
    try:
        from harness.cli.frozen_imports import freeze_imports
        from harness.config import ConfigError
        from harness.runtime import Runtime, resolve_home
        freeze_imports()
        path = resolve_home(args.home)
        if not path.is_dir():
            return edge(host, data, f"the home {path} does not exist (--home DIR, "
                                     "$HARNESS_HOME or ~/.harness)", args.event)
        try:
            runtime = Runtime(path)
        except ConfigError as exc:
            return edge(host, data, str(exc), args.event)
    except Exception as exc:  # noqa: BLE001 - never open: see the module docstring
        return edge(host, data, f"internal error: {type(exc).__name__}: {exc}", args.event)
    runtime.handlers.pool.defer()  # async handlers outlive us in a process of their own
    try:
        reply = hosts.answer(runtime, host, data, args.event)
    finally:
        runtime.handlers.pool.detach(str(runtime.home))
        runtime.close()
    return emit(reply.exit_code, reply.stdout, reply.stderr)


def _deadline(host: str, data: bytes, event: str | None, seconds: float) -> None:
    """After `seconds`, answer as an edge failure (a deny on a guard event) and exit: the
    host must hear our "no" before its own timeout reads our silence as "yes"."""
    import signal

    def expire(*_) -> None:
        code = edge(host, data, f"no answer within --timeout {seconds:g} s", event)
        os._exit(code)  # the dispatch still running must not write a second answer

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def edge(host: str, data: bytes, reason: str, event: str | None) -> int:
    """Answer as an edge failure for ``reason``: a deny on a guard event, exit 1 on any
    other (``HARNESS_FAIL_OPEN=1``: exit 1 on all, with a warning)."""
    from harness import hosts
    reply = hosts.edge_failure(host, data, reason, event)
    if hosts.fail_open():
        print(f"harness hook {host}: WARNING: HARNESS_FAIL_OPEN=1: {reason}", file=sys.stderr)
    return emit(reply.exit_code, reply.stdout, reply.stderr)


def emit(code: int, stdout: str, stderr: str) -> int:
    """Write a command hook's answer; return its exit code."""
    if stdout:
        sys.stdout.write(stdout)
        sys.stdout.flush()
    if stderr:
        sys.stderr.write(stderr)
        sys.stderr.flush()
    return code
