"""The README and the docs keep their promises: the files they show load, their other
snippets parse, the commands they show exist with the options they give them, the numbers
they state are the tree's, and the outputs they print (a fire, a tool call, the tutorial's
fixture runs, a Claude Code answer) are what those commands print. A failure names the
page and line to mend."""

from __future__ import annotations

import ast
import io
import json
import re
import shlex
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from harness.builtins import BuiltinTools
from harness.cli import build_parser
from harness.config import DEFAULT_LIMITS, Config, load_config, unknown_settings
from harness.handlers.sources import Source, load_source
from harness.hooks.catalogue import CLAUDE_EVENTS, HOOK_POINTS
from harness.loading.loader import load_tool_file
from harness.repl import build_parser as build_repl_parser
from harness.repl.commands import COMMANDS
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.reader import read_all
from tests.docs.blocks import claims

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: every page a user reads, by its path from the repository root
PAGES = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
         for path in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]}
#: a snippet that is a whole tool file says where it goes on its first line
TOOL_FILE = re.compile(r"^(?:;;|#) (?:HOME|~/[\w.-]+)/tools/(\S+\.(?:scm|py|hy))")


def page(name: str) -> str:
    """The text of ``README.md`` or of ``docs/NAME``."""
    return PAGES[name if name == "README.md" else f"docs/{name}"]


def blocks(language: str, text: str | None = None, name: str = "") -> list[tuple[str, str]]:
    """The fenced blocks of ``language`` ("" for plain ones) of every page (or of ``text``,
    called ``name``): (PAGE:LINE, text)."""
    if text is None:
        return [found for page_name, page_text in PAGES.items()
                for found in blocks(language, page_text, page_name)]
    found, lines = [], text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            info, start, i = lines[i][3:].strip(), i + 1, i + 1
            while not lines[i].startswith("```"):
                i += 1
            if info == language:
                found.append((f"{name}:{start + 1}", "\n".join(lines[start:i]) + "\n"))
        i += 1
    return found


def table_rows(text: str) -> list[list[str]]:
    """The cells of every Markdown table row in ``text`` (header and rule excluded)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))]
            rows.append(cells)
    return [row for row in rows if row[0] not in ("command", "tool", "hook point")]


def ids(snippets: list[tuple[str, str]]) -> list[str]:
    return [where for where, _ in snippets]


# -- snippets ------------------------------------------------------------------------------

SCHEME = blocks("scheme")
PYTHON = blocks("python")
HY = blocks("hy")
TOML = blocks("toml")


@pytest.mark.parametrize("snippet", SCHEME + PYTHON + HY, ids=ids(SCHEME + PYTHON + HY))
def test_a_tool_file_it_shows_loads(snippet, tmp_path):
    line, text = snippet
    header = TOOL_FILE.match(text)
    if header is None:  # a fragment: it must still be valid code
        if text.lstrip().startswith("("):
            read_all(text, line)
        elif not text.lstrip().startswith(";;"):
            ast.parse(text, line)
        return
    path = tmp_path / Path(header.group(1)).name
    path.write_text(text, encoding="utf-8")
    tier = "sandboxed" if path.suffix == ".scm" else "unsandboxed"
    registration = load_tool_file(path, tier, DEFAULT_LIMITS[tier])
    assert registration.hooks or registration.tools, f"{line} registers nothing"


@pytest.mark.parametrize("snippet", blocks("json"), ids=ids(blocks("json")))
def test_json_it_shows_parses(snippet):
    _line, text = snippet
    json.loads(text)


@pytest.mark.parametrize("snippet", TOML, ids=ids(TOML))
def test_toml_it_shows_is_known_to_harness(snippet, tmp_path):
    line, text = snippet
    data = tomllib.loads(text)
    if text.startswith("# HOME/hooks.toml"):
        path = tmp_path / "hooks.toml"
        path.write_text(text)
        loaded = load_source(Source(str(path), "harness"))
        assert loaded.handlers and not loaded.problems, f"{line}: {loaded.problems}"
    elif not text.startswith("# ~/."):  # a host's own file (~/.codex/config.toml): data
        assert text.startswith("# harness.toml"), f"{line}: say which file it is"
        assert unknown_settings(data) == [], line


def test_the_limits_it_calls_defaults_are_the_defaults(tmp_path):
    [(line, text)] = [(n, t) for n, t in TOML if "[limits.sandboxed]" in t]
    path = tmp_path / "harness.toml"
    path.write_text(text)
    shown, default = load_config(path), Config()
    assert shown.limits == default.limits, line
    assert ((shown.hook_timeout, shown.tool_timeout, shown.schema_timeout)
            == (default.hook_timeout, default.tool_timeout, default.schema_timeout))


# -- commands ------------------------------------------------------------------------------

EXAMPLES_README = ROOT / "examples" / "README.md"


def shown_commands(text: str | None = None, name: str = "") -> list[tuple[str, str]]:
    """Every ``harness`` / ``harness-repl`` command line of the sh blocks and of the
    ``$ `` lines of transcripts of every page (or of ``text``, called ``name``)."""
    found = []
    for prompt, snippets in (("", blocks("sh", text, name)), ("$ ", blocks("", text, name))):
        for where, snippet in snippets:
            page_name, line = where.rsplit(":", 1)
            for offset, command in enumerate(snippet.splitlines()):
                if re.match(re.escape(prompt) + r"harness(-repl)?( |$)", command):
                    found.append((f"{page_name}:{int(line) + offset}",
                                  command.removeprefix(prompt)))
    return found


SHOWN_COMMANDS = shown_commands() + shown_commands(
    EXAMPLES_README.read_text(encoding="utf-8"), "examples/README.md")


@pytest.mark.parametrize("shown", SHOWN_COMMANDS, ids=ids(SHOWN_COMMANDS))
def test_a_command_it_shows_parses(shown):
    line, command = shown
    words = shlex.split(command, comments=True)
    for end in ("|", "&", ">"):  # the harness part of a pipeline
        if end in words:
            words = words[:words.index(end)]
    parser = build_repl_parser() if words[0] == "harness-repl" else build_parser()
    try:
        parser.parse_args(words[1:])
    except SystemExit:
        pytest.fail(f"{line}: {command}")


def test_ci_runs_exactly_the_test_command_it_shows():
    # the Quick start's "run the tests" command is the one .ci/run ends with
    [block] = [text for _, text in blocks("sh", page("README.md"), "README.md")
               if "run the tests" in text]
    lines = block.splitlines()
    [shown] = [lines[i + 1] for i, line in enumerate(lines)
               if line.startswith("#") and "run the tests" in line]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == shown


def subcommands() -> dict:
    parser = build_parser()
    [action] = [a for a in parser._actions if a.dest == "command"]
    return action.choices


def test_the_command_table_lists_every_command_with_real_options():
    choices = subcommands()
    listed = set()
    for row in table_rows(page("reference/cli.md")):
        usage = row[0]
        for name in re.findall(r"`harness ([a-z-]+)", usage):
            listed.add(name)
            options = {o for a in choices[name]._actions for o in a.option_strings}
            # the options of this command's part of the cell
            part = usage[usage.index(f"harness {name}"):]
            part = re.split(r"`harness (?!" + re.escape(name) + r"\b)", part)[0]
            for option in re.findall(r"(--[a-z-]+)", part):
                assert option in options, f"harness {name} has no {option}"
    assert listed == set(choices)


def test_the_repl_table_lists_every_repl_command():
    reference = page("reference/repl.md")
    table = reference[:reference.index("\n\n", reference.index("| command"))]
    assert set(re.findall(r"`,([a-z]+)", table)) == set(COMMANDS)


# -- numbers and lists ---------------------------------------------------------------------

def test_the_hook_point_counts_are_the_catalogue():
    own = [name for name, point in HOOK_POINTS.items()
           if name not in CLAUDE_EVENTS and point.combine != "host"]
    text = "\n".join(PAGES.values())
    assert f"There are {len(own)} hook points of harness's own" in text
    assert f"Claude Code's {len(CLAUDE_EVENTS)} events" in text
    assert f"the other {len(CLAUDE_EVENTS) - 1} Claude Code events" in text


def test_the_hook_point_table_and_the_observers_name_every_point():
    text = page("explanation/dispatch.md")
    named = set(re.findall(r"`([a-z_]+)`", text)) & set(HOOK_POINTS)
    assert named == {name for name, point in HOOK_POINTS.items()
                     if name not in CLAUDE_EVENTS and point.combine != "host"}


def test_the_builtin_table_lists_every_builtin_tool():
    rows = table_rows(page("guides/builtin-tools.md"))
    listed = {name for row in rows for name in re.findall(r"`([a-z_]+)`", row[0])
              if len(row) == 4}
    assert listed == set(BuiltinTools().names())


SECURITY_COUNTS = {  # what the docs call the tests of each file of tests/security
    "sandbox escape attempts": "test_escapes.py",
    "attempts to leave the VFS": "test_vfs_escapes.py",
    "runaway-hook cases": "test_runaway.py",
    "budget-hole": "test_budget_holes.py",
    "crash tests": "test_crashes.py",
    "checks that every loop and call path charges the step budget":
        "test_step_check_placement.py",
    "misbehaving-plugin cases": "test_plugins_misbehave.py",
    "concurrency scenarios": "test_concurrency.py",
}


def test_the_security_test_counts_are_the_tree():
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         str(ROOT / "tests" / "security")], capture_output=True, text=True, cwd=ROOT,
        check=True)
    per_file = Counter(Path(line.split("::")[0]).name
                       for line in collected.stdout.splitlines() if "::" in line)
    text = " ".join(page("explanation/security.md").split())
    for words, file in SECURITY_COUNTS.items():
        stated = re.search(r"(\d+) " + re.escape(words), text)
        assert stated, f"docs/explanation/security.md no longer counts the {words}"
        assert int(stated.group(1)) == per_file[file], (
            f"the docs say {stated.group(1)} {words}; tests/security/{file} has "
            f"{per_file[file]}: update docs/explanation/security.md")


def test_the_libraries_it_names_exist():
    text = page("reference/scheme.md") + page("guides/tiers-limits.md")
    names = set()
    for match in re.finditer(r"`\(((?:scheme|srfi|harness|chibi|tein) [\w-]+)\)`", text):
        if "has no" not in text[max(0, match.start() - 30):match.start()]:
            names.add(match.group(1))
    env = make_environment("unsandboxed")
    for name in sorted(names):
        run_source(env, f"(import ({name}))", f"<import {name}>")


def _anchor(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _headings(text: str) -> set[str]:
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return {_anchor(h) for h in re.findall(r"^#{1,4} (.+)$", text, re.MULTILINE)}


LINKS = [(name, target) for name, text in PAGES.items()
         for target in re.findall(r"\]\(([^)\s]+)\)", text)
         if not target.startswith(("http://", "https://", "mailto:"))]


@pytest.mark.parametrize("link", LINKS, ids=[f"{name}->{target}" for name, target in LINKS])
def test_its_links_lead_to_a_page_and_heading(link):
    name, target = link
    path, _, fragment = target.partition("#")
    resolved = (ROOT / name).parent / path if path else ROOT / name
    assert resolved.exists(), f"{name}: link {target} leads to no file"
    if fragment:
        assert resolved.suffix == ".md", f"{name}: link {target} has an anchor into a non-page"
        assert fragment in _headings(resolved.read_text(encoding="utf-8")), (
            f"{name}: link {target} leads to no heading")


# -- transcripts ---------------------------------------------------------------------------
# The outputs the docs print come from running what they show: these run it again.

def tool_snippet(name: str) -> str:
    """The tool file ``HOME/tools/NAME`` the docs show."""
    [text] = [text for _, text in SCHEME + PYTHON + HY
              if (header := TOOL_FILE.match(text)) and header.group(1) == name
              and "HOME/" in header.group(0)]
    return text


def transcripts(command: str) -> list[list[str]]:
    """The lines of every plain block that runs ``$ command`` (its first line)."""
    return [text.splitlines() for _, text in blocks("")
            if text.startswith(f"$ {command}")]


@pytest.fixture
def harness(capsys, monkeypatch):
    """``harness ARGV...`` in-process, with ``stdin``: (exit status, stdout, stderr)."""
    from harness.cli import main

    def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        code = main(list(argv))
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


def make_home(tmp_path: Path, *tool_files: str) -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tests").mkdir()
    for name in tool_files:
        (home / "tools" / name).write_text(tool_snippet(name), encoding="utf-8")
    return home


@claims(("README.md", "$ harness fire pre_tool"), ("docs/index.md", "$ harness fire pre_shell"))
@pytest.mark.parametrize("hook,tool_file", [("pre_tool", "guard.scm"),
                                             ("pre_shell_exec", "no_rm_rf.scm")])
def test_the_first_guards_fire_as_shown(hook, tool_file, tmp_path, harness):
    home = make_home(tmp_path, tool_file)
    [[command, shown]] = transcripts(f"harness fire {hook}")
    code, out, _ = harness(*shlex.split(command)[2:], "--home", str(home))
    assert code == 2  # "The exit status is 2 because the outcome blocks"
    assert out.strip() == shown.replace("/home/ada/.harness", str(home))


@claims(("docs/guides/writing-hooks.md", "$ harness call word-count"))
def test_the_tool_call_it_shows_answers_as_shown(tmp_path, harness):
    home = make_home(tmp_path, "writing.scm")
    [[command, shown]] = transcripts("harness call word-count")
    code, out, _ = harness(*shlex.split(command)[2:], "--home", str(home))
    assert (code, out.strip()) == (0, shown)


@claims(("docs/tutorial/try-and-test.md", "2 passed, 1 failed"),
        ("docs/tutorial/try-and-test.md", "3 passed, 0 failed"))
def test_the_tutorial_fixture_fails_then_passes_as_shown(tmp_path, harness):
    home = make_home(tmp_path, "no_force_push.scm")
    tutorial = page("tutorial/try-and-test.md")
    tutorial = tutorial[tutorial.index("## 3. Add a fixture"):]
    [(_, fixture)] = blocks("json", tutorial)[:1]
    (home / "tests" / "no_force_push.hooktest.json").write_text(fixture)
    before, after = transcripts("harness test")

    def run_test(shown: list[str]) -> None:
        code, out, _ = harness("test", "--home", str(home))
        assert code == (0 if shown[-1].endswith(" 0 failed") else 1)
        assert out.splitlines() == [line.replace("/tmp/harness-tutorial", str(home))
                                    for line in shown[1:]]

    run_test(before)
    edit = re.search(r"Change the test in the editor to `([^`]+)`", tutorial).group(1)
    hook = home / "tools" / "no_force_push.scm"
    hook.write_text(hook.read_text().replace('(member "--force" ws)', edit))
    run_test(after)


@claims(("docs/tutorial/claude-code.md", "$ echo"))
def test_the_claude_code_guard_answers_as_shown(tmp_path, harness):
    home = make_home(tmp_path, "no_force_push.scm")
    [lines] = transcripts("echo")
    command = "\n".join(lines[:lines.index(next(x for x in lines if "| harness" in x)) + 1])
    event = command[command.index("'") + 1:command.rindex("'")]
    stdout, stderr = lines[-2], lines[-1]
    code, out, err = harness("claude-hook", "--home", str(home), stdin=event)
    assert (code, out.strip()) == (2, stdout)  # "(stderr; exit status 2)"
    assert err.strip() == stderr[:stderr.index("(stderr")].strip()


@claims(("docs/guides/hy-python-plugins.md", "# HOME/plugins/audit"))
def test_the_plugin_it_shows_answers_its_schema(tmp_path):
    [(line, script)] = [(n, t) for n, t in blocks("sh") if "# HOME/plugins/" in t]
    path = tmp_path / "audit"
    path.write_text(script)
    path.chmod(0o755)
    schema = json.loads(subprocess.run([str(path), "--schema"], capture_output=True,
                                       text=True, check=True).stdout)
    assert schema["name"] and schema["description"] and schema["hooks"] == ["pre_tool"], (
        line)


@claims(("docs/guides/embedding.md", "from harness.runtime import Runtime"),
        ("docs/guides/embedding.md", "audit_log = []"))
def test_the_python_api_blocks_run(tmp_path):
    home = make_home(tmp_path, "guard.scm", "writing.scm")
    api = page("guides/embedding.md")
    [(line, first), (_, second)] = blocks("python", api)[:2]
    namespace: dict = {}
    opening = first.replace('Runtime("~/.harness"', f"Runtime({str(home)!r}")
    code = compile(opening.replace("rt.close()\n", ""), line, "exec")
    exec(code, namespace)  # noqa: S102 - the docs' own code, run as a user runs it
    try:
        assert namespace["tool"].output == "3" and namespace["tool"].errors == []
        code = compile(second, "docs/guides/embedding.md (in-process hooks)", "exec")
        exec(code, namespace)  # noqa: S102 - as above
        rt = namespace["rt"]
        assert rt.call_tool("lookup", {"key": "k"}).output == "v"
        assert [h["source"] for h in rt.hooks() if h["source"].startswith("host:")] == [
            "host:audit"]  # no_rm was unregistered, the audit hook stays
    finally:
        namespace["rt"].close()


def test_the_outcomes_it_shows_are_what_fire_returns(tmp_path):
    from harness.runtime import Runtime
    rows = [row for row in table_rows(page("explanation/dispatch.md")) if len(row) == 4]
    assert rows
    with Runtime(tmp_path, permission_handler=lambda hook, payload: True) as rt:
        for points, _payload, _rule, outcome in rows:
            shown = re.match(r"`(\{.*?\})`", outcome).group(1)
            keys = re.findall(r'"(\w+)"', shown)
            for point in re.findall(r"`([a-z_]+)`", points):
                fired = rt.fire(point, HOOK_POINTS[point].sample_payload())
                assert list(fired["outcome"]) == keys, f"the docs' outcome of {point}"


@claims(("docs/tutorial/try-and-test.md", "$ harness-repl\n"))
def test_the_repl_transcript_is_what_the_repl_prints(tmp_path, capsys, monkeypatch):
    from harness.repl import main as repl
    home = make_home(tmp_path, "no_force_push.scm")
    [shown] = [lines for lines in transcripts("harness-repl") if lines[0] == "$ harness-repl"]
    entries, outputs = [], []
    for line in shown[3:]:  # past the command and the banner, which only a terminal gets
        if line.startswith(("harness> ", "........ ")):
            entries.append(line[9:])
        else:
            outputs.append(line)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(entries) + "\n"))
    assert repl(["--home", str(home)]) == 0

    def timeless(lines: list[str]) -> list[str]:
        return [re.sub(r" in [\d.]+ ms$", " in N ms", line) for line in lines]
    assert timeless(capsys.readouterr().out.splitlines()) == timeless(outputs)


def test_the_performance_page_dates_its_figures_and_names_the_python():
    text = " ".join(page("explanation/performance.md").split())
    machine = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    [python] = re.findall(r"^Machine: .*?(Python 3\.\d+\.\d+)", machine, re.MULTILINE)
    assert python in text, f"docs/explanation/performance.md does not say {python}"
    for date in re.findall(r"measured on (\d{4}-\d\d-\d\d)", text):
        assert f"({date}" in machine or f", {date}" in machine, f"{date} is no run of bench/"
    assert re.search(r"measured on \d{4}-\d\d-\d\d", text)
