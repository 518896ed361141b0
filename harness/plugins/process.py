"""Run plugin executables (and declared command handlers) as subprocesses, safely.

One function, `run_processes`, owns the subprocesses: it starts each one with posix_spawn
in a session of its own, feeds stdin and reads stdout together (so neither side can
dead-lock on a full pipe), caps what it keeps of stdout, and on a timeout or an overflow
kills the process's whole group; every process is reaped. Several can run at once, all
watched by one selector on the calling thread (a pidfd per process says when it exits).
Stderr goes straight to ours unless a `ProcessSpec` asks for it to be captured (the last
`MAX_STDERR` bytes are kept: a traceback's last line says what went wrong), and then it may still be copied to a descriptor of ours as
it comes (plugins: their diagnostics and progress reach the terminal, as plugin authors
expect, and a failure can still say why). `run_plugins` runs many executables with one
argument list and one stdin.
"""

from __future__ import annotations

import errno
import fcntl
import os
import selectors
import signal
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["MAX_OUTPUT", "MAX_STDERR", "ProcessRun", "ProcessSpec", "run_plugin",
           "run_plugins", "run_processes"]

#: bytes of stdout kept; beyond this the plugin is killed and the call fails
MAX_OUTPUT = 16 * 1024 * 1024
#: bytes of a captured stderr kept (the rest is read and dropped)
MAX_STDERR = 64 * 1024

_CHUNK = 64 * 1024
_READS_PER_WAKE = 16  # chunks read per wake-up at most, so one flood cannot starve the rest
_POLL = 0.05  # without a pidfd: how often a silent plugin is checked for having exited
_EOF_POLL = 0.001  # ... and once it closed stdout (it is about to exit)
_EXIT_GRACE = 0.1  # after the plugin exits, how long descendants may keep stdout open
# poll(2) is cheaper than epoll for the few descriptors of a dispatch (no epoll_create/ctl)
_Selector = getattr(selectors, "PollSelector", selectors.SelectSelector)


@dataclass(frozen=True)
class ProcessRun:
    """What one run of a plugin produced. `error` is set when it failed to start, timed
    out or overflowed (then `stdout` is empty); a non-zero exit is only `exit_code`.
    `stderr` is what it wrote there, when that was captured (kept even on a timeout)."""

    stdout: bytes
    exit_code: int | None
    duration: float
    error: str | None = None
    stderr: bytes = b""


@dataclass(frozen=True)
class ProcessSpec:
    """One process to run: `argv` (argv[0] a path), `stdin` bytes, `timeout` seconds from
    its start, `env` (None: ours), `cwd` (None: ours), `capture_stderr` (else it goes to
    ours), `stderr_to` (a captured stderr is also copied to this descriptor as it comes)
    and `max_output` bytes of stdout."""

    argv: Sequence[str]
    stdin: bytes
    timeout: float
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    capture_stderr: bool = False
    max_output: int = MAX_OUTPUT
    stderr_to: int | None = None


def run_plugin(path: str | os.PathLike, args: Sequence[str], stdin_data: bytes,
               timeout: float, *, env: Mapping[str, str] | None = None,
               max_output: int = MAX_OUTPUT, capture_stderr: bool = False,
               stderr_to: int | None = None) -> ProcessRun:
    """Run `path args...` in its own session with `stdin_data` on stdin.

    Returns its stdout (at most `max_output` bytes) and exit code, and with
    `capture_stderr` the start of its stderr (also copied to `stderr_to` as it comes, if
    given). On a timeout or an overflow the whole process group is killed; the plugin is
    always reaped. A plugin that exits without reading stdin is fine; descendants that keep
    stdout open after the plugin exited are left alone (stdout is closed on them).
    """
    return run_plugins([path], args, stdin_data, timeout, env=env, max_output=max_output,
                       capture_stderr=capture_stderr, stderr_to=stderr_to)[0]


def run_plugins(paths: Sequence[str | os.PathLike], args: Sequence[str], stdin_data: bytes,
                timeout: float, *, env: Mapping[str, str] | None = None,
                max_output: int = MAX_OUTPUT, at_once: int = 1, capture_stderr: bool = False,
                stderr_to: int | None = None) -> list[ProcessRun]:
    """`run_plugin` for each of `paths`, at most `at_once` running at a time, all watched by
    one selector on this thread (no threads). Each gets `timeout` from its own start.
    Results in the order of `paths`. If interrupted, every running plugin's group is killed
    and every started plugin is reaped."""
    return run_processes([ProcessSpec([os.fspath(path), *args], stdin_data, timeout, env,
                                      capture_stderr=capture_stderr, max_output=max_output,
                                      stderr_to=stderr_to) for path in paths], at_once)


def run_processes(specs: Sequence[ProcessSpec], at_once: int = 1) -> list[ProcessRun]:
    """Run each of `specs`, at most `at_once` at a time, all watched by one selector on
    this thread. Results in the order of `specs`. If interrupted, every running process's
    group is killed and every started one is reaped."""
    inherited = _inheritable_fds()  # the host's: the same for every process of this call
    at_once = max(1, at_once)
    waiting = deque(enumerate(specs))
    running: dict[int, _Exchange] = {}
    runs: list[ProcessRun] = [_NOT_RUN] * len(specs)
    with _Selector() as selector:
        try:
            while waiting or running:
                while waiting and len(running) < at_once:
                    index, spec = waiting.popleft()
                    exchange = _Exchange.start(spec, inherited, selector)
                    if isinstance(exchange, ProcessRun):
                        runs[index] = exchange
                    else:
                        running[index] = exchange
                wait = _finish_done(running, runs)
                if wait is not None:
                    for key, _ in selector.select(wait):
                        key.data.on_ready(key.fd)
        finally:
            for exchange in running.values():  # only left here when interrupted
                exchange.end("interrupted")
    return runs


_NOT_RUN = ProcessRun(b"", None, 0.0, "not run")


def _finish_done(running: dict[int, _Exchange], runs: list[ProcessRun]) -> float | None:
    """End (and reap) the plugins that are done; how long to wait for the others, or None
    when one ended (so its place can go to the next plugin first) or none is running."""
    now = time.monotonic()
    wait: float | None = None
    ended = False
    for index, exchange in list(running.items()):
        ending, until = exchange.state(now)
        if ending is None:
            wait = until if wait is None else min(wait, until)
        else:
            runs[index] = exchange.end(ending)
            del running[index]
            ended = True
    return None if ended else wait


class _Exchange:
    """One running plugin: writes its stdin and reads its stdout, as the selector reports
    them ready, until it has exited and stdout is at EOF, or its deadline passes, or stdout
    overflows. Only the plugin's own exit is waited for: a descendant still holding stdout
    gets _EXIT_GRACE seconds, then is left alone."""

    def __init__(self, child: _Child, stdin_data: bytes, max_output: int, start: float,
                 timeout: float, selector: selectors.BaseSelector,
                 stderr_to: int | None = None) -> None:
        self.child = child
        self.stderr_to = stderr_to
        self.data = memoryview(stdin_data)
        self.written = 0
        self.max_output = max_output
        self.start = start
        self.timeout = timeout
        self.deadline = start + timeout
        self.selector = selector
        self.chunks: list[bytes] = []
        self.size = 0
        self.errors: deque[bytes] = deque()  # captured stderr: its last MAX_STDERR bytes
        self.error_size = 0  # bytes in `errors`
        self.reading = True
        self.exited_at: float | None = None
        self.watched: set[int] = set()
        os.set_blocking(child.stdout, False)
        os.set_blocking(child.stdin, False)
        self._watch(child.stdout, selectors.EVENT_READ)
        if child.stderr is not None:
            os.set_blocking(child.stderr, False)
            self._watch(child.stderr, selectors.EVENT_READ)
        self._write()  # a small payload fits the pipe buffer: no need to wait for the plugin
        if child.stdin is not None:
            self._watch(child.stdin, selectors.EVENT_WRITE)
        if child.exit_fd is not None:
            self._watch(child.exit_fd, selectors.EVENT_READ)

    @classmethod
    def start(cls, spec: ProcessSpec, inherited: list[int],
              selector: selectors.BaseSelector) -> _Exchange | ProcessRun:
        """Start `spec`; the exchange, or a failed ProcessRun if it cannot be started."""
        start = time.monotonic()
        argv = list(spec.argv)
        if spec.cwd is not None:
            # posix_spawn cannot change directory (before Python 3.13): a shell does, then
            # becomes the program (same pid, same group); 127 and its message if it cannot
            argv = ["/bin/sh", "-c", 'cd -- "$1" || exit 127; shift; exec "$@"', "sh",
                    spec.cwd, *argv]
        try:
            child = _Child.start(argv, os.environ if spec.env is None else spec.env,
                                 inherited, spec.capture_stderr)
        except OSError as exc:
            return ProcessRun(b"", None, time.monotonic() - start,
                              f"cannot run {spec.argv[0]}: {exc.strerror or exc}")
        try:
            return cls(child, spec.stdin, spec.max_output, start, spec.timeout, selector,
                       spec.stderr_to)
        except BaseException:
            child.kill_group()
            child.reap()
            raise

    def _watch(self, fd: int, events: int) -> None:
        self.selector.register(fd, events, self)
        self.watched.add(fd)

    def _unwatch(self, fd: int) -> None:
        self.selector.unregister(fd)
        self.watched.discard(fd)

    def on_ready(self, fd: int) -> None:
        """Handle one descriptor the selector found ready."""
        if fd == self.child.stdout:
            self._read()
        elif fd == self.child.stderr:
            self._read_stderr()
        elif fd == self.child.exit_fd:
            self._unwatch(fd)
            self.exited_at = time.monotonic()
        else:
            self._write()

    def state(self, now: float) -> tuple[str | None, float]:
        """(ending, 0) once done, ending 'eof', 'exited', 'overflow' or 'timeout'; else
        (None, seconds until it needs looking at again)."""
        child = self.child
        if self.size > self.max_output:
            return "overflow", 0.0
        if self.exited_at is None and child.exit_fd is None and child.exited():
            self.exited_at = now
        if self.exited_at is not None:
            if not self.reading:
                return "eof", 0.0
            if now - self.exited_at >= _EXIT_GRACE:
                return "exited", 0.0
        if now >= self.deadline:
            return "timeout", 0.0
        wait = self.deadline - now
        if self.exited_at is not None:
            wait = min(wait, self.exited_at + _EXIT_GRACE - now)
        elif child.exit_fd is None:  # no pidfd: look at the plugin now and then
            wait = min(wait, _POLL if self.reading else _EOF_POLL)
        return None, wait

    def end(self, ending: str) -> ProcessRun:
        """Stop watching, kill the group unless the plugin ended by itself, reap it."""
        for fd in list(self.watched):
            self._unwatch(fd)
        if ending not in ("eof", "exited"):
            self.child.kill_group()
        if self.child.stderr is not None and ending in ("eof", "exited"):
            self._read_stderr()  # what is left in the pipe once the process is gone
        exit_code = self.child.reap()
        duration = time.monotonic() - self.start
        stderr = b"".join(self.errors)[-MAX_STDERR:]
        if ending == "timeout":
            return ProcessRun(b"", None, duration,
                              f"timed out after {self.timeout:g} s; its process group was "
                              "killed", stderr)
        if ending == "overflow":
            return ProcessRun(b"", None, duration, f"output exceeded {self.max_output} bytes; "
                                                   "its process group was killed", stderr)
        return ProcessRun(b"".join(self.chunks), exit_code, duration, stderr=stderr)

    def _read(self) -> None:
        fd = self.child.stdout
        chunks, self.reading = self._read_ready(fd)
        self.chunks += chunks
        self.size += sum(map(len, chunks))
        if self.size > self.max_output:
            if fd in self.watched:
                self._unwatch(fd)
            self.chunks = []  # the call fails: keep nothing

    def _read_stderr(self) -> None:
        chunks, _ = self._read_ready(self.child.stderr)
        for chunk in chunks:
            if self.stderr_to is not None:
                _copy_to(self.stderr_to, chunk)
            self.errors.append(chunk[-MAX_STDERR:])
            self.error_size += len(self.errors[-1])
            while self.error_size - len(self.errors[0]) >= MAX_STDERR:
                self.error_size -= len(self.errors.popleft())

    def _read_ready(self, fd: int) -> tuple[list[bytes], bool]:
        """The chunks ``fd`` has ready (a few at most, so one flood cannot starve the
        rest; the EOF often comes with the answer: no second wait) and whether it is still
        open (at EOF it is no longer watched)."""
        chunks = []
        for _ in range(_READS_PER_WAKE):
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                break
            if not chunk:
                if fd in self.watched:
                    self._unwatch(fd)
                return chunks, False
            chunks.append(chunk)
        return chunks, True

    def _write(self) -> None:
        fd = self.child.stdin
        try:
            if self.written < len(self.data):
                self.written += os.write(fd, self.data[self.written:self.written + _CHUNK])
        except BlockingIOError:
            return
        except OSError:  # EPIPE: the plugin closed stdin or exited without reading it
            self.written = len(self.data)
        if self.written >= len(self.data):
            if fd in self.watched:
                self._unwatch(fd)
            self.child.close_stdin()


def _copy_to(fd: int, data: bytes) -> None:
    """Write all of `data` to `fd`; a closed or broken destination only loses the copy."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass


#: signals Python ignores that a spawned program must get back at their defaults (as
#: subprocess's restore_signals does): a plugin writing to a closed pipe should die of it
_DEFAULT_SIGNALS = tuple(getattr(signal, name) for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ")
                         if hasattr(signal, name))


class _Child:
    """A started plugin: its pid (the leader of a new session and process group), our ends
    of its stdin and stdout pipes (and of stderr when captured, else None), and `exit_fd`,
    a pidfd that becomes readable when it exits (None where the system has no pidfd: then
    its exit is polled for)."""

    def __init__(self, pid: int, stdin: int, stdout: int, stderr: int | None,
                 exit_fd: int | None) -> None:
        self.pid = pid
        self.stdin: int | None = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.exit_fd = exit_fd

    @classmethod
    def start(cls, argv: list[str], env: Mapping[str, str], inherited: list[int],
              capture_stderr: bool = False) -> _Child:
        """posix_spawn `argv` with pipes on stdin and stdout, stderr shared with ours (or a
        pipe when `capture_stderr`) and the `inherited` descriptors closed (what
        subprocess's close_fds does)."""
        child_in, stdin = _pipe()
        stdout, child_out = _pipe()
        ours = [stdin, stdout]
        theirs = [child_in, child_out]
        actions = [(os.POSIX_SPAWN_DUP2, child_in, 0), (os.POSIX_SPAWN_DUP2, child_out, 1)]
        stderr = None
        if capture_stderr:
            stderr, child_err = _pipe()
            ours.append(stderr)
            theirs.append(child_err)
            actions.append((os.POSIX_SPAWN_DUP2, child_err, 2))
        actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in inherited]
        try:
            pid = _spawn(argv, env, actions)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        try:
            exit_fd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # not Linux >= 5.3: its exit is polled for
            exit_fd = None
        return cls(pid, stdin, stdout, stderr, exit_fd)

    def exited(self) -> bool:
        """True once the plugin itself has exited; it is not reaped (its pid keeps its group
        id reserved until reap())."""
        try:
            info = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return True
        return info is not None

    def close_stdin(self) -> None:
        if self.stdin is not None:
            os.close(self.stdin)
            self.stdin = None

    def kill_group(self) -> None:
        """SIGKILL the plugin's process group and every descendant that left it."""
        for pid in _descendants(self.pid):  # first, while they are findable from the plugin
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.killpg(self.pid, signal.SIGKILL)  # the plugin leads its own group
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def reap(self) -> int:
        """Close our descriptors and wait for the plugin; its exit code (-N: killed by
        signal N)."""
        self.close_stdin()
        os.close(self.stdout)
        if self.stderr is not None:
            os.close(self.stderr)
        if self.exit_fd is not None:
            os.close(self.exit_fd)
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def _pipe() -> tuple[int, int]:
    """A close-on-exec pipe with both ends above 0-2 (a host started with stdin or stdout
    closed would get one there, and a DUP2 onto itself would leave it close-on-exec)."""
    ends = list(os.pipe())
    low = [fd for fd in ends if fd <= 2]
    ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3) if fd <= 2 else fd for fd in ends]
    for fd in low:
        os.close(fd)
    return ends[0], ends[1]


def _inheritable_fds() -> list[int]:
    """Our descriptors above 2 that a spawned program would inherit (Python opens its own
    close-on-exec; these come from the host or from whoever started it)."""
    try:
        names = os.listdir("/dev/fd")
    except OSError:
        return []
    found = []
    for name in names:
        fd = int(name)
        try:
            if fd > 2 and os.get_inheritable(fd):
                found.append(fd)
        except OSError:  # the descriptor listdir itself used, closed by now
            continue
    return found


def _spawn(argv: list[str], env: Mapping[str, str], actions: list[tuple]) -> int:
    for attempt in range(5):
        try:
            return os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True,
                                  setsigdef=_DEFAULT_SIGNALS)
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
