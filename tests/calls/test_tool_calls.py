"""One tool call, for every kind of tool: arguments checked against the schema, the
result as JSON where it has a JSON form, hook failures reported, the calling context
(SPEC §11, issue 15 items 4 and 5)."""

from __future__ import annotations

import json
import textwrap

from harness.loading.registry import PythonTool
from harness.runtime import Runtime

TOOLS = """\
(define-tool head
  (description "the first lines of a text")
  (parameters '((text . ((type . "string") (description . "the text")))
                (lines . ((type . "integer") (description . "how many")
                          (required . #f)))))
  (execute (lambda (args)
    (let ((n (cond ((assoc "lines" args) => cdr) (else 1))))
      (list (cons "lines" n) (cons "exact" (exact-integer? n)))))))

(define-tool schema-kept
  (description "a whole JSON Schema as parameters")
  (parameters '((type . "object")
                (properties . ((items . ((type . "array") (items . ((type . "string")))))))
                (required "items")
                (additionalProperties . #f)))
  (execute (lambda (args) (length (cdr (assoc "items" args))))))

(define-tool needs-id
  (description "fails when id is missing")
  (parameters '((id . ((type . "string") (description . "which")))))
  (execute (lambda (args) (cdr (assoc "id" args)))))

(define-tool whoami
  (description "the calling context")
  (execute (lambda (args) %context-name%)))

(define-tool nested
  (description "call-tool keeps the calling context")
  (execute (lambda (args) (call-tool "whoami" '()))))

(define-tool calls-with-a-typo
  (description "call-tool keeps chibi's rule: names are left to the called tool")
  (execute (lambda (args) (call-tool "head" '(("text" . "a") ("lnies" . 3))))))

(define-tool unprintable
  (description "a value without a JSON form")
  (execute (lambda (args) (list #\\a car))))
"""

BROKEN_HOOK = """\
(register-hook 'post_tool (lambda (payload) (car '())))
"""


def make_home(tmp_path, files=None):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    for name, text in (files or {"tools.scm": TOOLS}).items():
        (home / "tools" / name).write_text(textwrap.dedent(text))
    return home


def test_a_numeric_string_is_read_as_the_integer_the_schema_asks_for(tmp_path):
    rt = Runtime(make_home(tmp_path))
    result = rt.call_tool("head", {"text": "a", "lines": "200"})
    assert result.error is None
    assert json.loads(result.output) == {"lines": 200, "exact": True}


def test_a_wrong_typed_argument_names_the_argument_and_the_type(tmp_path):
    rt = Runtime(make_home(tmp_path))
    result = rt.call_tool("head", {"text": "a", "lines": "ten"})
    assert result.error == 'argument \'lines\' must be an integer, got a string ("ten")'
    assert result.output == f"Error: {result.error}"
    wrong = rt.call_tool("head", {"text": ["a"]})
    assert wrong.error == "argument 'text' must be a string, got an array"


def test_an_optional_parameter_may_be_left_out(tmp_path):
    rt = Runtime(make_home(tmp_path))
    (schema,) = [t for t in rt.tools() if t["name"] == "head"]
    assert schema["parameters"]["required"] == ["text"]
    assert json.loads(rt.call_tool("head", {"text": "a"}).output) == {"lines": 1,
                                                                        "exact": True}


def test_a_whole_json_schema_as_parameters_is_kept(tmp_path):
    rt = Runtime(make_home(tmp_path))
    (schema,) = [t for t in rt.tools() if t["name"] == "schema-kept"]
    assert schema["parameters"] == {
        "type": "object", "properties": {"items": {"type": "array",
                                                   "items": {"type": "string"}}},
        "required": ["items"], "additionalProperties": False}
    assert rt.call_tool("schema-kept", {"items": ["a", "b"]}).output == "2"
    assert rt.call_tool("schema-kept", {"items": ["a", 1]}).error == \
        "argument 'items[1]' must be a string, got an integer (1)"
    extra = rt.call_tool("schema-kept", {"items": [], "other": 1}).error
    assert extra == "unknown argument 'other' (it takes 'items')"


def test_a_missing_required_argument_is_named_when_the_tool_fails(tmp_path):
    rt = Runtime(make_home(tmp_path))
    result = rt.call_tool("needs-id", {})
    assert "cdr: expected a pair" in result.error
    assert result.error.endswith("(missing required argument: 'id')")
    assert rt.call_tool("needs-id", {"id": "x"}).output == "x"


def test_a_misspelt_argument_is_refused_before_the_call_with_the_closest_name(tmp_path):
    rt = Runtime(make_home(tmp_path))
    result = rt.call_tool("head", {"text": "a", "lnies": 3})
    assert result.error == "unknown argument 'lnies' (did you mean 'lines'?)"
    assert result.output == f"Error: {result.error}"


def test_a_call_tool_from_scheme_leaves_names_to_the_called_tool(tmp_path):
    rt = Runtime(make_home(tmp_path))
    assert json.loads(rt.call_tool("calls-with-a-typo").output) == {"lines": 1,
                                                                     "exact": True}


def test_a_python_tool_never_runs_without_a_required_argument(tmp_path):
    rt = Runtime(make_home(tmp_path))
    calls = []
    rt.register_tool("greet", lambda args: calls.append(args) or f"hi {args['name']}",
                     description="greets", parameters={"name": {"type": "string"}})
    result = rt.call_tool("greet", {"nmae": "Ada"})
    assert result.error == ("missing required argument 'name'; "
                            "unknown argument 'nmae' (did you mean 'name'?)")
    assert calls == []
    assert rt.call_tool("greet", {"name": "Ada"}).output == "hi Ada"


def test_results_without_a_json_form_are_written(tmp_path):
    rt = Runtime(make_home(tmp_path))
    assert rt.call_tool("unprintable").output.startswith("(#\\a #<procedure")


def test_python_tools_are_checked_and_converted_in_the_same_place(tmp_path):
    rt = Runtime(make_home(tmp_path, {}))
    calls = []

    def add(arguments):
        calls.append(arguments)
        return {"sum": arguments["a"] + arguments.get("b", 0)}

    rt.registry.builtins = {"add": PythonTool(
        "add", "add numbers", {"type": "object", "properties": {
            "a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a"]},
        add, "builtin:add")}
    assert rt.call_tool("add", {"a": "2", "b": 3}).output == '{"sum":5}'
    assert calls == [{"a": 2, "b": 3}]
    assert rt.call_tool("add", {"a": True}).error == \
        "argument 'a' must be an integer, got a boolean (true)"
    assert len(calls) == 1  # a refused call never runs


def test_hook_failures_of_every_dispatch_are_in_the_result(tmp_path):
    rt = Runtime(make_home(tmp_path, {"tools.scm": TOOLS, "broken.scm": BROKEN_HOOK}))
    result = rt.call_tool("whoami")
    assert result.output == "default" and result.error is None
    (entry,) = result.errors
    assert entry["source"].endswith("broken.scm:1")
    assert "post_tool hook failed" in entry["message"]


def test_the_calling_context_is_context_name_and_call_tool_keeps_it(tmp_path):
    rt = Runtime(make_home(tmp_path))
    assert rt.call_tool("whoami", context="alice").output == "alice"
    assert rt.call_tool("nested", context="bob").output == "bob"
    assert rt.call_tool("whoami").output == "default"


def test_hooks_of_a_call_run_in_its_context(tmp_path):
    seen = """\
    (define seen '())
    (register-hook 'pre_tool (lambda (p) (set! seen (cons %context-name% seen)) '()))
    (define-tool seen (description "d") (execute (lambda (a) seen)))
    """
    rt = Runtime(make_home(tmp_path, {"seen.scm": seen}))
    assert rt.call_tool("seen", context="carol").output == '["carol"]'


PLUGIN = """\
#!{python}
import json, os, sys
if sys.argv[1:] == ["--schema"]:
    print(json.dumps({{"name": "repeat", "description": "repeat a word",
                      "parameters": {{"type": "object", "properties": {{
                          "word": {{"type": "string"}}, "times": {{"type": "integer"}}}},
                          "required": ["word", "times"]}}}}))
    sys.exit(0)
args = json.loads(sys.stdin.read())
print(json.dumps(args))
"""


def test_plugin_tools_are_checked_in_the_same_place(tmp_path):
    import sys
    home = make_home(tmp_path, {})
    plugin = home / "plugins" / "repeat"
    plugin.parent.mkdir()
    plugin.write_text(PLUGIN.format(python=sys.executable))
    plugin.chmod(0o755)
    rt = Runtime(home)
    assert json.loads(rt.call_tool("repeat", {"word": "hi", "times": "3"}).output) == {
        "word": "hi", "times": 3}
    refused = rt.call_tool("repeat", {"word": "hi", "times": 2.5})
    assert refused.error == "argument 'times' must be an integer, got a number (2.5)"
