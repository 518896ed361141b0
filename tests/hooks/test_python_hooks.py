"""Hooks in .hy and .py tool files on the dispatcher: one order with the .scm files, the
same combine rules, answer checks, failure policy, re-entrancy guard and time limit."""

from __future__ import annotations

import pytest
from python_homes import PRE_TOOL_FORCE, UNSANDBOXED, python_home

from harness.runtime import Runtime


def test_a_hy_guard_blocks_a_force_push_and_is_named_by_file_and_line(tmp_path):
    home = python_home(tmp_path, {}, fixtures=("no_force.hy",))
    rt = Runtime(home)
    result = rt.fire("pre_tool", PRE_TOOL_FORCE)
    assert result["outcome"] == {"blocked": True,
                                 "message": "force push refused: use --force-with-lease",
                                 "arguments": PRE_TOOL_FORCE["arguments"]}
    assert result["answers"][0]["source"] == "hy:tools/py/no_force.hy:4"
    assert result["errors"] == []
    safe = rt.fire("pre_tool", {"tool_name": "shell_exec",
                                "arguments": {"command": "git push origin main"}})
    assert safe["outcome"]["blocked"] is False and safe["answers"] == []


def test_scheme_hy_and_python_files_answer_in_path_order(tmp_path):
    home = python_home(tmp_path, {
        "py/a.scm": "(register-hook 'pre_message (lambda (p) (list (cons \"prompt\" \"a\"))))",
        "py/b.py": """\
            from harness.api import hook
            @hook("pre_message")
            def b(payload):
                return {"prompt": payload["prompt"] + "+b"}
            """,
        "py/c.hy": """\
            (import harness.api [hook])
            (defn [(hook "pre_message")] c [payload] {"prompt" "c"})
            """,
    })
    rt = Runtime(home)
    assert rt.load_errors == {}
    result = rt.fire("pre_message", {"prompt": "hi", "context_name": "x", "summary": ""})
    assert [a["source"].split(":")[0] for a in result["answers"]] == ["scm", "py", "hy"]
    assert [a["answer"]["prompt"] for a in result["answers"]] == ["a", "hi+b", "c"]
    assert result["outcome"] == {"prompt": "c"}  # last wins, as for Scheme hooks
    assert [h["source"].split(":")[0] for h in rt.hooks()] == ["scm", "py", "hy"]


def test_python_files_are_refused_in_the_sandboxed_tier_naming_the_file_and_tier(tmp_path):
    home = python_home(tmp_path, {}, toml="", fixtures=("no_force.hy", "audit.py"))
    rt = Runtime(home)
    assert rt.hooks() == []
    for name, language in (("no_force.hy", "hy"), ("audit.py", "py")):
        path = f"{home}/tools/py/{name}"
        message = rt.load_errors[path]
        assert message.startswith(f"{path}:1:1: a .{language} file runs as Python")
        assert 'give its path the "unsandboxed" tier in harness.toml' in message
    # and every dispatch says so until it is fixed (the file has no good version)
    result = rt.fire("pre_tool", PRE_TOOL_FORCE)
    assert result["outcome"]["blocked"] is False
    assert {e["source"] for e in result["errors"]} == {
        "hy:tools/py/no_force.hy", "py:tools/py/audit.py"}


def test_a_raising_hook_is_reported_with_its_line_and_the_others_still_run(tmp_path):
    home = python_home(tmp_path, {
        "py/a.py": """\
            from harness.api import hook
            @hook("pre_tool")
            def broken(payload):
                return payload["missing"]
            """,
        "py/b.py": """\
            from harness.api import hook
            @hook("pre_tool")
            def fine(payload):
                return {"message": "seen"}
            """,
    })
    rt = Runtime(home)
    result = rt.fire("pre_tool", PRE_TOOL_FORCE)
    [error] = result["errors"]
    assert error["source"] == "py:tools/py/a.py:2"
    assert error["message"].startswith(
        f"pre_tool hook failed: {home}/tools/py/a.py:4:12: KeyError: 'missing'\n"
        "    return payload[\"missing\"]\n")
    assert [a["source"] for a in result["answers"]] == ["py:tools/py/b.py:2"]
    assert result["outcome"]["blocked"] is False  # pre_tool fails open by default


def test_failing_guards_fail_closed_and_failure_policy_keys_name_py_and_hy(tmp_path):
    raising = """\
        from harness.api import hook
        @hook("{point}")
        def broken(payload):
            raise RuntimeError("down")
        """
    home = python_home(tmp_path, {
        "py/guard.py": raising.replace("{point}", "pre_shell_exec"),
        "py/strict/tool_guard.py": raising.replace("{point}", "pre_tool"),
    }, toml=UNSANDBOXED + '[failure]\n"py:py/strict/" = "closed"\n')
    rt = Runtime(home, permission_handler=lambda hook, payload: True)
    denied = rt.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": "ls"})
    assert denied["outcome"]["denied"] is True  # a guard fails closed by default
    blocked = rt.fire("pre_tool", PRE_TOOL_FORCE)
    assert blocked["outcome"]["blocked"] is True
    assert blocked["outcome"]["message"] == \
        "hook failed: py:tools/py/strict/tool_guard.py:2"


def test_an_answer_with_no_json_form_is_an_error_naming_the_hook(tmp_path):
    home = python_home(tmp_path, {"py/a.py": """\
        from harness.api import hook
        @hook("pre_tool")
        def odd(payload):
            return {"block": True, "message": {1, 2}}
        """})
    result = Runtime(home).fire("pre_tool", PRE_TOOL_FORCE)
    [error] = result["errors"]
    assert error["message"].startswith("pre_tool hook py:tools/py/a.py:2: the answer "
                                       "has no JSON form")
    assert result["answers"] == [] and result["outcome"]["blocked"] is False


def test_an_answer_is_copied_so_the_hook_cannot_change_it_afterwards(tmp_path):
    home = python_home(tmp_path, {"py/a.py": """\
        from harness.api import hook
        ANSWER = {"arguments": {"command": "ls"}}
        @hook("pre_tool")
        def shared(payload):
            return ANSWER
        """})
    rt = Runtime(home)
    result = rt.fire("pre_tool", PRE_TOOL_FORCE)
    module_answer = rt.registry.hooks_for("pre_tool")[0].fn.__globals__["ANSWER"]
    module_answer["arguments"]["command"] = "rm -rf /"
    assert result["outcome"]["arguments"] == {"command": "ls"}


def test_wrong_typed_answer_values_are_reported_as_for_scheme_hooks(tmp_path):
    home = python_home(tmp_path, {"py/a.py": """\
        from harness.api import hook
        @hook("pre_tool")
        def wrong(payload):
            return {"block": "yes", "blocked": True}
        """})
    result = Runtime(home).fire("pre_tool", PRE_TOOL_FORCE)
    messages = [e["message"] for e in result["errors"]]
    assert any("'block' must be a boolean" in m for m in messages)
    assert any("did you mean 'block'" in m for m in messages)


def test_a_runaway_hook_is_stopped_at_the_tier_time_limit(tmp_path):
    home = python_home(tmp_path, {
        "py/a.py": """\
            from harness.api import hook
            @hook("pre_tool")
            def spin(payload):
                while True:
                    pass
            """,
        "py/b.py": """\
            from harness.api import hook
            @hook("pre_tool")
            def after(payload):
                return {"message": "still here"}
            """,
    }, toml=UNSANDBOXED + "[limits.unsandboxed]\nseconds = 0.2\n")
    result = Runtime(home).fire("pre_tool", PRE_TOOL_FORCE)
    [error] = result["errors"]
    assert "time limit of 0.2 s exceeded" in error["message"]
    assert f"{home}/tools/py/a.py:4:" in error["message"]
    assert [a["answer"] for a in result["answers"]] == [{"message": "still here"}]


def test_a_hook_calling_a_tool_does_not_run_itself_again(tmp_path):
    home = python_home(tmp_path, {"py/a.py": """\
        from harness.api import call_tool, hook, tool
        CALLS = []
        @tool(description="echo")
        def echo(args):
            return "echoed"
        @hook("pre_tool")
        def nested(payload):
            CALLS.append(payload["tool_name"])
            if payload["tool_name"] == "outer":
                return {"message": call_tool("echo", {})}
            return None
        """})
    rt = Runtime(home)
    result = rt.fire("pre_tool", {"tool_name": "outer", "arguments": {}})
    assert result["answers"][0]["answer"] == {"message": "echoed"}
    calls = rt.registry.hooks_for("pre_tool")[0].fn.__globals__["CALLS"]
    assert calls == ["outer"]  # the nested pre_tool of echo skipped the in-process hooks


def test_traces_name_python_hooks_with_their_answers(tmp_path):
    home = python_home(tmp_path, {}, fixtures=("no_force.hy",))
    rt = Runtime(home)
    rt.dispatcher.trace_enabled = True
    [entry] = rt.fire("pre_tool", PRE_TOOL_FORCE)["trace"]
    assert entry["source"] == "hy:tools/py/no_force.hy:4"
    assert entry["answer"]["block"] is True and entry["ms"] >= 0


@pytest.mark.parametrize("hook_point", ["post_tool", "pre_api_request"])
def test_the_payload_reaches_a_python_hook_as_json_data(tmp_path, hook_point):
    home = python_home(tmp_path, {"py/a.py": f"""\
        from harness.api import hook
        SEEN = []
        @hook("{hook_point}")
        def look(payload):
            SEEN.append(payload)
        """})
    rt = Runtime(home)
    payload = {"tool_name": "x", "arguments": {"n": 2 ** 70}, "nested": [None, True, 1.5]}
    rt.fire(hook_point, payload)
    [seen] = rt.registry.hooks_for(hook_point)[0].fn.__globals__["SEEN"]
    assert seen == payload
