"""A large output is cached as text the model can page through, and its stub tells the
truth about it (issue 24: an agent must never get stuck on a cached output)."""

from __future__ import annotations

import re

from builtin_helpers import make_home, runtime

from harness.calls.output_cache import pageable_text


def test_shell_output_is_cached_as_lines_the_model_can_page_through(tmp_path):
    with runtime(make_home(tmp_path)) as rt:
        stub = rt.call_tool("shell_exec", {"command": "seq 1 3000"}).output
        uri = re.match(r"\[Output cached: (vfs:///\S+)\]", stub).group(1)
        stored = rt.call_tool("file_head", {"path": uri, "lines": 3}).output
        assert stored == "exit_code: 0\n[stdout]\n1"
        assert "| Lines: 3002\n" in stub  # exit_code, [stdout] and 3,000 numbers
        assert rt.call_tool("file_tail", {"path": uri, "lines": 2}).output == "2999\n3000"


def test_reading_a_cached_output_is_never_cached_again(tmp_path):
    with runtime(make_home(tmp_path)) as rt:
        stub = rt.call_tool("shell_exec", {"command": "seq 1 3000"}).output
        uri = re.match(r"\[Output cached: (vfs:///\S+)\]", stub).group(1)
        whole = rt.call_tool("file_head", {"path": uri, "lines": 5000}).output
        assert not whole.startswith("[Output cached")
        assert whole.splitlines()[-1] == "3000"


def test_other_outputs_are_stored_as_they_are():
    assert pageable_text("line 1\nline 2\n") == "line 1\nline 2\n"
    assert pageable_text('{"a": 1}') == '{"a": 1}'
    assert pageable_text('{"exit_code": 1, "stdout": "", "stderr": "no\\n"}') == (
        "exit_code: 1\n[stderr]\nno\n")
