"""Hot reload of .hy and .py tool files: the same lifecycle as .scm files (reload on save,
last good version on a broken edit, unload on delete), and Python's droppings ignored."""

from __future__ import annotations

from pathlib import Path

from reload_helpers import save_atomic

UNSANDBOXED = '[tools.tiers]\n"" = "unsandboxed"\n'


def hy_guard(message: str) -> str:
    return ("(import harness.api [hook])\n"
            "(defn [(hook \"pre_tool\")] guard [payload]\n"
            f"  {{\"block\" True \"message\" \"{message}\"}})\n")


def py_guard(message: str) -> str:
    return ("from harness.api import hook\n\n"
            "@hook('pre_tool')\n"
            f"def guard(payload):\n    return {{'block': True, 'message': '{message}'}}\n")


def test_a_hy_guard_reloads_keeps_its_last_good_version_and_unloads(home: Path, live):
    (home / "harness.toml").write_text(UNSANDBOXED)
    guard = home / "tools" / "guard.hy"
    guard.write_text(hy_guard("v1"))
    session = live()
    assert session.verdict() == "v1"

    save_atomic(guard, hy_guard("v2"))  # as editors save: a temp file renamed over it
    session.settle()
    assert session.verdict() == "v2"
    assert session.kinds() == [("reloaded", "guard.hy")]

    guard.write_text(hy_guard("v3").replace("True", "True}"))  # an unbalanced brace
    session.settle()
    assert session.verdict() == "v2"  # the last good version stays live
    failed = session.events[-1]
    assert failed["event"] == "failed" and failed["hooks"] == ["pre_tool"]
    assert failed["error"].startswith(f"{guard}:3:")

    guard.write_text(hy_guard("v4"))
    session.settle()
    assert session.verdict() == "v4"
    guard.unlink()
    session.settle()
    assert session.verdict() is None
    assert session.kinds()[-1] == ("unloaded", "guard.hy")


def test_a_py_guard_reloads_and_python_caches_are_no_tool_files(home: Path, live):
    (home / "harness.toml").write_text(UNSANDBOXED)
    guard = home / "tools" / "guard.py"
    guard.write_text(py_guard("v1"))
    session = live()
    assert session.verdict() == "v1"
    cache = home / "tools" / "__pycache__"
    cache.mkdir()
    (cache / "guard.cpython-311.py").write_text("raise SystemExit('not a tool file')\n")
    guard.write_text(py_guard("v2"))
    session.settle()
    assert session.verdict() == "v2"
    assert session.kinds() == [("reloaded", "guard.py")]
    assert session.rt.load_errors == {}


def test_a_python_file_moved_into_a_sandboxed_path_fails_to_load(home: Path, live):
    (home / "harness.toml").write_text('[tools.tiers]\n"admin/" = "unsandboxed"\n')
    (home / "tools" / "admin").mkdir()
    (home / "tools" / "admin" / "guard.py").write_text(py_guard("admin"))
    session = live()
    assert session.verdict() == "admin"
    (home / "tools" / "guard.py").write_text(py_guard("outside"))
    session.settle()
    message = session.rt.load_errors[str(home / "tools" / "guard.py")]
    assert 'give its path the "unsandboxed" tier' in message
    assert session.verdict() == "admin"


def test_taking_the_unsandboxed_tier_away_unloads_a_python_file(home: Path, live):
    (home / "harness.toml").write_text(UNSANDBOXED)
    guard = home / "tools" / "guard.py"
    guard.write_text(py_guard("v1"))
    session = live()
    assert session.verdict() == "v1"
    (home / "harness.toml").write_text("")  # everything sandboxed again
    session.settle()
    assert session.verdict() is None  # not kept running with powers it no longer has
    message = session.rt.load_errors[str(guard)]
    assert "cannot be sandboxed" in message
    assert "its last good version ran unsandboxed and was unloaded" in message
