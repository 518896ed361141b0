"""Shared by the builtin-tool tests: a home, and a runtime that approves or refuses."""

from __future__ import annotations

from pathlib import Path

from harness.runtime import Runtime


def make_home(tmp_path: Path, files: dict[str, str] | None = None, toml: str = "") -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    for name, text in (files or {}).items():
        path = home / "tools" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if toml:
        (home / "harness.toml").write_text(toml)
    return home


def runtime(home: Path, allow: bool | None = True, **kw) -> Runtime:
    """A runtime whose permission handler approves (allow=True), refuses (False), or that
    has none (None: the fail-safe deny)."""
    handler = None if allow is None else (lambda hook, payload: allow)
    return Runtime(home, permission_handler=handler, **kw)
