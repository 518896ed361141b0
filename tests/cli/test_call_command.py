"""``harness call``: the calling context, hook failures beside the result, --allow."""

from __future__ import annotations

import json

from harness.cli.serve import RpcServer
from harness.repl.session import ReplSession
from harness.runtime import Runtime

WHO = """\
(define-tool whoami (description "the calling context")
  (execute (lambda (args) %context-name%)))
(register-hook 'post_tool (lambda (payload) (car '())))
"""


def test_call_context_and_hook_errors(harness, fresh_home):
    (fresh_home / "tools" / "who.scm").write_text(WHO)
    code, out, err = harness("call", "whoami", "--context", "alice", "--home",
                             str(fresh_home))
    assert code == 0 and out == "alice\n"
    assert "who.scm:3: post_tool hook failed" in err
    code, out, _ = harness("call", "whoami", "--json", "--home", str(fresh_home))
    result = json.loads(out)
    assert result["output"] == "default" and result["context"] == "default"
    assert [e["source"].rsplit("/", 1)[-1] for e in result["errors"]] == ["who.scm:3"]


def test_call_refuses_a_bad_context_name(harness, fresh_home):
    code, _, err = harness("call", "whoami", "--context", "../etc", "--home",
                           str(fresh_home))
    assert code == 1 and "invalid context name '../etc'" in err
    code, _, err = harness("call", "whoami", "--context", "System", "--home",
                           str(fresh_home))
    assert code == 1 and "reserved" in err


def test_serve_call_takes_a_context_and_reports_errors(fresh_home):
    (fresh_home / "tools" / "who.scm").write_text(WHO)
    server = RpcServer(Runtime(fresh_home), None)
    response = server.handle_message({"jsonrpc": "2.0", "id": 1, "method": "call", "params": {
        "tool": "whoami", "context": "bob"}})
    assert response["result"]["output"] == "bob"
    assert len(response["result"]["errors"]) == 1
    bad = server.handle_message({"jsonrpc": "2.0", "id": 2, "method": "call", "params": {
        "tool": "whoami", "context": "a b"}})
    assert bad["error"]["code"] == -32602 and "invalid context name" in bad["error"]["message"]


def test_repl_call_uses_the_session_context_and_shows_hook_errors(fresh_home):
    (fresh_home / "tools" / "who.scm").write_text(WHO)
    session = ReplSession(Runtime(fresh_home))
    assert session.execute(",context") == "context: default"
    assert session.execute(",context carol") == "context: carol"
    out = session.execute(",call whoami")
    assert out.splitlines()[0] == "result   carol"
    assert "who.scm:3: post_tool hook failed" in out.splitlines()[1]
    assert "invalid context name" in session.execute(",context -x")


def test_code_typed_in_the_repl_runs_as_the_session_context(fresh_home):
    (fresh_home / "tools" / "who.scm").write_text(WHO)
    session = ReplSession(Runtime(fresh_home))
    assert session.execute("%context-name%") == '"default"'
    session.execute(",context carol")
    assert session.execute("%context-name%") == '"carol"'
    assert session.execute('(call-tool "whoami" \'())') == '"carol"'
    session.execute(",hy on")
    assert session.execute('(call_tool "whoami" {})') == '"carol"'
