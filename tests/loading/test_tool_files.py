"""Scheme tool files (SPEC §4) and the harness libraries (SPEC §5)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from harness.runtime import Runtime


def home_with(tmp_path: Path, files: dict[str, str], toml: str = "") -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    for name, text in files.items():
        p = home / "tools" / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    if toml:
        (home / "harness.toml").write_text(textwrap.dedent(toml))
    return home


def test_conventional_tool(tmp_path):
    rt = Runtime(home_with(tmp_path, {"shout.scm": """\
        (define tool-name "shout")
        (define tool-description "upper-case the text")
        (define tool-parameters '((text . ((type . "string") (description . "what")))))
        (define tool-category "text")
        (define (tool-execute args) (string-upcase (cdr (assoc "text" args))))
    """}))
    (schema,) = rt.tools()
    assert schema["name"] == "shout" and schema["category"] == "text"
    assert schema["parameters"] == {"type": "object", "properties": {"text": {
        "type": "string", "description": "what"}}, "required": ["text"]}
    assert rt.call_tool("shout", {"text": "hi"}).output == "HI"


def test_define_tool_clauses_in_any_order_and_several_per_file(tmp_path):
    rt = Runtime(home_with(tmp_path, {"multi.scm": """\
        (define-tool add
          (execute (lambda (args) (+ (cdr (assoc "a" args)) (cdr (assoc "b" args)))))
          (parameters '((a . ((type . "integer"))) (b . ((type . "integer") (required . #f)
                         (default . 0)))))
          (description "add two numbers"))
        (define-tool listing
          (description "a list result")
          (parameters '((mode . ((type . "string") (enum . ("a" "b"))))))
          (execute (lambda (args) (list 1 "two" 'three))))
    """}))
    names = [t["name"] for t in rt.tools()]
    assert names == ["add", "listing"]
    add = rt.tools()[0]
    assert add["parameters"]["required"] == ["a"]
    assert add["parameters"]["properties"]["b"] == {"type": "integer", "default": 0}
    assert rt.tools()[1]["parameters"]["properties"]["mode"]["enum"] == ["a", "b"]
    assert rt.call_tool("add", {"a": 2, "b": 3}).output == "5"
    # a non-string result reaches the host as JSON (SPEC §11)
    assert rt.call_tool("listing", {"mode": "a"}).output == '[1,"two","three"]'


def test_tool_output_is_captured_beside_the_value(tmp_path):
    rt = Runtime(home_with(tmp_path, {"talk.scm": """\
        (define-tool talk (description "d")
          (execute (lambda (args) (display "to stdout") (write 'x (current-error-port)) "value")))
    """}))
    result = rt.call_tool("talk")
    assert (result.output, result.stdout, result.stderr) == ("value", "to stdout", "x")


def test_tool_error_is_reported_with_position(tmp_path):
    rt = Runtime(home_with(tmp_path, {"bad.scm": """\
        (define-tool bad (description "d")
          (execute (lambda (args) (car args))))
    """}))
    result = rt.call_tool("bad", {})
    assert re.search(r"bad\.scm:2:27: car: expected a pair, got \(\)", result.error)
    assert result.output.startswith("Error: ")


def test_unknown_tool(tmp_path):
    result = Runtime(home_with(tmp_path, {})).call_tool("nope")
    assert result.error == "unknown tool 'nope'"


def test_unknown_tool_suggests_the_closest_name(tmp_path):
    rt = Runtime(home_with(tmp_path, {"w.scm": '(define-tool word-count (execute car))'}))
    assert rt.call_tool("word_count").error == ("unknown tool 'word_count'; did you mean "
                                                "'word-count'?")


def test_a_byte_order_mark_is_no_part_of_the_program(tmp_path):
    home = home_with(tmp_path, {})
    (home / "tools" / "bom.scm").write_bytes(
        b"\xef\xbb\xbf(define-tool hi (execute (lambda (a) \"hi\")))")
    rt = Runtime(home)
    assert rt.load_errors == {}
    assert rt.call_tool("hi").output == "hi"


def test_a_file_that_is_not_utf8_is_a_load_error_with_its_place(tmp_path):
    home = home_with(tmp_path, {})
    (home / "tools" / "latin1.scm").write_bytes(b'(define x 1)\n(define s "caf\xe9")\n')
    rt = Runtime(home)
    assert rt.load_errors == {str(home / "tools" / "latin1.scm"): (
        f"{home}/tools/latin1.scm:2:15: this file is not UTF-8 text (byte 0xe9 here); "
        "save it as UTF-8")}


def test_a_define_tool_of_the_wrong_shape_says_the_shape_it_expects(tmp_path):
    # the shape a newcomer guesses (a lambda list) instead of the clauses
    home = home_with(tmp_path, {"hi.scm": """\
        (define-tool hi
          "say hi"
          ((name string "who"))
          (string-append "hi " name))
    """})
    rt = Runtime(home)
    [message] = rt.load_errors.values()
    first = message.splitlines()[0]
    assert first.startswith(f"{home / 'tools' / 'hi.scm'}:1:1: define-tool: expected "
                            "(define-tool NAME (description STRING) (parameters ALIST) "
                            "(execute PROCEDURE)), got (define-tool hi"), first
    assert rt.tools() == []


def test_a_broken_file_is_reported_and_the_others_load(tmp_path):
    rt = Runtime(home_with(tmp_path, {
        "a_good.scm": '(define-tool good (description "d") (execute (lambda (a) "ok")))',
        "b_broken.scm": "(define-tool oops (description \"d\")\n  (execute (lambda (a) a))\n",
        "c_runtime_error.scm": "(define x (car '()))",
        "d_good.scm": "(register-hook 'on_start (lambda (p) '()))",
        "sub/e_nested.scm": '(define-tool nested (description "d") (execute (lambda (a) 1)))',
    }))
    assert [t["name"] for t in rt.tools()] == ["good", "nested"]
    errors = rt.load_errors
    broken = next(v for k, v in errors.items() if k.endswith("b_broken.scm"))
    assert "b_broken.scm:1:1: unexpected end of input" in broken
    runtime_err = next(v for k, v in errors.items() if k.endswith("c_runtime_error.scm"))
    assert "c_runtime_error.scm:1:11: car: expected a pair, got ()" in runtime_err
    assert len(rt.hooks()) == 1


def test_hook_only_file_needs_no_tool(tmp_path):
    rt = Runtime(home_with(tmp_path, {"h.scm": "(register-hook 'on_end (lambda (p) '()))"}))
    assert rt.tools() == [] and rt.hooks()[0]["hook"] == "on_end"


def test_register_hook_validates_its_arguments(tmp_path):
    rt = Runtime(home_with(tmp_path, {
        "a.scm": "(register-hook 'pre_tools (lambda (p) '()))",
        "b.scm": "(register-hook 'pre_tool 42)",
        "c.scm": "(define-tool t (descripton \"typo\") (execute (lambda (a) 1)))",
        "d.scm": "(define-tool t (description \"d\"))",
    }))
    errs = {Path(k).name: v for k, v in rt.load_errors.items()}
    assert "did you mean 'pre_tool'" in errs["a.scm"]
    assert "register-hook: expected a procedure, got 42" in errs["b.scm"]
    assert "unknown clause descripton" in errs["c.scm"]
    assert "missing (execute procedure)" in errs["d.scm"]


def test_call_tool_runs_the_full_hook_stack(tmp_path):
    rt = Runtime(home_with(tmp_path, {"stack.scm": """\
        (define seen '())
        (define (note! x) (set! seen (cons x seen)))
        (register-hook 'pre_tool (lambda (p) (note! "pre_tool")
          (list (cons "arguments" (list (cons "n" 41))))))
        (register-hook 'pre_tool_output (lambda (p) (note! "pre_tool_output")
          (list (cons "output" (string-append (cdr (assoc "output" p)) "!")))))
        (register-hook 'post_tool_output (lambda (p) (note! "post_tool_output") '()))
        (register-hook 'post_tool (lambda (p) (note! "post_tool") '()))
        (define-tool inc (description "d") (execute (lambda (a) (+ 1 (cdr (assoc "n" a))))))
        (define-tool log (description "d") (execute (lambda (a) (reverse seen))))
        (define-tool via (description "d") (execute (lambda (a) (call-tool "inc" '()))))
    """}))
    assert rt.call_tool("inc", {"n": 1}).output == "42!"
    log = rt.call_tool("log").output
    assert log.startswith('["pre_tool","pre_tool_output","post_tool_output","post_tool"')
    # call-tool from Scheme goes through the hooks of the called tool too
    assert rt.call_tool("via").output == "42!!"


def test_pre_tool_block_stops_the_call(tmp_path):
    rt = Runtime(home_with(tmp_path, {"b.scm": """\
        (register-hook 'pre_tool (lambda (p) (list (cons "block" #t))))
        (define-tool t (description "d") (execute (lambda (a) (error "must not run"))))
    """}))
    result = rt.call_tool("t")
    assert result.blocked and result.output == "Tool call blocked by hook"


def test_harness_helpers(tmp_path):
    rt = Runtime(home_with(tmp_path, {"h.scm": """\
        (define-tool ids (description "d") (execute (lambda (a) (list (generate-id)
          (current-timestamp)))))
        (define-tool js (description "d") (execute (lambda (a)
          (json-stringify (json-parse "{\\"b\\": [1, null, true], \\"a\\": {\\"x\\": 1.5}}")))))
        (define-tool docs (description "d") (execute (lambda (a)
          (list (length (hook-points)) (hook-doc 'pre_tool)))))
    """}))
    out = rt.call_tool("ids").output
    assert re.fullmatch(r'\["[0-9a-f]{8}","\d{8}-\d{4}z"\]', out), out
    assert rt.call_tool("js").output == '{"b":[1,null,true],"a":{"x":1.5}}'
    docs = rt.call_tool("docs").output
    from harness.hooks.catalogue import HOOK_POINTS  # 34, 31 of Claude Code, the other hosts'
    assert docs.startswith(f"[{len(HOOK_POINTS)},")


def test_tein_json_alias_and_prelude_shadowing(tmp_path):
    rt = Runtime(home_with(tmp_path, {"t.scm": """\
        (import (tein json))
        (define (filter x) (list 'mine x))
        (define-tool t (description "d") (execute (lambda (a)
          (list (filter 1) (json-stringify (list (cons "k" 'null)))))))
    """}))
    assert rt.call_tool("t").output == '[["mine",1],"{\\"k\\":null}"]'


def test_harness_io_needs_the_unsandboxed_tier(tmp_path):
    files = {
        "sandboxed.scm": "(import (harness io))",
        "admin/io.scm": """\
            (import (harness io))
            (define-tool save (description "d") (execute (lambda (a)
              (io-write "vfs:///notes/a.txt" "hello")
              (io-append "vfs:///notes/a.txt" " world")
              (list (io-read "vfs:///notes/a.txt") (io-list "vfs:///notes")
                    (io-exists? "vfs:///notes/a.txt") (io-read "vfs:///missing")))))
            (define-tool escape (description "d") (execute (lambda (a)
              (io-read "vfs:///../../etc/passwd"))))
        """,
    }
    rt = Runtime(home_with(tmp_path, files, toml='[tools.tiers]\n"admin/" = "unsandboxed"\n'))
    err = next(v for k, v in rt.load_errors.items() if k.endswith("sandboxed.scm"))
    assert "(harness io) needs the unsandboxed tier" in err
    assert rt.call_tool("save").output == '["hello world",["a.txt"],true,false]'
    assert (rt.home / "vfs" / "notes" / "a.txt").read_text() == "hello world"
    assert "VFS path cannot contain '.' or '..'" in rt.call_tool("escape").error


def test_sandboxed_code_cannot_call_unsandboxed_or_plugin_tools(tmp_path):
    home = home_with(tmp_path, {
        "admin/power.scm": '(define-tool power (description "d") (execute (lambda (a) "p")))',
        "user.scm": """\
            (define-tool try-power (description "d")
              (execute (lambda (a) (call-tool "power" '()))))
            (define-tool try-missing (description "d")
              (execute (lambda (a) (call-tool "missing" '()))))
            (define-tool plain (description "d") (execute (lambda (a) "plain")))
            (define-tool try-plain (description "d")
              (execute (lambda (a) (call-tool "plain" '()))))
        """,
    }, toml='[tools.tiers]\n"admin/" = "unsandboxed"\n')
    rt = Runtime(home)
    assert "sandboxed code cannot call power (an unsandboxed tool)" in \
        rt.call_tool("try-power").error
    assert "unknown tool 'missing'" in rt.call_tool("try-missing").error
    assert rt.call_tool("try-plain").output == "plain"


def test_a_tool_name_in_two_files_runs_the_first_in_path_order_until_it_goes(tmp_path):
    tool = """\
        (define tool-name "who")
        (define tool-description "which file answers")
        (define tool-parameters '())
        (define (tool-execute args) "{}")
    """
    rt = Runtime(home_with(tmp_path, {"a.scm": tool.format("a"), "b.scm": tool.format("b")}))
    assert rt.call_tool("who", {}).output == "a"
    rt.unload_file(rt.tools_dir / "a.scm")      # the index follows the registry
    assert rt.call_tool("who", {}).output == "b"
    rt.unload_file(rt.tools_dir / "b.scm")
    assert rt.call_tool("who", {}).error == "unknown tool 'who'"
