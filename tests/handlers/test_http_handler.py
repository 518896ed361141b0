"""``http`` handlers against a local server, through ``harness claude-hook``: the event is
POSTed, a JSON answer decides, and both allowlists fail closed."""

import json
import socket
import threading
import time

from claude_helpers import answer_of, bash, event, make_home

from harness.runtime import Runtime


def http_home(tmp_path, url: str, *, allowed: list[str] | None, headers: dict | None = None,
              env_vars: list[str] | None = None, limit: list[str] | None = None, **fields):
    handler = {"type": "http", "url": url, **fields}
    if headers:
        handler["headers"] = headers
    if env_vars is not None:
        handler["allowedEnvVars"] = env_vars
    text = ""
    if allowed is not None:
        text += f"allowedHttpHookUrls = {json.dumps(allowed)}\n"
    if limit is not None:
        text += f"httpHookAllowedEnvVars = {json.dumps(limit)}\n"
    text += "[[PreToolUse]]\n[[PreToolUse.hooks]]\n" + "".join(
        f"{k} = {json.dumps(v)}\n" for k, v in handler.items() if not isinstance(v, dict))
    if headers:
        text += "[PreToolUse.hooks.headers]\n" + "".join(
            f"{k} = {json.dumps(v)}\n" for k, v in headers.items())
    return make_home(tmp_path, text)


DENY = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                          "permissionDecision": "deny",
                                          "permissionDecisionReason": "audit says no"}}).encode()


def test_the_event_is_posted_and_the_json_answer_decides(tmp_path, claude_hook, local_server):
    local_server.respond = lambda path, headers, body: (200, DENY)
    home = http_home(tmp_path, local_server.url + "/guard",
                     allowed=[f"{local_server.url}/*"])
    code, _out, err = claude_hook(home, bash("rm -rf /"))
    assert (code, err) == (2, "audit says no\n")
    (request,) = local_server.requests
    assert request["path"] == "/guard"
    assert request["headers"]["Content-Type"] == "application/json"
    assert request["body"]["tool_input"] == {"command": "rm -rf /"}


def test_no_allowlist_means_no_call(tmp_path, claude_hook, local_server):
    local_server.respond = lambda path, headers, body: (200, DENY)
    home = http_home(tmp_path, local_server.url + "/guard", allowed=None)
    code, out, _ = claude_hook(home, bash("ls"))
    assert code == 0 and local_server.requests == []
    assert "is not in allowedHttpHookUrls; the handler was not called" in \
        answer_of(out)["systemMessage"]
    home = http_home(tmp_path / "2", local_server.url + "/guard",
                     allowed=["https://audit.example.com/*"])
    assert claude_hook(home, bash("ls"))[0] == 0 and local_server.requests == []


def test_header_variables_only_from_the_allowlist(tmp_path, claude_hook, local_server,
                                                  monkeypatch):
    monkeypatch.setenv("AUDIT_TOKEN", "t0ken")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "do-not-send")
    local_server.respond = lambda path, headers, body: (200, b"")
    home = http_home(tmp_path, local_server.url, allowed=[local_server.url],
                     headers={"Authorization": "Bearer ${AUDIT_TOKEN}",
                              "X-Leak": "$AWS_SECRET_ACCESS_KEY"},
                     env_vars=["AUDIT_TOKEN", "AWS_SECRET_ACCESS_KEY"],
                     limit=["AUDIT_TOKEN"])
    _code, out, _ = claude_hook(home, bash("ls"))
    headers = local_server.requests[0]["headers"]
    assert headers["Authorization"] == "Bearer t0ken"
    assert headers["X-Leak"] == "", "outside httpHookAllowedEnvVars: an empty string"
    assert "$AWS_SECRET_ACCESS_KEY is not an allowed environment variable" in \
        answer_of(out)["systemMessage"]


def test_status_codes_and_bodies_never_block_by_themselves(tmp_path, claude_hook,
                                                          local_server):
    home = http_home(tmp_path, local_server.url, allowed=[local_server.url])
    elsewhere = {"Location": "http://example.com/collect"}
    for status, body, extra, message in [
            (500, b"boom", {}, "HTTP 500: boom"),
            (200, b"deny!", {}, "the answer is not a JSON object"),
            (200, b"{broken", {}, "the HTTP answer is not a JSON object"),
            (302, b"", elsewhere, "redirect to http://example.com/collect refused")]:
        local_server.respond = lambda path, headers, raw, s=status, b=body, e=extra: (s, b, e)
        code, out, _ = claude_hook(home, bash("rm -rf /"))
        assert code == 0, status
        assert message in answer_of(out)["systemMessage"]
    local_server.respond = lambda path, headers, body: (200, b"")
    assert claude_hook(home, bash("ls")) == (0, "", "")


def test_an_unreachable_url_is_a_non_blocking_error_unless_on_failure_blocks(tmp_path,
                                                                             claude_hook):
    home = http_home(tmp_path, "http://127.0.0.1:9/nothing", allowed=["http://127.0.0.1:9/*"],
                     timeout=2)
    code, out, _ = claude_hook(home, bash("ls"))
    assert code == 0
    assert "http://127.0.0.1:9/nothing: " in answer_of(out)["systemMessage"]
    home = http_home(tmp_path / "2", "http://127.0.0.1:9/nothing",
                     allowed=["http://127.0.0.1:9/*"], timeout=2, onFailure="block")
    code, _, err = claude_hook(home, bash("ls"))
    assert code == 2 and "failed: http://127.0.0.1:9/nothing" in err


def test_a_server_that_trickles_its_answer_is_cut_off(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/slow"

    def trickle():
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
            for _ in range(20):  # a byte every 0.2 s: no single read ever times out
                time.sleep(0.2)
                try:
                    connection.sendall(b" ")
                except OSError:
                    return
    threading.Thread(target=trickle, daemon=True).start()
    home = http_home(tmp_path, url, allowed=[url], timeout=0.5)
    try:
        with Runtime(home) as rt:
            (error,) = rt.fire("PreToolUse", event("PreToolUse", tool_name="Bash",
                                                   tool_input={}))["errors"]
    finally:
        listener.close()
    assert error["message"] == f"{url}: timed out after 0.5 s"
    # the timeout bounds the whole call: its thread has ended too (none leaks per event)
    deadline = time.monotonic() + 5
    while any(t.name == "harness-handler" for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the handler's thread outlived its timeout"
        time.sleep(0.05)
