"""Dispatching hook points over Scheme hooks and plugins: order, combine rules with several
hooks answering, re-entrancy, error isolation, fail-closed guards."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness.hooks.catalogue import UnknownHookError
from harness.runtime import Runtime


def make_home(tmp_path: Path, files: dict[str, str], plugins: dict[str, str] | None = None,
              toml: str | None = None) -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "plugins").mkdir()
    for name, text in files.items():
        path = home / "tools" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for name, text in (plugins or {}).items():
        path = home / "plugins" / name
        path.write_text(textwrap.dedent(text))
        path.chmod(0o755)
    if toml:
        (home / "harness.toml").write_text(textwrap.dedent(toml))
    return home


PLUGIN = """\
#!/usr/bin/env python3
import json, os, sys
if len(sys.argv) > 1 and sys.argv[1] == "--schema":
    print(json.dumps({"name": "{name}", "description": "d", "parameters": {"type": "object",
                      "properties": {}}, "hooks": {hooks}}))
    sys.exit(0)
data = json.load(sys.stdin)
print(json.dumps({answer}))
"""


def plugin(name: str, hooks: list[str], answer: str) -> str:
    return (PLUGIN.replace("{name}", name).replace("{hooks}", repr(hooks).replace("'", '"'))
            .replace("{answer}", answer))


def answer_hook(point: str, answer: str) -> str:
    return f"(register-hook '{point} (lambda (p) {answer}))\n"


def test_unknown_hook_point_suggests_the_closest(tmp_path):
    rt = Runtime(make_home(tmp_path, {}))
    with pytest.raises(UnknownHookError, match="did you mean 'pre_tool'"):
        rt.fire("pre_tools", {})


def test_plugins_fire_before_scheme_hooks_in_name_and_file_order(tmp_path):
    home = make_home(tmp_path, {
        "b.scm": answer_hook("pre_message", '(list (cons "prompt" "b1"))')
        + answer_hook("pre_message", '(list (cons "prompt" "b2"))'),
        "a.scm": answer_hook("pre_message", '(list (cons "prompt" "a"))'),
    }, plugins={
        "zeta": plugin("zeta", ["pre_message"], '{"prompt": "zeta"}'),
        "alpha": plugin("alpha", ["pre_message"], '{"prompt": "alpha"}'),
    })
    result = Runtime(home).fire("pre_message", {"prompt": "hi", "context_name": "c",
                                                "summary": ""})
    sources = [a["source"] for a in result["answers"]]
    assert sources[:2] == ["plugin:alpha", "plugin:zeta"]
    assert [s.rsplit("/", 1)[1] for s in sources[2:]] == ["a.scm:1", "b.scm:1", "b.scm:2"]
    assert result["outcome"] == {"prompt": "b2"}  # last wins


def test_inject_hooks_join_with_blank_lines(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_system_prompt", '(list (cons "inject" "first"))')
        + answer_hook("pre_system_prompt", "'()")
        + answer_hook("pre_system_prompt", '(list (cons "inject" "second"))'),
    })
    out = Runtime(home).fire("pre_system_prompt", {"context_name": "c"})["outcome"]
    assert out == {"inject": "first\n\nsecond"}


def test_pre_tool_first_block_wins_and_arguments_last_wins(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_tool", '(list (cons "arguments" (list (cons "n" 1))))')
        + answer_hook("pre_tool", '(list (cons "arguments" (list (cons "n" 2))))'),
    })
    rt = Runtime(home)
    out = rt.fire("pre_tool", {"tool_name": "t", "arguments": {"n": 0}})["outcome"]
    assert out["blocked"] is False and out["arguments"] == {"n": 2}
    home2 = make_home(tmp_path / "2", {
        "a.scm": answer_hook("pre_tool", '(list (cons "block" #t) (cons "message" "one"))')
        + answer_hook("pre_tool", '(list (cons "block" #t) (cons "message" "two"))'),
    })
    out = Runtime(home2).fire("pre_tool", {"tool_name": "t", "arguments": {}})["outcome"]
    assert out["blocked"] is True and out["message"] == "one"


def test_tool_filter_intersects_includes_and_unions_excludes(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_api_tools", '(list (cons "include" (list "a" "b" "c")))')
        + answer_hook("pre_api_tools", '(list (cons "include" (list "b" "c" "d")))')
        + answer_hook("pre_api_tools", '(list (cons "exclude" (list "c")))'),
    })
    tools = [{"name": n, "type": "builtin"} for n in "abcd"]
    out = Runtime(home).fire("pre_api_tools", {"context_name": "x", "tools": tools,
                                               "fuel_remaining": 5, "fuel_total": 5})
    assert out["outcome"] == {"tools": ["b"]}


def test_request_body_nested_answers_merge_at_top_level(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_api_request",
                             '(list (cons "request_body" (list (cons "temperature" 0.1) '
                             '(cons "metadata" (list (cons "tags" (list "a" "b")))))))')
        + answer_hook("pre_api_request",
                      '(list (cons "request_body" (list (cons "max_tokens" 100))))'),
    })
    out = Runtime(home).fire("pre_api_request", {"context_name": "c", "request_body": {
        "model": "m", "temperature": 0.7}})["outcome"]
    assert out == {"request_body": {"model": "m", "temperature": 0.1,
                                    "metadata": {"tags": ["a", "b"]}, "max_tokens": 100}}


def test_fuel_delta_adds_and_saturates(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("post_tool_batch",
                             '(list (cons "fuel_delta" -5) (cons "fallback" "call_user"))')
        + answer_hook("post_tool_batch", '(list (cons "fuel_delta" -10))'),
    })
    out = Runtime(home).fire("post_tool_batch", {"context_name": "c", "fuel_remaining": 8,
                                                 "fuel_total": 20, "current_fallback":
                                                 "call_agent", "tool_calls": []})["outcome"]
    assert out == {"fallback": "call_user", "fuel_remaining": 0}


def test_permission_hooks_deny_and_fail_safe(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_shell_exec",
                             '(if (string-contains (cdr (assoc "command" p)) "sudo") '
                             '(list (cons "denied" #t) (cons "reason" "no sudo")) \'())'),
    })
    rt = Runtime(home)
    denied = rt.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": "sudo ls"})
    assert denied["outcome"] == {"denied": True, "reason": "no sudo", "decided_by": "hook"}
    fail_safe = rt.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert fail_safe["outcome"]["denied"] is True
    assert fail_safe["outcome"]["decided_by"] == "fail-safe"
    allowed = Runtime(home, permission_handler=lambda hook, payload: True)
    out = allowed.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert out["outcome"]["denied"] is False and out["outcome"]["decided_by"] == "handler"


def test_a_failing_guard_fails_closed_and_observers_fail_open(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_file_write", "(car '())")
        + answer_hook("post_message", "(car '())")
        + answer_hook("pre_message", "(car '())")
        + answer_hook("pre_message", '(list (cons "prompt" "still runs"))'),
    })
    rt = Runtime(home, permission_handler=lambda hook, payload: True)
    guard = rt.fire("pre_file_write", {"tool_name": "write_file", "path": "/x", "content": ""})
    assert guard["outcome"]["denied"] is True
    assert "car: expected a pair, got ()" in guard["errors"][0]["message"]
    msg = rt.fire("pre_message", {"prompt": "p", "context_name": "c", "summary": ""})
    assert msg["outcome"] == {"prompt": "still runs"}
    assert "a.scm:3" in msg["errors"][0]["source"]


def test_error_isolation_for_every_kind_of_failure(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_message", "(raise 'custom)")
        + answer_hook("pre_message", "(let loop () (loop))")
        + answer_hook("pre_message", "car")
        + answer_hook("pre_message", '(list (cons "prompt" 42))')
        + answer_hook("pre_message", '(list (cons "prompt" "ok"))'),
    }, toml="[limits.sandboxed]\nsteps = 200000\n")
    result = Runtime(home).fire("pre_message", {"prompt": "p"})
    assert result["outcome"] == {"prompt": "ok"}
    messages = " | ".join(e["message"] for e in result["errors"])
    assert "uncaught exception: custom" in messages
    assert "step budget" in messages
    assert "procedure" in messages  # a procedure is not JSON
    assert "prompt" in messages  # wrong-typed value reported


def test_reentrant_dispatch_skips_scheme_hooks_of_the_same_point(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": """\
            (define calls 0)
            (register-hook 'pre_tool
              (lambda (p)
                (set! calls (+ calls 1))
                (if (equal? (cdr (assoc "tool_name" p)) "outer")
                    (list (cons "arguments" (list (cons "inner" (call-tool "echo" '())))))
                    '())))
            (define-tool echo (description "echo") (execute (lambda (a) "echoed")))
            (define-tool count (description "calls") (execute (lambda (a) calls)))
        """,
    })
    rt = Runtime(home)
    out = rt.fire("pre_tool", {"tool_name": "outer", "arguments": {}})
    assert out["outcome"]["arguments"] == {"inner": "echoed"}
    # the nested pre_tool (for echo) skipped the Scheme hook: 1 call, not 2
    assert rt.call_tool("count").output == "2"  # 1 from outer + 1 from this call


def test_payload_key_order_null_and_big_integers_reach_scheme(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_api_request",
                             '(list (cons "request_body" (list (cons "keys" (map car '
                             '(cdr (assoc "request_body" p)))) (cons "big" (* 2 (cdr (assoc '
                             '"n" (cdr (assoc "request_body" p)))))) (cons "isnull" (eq? '
                             "'null (cdr (assoc \"z\" (cdr (assoc \"request_body\" p)))))))))"),
    })
    body = {"z": None, "a": 1, "n": 2**70}
    out = Runtime(home).fire("pre_api_request", {"context_name": "c", "request_body": body})
    merged = out["outcome"]["request_body"]
    assert merged["keys"] == ["z", "a", "n"]
    assert merged["big"] == 2**71
    assert merged["isnull"] is True


def test_context_name_is_visible_to_hooks(tmp_path):
    home = make_home(tmp_path, {
        "a.scm": answer_hook("pre_message", '(list (cons "prompt" %context-name%))'),
    })
    rt = Runtime(home)
    assert rt.fire("pre_message", {"prompt": "p", "context_name": "coding"})["outcome"] == {
        "prompt": "coding"}
    assert rt.fire("pre_message", {"prompt": "p"})["outcome"] == {"prompt": "default"}


def test_trace_lists_every_hook_with_timing(tmp_path):
    home = make_home(tmp_path, {"a.scm": answer_hook("pre_message", "'()")})
    rt = Runtime(home)
    rt.dispatcher.trace_enabled = True
    trace = rt.fire("pre_message", {"prompt": "p"})["trace"]
    assert trace[0]["source"].endswith("a.scm:1") and "ms" in trace[0]


def test_failure_policy_overrides_from_harness_toml(tmp_path):
    home = make_home(tmp_path, {
        "strict/guard.scm": answer_hook("pre_tool", "(car '())"),
        "lenient/perm.scm": answer_hook("pre_shell_exec", "(car '())"),
        "plain.scm": answer_hook("pre_tool", "(car '())"),
    }, toml='[failure]\n"scm:strict/" = "closed"\n"scm:lenient/" = "open"\n')
    rt = Runtime(home, permission_handler=lambda hook, payload: True)
    out = rt.fire("pre_tool", {"tool_name": "t", "arguments": {}})["outcome"]
    # the strict file's failure blocks; plain.scm fails open (its failure is only reported)
    assert out["blocked"] is True and "hook failed: scm:" in out["message"]
    assert "strict/guard.scm" in out["message"]
    perm = rt.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})["outcome"]
    assert perm["denied"] is False  # a lenient guard's crash does not deny


def test_malformed_failure_policy_is_a_config_error(tmp_path):
    from harness.config import ConfigError
    home = make_home(tmp_path, {}, toml='[failure]\n"scm:x" = "maybe"\n')
    with pytest.raises(ConfigError, match="open.*closed"):
        Runtime(home)


def test_false_from_a_scheme_hook_is_no_answer_as_the_empty_list_is(tmp_path):
    home = make_home(tmp_path, {"idioms.scm": """\
        (define (forced? p) (string-contains (cdr (assoc "command" (cdr (assoc "arguments" p))))
                                             "--force"))
        (register-hook 'pre_tool                      ; a leaf hook: (and test answer)
          (lambda (p) (and (equal? (cdr (assoc "tool_name" p)) "rm") '(("block" . #t)))))
        (register-hook 'pre_tool                      ; not a leaf: it calls string-contains
          (lambda (p) (and (forced? p) '(("block" . #t)))))
    """})
    with Runtime(home) as rt:
        quiet = rt.fire("pre_tool", {"tool_name": "git", "arguments": {"command": "push"}})
        assert (quiet["answers"], quiet["errors"], quiet["outcome"]["blocked"]) == (
            [], [], False)
        loud = rt.fire("pre_tool", {"tool_name": "git",
                                    "arguments": {"command": "push --force"}})
        assert loud["outcome"]["blocked"] is True and loud["errors"] == []
