"""The reference pages are the code's: the generated ones are current, the hand-written
``harness.toml`` table names every setting harness reads, and the site builds with no
broken link or missing page."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.config import ANY_KEYS, KNOWN_SETTINGS

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
generate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate)


@pytest.mark.parametrize("name", sorted(generate.PAGES))
def test_a_generated_page_is_current(name):
    written = (ROOT / "docs" / "reference" / name).read_text(encoding="utf-8")
    if name == "commands.md" and generate.HELP_PYTHON not in written.splitlines()[2]:
        pytest.skip(f"argparse of {generate.HELP_PYTHON} lays help out otherwise than the "
                    "Python that wrote the page (the first interpreter of CI compares it)")
    assert written == generate.PAGES[name](), (
        f"docs/reference/{name} is stale: run `python docs/generate.py`")


def test_the_hook_point_page_lists_every_hook_point():
    from harness.hooks.catalogue import HOOK_POINTS
    text = (ROOT / "docs" / "reference" / "hook-points.md").read_text(encoding="utf-8")
    samples = {name for name, point in HOOK_POINTS.items() if point.combine != "host"}
    assert set(re.findall(r"^### (\S+)$", text, re.MULTILINE)) == samples
    hosts = {name for name in HOOK_POINTS if name not in samples}
    assert {f"{row[0]}.{event}" for row in re.findall(r"^\| (\w+) \| (.*) \|$", text,
                                                      re.MULTILINE)
            for event in re.findall(r"`([^`]+)`", row[1])} >= hosts


def _settings(known: dict, prefix: str = "") -> set[str]:
    """Every ``table.key`` of KNOWN_SETTINGS; a table of any keys counts as itself."""
    found = set()
    for key, value in known.items():
        name = f"{prefix}{key}"
        if value is None or value == ANY_KEYS:
            found.add(name)
        else:
            found |= _settings(value, f"{name}.")
    return found


def _documented() -> set[str]:
    text = (ROOT / "docs" / "reference" / "config.md").read_text(encoding="utf-8")
    found, tables = set(), []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if not line.startswith("| ") or len(cells) < 2 or cells[0] == "table":
            continue
        if cells[0]:
            tables = re.findall(r"`\[([\w.]+)\]`", cells[0])
        key = re.match(r"`(\w+)`", cells[1])
        for table in tables:
            found.add(f"{table}.{key.group(1)}" if key else table)
    return found


def test_the_config_page_names_every_setting():
    assert _documented() == _settings(KNOWN_SETTINGS)


def test_the_site_builds_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                            "-d", str(tmp_path / "site")], check=False, cwd=ROOT, capture_output=True,
                           text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr
