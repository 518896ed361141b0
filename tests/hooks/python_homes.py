"""A home whose tools/ folder holds .scm, .hy and .py files, with the unsandboxed tier for
the Python ones, for the tests of Python and Hy hooks."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "python_hooks"
PRE_TOOL_FORCE = {"tool_name": "shell_exec",
                  "arguments": {"command": "git push --force origin main"}}

UNSANDBOXED = '[tools.tiers]\n"py/" = "unsandboxed"\n'


def python_home(tmp_path: Path, files: dict[str, str], toml: str = UNSANDBOXED,
                fixtures: tuple[str, ...] = ()) -> Path:
    """A home with ``files`` (name -> text, dedented) under tools/ and the named fixture
    files copied to tools/py/; tools/py/ is unsandboxed unless ``toml`` says otherwise."""
    home = tmp_path / "home"
    (home / "tools" / "py").mkdir(parents=True)
    (home / "plugins").mkdir()
    for name, text in files.items():
        path = home / "tools" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for name in fixtures:
        shutil.copy(FIXTURES / name, home / "tools" / "py" / name)
    (home / "harness.toml").write_text(toml)
    return home
