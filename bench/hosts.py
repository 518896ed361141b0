"""What a host pays per hook event, by transport, side by side (issue 30).

    python bench/hosts.py [--n N] [--seconds S] [--skip-processes]

For a home of four Scheme guards (one per permission point: tests/fixtures/hosts):

1. **The daemon's own time per event**: ``harness.hosts.answer`` in process, per host, for a
   denied and an allowed shell command, beside one bare ``runtime.fire`` of
   ``pre_shell_exec`` (the floor). Goal: <= 1 ms.
2. **Over HTTP, one kept-alive connection** (``harness serve --http``): what Claude Code's
   ``http`` hook pays per event, minus its own side.
3. **Per-event processes** (a host that only runs commands): ``python -S -c pass`` (the
   floor of any Python client), curl posting the event, the lightest client
   in Python (``hook_client.py`` as a script, ``--http``) and in bash
   (``hook-client.sh``, its ``/dev/tcp``), ``harness hook --http`` and ``--socket``
   (the full command line through a daemon) and ``harness hook`` answering in its own
   process. Interleaved rounds; wall and CPU milliseconds (CPU of the child, steadier on a
   shared machine) and each one's ratio to the floor.
4. **Sustained load**: 4 client threads, each on a kept-alive connection, POST events for
   S seconds; events per second, and the daemon's resident memory before and after
   (growth means a leak). Goal: 1,000 events/s on 2 cores, no growth.
5. **In a real Claude Code** (``--claude``; the pinned one of tests/e2e, offline): a run of
   ``--calls`` Bash tool calls with no hook, with the ``http`` hook type posting to the
   daemon, with the bash client, and with ``harness hook`` in its own process; for each,
   the median time from one model request to the next and its excess over no hook
   (interleaved rounds), beside a command hook that runs ``true`` (what Claude Code itself spends on any
   command hook). Goals: http <= 5 ms, a command client through the daemon <= 20 ms.

Children run with byte-code caching on (a PYTHONDONTWRITEBYTECODE here is not passed on),
after a warm-up round.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "fixtures" / "hosts"))
from guard_home import make_guard_home

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["HARNESS_PYTHON"] = sys.executable
DENY = {"session_id": "bench", "transcript_path": "/tmp/bench.jsonl", "cwd": "/tmp",
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build", "description": "clean"},
        "tool_use_id": "toolu_1"}
ALLOW = {**DENY, "tool_input": {"command": "ls -la", "description": "list"}}
HOST_EVENTS = {
    "claude-code": (DENY, ALLOW),
    "codex": ({**DENY, "turn_id": "t"}, {**ALLOW, "turn_id": "t"}),
    "gemini": ({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "rm -rf build"}},
               {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls -la"}}),
    "cursor": ({"hook_event_name": "beforeShellExecution", "command": "rm -rf build"},
               {"hook_event_name": "beforeShellExecution", "command": "ls -la"}),
}


def per_event_us(action, n: int) -> float:
    """Median microseconds of `action()` over n calls, in batches of 50."""
    batches = []
    for _ in range(max(1, n // 50)):
        start = time.perf_counter()
        for _ in range(50):
            action()
        batches.append((time.perf_counter() - start) / 50 * 1e6)
    return statistics.median(batches)


def in_process(home: Path, n: int) -> None:
    from harness import hosts
    from harness.runtime import Runtime
    runtime = Runtime(home)
    try:
        bare = per_event_us(lambda: runtime.fire("pre_shell_exec", {
            "tool_name": "Bash", "command": "ls -la", "host": "claude-code"}), n)
        print("1. the daemon's own time per event (in process)")
        print(f"   {'case':<44} {'us/event':>9} {'x bare fire':>11}")
        print(f"   {'runtime.fire pre_shell_exec (bare)':<44} {bare:>9.0f} {1:>11.2f}")
        for host, (deny, allow) in HOST_EVENTS.items():
            for what, event in (("deny", deny), ("allow", allow)):
                data = json.dumps(event).encode()
                us = per_event_us(lambda d=data, h=host: hosts.answer(runtime, h, d), n)
                print(f"   {f'answer {host} ({what})':<44} {us:>9.0f} {us / bare:>11.2f}")
    finally:
        runtime.close()


class Daemon:
    def __init__(self, home: Path, *extra: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "harness.cli", "serve",
                                         "--home", str(home), *extra], env=ENV,
                                        stderr=subprocess.PIPE, text=True)
        self.home = home

    def wait_http(self) -> str:
        line = self.process.stderr.readline()
        port = re.search(r":(\d+) ", line)
        if port is None:
            raise SystemExit(f"the daemon did not start: {line}")
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        return f"http://127.0.0.1:{port.group(1)}"

    def rss_kb(self) -> int:
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", text).group(1))

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)


def over_http(url: str, token: str, n: int) -> None:
    port = int(url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bodies = [json.dumps(DENY), json.dumps(ALLOW)]

    def post(body: str) -> None:
        connection.request("POST", "/claude-code", body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"HTTP {response.status}")

    print("2. over HTTP, one kept-alive connection (harness serve --http)")
    for what, body in zip(("deny", "allow"), bodies, strict=True):
        us = per_event_us(lambda b=body: post(b), n)
        print(f"   POST /claude-code ({what}): {us / 1000:.2f} ms/event")
    connection.close()


def timed(argv: list[str], stdin: bytes, env: dict) -> tuple[float, float]:
    """(wall ms, child CPU ms) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, env=env, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if b"rm -rf" not in stdin or b"not allowed" in done.stdout + done.stderr or \
            argv[-1] == "pass":
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
        return wall, cpu
    raise SystemExit(f"unexpected answer from {argv}: {done.returncode} {done.stdout!r} "
                     f"{done.stderr!r}")


def processes(home: Path, url: str, socket_path: Path, token: str, n: int) -> None:
    client = str(HERE.parent / "harness" / "cli" / "hook_client.py")
    harness = [sys.executable, "-m", "harness.cli"]
    cases = {
        "python -S -c pass (floor)": [sys.executable, "-S", "-c", "pass"],
        "curl POST (no never-open logic)": [
            "curl", "-s", "-X", "POST", "-H", f"Authorization: Bearer {token}",
            "--data-binary", "@-", f"{url}/claude-code"],
        "hook-client.sh (bash /dev/tcp)": [
            "bash", str(HERE.parent / "harness" / "hosts" / "hook-client.sh"), "claude-code", url,
            str(home)],
        "hook_client.py --http (python -S -I)": [
            sys.executable, "-S", "-I", client, "claude-code", "--http", url, "--home",
            str(home)],
        "harness hook --http": [*harness, "hook", "claude-code", "--http", url, "--home",
                                str(home)],
        "harness hook --socket": [*harness, "hook", "claude-code", "--socket",
                                  str(socket_path), "--home", str(home)],
        "harness hook (own process)": [*harness, "hook", "claude-code", "--home", str(home)],
    }
    if shutil.which("curl") is None:
        del cases["curl POST (no never-open logic)"]
    stdin = json.dumps(DENY).encode()
    for argv in cases.values():
        timed(argv, stdin, ENV)
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(n):
        for name, argv in cases.items():
            w, c = timed(argv, stdin, ENV)
            wall[name].append(w)
            cpu[name].append(c)
    floor_wall = statistics.median(wall["python -S -c pass (floor)"])
    floor_cpu = statistics.median(cpu["python -S -c pass (floor)"])
    print(f"3. a process per event ({n} rounds, interleaved)")
    print(f"   {'case':<40} {'wall ms':>8} {'x floor':>8} {'cpu ms':>7} {'x floor':>8}")
    for name in cases:
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        print(f"   {name:<40} {w:>8.1f} {w / floor_wall:>8.2f} {c:>7.1f} "
              f"{c / max(floor_cpu, 0.1):>8.2f}")


def sustained(daemon: Daemon, url: str, token: str, seconds: float) -> None:
    port = int(url.rsplit(":", 1)[1])
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    bodies = [json.dumps(DENY), json.dumps(ALLOW)]
    counts = [0] * 4
    stop = threading.Event()

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while not stop.is_set():
            connection.request("POST", "/claude-code", bodies[counts[index] % 2], headers)
            response = connection.getresponse()
            response.read()
            counts[index] += 1
        connection.close()

    def run(duration: float) -> float:
        counts[:] = [0] * 4
        stop.clear()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(4)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        time.sleep(duration)
        stop.set()
        for thread in threads:
            thread.join()
        return sum(counts) / (time.perf_counter() - start)

    run(min(2.0, seconds))  # warm-up: first allocations, caches
    rss_before = daemon.rss_kb()
    rates = [run(seconds / 3) for _ in range(3)]
    rss_after = daemon.rss_kb()
    print(f"4. sustained load: 4 kept-alive clients, {seconds:g} s in three parts")
    print(f"   events/s per part: {', '.join(f'{r:.0f}' for r in rates)}")
    print(f"   daemon RSS: {rss_before / 1024:.1f} MB before, {rss_after / 1024:.1f} MB after "
          f"({(rss_after - rss_before) / 1024:+.1f} MB)")


def in_claude_code(home: Path, url: str, token: str, rounds: int, calls: int) -> None:
    sys.path.insert(0, str(HERE.parent))
    from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
    from tests.e2e.claude_code import ClaudeCode, command_hook, install_claude_code
    binary = install_claude_code()
    harness = f"{sys.executable} -m harness.cli"
    client = str(HERE.parent / "harness" / "hosts" / "hook-client.sh")
    configs = {
        "no hook": {},
        "http hook -> daemon": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
            "type": "http", "url": f"{url}/claude-code", "timeout": 30,
            "headers": {"Authorization": "Bearer $HARNESS_TOKEN"},
            "allowedEnvVars": ["HARNESS_TOKEN"]}]}]},
        "command: true (any command hook's cost)": command_hook("true"),
        "command: hook-client.sh -> daemon": command_hook(
            f"HARNESS_PYTHON={sys.executable} bash {client} claude-code {url} {home}"),
        "command: harness hook (own process)": command_hook(
            f"{harness} hook claude-code --home {home}"),
    }
    root = Path(tempfile.mkdtemp(prefix="harness-bench-claude-"))
    gaps: dict[str, list[float]] = {name: [] for name in configs}
    runs = 0
    try:
        for round_ in range(rounds + 1):  # round 0 warms caches and is not counted
            for name, hooks in configs.items():
                runs += 1
                claude = ClaudeCode(binary, root / str(runs))
                script = [bash("true") for _ in range(calls)] + [say("done")]
                with ScriptedAnthropicServer(script) as server:
                    server.requests = _TimedRequests()
                    run = claude.run("go", server, settings={"hooks": hooks},
                                     env={"HARNESS_TOKEN": token, **ENV_FOR_CLAUDE})
                    times = server.requests.conversation_times()
                if run.returncode != 0 or run.result.get("num_turns") != calls + 1:
                    raise SystemExit(f"{name}: the run failed ({run.returncode}): "
                                     f"{run.stderr[-500:]} {run.stdout[-500:]}")
                if round_:
                    gaps[name] += [(b - a) * 1000 for a, b in pairwise(times)]
    finally:
        shutil.rmtree(root, ignore_errors=True)
    base = statistics.median(gaps["no hook"])
    print(f"5. in a real Claude Code: {calls} Bash calls a run, {rounds} rounds; the time "
          "from one model request to the next (tool call + hook + Claude Code's own work)")
    print(f"   {'configuration':<40} {'ms/call':>8} {'extra ms':>9}")
    for name, samples in gaps.items():
        median = statistics.median(samples)
        print(f"   {name:<40} {median:>8.1f} {median - base:>9.1f}")


class _TimedRequests(list):
    """The model server's request list, with the time each conversation request came."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[tuple[float, bool]] = []

    def append(self, request) -> None:
        self.times.append((time.perf_counter(), bool(request.body.get("tools"))))
        super().append(request)

    def conversation_times(self) -> list[float]:
        return [at for at, conversation in self.times if conversation]


#: what the hook commands inside Claude Code need of our environment
ENV_FOR_CLAUDE = {k: v for k, v in ENV.items() if k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="rounds of the process cases")
    parser.add_argument("--seconds", type=float, default=9.0, help="sustained load time")
    parser.add_argument("--skip-processes", action="store_true")
    parser.add_argument("--claude", action="store_true",
                        help="also measure in a real Claude Code (installs it once)")
    parser.add_argument("--rounds", type=int, default=3, help="Claude Code rounds")
    parser.add_argument("--calls", type=int, default=10, help="Bash calls per Claude run")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="harness-bench-hosts-"))
    home = make_guard_home(root)
    daemons: list[Daemon] = []
    try:
        in_process(home, 2000)
        http_daemon = Daemon(home, "--http", "127.0.0.1:0")
        daemons.append(http_daemon)
        url = http_daemon.wait_http()
        token = (home / "serve.token").read_text().strip()
        over_http(url, token, 1000)
        if not args.skip_processes:
            socket_path = root / "harness.sock"
            daemons.append(Daemon(home, "--socket", str(socket_path)))
            while not socket_path.exists():
                time.sleep(0.05)
            processes(home, url, socket_path, token, args.n)
        sustained(http_daemon, url, token, args.seconds)
        if args.claude:
            in_claude_code(home, url, token, args.rounds, args.calls)
        print(f"({os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f})")
    finally:
        for daemon in daemons:
            daemon.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
