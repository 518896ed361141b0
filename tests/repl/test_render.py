"""How dispatch results and reload events read."""

from pathlib import Path

from harness.repl import render

HOME = Path("/home/ada/.harness")


def test_long_objects_put_one_key_on_a_line():
    value = {"blocked": True, "message": "m" * 60, "arguments": {"command": "rm -rf /"}}
    assert render.json_text(value).splitlines() == [
        '{"blocked": true,', f' "message": "{"m" * 60}",', ' "arguments": {"command": "rm -rf /"}}']
    assert render.json_text({"a": 1}) == '{"a": 1}'


def test_dispatch_result_lists_answers_errors_and_time():
    result = {"hook": "pre_tool", "outcome": {"blocked": False},
              "answers": [{"source": "plugin:a", "answer": {}}],
              "errors": [{"source": "scm:tools/b.scm:1", "message": "boom\n(x)\n^"}]}
    assert render.dispatch_result(result, 0.0012).splitlines() == [
        'outcome  {"blocked": false}',
        "answer   plugin:a {}",
        "error    scm:tools/b.scm:1: boom",
        "         (x)",
        "         ^",
        "1 answer, 1 error in 1.2 ms"]


def test_reload_events():
    reloaded = {"event": "reloaded", "path": f"{HOME}/tools/g.scm", "error": None,
                "tools": [], "hooks": ["pre_tool"]}
    assert render.reload_event(reloaded, HOME) == \
        "[reload] reloaded tools/g.scm (tools: -; hooks: pre_tool)"
    failed = {"event": "failed", "path": f"{HOME}/tools/g.scm",
              "error": "g.scm:1:2: oops\n(x\n ^", "tools": [], "hooks": ["pre_tool"]}
    assert render.reload_event(failed, HOME).splitlines() == [
        ("[reload] failed tools/g.scm (the last good version stays live: tools: -; hooks: "
         "pre_tool)"), "         g.scm:1:2: oops", "         (x", "          ^"]
    never_loaded = dict(failed, hooks=[])
    assert render.reload_event(never_loaded, HOME).startswith("[reload] failed tools/g.scm\n")
    unloaded = dict(reloaded, event="unloaded", hooks=[])
    assert render.reload_event(unloaded, HOME).startswith("[reload] unloaded tools/g.scm")
