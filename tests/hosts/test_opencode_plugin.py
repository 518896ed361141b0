"""The OpenCode plugin (harness/hosts/opencode-plugin.js), run by Node against a real
``harness serve --http``: OpenCode itself calls these hook functions in process, so
calling them as OpenCode does is the test (OpenCode is not driven here)."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from guard_home import make_guard_home

import harness.hosts

PLUGIN = Path(harness.hosts.__file__).parent / "opencode-plugin.js"
DRIVER = """
const { HarnessGuard } = await import(process.argv[1]);
const hooks = await HarnessGuard({});
const results = [];
for (const command of ["rm -rf /", "ls", "echo SECRET"]) {
  const output = { args: { command } };
  try {
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output);
    results.push({ ran: output.args });
  } catch (error) {
    results.push({ blocked: error.message });
  }
}
const permission = { status: "ask" };
await hooks["permission.ask"]({ type: "bash", sessionID: "s", callID: "c",
                                metadata: { command: "rm -rf /" } }, permission);
results.push(permission);
console.log(JSON.stringify(results));
"""


def run_plugin(env) -> list:
    done = subprocess.run(["node", "--input-type=module", "-e", DRIVER, str(PLUGIN)],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    home = make_guard_home(tmp_path_factory.mktemp("opencode"), rewrite=True)
    process = subprocess.Popen([sys.executable, "-m", "harness.cli", "serve", "--home",
                                str(home), "--http", "127.0.0.1:0"], stderr=subprocess.PIPE,
                               text=True)
    port = re.search(r":(\d+) ", process.stderr.readline()).group(1)
    yield f"http://127.0.0.1:{port}", home
    process.send_signal(signal.SIGTERM)
    process.wait(10)


def test_the_plugin_blocks_rewrites_and_lets_through(daemon):
    url, home = daemon
    results = run_plugin({"PATH": "/usr/bin:/bin", "HARNESS_HOOK_URL": url,
                          "HARNESS_HOME": str(home)})
    assert results == [{"blocked": "rm -rf is not allowed"}, {"ran": {"command": "ls"}},
                       {"ran": {"command": "echo [redacted]"}}, {"status": "deny"}]


def test_the_plugin_never_opens_when_harness_cannot_answer(daemon):
    url, _ = daemon
    results = run_plugin({"PATH": "/usr/bin:/bin", "HARNESS_HOOK_URL": url,
                          "HARNESS_TOKEN": "wrong"})
    assert all("harness cannot answer, so it denies: HTTP 401" in r.get("blocked", "")
               for r in results[:3])
    assert results[3] == {"status": "deny"}
    results = run_plugin({"PATH": "/usr/bin:/bin", "HARNESS_HOOK_URL": url,
                          "HARNESS_TOKEN": "wrong", "HARNESS_FAIL_OPEN": "1"})
    assert results[1] == {"ran": {"command": "ls"}} and results[3] == {"status": "ask"}
