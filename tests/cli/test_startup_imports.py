"""What a harness process imports before it does its work (bench/commands.py measures what
that costs). A host runs ``harness claude-hook`` or ``harness fire`` as a new process per
event and ``harness run`` per program, so the modules a command does not need stay out of
its process: a test here failing means a module-level import brought one back (import it
where it is used instead, with a comment saying why)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

# runs `harness ARGV...` in this process (stdin: the event), then lists its modules on stderr
RUN_AND_LIST = ("import json, sys\nfrom harness.cli import main\ncode = main(sys.argv[1:])\n"
                "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n"
                "sys.exit(code)\n")
GUARD = """(register-hook 'pre_tool
  (lambda (payload)
    (if (equal? (cdr (assoc "tool_name" payload)) "Bash")
        (list (cons "block" #t) (cons "message" "no shell"))
        '())))
"""
EVENT = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                    "tool_input": {"command": "ls"}, "cwd": "/tmp"})
#: what answering a hook event with one Scheme guard never needs
NOT_FOR_A_DISPATCH = (
    "lark", "fastjsonschema", "harness.calls.pipeline", "harness.calls.arguments",
    "harness.vfs.store", "harness.model", "harness.handlers.command", "harness.handlers.http",
    "harness.handlers.model_handlers", "harness.handlers.matcher", "harness.handlers.if_rule",
    "logging", "concurrent.futures", "subprocess", "ctypes", "difflib", "socket", "secrets",
    "mcp", "mcp_types", "anyio", "harness.mcp_server",
)


def modules_of(*argv: str, stdin: str = "") -> tuple[subprocess.CompletedProcess, set[str]]:
    done = subprocess.run([sys.executable, "-c", RUN_AND_LIST, *argv], input=stdin, env=os.environ,
                          capture_output=True, text=True, check=False, timeout=60)
    head, _, listed = done.stderr.rpartition("\nMODULES ")
    done.stderr = head
    return done, set(json.loads(listed))


def guard_home(home):
    """A home holding one Scheme guard and nothing else."""
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD)
    return home


def test_claude_hook_imports_nothing_a_scheme_guard_does_not_use(tmp_path):
    home = guard_home(tmp_path / "home")
    for _ in range(2):  # the second start reads the guard from the parse cache
        done, modules = modules_of("claude-hook", "--home", str(home), stdin=EVENT)
    assert done.returncode == 2 and done.stderr == "no shell\n"
    assert sorted(modules.intersection(NOT_FOR_A_DISPATCH)) == []


def test_fire_imports_nothing_a_scheme_guard_does_not_use(tmp_path):
    home = guard_home(tmp_path / "home")
    payload = json.dumps({"tool_name": "Bash", "arguments": {"command": "ls"}})
    for _ in range(2):
        done, modules = modules_of("fire", "pre_tool", payload, "--home", str(home))
    assert done.returncode == 2
    assert json.loads(done.stdout)["outcome"]["message"] == "no shell"
    assert sorted(modules.intersection(NOT_FOR_A_DISPATCH)) == []


def test_run_of_a_program_read_before_imports_neither_lark_nor_the_hook_runtime(tmp_path):
    program = tmp_path / "hello.scm"
    program.write_text('(display "hello")\n')
    for _ in range(2):  # the second run reads the program from harness run's parse cache
        done, modules = modules_of("run", str(program))
    assert (done.returncode, done.stdout) == (0, "hello")
    assert sorted(modules.intersection((
        "lark", "orjson", "harness.runtime", "harness.config", "harness.bridge",
        "harness.hooks.dispatcher", "harness.plugins", "harness.handlers",
        *NOT_FOR_A_PROGRAM, *NOT_FOR_A_PROGRAM_READ_BEFORE))) == []


#: what running a Scheme program never needs: the other commands' modules (harness.cli
#: builds the parser of the command it runs only) and the host's call machinery
NOT_FOR_A_PROGRAM = (
    "harness.cli.hook_commands", "harness.cli.check_command", "harness.cli.test_command",
    "harness.cli.host_command", "harness.cli.demo", "harness.sandbox.scheme_calls",
)
#: and, for a program the parse cache has, run without options, standard modules that cost
#: ms of its start (lark needs some, the Scheme runtime none): dataclasses brings inspect,
#: dis and tokenize; hashlib loads OpenSSL; typing is for type checkers; argparse brings
#: gettext, locale and shutil (harness run FILE ARG... is read without it)
NOT_FOR_A_PROGRAM_READ_BEFORE = ("dataclasses", "inspect", "typing", "hashlib", "_hashlib",
                                 "argparse")


def test_eval_imports_none_of_the_other_commands():
    done, modules = modules_of("eval", "(+ 1 2)")
    assert (done.returncode, done.stdout) == (0, "3\n")
    assert sorted(modules.intersection(NOT_FOR_A_PROGRAM)) == []


def test_run_freezes_the_runtime_once_and_never_a_programs_objects(tmp_path):
    """harness run/eval put the runtime's objects out of the collector's reach
    (harness.cli.frozen_imports) once per process: a second program's objects, and
    what the first left behind, stay collectable."""
    script = ("import gc, sys\nfrom harness.cli import main\n"
              "main(['eval', '(define (f) f) (vector-length (make-vector 3))'])\n"
              "first = gc.get_freeze_count()\n"
              "main(['eval', '(define big (make-list 50000 (list 1 2))) (length big)'])\n"
              "print(first, gc.get_freeze_count())\n")
    done = subprocess.run([sys.executable, "-c", script], env=os.environ, capture_output=True,
                          text=True, check=True, timeout=60)
    assert done.stdout.splitlines()[:2] == ["3", "50000"]
    first, second = map(int, done.stdout.splitlines()[2].split())
    assert first > 10_000 and second == first
