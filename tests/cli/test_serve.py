"""``harness serve``: JSON-RPC 2.0 over stdio."""

from __future__ import annotations

import io
import json
import queue
import subprocess
import sys
import time

import pytest
from cli_helpers import run_harness, start_serve

from harness.cli.serve import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    UNKNOWN_HOOK,
    RpcServer,
)
from harness.runtime import Runtime


@pytest.fixture
def server(home):
    rt = Runtime(home)
    yield RpcServer(rt, io.BytesIO())
    rt.close()


def request(method: str, params=None, id=1) -> bytes:
    message = {"jsonrpc": "2.0", "method": method, "id": id}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def error_code(response: dict) -> int:
    return response["error"]["code"]


# -- methods (in-process) ---------------------------------------------------------------------


def test_fire_by_name_and_by_position(server):
    by_name = server.handle_line(request("fire", {"hook": "pre_tool",
                                                  "payload": {"tool_name": "forbidden"}}))
    by_position = server.handle_line(request("fire", ["pre_tool", {"tool_name": "forbidden"}]))
    assert by_name == by_position
    assert by_name["id"] == 1
    assert by_name["result"]["outcome"]["blocked"] is True


def test_fire_unknown_hook_is_an_application_error_with_a_suggestion(server):
    response = server.handle_line(request("fire", {"hook": "pre_tol"}, id="a"))
    assert response["id"] == "a"
    assert error_code(response) == UNKNOWN_HOOK
    assert "did you mean 'pre_tool'?" in response["error"]["message"]
    assert response["error"]["data"] == {"hook": "pre_tol", "suggestion": "pre_tool"}


def test_call_tools_and_hooks(server):
    call = server.handle_line(request("call", {"tool": "shout", "args": {"text": "hi"}}))
    assert call["result"]["output"].strip() == "HI"
    assert call["result"]["error"] is None
    missing = server.handle_line(request("call", ["shoot"]))
    assert missing["result"]["error"] == "unknown tool 'shoot'; did you mean 'shout'?"
    tools = server.handle_line(request("tools"))["result"]
    assert [t["name"] for t in tools] == ["word-count", "explode", "shout"]
    hooks = server.handle_line(request("hooks", []))["result"]
    assert {"hook": "pre_tool", "source": "plugin:guard"} in hooks


@pytest.mark.parametrize("method, params", [
    ("fire", {}),
    ("fire", {"hook": 3}),
    ("fire", ["pre_tool", [1]]),
    ("fire", ["pre_tool", {}, "extra"]),
    ("call", {"tool": "shout", "arguments": {}}),
    ("tools", {"verbose": True}),
])
def test_invalid_params(server, method, params):
    response = server.handle_line(request(method, params))
    assert error_code(response) == INVALID_PARAMS
    assert response["error"]["message"].startswith("Invalid params")


def test_method_not_found(server):
    assert error_code(server.handle_line(request("explode"))) == METHOD_NOT_FOUND


@pytest.mark.parametrize("line", [
    b'{"jsonrpc": "1.0", "method": "tools", "id": 1}',
    b'{"jsonrpc": "2.0", "method": 5, "id": 1}',
    b'{"jsonrpc": "2.0", "method": "tools", "params": 3, "id": 1}',
    b'{"jsonrpc": "2.0", "method": "tools", "id": [1]}',
    b'"tools"',
    b"[]",
])
def test_invalid_request(server, line):
    response = server.handle_line(line)
    assert error_code(response) == INVALID_REQUEST
    assert response["id"] in (1, None)


def test_parse_error(server):
    for line in (b"{nope", b'{"jsonrpc": "2.0"', b"\xff\xfe"):
        response = server.handle_line(line)
        assert response["id"] is None
        assert error_code(response) == PARSE_ERROR


def test_notifications_get_no_response(server):
    assert server.handle_line(b'{"jsonrpc": "2.0", "method": "tools"}') is None
    assert server.handle_line(b'{"jsonrpc": "2.0", "method": "nope"}') is None
    batch = b'[{"jsonrpc": "2.0", "method": "tools"}, {"jsonrpc": "2.0", "method": "hooks"}]'
    assert server.handle_line(batch) is None


def test_internal_error_keeps_the_server_alive(server, monkeypatch):
    def broken(hook, payload):
        raise RuntimeError("boom")
    monkeypatch.setattr(server.runtime, "fire", broken)
    response = server.handle_line(request("fire", ["on_start"]))
    assert error_code(response) == INTERNAL_ERROR
    assert "boom" in response["error"]["message"]
    assert "result" in server.handle_line(request("tools"))


def test_load_errors_method_and_notification(fresh_home):
    (fresh_home / "tools" / "broken.scm").write_text("(register-hook 'pre_tool\n")
    rt = Runtime(fresh_home)
    server = RpcServer(rt, io.BytesIO())
    try:
        [error] = server.handle_line(request("load_errors"))["result"]
        assert error["source"] == "scm:tools/broken.scm"
        assert error["last_good_runs"] is False
        assert "broken.scm:1:1: unexpected end of input" in error["message"]
        server.notify_load_errors()  # what serve sends at start
        server.notify_load_errors()  # nothing changed: nothing sent
        [line] = server._out.getvalue().splitlines()
        assert json.loads(line) == {"jsonrpc": "2.0", "method": "load_errors",
                                    "params": {"errors": [error]}}
        (fresh_home / "tools" / "broken.scm").write_text("(register-hook 'pre_tool car)\n")
        rt.load_file(fresh_home / "tools" / "broken.scm")
        server.notify_reload({"event": "reloaded", "path": "broken.scm"})
        last = json.loads(server._out.getvalue().splitlines()[-1])
        assert last == {"jsonrpc": "2.0", "method": "load_errors", "params": {"errors": []}}
    finally:
        rt.close()


def test_a_server_with_nothing_broken_sends_no_load_errors(server):
    server.notify_load_errors()
    assert server._out.getvalue() == b""


def test_reload_events_become_notifications(server):
    server.notify_reload({"event": "reloaded", "path": "/h/tools/x.scm"})
    line = server._out.getvalue()
    assert json.loads(line) == {"jsonrpc": "2.0", "method": "reload",
                                "params": {"event": "reloaded", "path": "/h/tools/x.scm"}}
    assert line.endswith(b"\n") and line.count(b"\n") == 1


# -- the real command ---------------------------------------------------------------------------


def test_serve_session(home):
    lines = [
        request("fire", {"hook": "pre_tool", "payload": {"tool_name": "forbidden"}}, id=1),
        b"this is not json",
        request("call", {"tool": "word-count", "args": {"text": "a"}}, id=2),
        b'{"jsonrpc": "2.0", "method": "fire", "params": ["on_start", {}]}',  # notification
        b"",
        (b'[{"jsonrpc": "2.0", "method": "tools", "id": 3}, {"jsonrpc": "2.0", "method": "hooks"},'
         b' {"jsonrpc": "2.0", "method": "hooks", "id": 4}, 7]'),
        request("fire", ["pre_tol"], id=5),
    ]
    stdin = b"\n".join(lines).decode() + "\n"
    done = run_harness("serve", "--home", str(home), stdin=stdin)
    assert done.returncode == 0, done.stderr
    messages = [json.loads(line) for line in done.stdout.splitlines()]
    # stdout carries JSON-RPC only; a reload notification may come at any point
    assert all(m["jsonrpc"] == "2.0" for m in messages if isinstance(m, dict))
    responses = [m for m in messages if isinstance(m, list) or "method" not in m]
    first, parse_error, call, batch, unknown = responses
    assert first["id"] == 1 and first["result"]["outcome"]["blocked"] is True
    assert error_code(parse_error) == PARSE_ERROR
    assert call["id"] == 2 and call["result"]["output"] == "4"
    assert call["result"]["stdout"] == "counting"  # captured, not on the RPC stream
    assert [r["id"] for r in batch] == [3, 4, None]
    assert error_code(batch[2]) == INVALID_REQUEST
    assert {t["name"] for t in batch[0]["result"]} == {"word-count", "explode", "shout"}
    assert error_code(unknown) == UNKNOWN_HOOK


def test_serve_hot_reloads_and_notifies(fresh_home):
    pytest.importorskip("harness.reload")
    proc, lines = start_serve(fresh_home)
    try:
        proc.stdin.write(request("tools", id=1) + b"\n")
        proc.stdin.flush()
        assert _response(lines)["id"] == 1  # serving, so the watcher is running
        new_file = fresh_home / "tools" / "late.scm"
        new_file.write_text('(define-tool late (execute (lambda (args) "late")))')
        deadline = time.monotonic() + 10
        while True:
            message = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if message.get("method") == "reload" and \
                    str(message["params"].get("path", "")).endswith("late.scm"):
                break
        proc.stdin.write(request("call", ["late"], id=2) + b"\n")
        proc.stdin.flush()
        assert _response(lines)["result"]["output"] == "late"
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()


def _response(lines: queue.Queue) -> dict:
    """The next response from the server, skipping notifications."""
    while True:
        message = lines.get(timeout=10)
        if "method" not in message:
            return message


def test_stray_output_goes_to_stderr_while_serving():
    script = ("import os\n"
              "from harness.cli.serve import _stdout_reserved\n"
              "with _stdout_reserved() as out:\n"
              "    os.write(1, b'stray\\n')\n"
              "    print('printed', flush=True)\n"
              "    out.write(b'rpc\\n')\n"
              "print('after')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=10, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "rpc\nafter\n"
    assert done.stderr == "stray\nprinted\n"


def test_a_reload_that_fails_is_reported_once(fresh_home, tmp_path):
    pytest.importorskip("harness.reload")
    from cli_helpers import HARNESS_COMMAND
    stderr = (tmp_path / "stderr").open("w+b")
    proc = subprocess.Popen([*HARNESS_COMMAND, "serve", "--home", str(fresh_home)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
    try:
        proc.stdin.write(request("tools", id=1) + b"\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1  # the watcher is running
        (fresh_home / "tools" / "late.scm").write_text("(define x (car 5))\n")
        reload_, errors = (json.loads(proc.stdout.readline()) for _ in range(2))
        assert reload_["method"] == "reload" and reload_["params"]["event"] == "failed"
        assert reload_["params"]["error"] is None
        [error] = errors["params"]["errors"]
        assert "late.scm:1:11: car: expected a pair" in error["message"]
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
        stderr.seek(0)
        assert b"car: expected a pair" not in stderr.read()  # said on stdout, once
    finally:
        proc.kill()
