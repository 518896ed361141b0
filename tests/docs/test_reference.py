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


def _sections(text: str) -> dict[str, str]:
    """The ``## TITLE`` sections of a page, by title."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_commands_page_has_every_command_and_option():
    from harness.cli import build_parser
    from harness.repl import build_parser as build_repl_parser
    sections = _sections((ROOT / "docs" / "reference" / "commands.md").read_text())
    parser = build_parser()
    [action] = [a for a in parser._actions if a.dest == "command"]
    parsers = {"harness": parser, "harness-repl": build_repl_parser(),
               **{f"harness {name}": sub for name, sub in action.choices.items()}}
    assert set(sections) == set(parsers)
    for title, sub in parsers.items():
        for option in (o for a in sub._actions for o in a.option_strings):
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", sections[title]), (
                f"docs/reference/commands.md: {title} lacks {option}")


def test_harness_help_prints_what_the_commands_page_shows():
    written = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    if generate.HELP_PYTHON not in written.splitlines()[2]:
        pytest.skip(f"the page was written by another Python than {generate.HELP_PYTHON}")
    shown = _sections(written)["harness install"]
    shown = shown[shown.index("```text\n") + 8:shown.rindex("\n```")]
    printed = subprocess.run([sys.executable, "-m", "harness.cli", "install", "--help"],
                             capture_output=True, text=True, check=True,
                             env={**os.environ, "COLUMNS": "100"}).stdout
    assert printed.rstrip() == shown


def test_every_scheme_library_imports_in_the_tiers_the_page_gives():
    from harness.scheme.interpreter import make_environment, run_source
    text = (ROOT / "docs" / "reference" / "scheme-libraries.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[?`\(([^)]+)\)`(?:\]\(#[\w-]+\))? \| ([a-z, ]+) \|", text,
                      re.MULTILINE)
    assert {tuple(name.split()) for name, _ in rows} == set(generate.scheme_libraries())
    for name, tiers in rows:
        for tier in ("sandboxed", "unsandboxed"):
            env = make_environment(tier)
            if tier in tiers.split(", "):
                run_source(env, f"(import ({name}))", f"<import ({name})>")
            else:
                with pytest.raises(Exception, match="sandboxed tier"):
                    run_source(env, f"(import ({name}))", f"<import ({name})>")


@pytest.mark.parametrize("module_name", sorted(generate.PUBLIC_MODULES))
def test_every_public_name_of_the_python_api_has_a_docstring(module_name):
    import importlib
    module = importlib.import_module(module_name)
    assert (module.__doc__ or "").strip(), f"{module_name} has no docstring"
    for name in generate.public_members(module_name):
        value = getattr(module, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), f"{module_name}.{name} has no docstring"
