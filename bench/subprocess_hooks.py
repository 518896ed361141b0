"""Subprocess (plugin) hook costs, side by side in one run (issue 7, scenario 4).

    python bench/subprocess_hooks.py [--n N] [--plugins N]

1. one plugin hook call: the overhead beyond the child's own run time. The same program
   (a `#!/bin/sh` plugin doing `cat >/dev/null; echo '{}'`, and a `python3 -S` one: no
   site-packages, so the child's own start-up noise stays small) with the same
   environment and the same 200-byte pre_tool payload on stdin is run by a bare
   `subprocess.run`, by a bare `os.posix_spawn` with blocking pipes, and through harness:
   `invoke.call_hook`, `PluginSet.call_hooks` and `Runtime.fire` (one plugin, no Scheme
   hooks). Calls are interleaved round-robin so machine noise hits all alike; overhead =
   harness - bare (goal <= 1 ms).
2. per-dispatch cost of N no-op plugins through `Runtime.fire`: pre_tool (its plugins run
   one after the other) and post_tool (observe: they run at once).
3. N observe-only plugins, sequential (`concurrent_observers = false`) against concurrent
   (the default), each sleeping 20 ms, and each doing nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.bridge import dumps
from harness.plugins.invoke import _environment, call_hook
from harness.runtime import Runtime

PAYLOAD = {"tool_name": "shell_exec", "arguments": {"command": "ls -la /tmp/project/src",
                                                    "timeout": 30, "cwd": "/tmp/project"},
           "request_id": "a1b2c3d4e5f6a7b8c9d0e1f2", "note": "x" * 48}

SCHEMA = '{"name": "%s", "description": "bench", "parameters": {}, "hooks": ["pre_tool", ' \
         '"post_tool"]}'
SH_BODY = "cat >/dev/null; echo '{}'"
SLEEP_BODY = "cat >/dev/null; sleep 0.02; echo '{}'"


def sh_plugin(name: str, body: str) -> str:
    return (f"#!/bin/sh\nif [ \"$1\" = --schema ]; then echo '{SCHEMA % name}'; exit 0; fi\n"
            f"{body}\n")


def python_plugin(name: str) -> str:
    return textwrap.dedent(f"""\
        #!{sys.executable} -S
        import sys
        if sys.argv[1:] == ["--schema"]:
            print('{SCHEMA % name}')
            raise SystemExit
        sys.stdin.buffer.read()
        print("{{}}")
        """)


def make_home(plugins: dict[str, str]) -> Path:
    home = Path(tempfile.mkdtemp(prefix="harness-bench-"))
    (home / "tools").mkdir()
    (home / "plugins").mkdir()
    for name, text in plugins.items():
        path = home / "plugins" / name
        path.write_text(text)
        path.chmod(0o755)
    return home


def bare_posix_spawn(path: str, data: bytes, env: dict) -> bytes:
    """The least a host can do: spawn, write stdin, read stdout to EOF, wait."""
    child_in, to_child = os.pipe()
    from_child, child_out = os.pipe()
    pid = os.posix_spawn(path, [path], env, setsid=True,
                         file_actions=[(os.POSIX_SPAWN_DUP2, child_in, 0),
                                       (os.POSIX_SPAWN_DUP2, child_out, 1)])
    os.close(child_in)
    os.close(child_out)
    try:
        os.write(to_child, data)
    except BrokenPipeError:
        pass
    os.close(to_child)
    chunks = []
    while chunk := os.read(from_child, 65536):
        chunks.append(chunk)
    os.close(from_child)
    os.waitpid(pid, 0)
    return b"".join(chunks)


def interleaved_ms(variants: dict[str, Callable[[], object]], n: int) -> dict[str, float]:
    """Median ms per call of each variant, calling them round-robin n times."""
    times: dict[str, list[float]] = {name: [] for name in variants}
    for fn in variants.values():  # warm up
        fn()
    for _ in range(n):
        for name, fn in variants.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) * 1000 for name, ts in times.items()}


def one_call(kind: str, text: str, n: int) -> None:
    home = make_home({"p": text})
    rt = Runtime(home)
    plugin = rt.plugins.plugins[0]
    path = str(plugin.path)
    data = dumps(PAYLOAD)
    env = _environment(rt.plugins.env, (), {"CHIBI_HOOK": "pre_tool", "HARNESS_HOOK": "pre_tool",
                                            "CHIBI_HOOK_DATA": data.decode()})
    answers = {"{}\n", b"{}\n", "{}"}
    assert bare_posix_spawn(path, data, env) in answers
    assert rt.fire("pre_tool", PAYLOAD)["errors"] == []
    ms = interleaved_ms({
        "bare subprocess.run": lambda: subprocess.run([path], input=data, env=env,
                                                      stdout=subprocess.PIPE, check=True),
        "bare os.posix_spawn": lambda: bare_posix_spawn(path, data, env),
        "invoke.call_hook": lambda: call_hook(plugin, "pre_tool", data, 30, env=rt.plugins.env),
        "PluginSet.call_hooks": lambda: rt.plugins.call_hooks("pre_tool", PAYLOAD),
        "Runtime.fire": lambda: rt.fire("pre_tool", PAYLOAD),
    }, n)
    bare = min(ms["bare subprocess.run"], ms["bare os.posix_spawn"])
    print(f"   {kind} plugin ({n} calls each, interleaved)")
    for name, value in ms.items():
        extra = "" if name.startswith("bare") else f"   overhead {value - bare:+6.3f} ms"
        print(f"     {name:22s} {value:8.3f} ms{extra}")


def plugins_home(count: int, body: str) -> Runtime:
    """A runtime whose home has `count` sh plugins on pre_tool and post_tool running `body`."""
    return Runtime(make_home({f"p{i:02d}": sh_plugin(f"p{i:02d}", body) for i in range(count)}))


def firing(rt: Runtime, point: str, at_once: int | None = None) -> Callable[[], object]:
    """A call that fires `point` on `rt` (with at most `at_once` observers at once)."""
    def fire() -> object:
        if at_once is not None:
            rt.plugins.concurrent_observers = at_once
        return rt.fire(point, PAYLOAD)
    return fire


def per_dispatch(counts: list[int], n: int) -> None:
    print("2. N no-op sh plugins per dispatch through Runtime.fire (median ms)")
    print("     N   pre_tool (in turn)   per plugin   post_tool (at once)   per plugin")
    for count in counts:
        rt = plugins_home(count, SH_BODY)
        ms = interleaved_ms({"pre": firing(rt, "pre_tool"), "post": firing(rt, "post_tool")}, n)
        print(f"   {count:3d}   {ms['pre']:18.2f}   {ms['pre'] / count:10.2f}   "
              f"{ms['post']:19.2f}   {ms['post'] / count:10.2f}")


def concurrency_gain(count: int, n: int) -> None:
    print(f"3. {count} observe-only plugins (post_tool): in turn against at once (median ms)")
    for label, body in (("sleep 20 ms", SLEEP_BODY), ("no-op", SH_BODY)):
        rt = plugins_home(count, body)
        at_once = rt.plugins.concurrent_observers
        ms = interleaved_ms({"seq": firing(rt, "post_tool", 1),
                             "conc": firing(rt, "post_tool", at_once)}, n)
        print(f"   {label:12s} in turn {ms['seq']:8.2f}   at once (<= {at_once}) "
              f"{ms['conc']:8.2f}   gain {ms['seq'] / ms['conc']:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100, help="calls per variant")
    parser.add_argument("--plugins", type=int, default=8, help="plugins in scenario 3")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"payload {len(dumps(PAYLOAD))} bytes")
    print("1. one plugin hook call: overhead beyond the child's own run time (median ms)")
    one_call("sh", sh_plugin("p", SH_BODY), args.n * 2)
    one_call("python3 -S", python_plugin("p"), args.n)
    per_dispatch([1, 4, 16], max(10, args.n // 5))
    concurrency_gain(args.plugins, max(10, args.n // 5))


if __name__ == "__main__":
    main()
