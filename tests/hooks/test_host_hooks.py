"""Hooks and tools an embedding host registers in-process: Runtime.register_hook and
register_tool, their handles, order after plugins and files, errors never raised."""

from __future__ import annotations

import pytest
from python_homes import PRE_TOOL_FORCE, UNSANDBOXED, python_home

from harness.hooks.catalogue import UnknownHookError
from harness.runtime import Runtime


def no_rm(payload):
    if "rm " in payload["arguments"].get("command", ""):
        return {"block": True, "message": "no rm here"}
    return None


def test_a_host_hook_blocks_a_pre_tool_call_until_it_is_unregistered(tmp_path):
    rt = Runtime(python_home(tmp_path, {}))
    handle = rt.register_hook("pre_tool", no_rm)
    rm = {"tool_name": "shell_exec", "arguments": {"command": "rm -rf build"}}
    result = rt.fire("pre_tool", rm)
    assert result["outcome"] == {"blocked": True, "message": "no rm here",
                                 "arguments": rm["arguments"]}
    assert result["answers"][0]["source"] == handle.source == \
        "host:test_host_hooks.no_rm"
    call = rt.call_tool("shell_exec", rm["arguments"])
    assert (call.blocked, call.output) == (True, "no rm here")
    assert handle.unregister() is True
    assert handle.unregister() is False
    assert rt.fire("pre_tool", rm)["outcome"]["blocked"] is False


def test_a_raising_host_hook_is_reported_in_errors_never_raised(tmp_path):
    rt = Runtime(python_home(tmp_path, {}))

    def broken(payload):
        raise ValueError("host bug")

    rt.register_hook("pre_tool", broken, name="audit")
    rt.register_hook("pre_tool", no_rm)
    result = rt.fire("pre_tool", {"tool_name": "shell_exec",
                                  "arguments": {"command": "rm x"}})
    [error] = result["errors"]
    assert error["source"] == "host:audit"
    assert "ValueError: host bug" in error["message"]
    assert __file__ in error["message"]  # where in the host's code it went wrong
    assert result["outcome"]["blocked"] is True  # the other hook still ran


def test_host_hooks_run_after_plugins_and_tool_files(tmp_path):
    home = python_home(tmp_path, {
        "z.scm": "(register-hook 'pre_message (lambda (p) (list (cons \"prompt\" \"file\"))))",
    })
    plugin = home / "plugins" / "a_plugin"
    plugin.write_text("#!/bin/sh\n"
                      "if [ \"$1\" = --schema ]; then echo '{\"name\": \"a_plugin\", "
                      "\"description\": \"d\", \"hooks\": [\"pre_message\"]}'; exit 0; fi\n"
                      "echo '{\"prompt\": \"plugin\"}'\n")
    plugin.chmod(0o755)
    rt = Runtime(home)
    rt.register_hook("pre_message", lambda payload: {"prompt": "host"}, name="last")
    result = rt.fire("pre_message", {"prompt": "p", "context_name": "c", "summary": ""})
    assert [a["answer"]["prompt"] for a in result["answers"]] == ["plugin", "file", "host"]
    assert result["outcome"] == {"prompt": "host"}
    assert [h["source"] for h in rt.hooks() if h["hook"] == "pre_message"] == \
        ["plugin:a_plugin", "scm:tools/z.scm:1", "host:last"]


def test_a_failing_host_guard_fails_closed_and_policy_can_name_it(tmp_path):
    rt = Runtime(python_home(tmp_path, {}, toml='[failure]\n"host:strict" = "closed"\n'),
                 permission_handler=lambda hook, payload: True)

    def broken(payload):
        raise RuntimeError("down")

    rt.register_hook("pre_file_read", broken)
    assert rt.fire("pre_file_read", {"tool_name": "file_head", "path": "/etc/passwd"}
                   )["outcome"]["denied"] is True
    rt.register_hook("pre_tool", broken, name="strict")
    assert rt.fire("pre_tool", PRE_TOOL_FORCE)["outcome"]["blocked"] is True


def test_registering_checks_the_point_and_the_function(tmp_path):
    rt = Runtime(python_home(tmp_path, {}))
    with pytest.raises(UnknownHookError, match="did you mean 'pre_tool'"):
        rt.register_hook("pre_tol", no_rm)
    with pytest.raises(TypeError):
        rt.register_hook("pre_tool", "not a function")
    with pytest.raises(TypeError):
        rt.register_tool("", lambda args: "")
    assert rt.hooks() == [] and rt.tools() == []


def test_a_host_tool_runs_through_the_hook_stack_and_can_be_removed(tmp_path):
    home = python_home(tmp_path, {"py/tag.py": """\
        from harness.api import hook
        @hook("pre_tool_output")
        def tag(payload):
            return {"output": payload["output"] + "!"}
        """})
    rt = Runtime(home)
    handle = rt.register_tool("greet", lambda args: f"hello {args['name']}",
                              description="greets",
                              parameters={"name": {"type": "string"}})
    assert rt.call_tool("greet", {"name": "Ada"}).output == "hello Ada!"
    [schema] = rt.tools()
    assert schema == {"name": "greet", "description": "greets", "source": "host:greet",
                      "parameters": {"type": "object", "required": ["name"],
                                     "properties": {"name": {"type": "string"}}}}
    handle.unregister()
    assert rt.call_tool("greet", {"name": "Ada"}).error == "unknown tool 'greet'"


def test_host_tool_results_and_failures(tmp_path):
    rt = Runtime(python_home(tmp_path, {}))
    rt.register_tool("data", lambda args: {"n": 1, "big": 2 ** 70})
    rt.register_tool("nothing", lambda args: None)
    rt.register_tool("odd", lambda args: {1, 2})
    rt.register_tool("fails", lambda args: 1 / 0)
    assert rt.call_tool("data").output == '{"n":1,"big":1180591620717411303424}'
    assert rt.call_tool("nothing").output == ""
    assert rt.call_tool("odd").output == "{1, 2}"  # no JSON form: str() of it
    failed = rt.call_tool("fails")
    assert failed.error.startswith(f"{__file__}:")  # the line of the host's code
    assert "ZeroDivisionError: division by zero" in failed.error
    assert failed.output.startswith("Error: ")


def test_sandboxed_scheme_may_not_call_python_tools(tmp_path):
    home = python_home(tmp_path, {
        "caller.scm": """\
            (define-tool via-host (execute (lambda (a) (call-tool "greet" '()))))
            (define-tool via-file (execute (lambda (a) (call-tool "shout" '(("text" . "x"))))))
            """}, fixtures=("audit.py",))
    rt = Runtime(home)
    rt.register_tool("greet", lambda args: "hello")
    assert "cannot call greet (a Python tool)" in rt.call_tool("via-host").error
    assert "cannot call shout (a Python tool)" in rt.call_tool("via-file").error


def test_the_handle_is_a_context_manager(tmp_path):
    rt = Runtime(python_home(tmp_path, {}, toml=UNSANDBOXED))
    with rt.register_hook("pre_tool", no_rm) as handle:
        assert [h["source"] for h in rt.hooks()] == [handle.source]
    assert rt.hooks() == []


def test_what_python_hooks_and_tools_print_is_captured_not_mixed_into_stdout(tmp_path,
                                                                             capsys):
    rt = Runtime(python_home(tmp_path, {}))

    def chatty_hook(payload):
        print("hook says hi")

    def chatty_tool(args):
        print("tool says hi")
        return "result"

    rt.register_hook("post_tool", chatty_hook)
    rt.register_tool("chatty", chatty_tool)
    rt.dispatcher.trace_enabled = True
    [entry] = rt.fire("post_tool", {"tool_name": "x", "arguments": {}, "result": "",
                                    "cached": False})["trace"]
    assert entry["output"] == "hook says hi\n"
    result = rt.call_tool("chatty")
    assert (result.output, result.stdout) == ("result", "tool says hi\n")
    assert capsys.readouterr().out == ""
