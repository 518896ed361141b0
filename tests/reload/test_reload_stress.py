"""1,000 rapid edits, renames and deletes of several files while 4 threads fire hooks: no
dispatch raises or sees a torn file, and the end state is what the files say.

Each file registers two pre_system_prompt hooks in one top-level form, answering
"NAME:VERSION:a" and "NAME:VERSION:b". One dispatch must see both hooks of a file with the
same version, or neither (a file that is gone, or caught empty between truncate and write);
a half-written file is a syntax error (the form is unbalanced), so it never loads.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from pathlib import Path

from reload_helpers import save_atomic, save_in_place, save_vim_style

from harness.runtime import Runtime

NAMES = ["f0.scm", "f1.scm", "f2.scm", "sub/f3.scm"]
OPERATIONS = 1000
CHECKERS = 4


def hook_file(name: str, version: int) -> str:
    answers = [f'(list (cons "inject" "{name}:{version}:{tag}"))' for tag in "ab"]
    return ("(begin\n" + "".join(f"  (register-hook 'pre_system_prompt (lambda (p) {a}))\n"
                                 for a in answers) + ")\n")


def versions_seen(result: dict) -> dict[str, list[tuple[int, str]]]:
    """name -> [(version, tag)] of one dispatch's answers, in dispatch order."""
    seen: dict[str, list[tuple[int, str]]] = {}
    for answer in result["answers"]:
        name, version, tag = answer["answer"]["inject"].rsplit(":", 2)
        seen.setdefault(name, []).append((int(version), tag))
    return seen


def torn(result: dict) -> str | None:
    # a file saved broken is listed until it loads again: as running its last good version,
    # or as running nothing when it has none
    hook_errors = [e for e in result["errors"] if not e["message"].startswith(
        ("failed to load", "running last good version of "))]
    if hook_errors:
        return f"errors: {hook_errors}"
    answering = versions_seen(result)
    silent = [e for e in result["errors"] if e["message"].startswith("failed to load")]
    if any(e["source"].endswith(f"/tools/{name}") for e in silent for name in answering):
        return f"a file both listed as broken and answering: {result}"
    for name, hooks in versions_seen(result).items():
        if len(hooks) != 2 or hooks[0][0] != hooks[1][0] or [t for _, t in hooks] != ["a", "b"]:
            return f"{name}: {hooks}"
    return None


class Checker(threading.Thread):
    def __init__(self, rt: Runtime, stop: threading.Event) -> None:
        super().__init__(name="stress-checker")
        self.rt, self.stop = rt, stop
        self.dispatches = 0
        self.problems: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                problem = torn(self.rt.fire("pre_system_prompt", {"model": "m"}))
            except Exception as exc:  # noqa: BLE001 - any raise is a failure we report
                problem = f"raised {type(exc).__name__}: {exc}"
            self.dispatches += 1
            if problem:
                self.problems.append(problem)
            time.sleep(0.0005)  # let the editing and reloading threads have the GIL too


def edit_storm(tools: Path, rng: random.Random) -> Counter:
    """OPERATIONS random saves, broken saves, deletes and renames; the last operation on each
    file leaves it valid or deleted. Bursts alternate with pauses longer than the debounce."""
    done: Counter = Counter()
    finals = {OPERATIONS - len(NAMES) + i: name for i, name in enumerate(NAMES)}
    for step in range(OPERATIONS):
        name = finals.get(step) or rng.choice(NAMES)
        path = tools / name
        parked = path.with_name(path.name + ".off")
        version = step + 1
        op = (rng.choice(["in_place", "atomic", "delete"]) if step in finals else
              rng.choices(["in_place", "atomic", "vim", "broken", "delete", "rename"],
                          weights=[30, 30, 10, 10, 10, 10])[0])
        if op == "delete":
            for p in (path, parked):
                if p.exists():
                    p.unlink()
        elif op == "rename":
            if path.exists():
                os.rename(path, parked)
            elif parked.exists():
                os.rename(parked, path)
        elif op == "broken":
            save_in_place(path, hook_file(name, version)[:-3])  # unbalanced: never loads
        elif op == "vim" and path.exists():
            save_vim_style(path, hook_file(name, version))
        elif op == "atomic":
            save_atomic(path, hook_file(name, version))
        else:
            save_in_place(path, hook_file(name, version))
        done[op] += 1
        if rng.random() < 0.05:
            time.sleep(rng.uniform(0.03, 0.06))
    return done


def expected_answers(tools: Path) -> list[str]:
    out = []
    for name in sorted(NAMES):
        path = tools / name
        if path.exists():
            out += [line.split('"inject" "')[1].split('"')[0]
                    for line in path.read_text().splitlines() if '"inject"' in line]
    return out


def test_stress_edits_while_firing(home: Path, live) -> None:
    tools = home / "tools"
    (tools / "sub").mkdir()
    for name in NAMES:
        (tools / name).write_text(hook_file(name, 0))
    lv = live()
    stop = threading.Event()
    checkers = [Checker(lv.rt, stop) for _ in range(CHECKERS)]
    for checker in checkers:
        checker.start()
    try:
        done = edit_storm(tools, random.Random(4))
        lv.settle()
    finally:
        stop.set()
        for checker in checkers:
            checker.join()
    problems = [p for c in checkers for p in c.problems]
    assert problems == [], problems[:5]
    assert sum(c.dispatches for c in checkers) > 200
    assert sum(done.values()) == OPERATIONS
    kinds = Counter(e["event"] for e in lv.events)
    assert kinds["reloaded"] > 20 and kinds["unloaded"] > 0 and kinds["failed"] > 0, kinds
    # the end state is what the files say, exactly as a fresh load of the home gives it
    final = [a["answer"]["inject"] for a in lv.rt.fire("pre_system_prompt", {})["answers"]]
    assert final == expected_answers(tools)
    fresh = Runtime(home)
    assert final == [a["answer"]["inject"]
                     for a in fresh.fire("pre_system_prompt", {})["answers"]]
    assert lv.rt.load_errors == {}
    assert [h["source"] for h in lv.rt.hooks()] == [h["source"] for h in fresh.hooks()]
