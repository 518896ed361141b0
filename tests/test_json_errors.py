"""One message form for bad JSON wherever harness reads it: ``WHERE:LINE:COL: invalid JSON:
...`` with the line and a caret, a trailing comma named (issue 24, item 13)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli.serve import RpcServer
from harness.cli.test_command import FixtureError, read_fixture
from harness.handlers.sources import Source, SourceError, _parse
from harness.plugins.schema_cache import parse_schema_output
from harness.repl.session import ReplSession
from harness.runtime import Runtime

TRAILING = '{"tool_name": "x",}'
SAID = "1:18: invalid JSON: trailing comma is not allowed"
CARET = '{"tool_name": "x",}\n                 ^'


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home" / "tools").mkdir(parents=True)
    return tmp_path / "home"


def test_a_payload_given_to_fire(home):
    done = subprocess.run([sys.executable, "-m", "harness.cli", "fire", "pre_tool", TRAILING,
                           "--home", str(home)], check=False, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert f"payload:{SAID}\n{CARET}" in done.stderr


def test_a_fixture(tmp_path):
    fixture = tmp_path / "f.json"
    fixture.write_text(TRAILING)
    with pytest.raises(FixtureError) as info:
        read_fixture(fixture)
    assert str(info.value) == f"{fixture}:{SAID}\n{CARET}"


def test_a_repl_fire_payload(home):
    with Runtime(home) as runtime:
        said = ReplSession(runtime).execute(f",fire pre_tool {TRAILING}")
    assert f"payload:{SAID}\n{CARET}" in said


def test_a_plugin_schema_output():
    [problem] = parse_schema_output('{"name": "t", "parameters": [1,]}').problems
    assert problem == ('--schema output:1:31: invalid JSON: trailing comma is not allowed\n'
                       '{"name": "t", "parameters": [1,]}\n' + " " * 30 + "^")


def test_a_declared_json_file(tmp_path):
    with pytest.raises(SourceError) as info:
        _parse(Source(str(tmp_path / "settings.json"), "settings"), TRAILING.encode())
    assert str(info.value) == f"{tmp_path / 'settings.json'}:{SAID}\n{CARET}"


def test_serve_input(home):
    with Runtime(home) as runtime:
        response = RpcServer(runtime, io.BytesIO()).handle_line(TRAILING.encode())
    assert response["error"]["message"] == f"Parse error: input:{SAID}\n{CARET}"
    assert json.dumps(response)  # still a JSON-RPC error object
