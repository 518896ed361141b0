"""Every argument that names a place is judged, whether given, defaulted or derived (issue
23, item 1): a sandboxed file that leaves ``path`` out of a search builtin searches the
project root, so the sandbox check must see that default, not only a ``path`` given."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime

PROBE = """\
(define-tool try (description "d") (execute (lambda (args)
  (guard (e (#t (error-object-message e)))
    (call-tool (cdr (assoc "tool" args)) (cdr (assoc "args" args)))))))
"""


def _rooted(project: Path) -> str:
    return f'[tools]\nproject_root = "{project}"\n'


@pytest.fixture
def project(tmp_path):
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "config.txt").write_text("api_key=SECRET123\n")
    return root


@pytest.mark.parametrize("tool, arguments", [
    ("grep_files", {"pattern": "api_key"}),
    ("grep_files", {"pattern": "api_key", "path": 7}),   # wrong-typed: the tool uses "."
    ("glob_files", {"pattern": "*.txt"}),
    ("dir_list", {}),
    ("dir_list", {"depth": 3}),
])
def test_a_defaulted_place_is_judged_like_a_given_one(tmp_path, project, tool, arguments):
    rt = runtime(make_home(tmp_path, {"try.scm": PROBE}, _rooted(project)))
    result = rt.call_tool("try", {"tool": tool, "args": arguments})
    assert f"sandboxed code cannot call {tool} on a host path" in result.output
    assert "SECRET123" not in result.output and "config.txt" not in result.output


def test_the_host_may_still_search_its_project_with_the_default(tmp_path, project):
    rt = runtime(make_home(tmp_path, toml=_rooted(project)), allow=None)
    result = rt.call_tool("grep_files", {"pattern": "api_key"})
    assert "sub/config.txt:1: api_key=SECRET123" in result.output


def test_a_defaulted_place_outside_the_allowed_paths_fires_the_gate(tmp_path, project):
    # the project root is allowed; a default that led elsewhere would fire pre_file_read
    fired = []
    rt = runtime(make_home(tmp_path, toml=_rooted(project)), allow=None)
    rt.register_hook("pre_file_read", lambda p: fired.append(p["path"]) or None)
    rt.call_tool("dir_list", {"path": str(tmp_path)})
    assert fired == [str(tmp_path)]
    fired.clear()
    rt.call_tool("dir_list", {})
    assert fired == []  # "." is the project root: allowed
