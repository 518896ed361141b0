"""What a tool call through ``harness mcp`` costs over the same call through
``Runtime.call_tool``, side by side.

    python bench/mcp.py [--n N]

The home holds one Scheme tool (``greet``) and one Scheme ``pre_tool`` guard, so every call
runs the pipeline's hooks. Rounds are interleaved so machine noise hits both alike:

1. ``Runtime.call_tool("greet", ...)`` in this process;
2. the same call sent to ``harness mcp`` over stdio by a plain JSON-RPC client (one line
   written, one line read, no SDK): what the server adds;
3. the same call made by the official SDK client (``mcp.Client``) over stdio (the 2025
   handshake, and the 2026-07-28 protocol) and over streamable HTTP: what an agent using
   the Python SDK pays in all (the client's own cost included).

It prints the median and p90 microseconds per call and the overhead of each (its median
minus the direct median); the goal is that the server adds at most 1 ms per call (row 2).
It also prints how long a new tool file takes to show in ``tools/list`` (the hot-reload
latency, seen by a client). Every answer is checked.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# run as a script, this file's folder comes first on sys.path, and this file is named like
# the SDK: take the folder off so that `import mcp` finds the SDK
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]

import anyio  # (after the sys.path fix above)
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

GREET = """(import (harness tools))
(define-tool greet
  (description "Greet someone by name")
  (parameters '((name . ((type . "string") (description . "Name to greet")))))
  (execute (lambda (args) (string-append "Hello, " (cdr (assoc "name" args)) "!"))))
"""
GUARD = """(register-hook 'pre_tool
  (lambda (payload)
    (if (equal? (cdr (assoc "tool_name" payload)) "Bash")
        (list (cons "block" #t) (cons "message" "no shell"))
        '())))
"""
NEW_TOOL = """(import (harness tools))
(define-tool fresh (description "new") (execute (lambda (args) "fresh")))
"""
ARGS = {"name": "Ada"}
EXPECTED = "Hello, Ada!"


def make_home(root: Path) -> Path:
    home = root / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "greet.scm").write_text(GREET)
    (home / "tools" / "guard.scm").write_text(GUARD)
    return home


def summary(samples: list[float]) -> tuple[float, float]:
    """Median and p90 in microseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(len(ordered) * 0.9)] * 1e6


def direct_round(runtime, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        result = runtime.call_tool("greet", ARGS)
        out.append(time.perf_counter() - start)
        assert result.output == EXPECTED, result
    return out


async def client_round(client, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        result = await client.call_tool("greet", ARGS)
        out.append(time.perf_counter() - start)
        assert result.content[0].text == EXPECTED, result
    return out


class RawClient:
    """``harness mcp`` over stdio spoken to by hand: a request line out, a line back."""

    def __init__(self, home: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "harness.cli", "mcp", "--home", str(home)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=server_env())
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.next_id = 1

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> dict:
        self.next_id = getattr(self, "next_id", 0) + 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:  # a notification may come first
            answer = json.loads(self.process.stdout.readline())
            if answer.get("id") == self.next_id:
                return answer

    def round(self, n: int) -> list[float]:
        out = []
        for _ in range(n):
            start = time.perf_counter()
            answer = self.request("tools/call", {"name": "greet", "arguments": ARGS})
            out.append(time.perf_counter() - start)
            assert answer["result"]["content"][0]["text"] == EXPECTED, answer
        return out

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


def server_env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed harness runs
    return env


def stdio(home: Path, mode: str) -> Client:
    params = StdioServerParameters(command=sys.executable, args=[
        "-m", "harness.cli", "mcp", "--home", str(home)], env=server_env())
    return Client(stdio_client(params), mode=mode)


def start_http(home: Path, log: Path) -> tuple[subprocess.Popen, str, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "harness.cli", "mcp", "--home", str(home), "--http",
         "127.0.0.1:0"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=log.open("w"), env=server_env())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"serving (http://\S+/mcp)", log.read_text())
        if found:
            return process, found.group(1), (home / "serve.token").read_text().strip()
        time.sleep(0.05)
    process.kill()
    raise SystemExit(f"harness mcp --http did not start: {log.read_text()}")


async def reload_latency(client, home: Path) -> float:
    """Seconds from writing a new tool file to seeing it in tools/list."""
    start = time.perf_counter()
    (home / "tools" / "fresh.scm").write_text(NEW_TOOL)
    while "fresh" not in {t.name for t in (await client.list_tools()).tools}:
        await anyio.sleep(0.005)
    took = time.perf_counter() - start
    (home / "tools" / "fresh.scm").unlink()
    while "fresh" in {t.name for t in (await client.list_tools()).tools}:
        await anyio.sleep(0.005)
    return took


async def measure(home: Path, runtime, n: int, rounds: int, url: str, token: str) -> dict:
    samples: dict[str, list[float]] = {
        "Runtime.call_tool": [], "stdio, plain JSON-RPC": [], "stdio, SDK client (2025)": [],
        "stdio, SDK client (2026)": [], "http, SDK client (2025)": []}
    raw = RawClient(home)
    latencies = []
    headers = {"Authorization": f"Bearer {token}"}
    async with stdio(home, "legacy") as legacy, stdio(home, "2026-07-28") as modern, \
            httpx2.AsyncClient(headers=headers, timeout=30) as http, \
            Client(streamable_http_client(url, http_client=http), mode="legacy") as web:
        clients = {"stdio, SDK client (2025)": legacy, "stdio, SDK client (2026)": modern,
                   "http, SDK client (2025)": web}
        direct_round(runtime, n)  # warm-up: parse caches, first loads
        raw.round(n)
        for client in clients.values():
            await client_round(client, n)
        for _ in range(rounds):
            samples["Runtime.call_tool"] += direct_round(runtime, n)
            samples["stdio, plain JSON-RPC"] += raw.round(n)
            for name, client in clients.items():
                samples[name] += await client_round(client, n)
        for _ in range(3):
            latencies.append(await reload_latency(legacy, home))
    raw.close()
    return {"samples": samples, "latencies": latencies}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="calls per round (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    args = parser.parse_args()
    from harness.runtime import Runtime
    with tempfile.TemporaryDirectory() as tmp:
        home = make_home(Path(tmp))
        runtime = Runtime(home)
        process, url, token = start_http(home, Path(tmp) / "http.log")
        try:
            found = anyio.run(measure, home, runtime, args.n, args.rounds, url, token)
        finally:
            process.terminate()
            process.wait(timeout=10)
            runtime.close()
    samples = found["samples"]
    direct = summary(samples["Runtime.call_tool"])[0]
    print(f"{'per call':<28}{'median us':>11}{'p90 us':>9}{'overhead us':>13}")
    for name, values in samples.items():
        median, p90 = summary(values)
        overhead = "" if name == "Runtime.call_tool" else f"{median - direct:+.0f}"
        print(f"{name:<28}{median:>11.0f}{p90:>9.0f}{overhead:>13}")
    added = summary(samples["stdio, plain JSON-RPC"])[0] - direct
    print(f"\nwhat the server adds to Runtime.call_tool: {added / 1000:.2f} ms per call "
          f"(goal: <= 1 ms) -> {'met' if added <= 1000 else 'NOT met'}")
    latencies = ", ".join(f"{s * 1000:.0f}" for s in found["latencies"])
    print(f"a new tool file listed after: {latencies} ms (3 tries, stdio client)")


if __name__ == "__main__":
    main()
