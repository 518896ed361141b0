"""Every runnable block of the README and the docs is run here (or by the other modules of
tests/docs, which claim theirs with ``@runs``), or is marked ``<!-- not run: REASON -->`` in
the Markdown: the shell blocks run in bash with a temporary ``HOME``, the Python and Scheme
ones against a temporary home."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.blocks import ROOT, Block, all_blocks, claimed, page_blocks, runs

#: the modules of tests/docs whose tests claim blocks
CLAIMING_MODULES = ("tests.docs.test_docs", "tests.docs.test_blocks",
                    "tests.docs.test_framework_blocks")
#: a block that is a whole tool file says where it goes on its first line; the generic
#: test_a_tool_file_it_shows_loads of test_docs loads every one of them
TOOL_FILE = re.compile(r"^(?:;;|#) (?:HOME|~/[\w.-]+)/tools/(\S+\.(?:scm|py|hy))")


def coverage_problems(blocks: list[Block]) -> list[str]:
    """What is wrong with how ``blocks`` are covered: a runnable block neither claimed by a
    test nor marked not run, one both, a mark without a reason, commands in a plain fence."""
    for module in CLAIMING_MODULES:
        importlib.import_module(module)
    problems = []
    for block in blocks:
        if block.language == "" and re.match(r"(harness|pip|claude|python3?) ", block.text):
            problems.append(f"{block.where}: commands in a plain fence: make it ```sh")
        if block.language in ("bash", "shell", "console", "zsh", "py", "python3", "scm"):
            problems.append(f"{block.where}: ```{block.language} is not a language the tests "
                            "know: write sh, python or scheme")
        if not block.runnable:
            continue
        runners = claimed(block) + (["tool file"] if TOOL_FILE.match(block.text) else [])
        if block.not_run is not None:
            if not block.not_run.strip():
                problems.append(f"{block.where}: `not run` gives no reason")
            if runners:
                problems.append(f"{block.where}: marked not run, yet {runners[0]} runs it")
        elif not runners:
            problems.append(f"{block.where}: neither run by a test (@runs in tests/docs) nor "
                            "marked <!-- not run: REASON --> (docs/guides/running-tests.md)")
    return problems


def test_every_runnable_block_is_run_or_marked():
    assert coverage_problems(all_blocks()) == []


NEW_PAGE = """# A new page

```sh
harness frobnicate
```

<!-- not run: needs a network -->
```sh
curl https://example.org
```

<!-- not run:  -->
```python
print("no reason given")
```

```
harness eval 1
```

```json
{"data": "is not run"}
```

```bash
ls
```
"""


def test_a_new_block_neither_run_nor_marked_is_caught():
    problems = coverage_problems(page_blocks("docs/new.md", NEW_PAGE))
    assert problems == [
        ("docs/new.md:4: neither run by a test (@runs in tests/docs) nor marked "
        "<!-- not run: REASON --> (docs/guides/running-tests.md)"),
        "docs/new.md:14: `not run` gives no reason",
        "docs/new.md:18: commands in a plain fence: make it ```sh",
        "docs/new.md:26: ```bash is not a language the tests know: write sh, python or scheme"]


# -- the shell ------------------------------------------------------------------------------

@pytest.fixture
def shell(tmp_path):
    """``shell(script, cwd=None, check=True)``: bash runs ``script`` with ``HOME`` a fresh
    folder (``/home/ada`` of the docs), this interpreter's ``harness`` first on the ``PATH``
    and no ``HARNESS_HOME``; returns the completed process (stdout and stderr as text)."""
    home = tmp_path / "ada"
    home.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HARNESS_", "CLAUDE_"))}
    env.update(HOME=str(home), PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")

    def run(script: str, cwd: Path | None = None, check: bool = True,
            stdin: str = "") -> subprocess.CompletedProcess:
        done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd or home,
                              env=env, input=stdin, capture_output=True, text=True, timeout=120,
                              check=False)
        if check:
            assert done.returncode == 0, f"{script}\nexit {done.returncode}\n{done.stderr}"
        return done
    run.home = home
    return run


def transcript_commands(block: Block) -> list[tuple[str, list[str]]]:
    """The ``$ `` commands of a transcript and the lines each printed."""
    found: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            found[-1][1].append(line)
    return found


@runs(("README.md", "export HARNESS_HOME=~/.harness"), ("README.md", "$ harness fire pre_tool"))
def test_the_readme_first_guard_as_a_newcomer_types_it(blocks, shell):
    setup, transcript = blocks
    shell(setup.text)  # makes ~/.harness/tools
    guard = next(b for b in all_blocks()
                 if b.page == "README.md" and b.text.startswith(";; HOME/tools/guard.scm"))
    (shell.home / ".harness" / "tools" / "guard.scm").write_text(guard.text)
    [(command, shown)] = transcript_commands(transcript)
    done = shell(f"{setup.text}\n{command}", check=False)
    assert done.returncode == 2  # "The exit status is 2 because the outcome blocks"
    assert done.stdout.splitlines() == [line.replace("/home/ada", str(shell.home))
                                        for line in shown]


@runs(("README.md", "harness install claude-code      # writes"))
def test_the_readme_guard_your_agent_installs_and_checks(blocks, shell):
    [block] = blocks
    (shell.home / "src" / "app").mkdir(parents=True)  # the user's project
    done = shell(block.text)
    settings = json.loads((shell.home / "src/app/.claude/settings.json").read_text())
    assert "PreToolUse" in settings["hooks"]
    assert "host:claude-code (project): ok:" in done.stdout
    assert "guard:secrets: ok: enabled" in done.stdout
    # "rm -rf / is denied with the guard's reason, ls runs"
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "cwd": str(shell.home / "src/app"), "tool_input": {"command": "rm -rf /"}}
    denied = shell("harness claude-hook", stdin=json.dumps(event), check=False)
    assert '"permissionDecision":"deny"' in denied.stdout.replace(" ", "")
    event["tool_input"]["command"] = "ls"
    assert shell("harness claude-hook", stdin=json.dumps(event)).returncode == 0


@runs(("docs/tutorial/try-and-test.md", "export HARNESS_HOME=/tmp/harness-tutorial"))
def test_the_tutorial_setup_makes_its_home(blocks, shell, tmp_path):
    [block] = blocks
    tutorial_home = tmp_path / "harness-tutorial"
    shell(block.text.replace("/tmp/harness-tutorial", str(tutorial_home)))
    assert (tutorial_home / "tools").is_dir() and (tutorial_home / "tests").is_dir()


@runs(("docs/guides/builtin-tools.md", "harness call write_file"))
def test_the_builtin_tool_calls_run(blocks, shell):
    [block] = blocks
    (shell.home / ".harness").mkdir()
    subprocess.run(["git", "init", "-q", str(shell.home)], check=True)
    done = shell(block.text)
    assert done.stdout.splitlines()[1] == "hi"  # file_head reads back what write_file wrote
    assert "No commits yet" in done.stdout or "On branch" in done.stdout


@runs(("docs/guides/guards.md", "harness test tools/guards --home ~/.harness"))
def test_the_guards_own_fixtures_pass_as_counted(blocks, shell):
    [block] = blocks
    (shell.home / ".harness").mkdir()  # "a home that enables the guards":
    (shell.home / ".harness" / "harness.toml").write_text('[guards]\nenable = "all"\n')
    done = shell(block.text, cwd=ROOT)  # from the checkout, whose tools/guards/ they are
    shown = re.search(r"# (\d+ passed, 0 failed)", block.text).group(1)
    assert done.stdout.splitlines()[-1] == shown


@runs(("docs/guides/install.md", "harness install cursor --user"),
      ("docs/guides/install.md", "--via socket --socket"))
def test_the_install_commands_run_in_a_project(blocks, shell):
    per_project, via = blocks
    project = shell.home / "src" / "app"
    project.mkdir(parents=True)
    (shell.home / ".harness").mkdir()
    shell(per_project.text, cwd=project)
    assert (shell.home / ".cursor" / "hooks.json").exists()
    assert (project / ".codex" / "hooks.json").exists()
    claude_settings = project / ".claude" / "settings.json"  # uninstall took it out again
    assert "harness" not in (claude_settings.read_text() if claude_settings.exists() else "")
    for line in via.text.splitlines():
        shell(line, cwd=project)
        settings = (project / ".claude" / "settings.json").read_text()
        assert ("--socket" in settings) if "socket" in line else ('"type": "http"' in settings)


@runs(("docs/reference/scheme.md", "harness eval '(map square (iota 5))'"))
def test_the_scheme_commands_run(blocks, shell):
    [block] = blocks
    (shell.home / "program.scm").write_text('(display "hello")\n')
    (shell.home / "prog.scm").write_text("(import (scheme base))\n(display 1)\n")
    done = shell(block.text)
    assert done.stdout == "hello1(0 1 4 9 16)\n"


@runs(("docs/tutorial/claude-code.md", "no_env.sh: an ordinary Claude Code hook script"))
def test_the_claude_code_hook_script_refuses_env_files(blocks, shell):
    [block] = blocks
    refused = shell(block.text, stdin='{"tool_input": {"file_path": "/p/.env"}}', check=False)
    assert (refused.returncode, refused.stderr) == (2, "reading .env files is not allowed\n")
    assert shell(block.text, stdin='{"tool_input": {"file_path": "/p/a.py"}}').returncode == 0


@runs(("docs/tutorial/claude-code.md", "harness serve --socket ~/.harness/serve.sock &"))
def test_the_socket_server_starts_and_answers(blocks, shell):
    [block] = blocks
    (shell.home / ".harness" / "tools").mkdir(parents=True)
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": "ls"}}
    script = (f"{block.text}server=$!\ntrap 'kill $server' EXIT\n"
              "for _ in $(seq 100); do [ -S ~/.harness/serve.sock ] && break; sleep 0.1; done\n"
              "harness claude-hook --socket ~/.harness/serve.sock")
    done = shell(script, stdin=json.dumps(event))
    assert done.returncode == 0


# -- Python and Scheme that are no tool file --------------------------------------------------

@runs(("docs/hosts.md", "(srfi 130) (harness hooks)"), ("docs/hosts.md", "'cursor.stop"))
def test_the_host_guards_answer_as_said(blocks, tmp_path):
    from harness import hosts
    from harness.runtime import Runtime
    shell_guard, followup = blocks
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "rm.scm").write_text(shell_guard.text)
    (tmp_path / "tools" / "stop.scm").write_text(followup.text)
    with Runtime(tmp_path, load_plugins=False) as rt:
        assert rt.load_errors == {}
        for host in ("codex", "gemini", "cursor"):
            reply = hosts.answer(rt, host, _shell_event(host, "rm -rf build"))
            assert "rm -rf is not allowed" in reply.stdout + reply.stderr, host
        stop = hosts.answer(rt, "cursor", json.dumps({"hook_event_name": "stop",
                                                      "status": "completed"}))
        assert json.loads(stop.stdout)["followup_message"] == "run the tests before you stop"


def _shell_event(host: str, command: str) -> str:
    events = {
        "codex": {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                  "tool_input": {"command": command}, "session_id": "s", "cwd": "/tmp"},
        "gemini": {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                   "tool_input": {"command": command}, "session_id": "s", "cwd": "/tmp"},
        "cursor": {"hook_event_name": "beforeShellExecution", "command": command,
                   "cwd": "/tmp"},
    }
    return json.dumps(events[host])


@runs(("docs/hosts.md", "from harness import hosts"))
def test_the_python_callers_interface_runs(blocks, tmp_path):
    from harness.runtime import Runtime
    [block] = blocks
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "rm.scm").write_text(
        next(b for b in all_blocks() if "(srfi 130) (harness hooks)" in b.text).text)
    with Runtime(tmp_path, load_plugins=False) as runtime:
        namespace = {"runtime": runtime, "event_json": _shell_event("codex", "rm -rf x")}
        exec(compile(block.text, block.where, "exec"), namespace)  # noqa: S102 - the docs'
        reply = namespace["reply"]
        assert reply.exit_code == 0 and reply.answer["hookSpecificOutput"] == {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "rm -rf is not allowed"}


@runs(("docs/guides/mcp.md", "harness mcp --home ~/.harness                 # stdio"))
def test_the_mcp_server_serves_the_home_over_stdio_and_http(blocks, tmp_path):
    """Both commands, driven by the official ``mcp`` client; the HTTP one on a free port
    (``--http 127.0.0.1:0``) where the page says 8765, since tests take no fixed port."""
    import shlex

    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from tests.mcp_server.mcp_helpers import GREET, http_client, http_server, run
    [block] = blocks
    stdio, http = [shlex.split(line, comments=True) for line in block.text.splitlines()]
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "greet.scm").write_text(GREET)
    assert stdio[:3] == ["harness", "mcp", "--home"] and http[4:] == ["--http", "8765"]
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "harness.cli", "mcp", "--home", str(home)],
                                   env=dict(os.environ))

    async def over_stdio():
        async with Client(stdio_client(params)) as client:
            return await client.call_tool("greet", {"name": "Ada"})
    assert run(over_stdio).content[0].text == "Hello, Ada!"
    with http_server(home) as (url, token, _process):
        async def over_http():
            async with http_client(url, token) as client:
                return [t.name for t in (await client.list_tools()).tools]
        assert "greet" in run(over_http)


# -- transcripts ------------------------------------------------------------------------------

def transcript_pattern(shown: list[str], excerpt: bool) -> re.Pattern:
    """A pattern of the output ``shown``: ``…`` or ``...`` in a line stands for any text, a
    line of only ``...`` for any lines; an ``excerpt`` may leave out lines anywhere."""
    gap = r"(?:.*\n)*?"
    parts = []
    for line in shown:
        if line.strip() in ("...", "…"):
            parts.append(gap)
        else:
            escaped = re.escape(line).replace(re.escape("…"), ".*")
            parts.append(escaped.replace(re.escape("..."), ".*") + r"\n")
    return re.compile((gap if excerpt else "").join(parts) + (gap if excerpt else ""))


def check_transcript(shell, block: Block, cwd: Path | None = None, excerpt: bool = False,
                     paths: tuple[tuple[str, str], ...] = ()) -> None:
    """Run each ``$`` command of ``block`` in ``shell`` and match what it printed (stdout
    and stderr) against the block, ``/home/ada`` being the shell's ``HOME``."""
    for command, shown in transcript_commands(block):
        done = shell(command, cwd=cwd, check=False)
        expected = [line.replace("/home/ada", str(shell.home)) for line in shown]
        for old, new in paths:
            expected = [line.replace(old, new) for line in expected]
        printed = done.stdout + done.stderr
        pattern = transcript_pattern(expected, excerpt)
        matched = (pattern.search if excerpt else pattern.fullmatch)(printed)
        assert matched, f"{block.where}: $ {command}\nprinted:\n{printed}\nshown:\n" + (
            "\n".join(expected))


@runs(("docs/guides/guards.md", "$ harness hooks"))
def test_the_enabled_guards_show_as_shown(blocks, shell):
    [block] = blocks
    (shell.home / ".harness").mkdir()
    (shell.home / ".harness" / "harness.toml").write_text('[guards]\nenable = "all"\n')
    check_transcript(shell, block, excerpt=True)


@runs(("docs/guides/install.md", "$ harness check"))
def test_the_install_check_reports_as_shown(blocks, shell):
    [block] = blocks
    project = shell.home / "src" / "app"
    project.mkdir(parents=True)
    (shell.home / ".harness").mkdir()
    shell("harness install claude-code && harness install cursor && harness install codex "
          "--user", cwd=project)
    cursor = project / ".cursor" / "hooks.json"  # harness moved since cursor's install
    cursor.write_text(re.sub(r'"command": "[^" ]*harness', '"command": "/opt/old/harness',
                             cursor.read_text()))
    codex = shell.home / ".codex" / "hooks.json"  # and codex's lost its PreCompact hook
    hooks = json.loads(codex.read_text())
    del hooks["hooks"]["PreCompact"]
    codex.write_text(json.dumps(hooks))
    check_transcript(shell, block, cwd=project, excerpt=True)


TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"


@pytest.fixture
def replay_homes(shell):
    """~/.harness with the replay page's guard, ~/harness-next a copy with its redirection
    guard, and the recorded session in ``~`` and ``~/.claude/projects/``."""
    import shutil
    harness_home = shell.home / ".harness" / "tools"
    harness_home.mkdir(parents=True)
    guard = next(b for b in all_blocks() if b.text.startswith(";; ~/.harness/tools/guard.scm"))
    (harness_home / "guard.scm").write_text(guard.text)
    shutil.copytree(shell.home / ".harness", shell.home / "harness-next")
    redirect = next(b for b in all_blocks()
                    if b.text.startswith(";; ~/harness-next/tools/no_redirect.scm"))
    (shell.home / "harness-next" / "tools" / "no_redirect.scm").write_text(redirect.text)
    session = TRANSCRIPTS / "claude-code" / "session.jsonl"
    shutil.copy(session, shell.home / "session.jsonl")
    (shell.home / ".claude" / "projects").mkdir(parents=True)
    shutil.copy(session, shell.home / ".claude" / "projects" / "session.jsonl")
    shutil.copy(TRANSCRIPTS / "recording" / "audit.jsonl", shell.home / ".harness")
    return shell


@runs(("docs/replay.md", "$ harness replay session.jsonl --home ~/.harness"),
      ("docs/replay.md", "$ harness replay ~/.claude/projects/"),
      ("docs/replay.md", "--fixtures tests/replayed"))
def test_the_replays_print_what_the_page_shows(blocks, replay_homes):
    for block in blocks:
        check_transcript(replay_homes, block)


@runs(("docs/replay.md", "$ harness replay ~/.harness/audit.jsonl"))
def test_the_audit_log_replays(blocks, replay_homes):
    [block] = blocks
    [(command, shown)] = transcript_commands(block)
    done = replay_homes(command)
    assert shown == [] and re.search(r"\d+ events replayed", done.stdout)


@runs(("docs/guides/hy-python-plugins.md", "$ harness-repl --hy"))
def test_the_hy_repl_transcript_is_what_the_repl_prints(blocks, tmp_path, capsys, monkeypatch):
    from harness.repl import main as repl
    [block] = blocks
    home = tmp_path / "harness-tutorial"
    (home / "tools").mkdir(parents=True)
    tutorial_hook = next(b for b in all_blocks()
                         if b.text.startswith(";; HOME/tools/no_force_push.scm"))
    (home / "tools" / "no_force_push.scm").write_text(tutorial_hook.text)
    lines = block.text.splitlines()
    entries, outputs = [], []
    for line in lines[3:]:  # past the command and the banner, which only a terminal gets
        prompt = re.match(r"(hy> |\.\.\. )", line)
        (entries if prompt else outputs).append(line[4:] if prompt else line)
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(entries) + "\n"))
    assert repl(["--hy", "--home", str(home)]) == 0

    def timeless(printed: list[str]) -> list[str]:
        return [re.sub(r" in [\d.]+ ms$", " in N ms", line) for line in printed]
    assert timeless(capsys.readouterr().out.splitlines()) == timeless(outputs)
