"""Run a plugin executable for a hook or a tool call (SPEC §3).

One function, `run_plugin`, owns the subprocess: it feeds stdin and reads stdout together
(so neither side can dead-lock on a full pipe), caps what it keeps of stdout, and on a
timeout or an overflow kills the plugin's whole process group and reaps the plugin. The
plugin's stderr goes straight to ours. `call_hook` and `call_tool` add the hook / tool
conventions on top: environment variables, JSON in, an answer or a result out.
"""

from __future__ import annotations

import errno
import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness.bridge import dumps, loads
from harness.hooks.outcome import NO_ANSWER

__all__ = [
    "HOOK_TIMEOUT", "MAX_OUTPUT", "TOOL_TIMEOUT", "HookCallResult", "ProcessRun",
    "ToolCallResult", "call_hook", "call_tool", "run_plugin",
]

#: seconds a hook call may take (SPEC §3 default)
HOOK_TIMEOUT = 30.0
#: seconds a tool call may take
TOOL_TIMEOUT = 30.0
#: bytes of stdout kept; beyond this the plugin is killed and the call fails
MAX_OUTPUT = 16 * 1024 * 1024

# Linux refuses any single NAME=value environment string over 128 KiB (MAX_ARG_STRLEN),
# so a bigger payload goes on stdin only.
_ENV_VALUE_MAX = 128 * 1024 - 64
_CHUNK = 64 * 1024
_POLL = 0.05  # how often a silent plugin is checked for having exited
_EXIT_GRACE = 0.1  # after the plugin exits, how long descendants may keep stdout open
_HOOK_VARS = ("CHIBI_HOOK", "HARNESS_HOOK", "CHIBI_HOOK_DATA")
_TOOL_VARS = ("CHIBI_TOOL_NAME", "HARNESS_TOOL_NAME")


class Runnable(Protocol):
    """Anything with a plugin `name` and an executable `path` (PluginFile, Plugin)."""

    name: str
    path: Path


@dataclass(frozen=True)
class ProcessRun:
    """What one run of a plugin produced. `error` is set when it failed to start, timed
    out or overflowed (then `stdout` is empty); a non-zero exit is only `exit_code`."""

    stdout: bytes
    exit_code: int | None
    duration: float
    error: str | None = None


@dataclass(frozen=True)
class HookCallResult:
    """One plugin's answer to one hook call.

    `answer` is the parsed stdout (NO_ANSWER when empty or when the call failed); `error`
    says why the call failed (then the plugin counts as failed: a deny on a permission
    hook); `warnings` note things that did not stop the answer (invalid UTF-8).
    """

    plugin: str
    hook: str
    answer: object
    error: str | None
    duration: float
    exit_code: int | None
    warnings: tuple[str, ...] = ()

    @property
    def source(self) -> str:
        return f"plugin:{self.plugin}"

    @property
    def failed(self) -> bool:
        return self.error is not None


@dataclass(frozen=True)
class ToolCallResult:
    """One tool call: `output` is the plugin's stdout as text; `error` is set on failure."""

    plugin: str
    tool: str
    output: str
    error: str | None
    duration: float
    exit_code: int | None
    warnings: tuple[str, ...] = ()


def call_hook(plugin: Runnable, hook: str, payload: Mapping | bytes,
              timeout: float = HOOK_TIMEOUT, *, env: Mapping[str, str] | None = None,
              max_output: int = MAX_OUTPUT) -> HookCallResult:
    """Run `plugin` for `hook` with `payload` (a dict, or JSON bytes already encoded).

    The payload goes on stdin as compact JSON and in CHIBI_HOOK_DATA (when small enough
    for the environment). Trimmed stdout: empty -> NO_ANSWER, JSON -> that value, other
    text -> a string answer. A non-zero exit, a timeout or an overflow -> NO_ANSWER and
    `error`. `env` adds variables (e.g. HARNESS_HOME) to the inherited environment.
    """
    data = payload if isinstance(payload, bytes) else dumps(payload)
    variables = {"CHIBI_HOOK": hook, "HARNESS_HOOK": hook}
    if len(data) <= _ENV_VALUE_MAX:
        variables["CHIBI_HOOK_DATA"] = data.decode("utf-8", "replace")
    run = run_plugin(plugin.path, (), data, timeout,
                     env=_environment(env, drop=_TOOL_VARS + _HOOK_VARS, add=variables),
                     max_output=max_output)
    failure = run.error or _exit_problem(run.exit_code)
    if failure is not None:
        return HookCallResult(plugin.name, hook, NO_ANSWER, failure, run.duration,
                              run.exit_code)
    text, warnings = _decode(run.stdout)
    return HookCallResult(plugin.name, hook, _answer_of(text.strip()), None, run.duration,
                          run.exit_code, warnings)


def call_tool(plugin: Runnable, tool_name: str, args: Mapping | bytes,
              timeout: float = TOOL_TIMEOUT, *, env: Mapping[str, str] | None = None,
              max_output: int = MAX_OUTPUT) -> ToolCallResult:
    """Run `plugin` as the tool `tool_name`: CHIBI_TOOL_NAME set, `args` as JSON on stdin,
    stdout (as text, untrimmed) is the result. A non-zero exit sets `error` and keeps the
    output."""
    data = args if isinstance(args, bytes) else dumps(args)
    variables = {"CHIBI_TOOL_NAME": tool_name, "HARNESS_TOOL_NAME": tool_name}
    run = run_plugin(plugin.path, (), data, timeout,
                     env=_environment(env, drop=_HOOK_VARS, add=variables),
                     max_output=max_output)
    text, warnings = _decode(run.stdout)
    return ToolCallResult(plugin.name, tool_name, text, run.error or _exit_problem(run.exit_code),
                          run.duration, run.exit_code, warnings)


def _environment(extra: Mapping[str, str] | None, drop: Sequence[str],
                 add: Mapping[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    for name in drop:  # an inherited CHIBI_HOOK would make a tool call look like a hook
        env.pop(name, None)
    if extra:
        env.update(extra)
    env.update(add)
    return env


def _exit_problem(code: int | None) -> str | None:
    if code is None or code == 0:
        return None
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _decode(raw: bytes) -> tuple[str, tuple[str, ...]]:
    try:
        return raw.decode("utf-8"), ()
    except UnicodeDecodeError:
        return (raw.decode("utf-8", "replace"),
                ("output is not valid UTF-8; invalid bytes were replaced with U+FFFD",))


def _answer_of(text: str) -> object:
    if not text:
        return NO_ANSWER
    try:
        return loads(text)
    except ValueError:
        return text


# --- the subprocess ------------------------------------------------------------------------


def run_plugin(path: str | os.PathLike, args: Sequence[str], stdin_data: bytes,
               timeout: float, *, env: Mapping[str, str] | None = None,
               max_output: int = MAX_OUTPUT) -> ProcessRun:
    """Run `path args...` in its own session with `stdin_data` on stdin.

    Returns its stdout (at most `max_output` bytes) and exit code. On a timeout or an
    overflow the whole process group is killed; the plugin is always reaped. A plugin that
    exits without reading stdin is fine; descendants that keep stdout open after the
    plugin exited are left alone (stdout is closed on them).
    """
    start = time.monotonic()
    try:
        proc = _spawn([os.fspath(path), *args], env)
    except OSError as exc:
        return ProcessRun(b"", None, time.monotonic() - start,
                          f"cannot run {os.fspath(path)}: {exc.strerror or exc}")
    deadline = start + timeout
    stdout, ending, settled = b"", "timeout", False
    try:
        stdout, ending = _Exchange(proc, stdin_data, max_output).run(deadline)
        if ending == "eof":
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                ending = "timeout"
        settled = True
    finally:
        if not settled or ending in ("timeout", "overflow"):
            _kill_group(proc)  # also when an exception (KeyboardInterrupt) cut us short
        proc.wait()  # reap: never leave a zombie
        for pipe in (proc.stdin, proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
    duration = time.monotonic() - start
    if ending == "timeout":
        return ProcessRun(b"", None, duration,
                          f"timed out after {timeout:g} s; its process group was killed")
    if ending == "overflow":
        return ProcessRun(b"", None, duration, f"output exceeded {max_output} bytes; its "
                                               "process group was killed")
    return ProcessRun(stdout, proc.returncode, duration)


def _spawn(argv: list[str], env: Mapping[str, str] | None) -> subprocess.Popen:
    for attempt in range(5):
        try:
            return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=None, env=env, start_new_session=True)
        except OSError as exc:
            # ETXTBSY: the file was just written and another fork still holds it open
            if exc.errno != errno.ETXTBSY or attempt == 4:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux /proc; empty elsewhere): a child that called
    setsid() has left the plugin's process group but is still its descendant."""
    found: list[int] = []
    stack = [pid]
    while stack:
        parent = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as f:
                    children = [int(c) for c in f.read().split()]
            except (OSError, ValueError):
                continue
            found.extend(children)
            stack.extend(children)
    return found


def _kill_group(proc: subprocess.Popen) -> None:
    for pid in _descendants(proc.pid):  # first, while they are still findable from the plugin
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the plugin leads its own group (new session)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except ProcessLookupError:
            pass


def _leader_exited(proc: subprocess.Popen) -> bool:
    """True once the plugin itself has exited; it is not reaped (its pid keeps its group
    id reserved until proc.wait())."""
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


class _Exchange:
    """Writes stdin and reads stdout of one plugin until EOF, exit, deadline or overflow."""

    def __init__(self, proc: subprocess.Popen, stdin_data: bytes, max_output: int) -> None:
        self.proc = proc
        self.data = memoryview(stdin_data)
        self.written = 0
        self.max_output = max_output
        self.chunks: list[bytes] = []
        self.size = 0

    def run(self, deadline: float) -> tuple[bytes, str]:
        """(stdout, ending) with ending 'eof', 'exited', 'timeout' or 'overflow'."""
        with selectors.DefaultSelector() as selector:
            out_fd = self.proc.stdout.fileno()
            os.set_blocking(out_fd, False)
            selector.register(out_fd, selectors.EVENT_READ)
            if len(self.data):
                os.set_blocking(self.proc.stdin.fileno(), False)
                selector.register(self.proc.stdin.fileno(), selectors.EVENT_WRITE)
            else:
                self.proc.stdin.close()
            ending = self._loop(selector, out_fd, deadline)
        if ending in ("timeout", "overflow"):
            return b"", ending
        return b"".join(self.chunks), ending

    def _loop(self, selector: selectors.BaseSelector, out_fd: int, deadline: float) -> str:
        exited_at = None
        while True:
            now = time.monotonic()
            if now >= deadline:
                return "timeout"
            events = selector.select(min(deadline - now, _POLL))
            for key, _ in events:
                if key.fd != out_fd:
                    self._write(selector, key.fd)
                    continue
                try:
                    chunk = os.read(out_fd, _CHUNK)
                except BlockingIOError:
                    continue
                if not chunk:
                    return "eof"
                self.chunks.append(chunk)
                self.size += len(chunk)
                if self.size > self.max_output:
                    return "overflow"
            if not events and _leader_exited(self.proc):
                exited_at = now if exited_at is None else exited_at
                if now - exited_at >= _EXIT_GRACE:
                    return "exited"

    def _write(self, selector: selectors.BaseSelector, fd: int) -> None:
        try:
            self.written += os.write(fd, self.data[self.written:self.written + _CHUNK])
        except BlockingIOError:
            return
        except OSError:  # EPIPE: the plugin closed stdin or exited without reading it
            self.written = len(self.data)
        if self.written >= len(self.data):
            selector.unregister(fd)
            self.proc.stdin.close()
