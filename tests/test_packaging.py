"""A built harness carries what it ships beside its package: the Scheme libraries, the
builtin .scm tools and the examples ``harness demo`` runs (``setup.py``'s build step,
found by ``harness.shipped``), so a plain ``pip install .`` works as a checkout does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("scheme_lib", "tools", "examples")


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


def test_a_build_carries_the_shipped_folders_and_uses_them(tmp_path):
    build = tmp_path / "lib"
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(build)],
                   cwd=ROOT, check=True, capture_output=True)
    for name in SHIPPED:
        copy = build / "harness" / "_shipped" / name
        assert _files(copy) == _files(ROOT / name), name
    plugin = build / "harness" / "_shipped" / "examples" / "plugins" / "logger"
    assert os.access(plugin, os.X_OK), "plugins stay executable"
    # the built package, not this checkout, imported from elsewhere: it finds its copies
    code = ("import harness.scheme.libraries as l, harness.builtins as b, harness.cli.demo as d\n"
            "from harness.scheme.interpreter import Interpreter\n"
            "print(l.SCHEME_LIB, b.BUILTIN_TOOLS_DIR, d.EXAMPLES, sep='\\n')\n"
            "print(Interpreter().eval_string("
            "'(begin (import (srfi 8)) (receive (a b) (values 1 2) (+ a b)))'))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(build)}).stdout.splitlines()
    assert out == [str(build / "harness" / "_shipped" / name) for name in SHIPPED] + ["3"]
    # the ready guards come with it, and their shell reader
    code = ("from harness.guards import GUARDS_DIR, guard_names\n"
            "print(GUARDS_DIR, len(guard_names()))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(build)}).stdout.split()
    assert out == [str(build / "harness" / "_shipped" / "tools" / "guards"), "7"]


def test_a_clone_named_harness_in_the_current_directory_still_imports(tmp_path):
    # an editable install, run from the folder that holds its clone: Python takes the clone
    # for a namespace package "harness" (here a link named harness stands for the clone),
    # whose portions include the installed package; no folder at the clone's top level is
    # named like a subpackage of harness (a top-level tools/ once shadowed harness.tools)
    (tmp_path / "harness").symlink_to(ROOT)
    run = subprocess.run([sys.executable, "-c", "from harness.runtime import Runtime"],
                         cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
