"""Replay speed and the cost of recording, side by side.

    python bench/replay.py [--events N] [--rounds R] [--dispatches D]

1. **Replay**: a Claude Code transcript of N events (default 10,000: turns of one prompt,
   four Bash calls with their results and a stop) made up here in the format of the real
   one in tests/fixtures/transcripts/, replayed through a home with three Scheme guards
   (a ``pre_tool`` block, a ``pre_tool`` rewrite, a ``pre_message`` check), in process.
   Goal: 10,000 events in at most 10 s. It prints the seconds, events per second, and the
   decisions (checked: every ``rm -rf`` denied, every bare ``ls`` rewritten).
2. **Recording**: the same home without ``[record]``, with it (``on``: ``hooks = "all"``,
   the default) and with ``hooks = "answered"`` (``answered``), one Claude Code
   ``PreToolUse`` event answered in process (``harness.hosts.claude_code.answer_event``: two
   dispatches, as the live hook makes them), interleaved in R rounds of D events so that
   machine noise hits both alike. Goal: recording adds at most 5%. It prints the median
   microseconds per event of each and their ratio, back to back (throughput: the writer
   thread's secret scan and write compete for the interpreter) and with the events 1 ms
   apart (the latency a host waits for: the writer works between events); and the same
   for a bare ``fire`` of ``pre_tool`` (no host scope). Then the same event through
   ``harness serve`` (JSON-RPC on stdio) and through a ``harness claude-hook`` process.
3. **Recording off**: a home without ``[record]`` against the same dispatch before the
   recorder existed cannot be run side by side in one tree; what recording off adds is one
   attribute read and one comparison per dispatch (``Dispatcher.fire``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bridge import dumps
from harness.hosts.claude_code import answer_event
from harness.replay import replay
from harness.runtime import Runtime

GUARDS = {
    "no_rm_rf.scm": """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (p)
    (let ((c (assoc "command" (cdr (assoc "arguments" p)))))
      (if (and c (string? (cdr c)) (string-contains (cdr c) "rm -rf"))
          (list (cons "block" #t) (cons "message" "rm -rf is not allowed"))
          '()))))
""",
    "long_ls.scm": """(import (harness hooks))
(register-hook 'pre_tool
  (lambda (p)
    (let ((c (assoc "command" (cdr (assoc "arguments" p)))))
      (if (and c (equal? (cdr c) "ls"))
          (list (cons "arguments" (list (cons "command" "ls -la"))))
          '()))))
""",
    "prompt_check.scm": """(import (harness hooks))
(register-hook 'pre_message
  (lambda (p)
    (if (string-contains (cdr (assoc "prompt" p)) "password") '() '())))
""",
}
COMMANDS = ("ls", "rm -rf build", "git status", "echo done > out.txt")


def make_home(root: Path, record: bool, hooks: str = "all") -> Path:
    """A home of the guards; ``record``: with an audit log listing ``hooks`` (all: every
    hook with its ms; answered: the hooks that answered or failed)."""
    home = root / (f"recorded-{hooks}" if record else "plain")
    (home / "tools").mkdir(parents=True)
    for name, text in GUARDS.items():
        (home / "tools" / name).write_text(text)
    # all read a harness.toml, so that only the recording differs
    (home / "harness.toml").write_text(
        f'[record]\npath = "audit.jsonl"\nmax_bytes = 50000000\nhooks = "{hooks}"\n'
        if record else "[record]\npath = false\n")
    return home


def make_transcript(path: Path, events: int) -> int:
    """Write turns until ``events`` events; return how many the transcript holds."""
    session = "bench-session"
    lines, count, call = [], 1, 0   # SessionStart
    base = {"sessionId": session, "cwd": "/work/app", "permissionMode": "default"}
    while count < events:
        lines.append({**base, "type": "user",
                      "message": {"role": "user", "content": f"step {count}"}})
        count += 1
        for command in COMMANDS:
            call += 1
            lines.append({**base, "type": "assistant", "message": {
                "role": "assistant", "model": "m", "stop_reason": "tool_use",
                "content": [{"type": "tool_use", "id": f"t{call}", "name": "Bash",
                             "input": {"command": command}}]}})
            lines.append({**base, "type": "user", "toolUseResult": {"stdout": "ok"},
                          "message": {"role": "user", "content": [
                              {"type": "tool_result", "tool_use_id": f"t{call}",
                               "content": "ok", "is_error": False}]}})
            count += 2
        lines.append({**base, "type": "assistant", "message": {
            "role": "assistant", "model": "m", "stop_reason": "end_turn",
            "content": [{"type": "text", "text": "done"}]}})
        count += 1
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return count


def bench_replay(root: Path, events: int) -> None:
    transcript = root / "session.jsonl"
    made = make_transcript(transcript, events)
    with Runtime(make_home(root / "replay", record=False)) as home:
        start = time.perf_counter()
        report = replay([str(transcript)], home)
        seconds = time.perf_counter() - start
    summary = report["summary"]
    calls = [e for e in report["events"] if e["event"] == "PreToolUse"]
    assert summary["events"] == made and not report["problems"]
    assert all(e["decision"] == "deny" for e in calls if e["input"]["command"] == "rm -rf build")
    assert all(e["decision"] == "rewrite" for e in calls if e["input"]["command"] == "ls")
    print(f"replay: {made} events in {seconds:.2f} s ({made / seconds:,.0f} events/s), "
          f"decisions {summary['decisions']}; goal <= 10 s for 10,000: "
          f"{'PASS' if seconds * 10_000 / made <= 10 else 'FAIL'}")


def bench_recording(root: Path, rounds: int, dispatches: int) -> None:
    event = dumps({"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/work/app",
                   "permission_mode": "default", "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": "git status"},
                   "tool_use_id": "t1"})
    payload = {"tool_name": "Bash", "arguments": {"command": "git status"}}
    runtimes = {"off": Runtime(make_home(root / "rec", record=False)),
                "on": Runtime(make_home(root / "rec", record=True)),
                "answered": Runtime(make_home(root / "rec", record=True, hooks="answered"))}
    cases = {"claude-code event (answer_event)": lambda rt: answer_event(rt, event),
             "bare fire pre_tool": lambda rt: rt.fire("pre_tool", payload)}
    for name, run in cases.items():
        for runtime in runtimes.values():  # warm up: compile, caches
            for _ in range(200):
                run(runtime)
        # back to back: throughput, the writer thread's work included
        times: dict[str, list[float]] = {label: [] for label in runtimes}
        for _ in range(rounds):
            for label, runtime in runtimes.items():
                start = time.perf_counter()
                for _ in range(dispatches):
                    run(runtime)
                if runtime.recorder is not None:
                    runtime.recorder.flush()
                times[label].append((time.perf_counter() - start) / dispatches * 1e6)
        _report(f"in process, back to back, {name}", times, "us")
        # spaced as a host's events are (a tool runs between two): the latency it waits
        times = {label: [] for label in runtimes}
        for _ in range(rounds):
            for label, runtime in runtimes.items():
                for _ in range(dispatches // 5):
                    start = time.perf_counter()
                    run(runtime)
                    times[label].append((time.perf_counter() - start) * 1e6)
                    time.sleep(0.001)
        _report(f"in process, events 1 ms apart (latency), {name}", times, "us")
    for label, runtime in runtimes.items():
        if runtime.recorder is not None:
            runtime.recorder.flush()
            lines = Path(runtime.recorder.path).read_bytes().count(b"\n")
            print(f"  ({lines} lines written to the audit log of {label})")
        runtime.close()


def _serve(home: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "harness.cli", "serve", "--home", str(home)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=_child_env(), bufsize=0)


def _child_env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed harness runs
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    return env


def _ask(server: subprocess.Popen, request: bytes) -> dict:
    server.stdin.write(request)
    while True:
        reply = json.loads(server.stdout.readline())
        if "id" in reply:
            return reply


def bench_front_ends(root: Path, rounds: int, dispatches: int) -> None:
    """The same event through ``harness serve`` (JSON-RPC on stdio, method claude_hook: what
    ``harness claude-hook --socket`` uses) and through a ``harness claude-hook`` process."""
    event = {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": "/work/app",
             "permission_mode": "default", "hook_event_name": "PreToolUse",
             "tool_name": "Bash", "tool_input": {"command": "git status"}, "tool_use_id": "t1"}
    homes = {"off": make_home(root / "fe", record=False), "on": make_home(root / "fe", True),
             "answered": make_home(root / "fe", True, "answered")}
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "claude_hook",
                          "params": {"event": json.dumps(event)}}).encode() + b"\n"
    servers = {label: _serve(home) for label, home in homes.items()}
    try:
        for server in servers.values():
            for _ in range(200):
                assert _ask(server, request)["result"]["exit_code"] == 0
        times: dict[str, list[float]] = {label: [] for label in servers}
        for _ in range(rounds):
            for label, server in servers.items():
                start = time.perf_counter()
                for _ in range(dispatches):
                    _ask(server, request)
                times[label].append((time.perf_counter() - start) / dispatches * 1e6)
        _report("harness serve, one claude_hook request", times, "us")
    finally:
        for server in servers.values():
            server.stdin.close()
            server.wait(10)
    times = {label: [] for label in homes}
    argv = [sys.executable, "-m", "harness.cli", "claude-hook", "--home"]
    data = json.dumps(event).encode()
    for n in range(rounds + 1):
        for label, home in homes.items():
            start = time.perf_counter()
            subprocess.run([*argv, str(home)], input=data, env=_child_env(), check=True,
                           capture_output=True)
            if n:  # the first round warms the byte-code cache
                times[label].append((time.perf_counter() - start) * 1e3)
    _report("harness claude-hook, one process per event", times, "ms")


def _report(name: str, times: dict, unit: str) -> None:
    """Each recording against ``off``: ``on`` (hooks = "all"), ``answered``."""
    off = statistics.median(times["off"])
    parts = []
    for label in ("on", "answered"):
        value = statistics.median(times[label])
        ratio = value / off
        parts.append(f"{label} {value:.1f} {unit} ratio {ratio:.3f} "
                     f"({'PASS' if ratio <= 1.05 else 'FAIL'})")
    print(f"{name}: recording off {off:.1f} {unit}; {'; '.join(parts)} (goal <= 1.05)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--dispatches", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        bench_replay(Path(scratch), args.events)
        bench_recording(Path(scratch), args.rounds, args.dispatches)
        bench_front_ends(Path(scratch), args.rounds, args.dispatches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
