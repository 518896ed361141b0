"""harness-repl in a real pseudo-terminal (pexpect), typed at as a user would.

Expectations match text only the REPL prints (values, outcomes), never the echo of what was
typed, and never colours: NO_COLOR is set and cursor-position requests are off.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from repl_helpers import BROKEN, GUARD

pexpect = pytest.importorskip("pexpect")

TIMEOUT = 30  # seconds: generous, a loaded CI machine is slow to start Python
UP = "\x1b[A"
CTRL_C = "\x03"
CTRL_D = "\x04"
ROOT = Path(__file__).resolve().parents[2]


class Terminal:
    """One harness-repl process on a pseudo-terminal."""

    def __init__(self, home: Path, *args: str) -> None:
        env = dict(os.environ, NO_COLOR="1", PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm",
                   PYTHONPATH=str(ROOT))
        self.child = pexpect.spawn(sys.executable, ["-m", "harness.repl", "--home", str(home),
                                                    *args],
                                   env=env, encoding="utf-8", timeout=TIMEOUT,
                                   dimensions=(50, 200))
        self.expect("harness>")

    def type(self, text: str) -> None:
        """Send ``text`` as keystrokes, a line at a time (Enter after each line)."""
        for line in text.split("\n"):
            self.child.send(line + "\r")
            time.sleep(0.1)

    def expect(self, text: str) -> str:
        """Wait for ``text``; return everything printed before it."""
        self.child.expect_exact(text)
        return self.child.before

    def close(self) -> int:
        self.child.send(CTRL_D)
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def terminal(home):
    term = Terminal(home)
    yield term
    if term.child.isalive():
        term.child.terminate(force=True)


def test_a_multi_line_entry_waits_for_the_closing_paren(terminal):
    terminal.type("(define (shout s)")
    terminal.expect("........")  # the continuation prompt: nothing was evaluated yet
    terminal.type('  (string-upcase s))')
    terminal.type('(shout "quiet")')
    printed = terminal.expect('"QUIET"')
    assert "unexpected end of input" not in printed
    assert terminal.close() == 0


RM = ',fire pre_tool {"tool_name": "shell_exec", "arguments": {"command": "rm -rf /"}}'


def test_fire_with_json_and_with_an_alist(terminal):
    terminal.type(RM)
    terminal.expect('"blocked": true')
    terminal.expect("answer   scm:tools/guard.scm:2")
    terminal.expect("1 answer, 0 errors in")
    terminal.type(',fire pre_tool (list (cons "tool_name" "shell_exec")')
    terminal.type('                     (cons "arguments" \'(("command" . "ls"))))')
    terminal.expect('"blocked": false')
    terminal.expect("0 answers, 0 errors in")
    assert terminal.close() == 0


def test_loading_a_broken_file_shows_the_caret_and_the_repl_goes_on(terminal, tmp_path):
    broken = tmp_path / "broken.scm"
    broken.write_text(BROKEN)
    terminal.type(f",load {broken}")
    terminal.expect("broken.scm:4:14: car: expected a pair")
    terminal.expect("(define oops (car 5))")
    terminal.type('(string-upcase "still here")')
    printed = terminal.expect('"STILL HERE"')
    assert "Traceback" not in printed
    assert terminal.close() == 0


def test_tab_completes_a_hook_name(terminal):
    terminal.child.send(",fire pre_to")
    time.sleep(0.3)
    terminal.child.send("\t")
    time.sleep(0.5)
    terminal.child.send("\r")
    terminal.expect('outcome  {"blocked": false')  # fired pre_tool with its sample payload
    terminal.expect('"ls -la src"')
    assert terminal.close() == 0


def test_history_is_kept_across_sessions(home):
    first = Terminal(home)
    first.type('(string-append "from " "the first session")')
    first.expect('"from the first session"')
    assert first.close() == 0
    assert "the first session" in (home / ".repl_history").read_text()
    second = Terminal(home)
    # prompt_toolkit loads the history file in the background once the prompt is up: an
    # Up pressed before it is loaded recalls nothing, so press Up until the entry is shown
    for _ in range(TIMEOUT * 4):
        second.child.send(UP)
        try:
            second.child.expect_exact('"the first session")', timeout=0.25)
            break
        except pexpect.TIMEOUT:
            continue
    else:
        pytest.fail("Up never recalled the first session's entry")
    second.child.send("\r")
    second.expect('"from the first session"')
    assert second.close() == 0


def test_ctrl_c_drops_the_entry_being_typed(terminal):
    terminal.child.send("(string-append 1")
    time.sleep(0.2)
    terminal.child.send(CTRL_C)
    time.sleep(0.2)
    terminal.type('(string-upcase "fresh")')
    printed = terminal.expect('"FRESH"')
    assert "expected a string" not in printed
    assert terminal.close() == 0


def test_ctrl_c_interrupts_a_running_evaluation(home):
    term = Terminal(home, "--tier", "unsandboxed")  # 30 s time limit, no step limit
    term.type("(let loop () (loop))")
    time.sleep(1.0)
    term.child.sendintr()
    term.expect("interrupted")
    term.type('(string-upcase "alive")')
    term.expect('"ALIVE"')
    assert term.close() == 0


def test_an_edit_on_disk_is_reloaded_and_reported(terminal, home):
    terminal.type(RM)
    terminal.expect('"message": "no rm -rf"')
    (home / "tools" / "guard.scm").write_text(GUARD.replace('"no rm -rf"', '"never rm -rf"'))
    terminal.expect("[reload] reloaded tools/guard.scm (tools: -; hooks: pre_tool)")
    terminal.type(RM)
    terminal.expect('"message": "never rm -rf"')
    (home / "tools" / "guard.scm").write_text("(register-hook 'pre_tool")
    terminal.expect("[reload] failed tools/guard.scm (the last good version stays live")
    terminal.expect("unexpected end of input")
    terminal.type(RM)
    terminal.expect('"message": "never rm -rf"')
    assert terminal.close() == 0
