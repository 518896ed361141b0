"""Loading .py and .hy tool files: what the harness.api decorators register, and load
errors with FILE:LINE:COL (Hy's own positions) and a caret."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from harness.api import hook, tool
from harness.loading.loader import ToolLoadError, load_tool_file
from harness.sandbox.scheme_calls import Limits

LIMITS = Limits(steps=None, seconds=2.0)
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python_hooks"


def load(tmp_path: Path, name: str, text: str, tier: str = "unsandboxed", limits=LIMITS):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return load_tool_file(path, tier, limits)


def load_error(tmp_path: Path, name: str, text: str, **kw) -> str:
    with pytest.raises(ToolLoadError) as caught:
        load(tmp_path, name, text, **kw)
    return caught.value.message


def test_a_hy_file_registers_its_hook_and_tool_with_hy_names():
    reg = load_tool_file(FIXTURES / "no_force.hy", "unsandboxed", LIMITS)
    [h] = reg.hooks
    assert (h.point, h.source) == ("pre_tool", f"hy:{FIXTURES}/no_force.hy:4")
    [t] = reg.tools
    assert t.name == "word-count"  # as the Hy file spells it, not the mangled word_count
    assert t.schema() == {"name": "word-count", "description": "count the words of a text",
                          "parameters": {"type": "object", "required": ["text"],
                                         "properties": {"text": {"type": "string",
                                                                 "description": "the text"}}}}
    assert t.fn({"text": "a b c"}) == 3


def test_a_python_file_takes_a_full_json_schema_as_it_is():
    reg = load_tool_file(FIXTURES / "audit.py", "unsandboxed", LIMITS)
    [t] = reg.tools
    assert t.parameters == {"type": "object", "properties": {"text": {"type": "string"}},
                            "required": ["text"]}
    assert [h.source for h in reg.hooks] == [f"py:{FIXTURES}/audit.py:5"]


def test_optional_parameters_and_default_names(tmp_path):
    reg = load(tmp_path, "t.py", """\
        from harness.api import tool
        @tool(parameters={"path": {"type": "string"},
                          "lines": {"type": "integer", "required": False}})
        def file_peek(args):
            return ""
        """)
    assert reg.tools[0].name == "file_peek"
    assert reg.tools[0].parameters["required"] == ["path"]


def test_decorators_outside_a_load_return_the_function_unchanged():
    @hook("pre_tool")
    def guard(payload):
        return {"block": True}

    @tool(description="d")
    def helper(args):
        return "x"

    assert guard({}) == {"block": True} and helper({}) == "x"


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("syntax.py", "def f(:\n    pass\n", "syntax.py:1:7: invalid syntax\ndef f(:\n      ^"),
    ("raises.py", "x = 1\ny = {}['k']\n", "raises.py:2:5: KeyError: 'k'\ny = {}['k']\n    ^"),
    ("open.hy", "(defn f [x]\n  (+ x 1)\n",
     "open.hy:2:9: Premature end of input while attempting to parse one form"),
    ("macro.hy", "(defn f [x] x)\n(fn)\n", "macro.hy:2:2: parse error for pattern macro 'fn'"),
    ("runtime.hy", "(defn f [x] x)\n(setv y (f 1 2))\n",
     "runtime.hy:2:9: TypeError: f() takes 1 positional argument but 2 were given"),
    ("point.py", "from harness.api import hook\n@hook('pre_tol')\ndef f(p): pass\n",
     "point.py:2:2: UnknownHookError: unknown hook point 'pre_tol'; did you mean 'pre_tool'?"),
    ("twice.py", ("from harness.api import tool\n@tool()\ndef a(x): pass\n"
                  "@tool(name='a')\ndef b(x): pass\n"),
     "twice.py:4:2: ValueError: tool a is defined twice in this file"),
])
def test_load_errors_have_file_line_column_and_a_caret(tmp_path, name, text, expected):
    message = load_error(tmp_path, name, text)
    assert message.startswith(f"{tmp_path}/{expected}")


def test_a_file_whose_top_level_never_ends_is_stopped_by_the_tier_time_limit(tmp_path):
    message = load_error(tmp_path, "spin.py", "while True:\n    pass\n",
                         limits=Limits(steps=None, seconds=0.2))
    assert message.startswith(f"{tmp_path}/spin.py:")
    assert "time limit of 0.2 s exceeded" in message


def test_a_sandboxed_python_file_is_refused_before_it_runs(tmp_path):
    marker = tmp_path / "ran"
    message = load_error(tmp_path, "x.py", f"open({str(marker)!r}, 'w')\n", tier="sandboxed")
    assert "cannot be sandboxed" in message and not marker.exists()


def test_system_exit_at_the_top_level_is_a_load_error(tmp_path):
    assert "SystemExit: 3" in load_error(tmp_path, "exit.py", "import sys\nsys.exit(3)\n")
