"""Reading part of a file never holds the whole file (issue 23, item 6): file_head,
file_lines, file_tail and file_grep stream it, and one endless line is cut at MAX_LINE.
Each case runs in a forked child whose address space is far smaller than the file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from builtin_helpers import make_home, runtime
from security_helpers import run_forked_batch

from harness.host_libraries.line_stream import CUT_NOTE, MAX_LINE

BIG = 600 * 1024 * 1024  # bytes of the file; the children may grow by 200 MB at most


def _big_file(tmp_path: Path) -> Path:
    path = tmp_path / "big.log"
    with path.open("wb") as f:
        f.write(b"first api_key\nsecond\nthird\n")
        f.truncate(BIG)  # sparse: the rest is one line of NULs, never on the disk
    return path


def test_a_few_lines_of_a_huge_file_cost_a_few_lines(tmp_path):
    big = _big_file(tmp_path)
    home = make_home(tmp_path)

    def call(tool: str, arguments: dict):
        def task() -> dict:
            result = runtime(home).call_tool(tool, dict(arguments, path=str(big)))
            return {"error": result.error, "output": result.output[:200],
                    "length": len(result.output)}
        return task

    runs = run_forked_batch({
        "head": call("file_head", {"lines": 3}),
        "lines": call("file_lines", {"start": 2, "end": 3}),
        "grep": call("file_grep", {"pattern": "api_key", "context_after": 1}),
        "tail": call("file_tail", {"lines": 1}),
    }, timeout=60, memory_mb=200)
    for name, run in runs.items():
        assert run.status == "ok" and "child_exception" not in run.value, \
            f"{name}: {run.describe()}"
        assert run.value["error"] is None, f"{name}: {run.value['error']}"
    assert runs["head"].value["output"] == "first api_key\nsecond\nthird"
    assert runs["lines"].value["output"] == "second\nthird"
    assert runs["grep"].value["output"] == ">1:first api_key\n 2:second"
    # the last line is 600 MB of NULs: cut at MAX_LINE (the tool's output is then cached)
    assert runs["tail"].value["output"].startswith("[Output cached: ")
    assert f"Size: {MAX_LINE + len(CUT_NOTE.encode())} chars" in runs["tail"].value["output"]


def test_line_counting_matches_chibis(tmp_path):
    rt = runtime(make_home(tmp_path))
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"one\r\ntwo\r\n\r\nlast\r")
    head = rt.call_tool("file_head", {"path": str(path), "lines": 10})
    assert head.output == "one\ntwo\n\nlast"
    assert rt.call_tool("file_tail", {"path": str(path), "lines": 2}).output == "\nlast"
    os.truncate(path, 0)
    assert rt.call_tool("file_head", {"path": str(path)}).output == ""
