"""A start keeps the compiled code of the scheme_lib definitions its files need (SRFI 1's
``any`` and ``fold`` here) in HOME/.cache/parsed, and the next start runs that code instead
of compiling it again (harness/scheme/compiled_definitions.py), with the same answers."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
from pathlib import Path

from harness.scheme.parse_cache import ParseCache

ROOT = Path(__file__).resolve().parents[2]

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((words (string-split (cdr (assoc "tool_name" payload)) #\\space)))
      (if (any (lambda (w) (string=? w "rm")) words)
          (list (cons "block" #t)
                (cons "message" (number->string (fold + 0 (map string-length words)))))
          '()))))
"""

# prints how many definitions the start compiled, and what the hook answered
CHILD = """
import json, sys
import harness.scheme.interpreter as interpreter
compiled = []
plain = interpreter.eval_form
def counting(env, form, smap, scope=None, compiled_hook=None):
    if compiled_hook is not None:
        compiled.append(env.name)
    return plain(env, form, smap, scope, compiled_hook)
interpreter.eval_form = counting
from harness.runtime import Runtime
rt = Runtime(sys.argv[1])
assert not rt.load_errors, rt.load_errors
answer = rt.fire("pre_tool", {"tool_name": "sudo rm -rf", "arguments": {}})
print(json.dumps({"compiled": len(compiled), "outcome": answer["outcome"]}))
"""


def start(home: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(home)], capture_output=True,
                         text=True, check=True, cwd=home)
    return json.loads(out.stdout)


def test_a_second_start_runs_the_library_code_the_first_compiled(tmp_path):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "tools" / "guard.scm").write_text(GUARD)
    first = start(home)
    assert first["compiled"] > 0  # any, fold and the helpers they call
    cache = ParseCache(home / ".cache" / "parsed")
    entries = [marshal.loads(cache.load_blob(p.stem)) for p in cache.directory.glob("*.blob")]
    packs = [e for e in entries if isinstance(e, dict)]  # (the rest: library export names)
    assert len(packs) < first["compiled"]  # one pack per library file, not per definition
    assert sum(len(pack) for pack in packs) == first["compiled"]
    second = start(home)
    assert second["compiled"] == 0
    assert first["outcome"] == second["outcome"] == {"blocked": True, "message": "9",
                                                     "arguments": {}}
