"""The temporary harness home of the CLI tests (Scheme tool files, a python3 plugin, a
harness.toml) and a way to run the real ``harness`` command."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

WORDS_SCM = """\
(define-tool word-count
  (description "Count the words of a text")
  (parameters '((text . ((type . "string") (description . "the text")))))
  (execute (lambda (args)
             (display "counting")
             (number->string (length (string-split (cdr (assoc "text" args)) #\\space))))))

(define-tool explode
  (description "Always fails")
  (execute (lambda (args) (car '()))))

(register-hook 'pre_tool
  (lambda (payload)
    (if (equal? (cdr (assoc "tool_name" payload)) "word-count")
        (list (cons "arguments" (list (cons "text" "one two three four"))))
        '())))
"""

GUARD_PLUGIN = f"""\
#!{sys.executable}
import json, os, sys
if sys.argv[1:] == ["--schema"]:
    print(json.dumps({{"name": "shout", "description": "Upper-case a text",
                      "parameters": {{"type": "object",
                                     "properties": {{"text": {{"type": "string"}}}}}},
                      "hooks": ["pre_tool", "pre_shell_exec"]}}))
    sys.exit(0)
data = json.loads(sys.stdin.read() or "{{}}")
hook = os.environ.get("HARNESS_HOOK")
if hook == "pre_tool" and data.get("tool_name") == "forbidden":
    print(json.dumps({{"block": True, "message": "not today"}}))
elif hook is None:
    print(data["text"].upper())
"""

HARNESS_TOML = """\
[tools.tiers]
"admin/" = "unsandboxed"
"""

# (harness io) loads only in the unsandboxed tier: admin/ is unsandboxed by harness.toml
ADMIN_SCM = """\
(import (harness io))
(register-hook 'on_start (lambda (payload) '()))
"""


def make_home(home: Path) -> Path:
    """Fill ``home`` with words.scm, admin/env.scm (unsandboxed), the guard plugin and a
    harness.toml."""
    (home / "tools" / "admin").mkdir(parents=True)
    (home / "plugins").mkdir()
    (home / "tools" / "words.scm").write_text(WORDS_SCM)
    (home / "tools" / "admin" / "env.scm").write_text(ADMIN_SCM)
    plugin = home / "plugins" / "guard"
    plugin.write_text(GUARD_PLUGIN)
    plugin.chmod(0o755)
    (home / "harness.toml").write_text(HARNESS_TOML)
    return home


HARNESS_COMMAND = [sys.executable, "-m", "harness.cli"]


def run_harness(*argv: str, stdin: str = "", timeout: float = 20) -> subprocess.CompletedProcess:
    """Run the real ``harness`` command in a subprocess."""
    return subprocess.run([*HARNESS_COMMAND, *argv], input=stdin, capture_output=True, check=False,
                          text=True, timeout=timeout)


def start_serve(home: Path) -> tuple[subprocess.Popen, queue.Queue]:
    """A running ``harness serve --home HOME`` and a queue of the JSON messages it prints
    (responses and reload notifications). Kill the process when done."""
    proc = subprocess.Popen([*HARNESS_COMMAND, "serve", "--home", str(home)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(json.loads(x)) for x in proc.stdout],
                     daemon=True).start()
    return proc, lines
