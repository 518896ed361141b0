"""Helpers for the security suite: homes with hostile files, small budgets, and a forked
child for the cases that may hang or eat memory (so a bug fails one test fast instead of
taking the test process down)."""

from __future__ import annotations

import gc
import json
import os
import re
import resource
import select
import signal
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness.runtime import Runtime

#: budgets small enough for a fast suite; seconds is the wall-clock limit per hook call
SECONDS = 0.5
STEPS = 300_000
MAX_OUTPUT = 10_000
#: how much CPU time past its budget a runaway hook may spend (unwinding, error formatting)
SLACK = 2.0
#: plugin hook, tool and --schema timeout
PLUGIN_TIMEOUT = 0.5

FAST_LIMITS = f"""
[tools.tiers]
"admin/" = "unsandboxed"

[limits.sandboxed]
steps = {STEPS}
seconds = {SECONDS}
max_output = {MAX_OUTPUT}

[limits.unsandboxed]
steps = {STEPS}
seconds = {SECONDS}
max_output = {MAX_OUTPUT}

[plugins]
hook_timeout = {PLUGIN_TIMEOUT}
tool_timeout = {PLUGIN_TIMEOUT}
schema_timeout = {PLUGIN_TIMEOUT}
"""

#: only the wall clock: for hooks that must be stopped by time, not by steps
TIME_ONLY_LIMITS = FAST_LIMITS.replace(f"steps = {STEPS}", "steps = false")


def write_home(root: Path, files: dict[str, str], toml: str = FAST_LIMITS,
               plugins: dict[str, str] | None = None) -> Path:
    """A home under ``root`` with ``tools/NAME`` files, ``plugins/NAME`` executables and
    ``harness.toml``."""
    home = root / "home"
    (home / "tools").mkdir(parents=True, exist_ok=True)
    (home / "plugins").mkdir(exist_ok=True)
    for name, text in files.items():
        path = home / "tools" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for name, text in (plugins or {}).items():
        path = home / "plugins" / name
        path.write_text(textwrap.dedent(text))
        path.chmod(0o755)
    (home / "harness.toml").write_text(toml)
    return home


def hook_on(point: str, body: str) -> str:
    """A tool file line registering ``(lambda (p) BODY)`` for ``point``."""
    return f"(register-hook '{point} (lambda (p) {body}))\n"


#: a second hook in the same file and a file of its own that must answer whatever happens
BYSTANDER = hook_on("post_message", '(list (cons "bystander" "same file"))')
OTHER_FILE = {"zz_other.scm": hook_on("post_message", '(list (cons "bystander" "other file"))')
              + hook_on("pre_message", '(list (cons "prompt" "next dispatch works"))')}
NEXT_OK = {"prompt": "next dispatch works"}


def answers_of(result: dict) -> list:
    return [a["answer"] for a in result["answers"]]


def messages_of(result: dict) -> list[str]:
    return [e["message"] for e in result["errors"]]


def fire_timed(rt: Runtime, hook: str = "post_message", payload: dict | None = None
               ) -> tuple[dict, float]:
    """Fire on a fresh thread (a fresh pooled capture and Budget, so nothing of an earlier
    test carries over) and return the result with the CPU time that thread spent on it.

    A hook's budget bounds that CPU time whatever the machine's load: a wall-clock limit
    only leaves a hook less CPU time on a busy machine, while the wall-clock time of the
    dispatch grows with the load (the suite runs beside other work). A dispatch that does
    not return at all fails here after 60 s."""
    box: dict = {}

    def fire() -> None:
        start = time.thread_time()
        box["result"] = rt.fire(hook, payload or {"prompt": "p", "response": "r",
                                                  "context_name": "c"})
        box["cpu"] = time.thread_time() - start

    thread = threading.Thread(target=fire, daemon=True)
    thread.start()
    thread.join(60)
    assert "result" in box, "the dispatch did not return within 60 s"
    return box["result"], box["cpu"]


# --- a forked child ----------------------------------------------------------------------

@dataclass
class Isolated:
    """What a forked child reported: ``status`` is "ok", "timeout" or "crashed"."""

    status: str
    value: dict = field(default_factory=dict)
    wall: float = 0.0

    def describe(self) -> str:
        return f"{self.status} after {self.wall:.1f} s: {json.dumps(self.value)[:600]}"


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def _child_setup(memory_mb: int) -> None:
    from harness.scheme import limits
    # what pytest built up in the parent is not the child's: without this a deep recursion
    # pays for collecting the whole inherited heap (more so after Hy was imported)
    gc.freeze()
    limit = _vm_size() + memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # the deadline monitor thread did not survive the fork: give the child its own
    limits._monitor = limits._Monitor()
    limits.flags.stop = False


def _fork(task, memory_mb: int) -> tuple[int, int]:
    """Start ``task`` in a forked child; return (pid, fd of the pipe it answers on)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        os.close(read_fd)
        try:
            _child_setup(memory_mb)
            data = json.dumps(task(), default=str).encode()
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            data = json.dumps({"child_exception": f"{type(exc).__name__}: {exc}"}).encode()
        with os.fdopen(write_fd, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def run_forked_batch(tasks: dict, timeout: float, memory_mb: int = 1500,
                     parallel: int = 2) -> dict[str, Isolated]:
    """Run each ``task()`` (returns a JSON-able dict) in a forked child, ``parallel`` at a
    time, each with an address-space cap of ``memory_mb`` over the current size; a child
    still running after ``timeout`` seconds is killed (status "timeout")."""
    waiting = list(tasks.items())
    running: dict[int, tuple[str, int, float, list]] = {}  # fd -> (name, pid, start, chunks)
    results: dict[str, Isolated] = {}

    def finish(fd: int, status: str) -> None:
        name, pid, start, chunks = running.pop(fd)
        os.close(fd)
        if status == "timeout":
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        wall = time.monotonic() - start
        if status == "ok" and chunks:
            results[name] = Isolated("ok", json.loads(b"".join(chunks)), wall)
        else:
            results[name] = Isolated("timeout" if status == "timeout" else "crashed", {}, wall)

    while waiting or running:
        while waiting and len(running) < parallel:
            name, task = waiting.pop(0)
            pid, fd = _fork(task, memory_mb)
            running[fd] = (name, pid, time.monotonic(), [])
        now = time.monotonic()
        wait = min(start + timeout - now for _, _, start, _ in running.values())
        ready, _, _ = select.select(list(running), [], [], max(wait, 0))
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if chunk:
                running[fd][3].append(chunk)
            else:
                finish(fd, "ok")
        now = time.monotonic()
        for fd in [fd for fd, (_, _, start, _) in running.items() if now >= start + timeout]:
            finish(fd, "timeout")
    return results


def run_forked(task, timeout: float, memory_mb: int = 1500) -> Isolated:
    """``run_forked_batch`` for one task."""
    return run_forked_batch({"task": task}, timeout, memory_mb)["task"]


def fire_task(home: Path, hook: str = "post_message", payload: dict | None = None):
    """A task for run_forked_batch: load ``home`` and fire ``hook``; the value holds that
    dispatch's answers, errors and CPU time, and the answers of a following pre_message
    dispatch (OTHER_FILE answers it: the next dispatch must work)."""
    def task() -> dict:
        rt = Runtime(home)
        first, cpu = fire_timed(rt, hook, payload)
        return {"answers": answers_of(first), "errors": messages_of(first),
                "cpu": cpu, "load_errors": dict(rt.load_errors),
                "next_answers": answers_of(rt.fire("pre_message", {"prompt": "p"}))}
    return task




def load_task(home: Path):
    """A task for run_forked_batch: the CPU time ``Runtime(home)`` took, its load errors, and
    the answers of a post_message dispatch (the files that did load must answer)."""
    def task() -> dict:
        start = time.thread_time()
        rt = Runtime(home)
        cpu = time.thread_time() - start
        return {"cpu": cpu, "load_errors": list(rt.load_errors.values()),
                "answers": answers_of(rt.fire("post_message", {}))}
    return task


#: limits for cases that must hit the memory limit before any other
def memory_limits(megabytes: int, tier: str = "sandboxed") -> str:
    steps = "false" if tier == "unsandboxed" else "100000000"
    return f"""
[tools.tiers]
"admin/" = "unsandboxed"

[limits.{tier}]
steps = {steps}
seconds = 10.0
memory_mb = {megabytes}
"""


def run_homes(tmp_path_factory, prefix: str, homes: dict[str, tuple[dict, str]], make_task,
              timeout: float = 15, memory_mb: int = 1000) -> dict[str, Isolated]:
    """``make_task(home)`` in a forked child for each ``name -> (files, toml)`` home (see
    run_forked_batch)."""
    tasks = {}
    for i, (name, (files, toml)) in enumerate(homes.items()):
        home = write_home(tmp_path_factory.mktemp(f"{prefix}{i}"), files, toml=toml)
        tasks[name] = make_task(home)
    return run_forked_batch(tasks, timeout, memory_mb=memory_mb, parallel=2)


def the_error_of(run: Isolated, file_stem: str, pattern: str) -> str:
    """The one error of a forked dispatch (``run.value``): the post_message hook of
    ``FILE_STEM.scm`` failed with ``pattern`` on its first line, and the file loaded. The
    place named is where the error happened: ``FILE_STEM`` may name a library file
    (``chibi/diff.sld``) the hook called into."""
    assert run.status == "ok", run.describe()
    assert run.value["load_errors"] == {}, run.value["load_errors"]
    (message,) = run.value["errors"]
    assert re.match(rf"post_message hook (failed: \S+{file_stem}\.s[cl][md]:\d+:\d+: |at )",
                    message), message[:600]
    assert re.search(pattern, message.splitlines()[0]), message[:600]
    return message
