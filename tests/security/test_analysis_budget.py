"""The dispatcher's analyses of a file's hooks run under the file's load budget (issue 23,
item 8): they had run after it, unbounded, so 300 registrations of one big lambda loaded
in 125 s against a 5 s limit."""

from __future__ import annotations

import re

import pytest
from security_helpers import FAST_LIMITS, OTHER_FILE, SECONDS, SLACK, load_task, run_homes

#: one lambda whose payload parameter is read 2,000 times as arguments of one call
BIG_LAMBDA = "(define big (lambda (p) (list " + " p" * 2000 + ")))\n"
CASES = {
    "300 registrations of a big lambda": (
        BIG_LAMBDA + "(do ((i 0 (+ i 1))) ((= i 300)) (register-hook 'post_message big))\n",
        r"step budget of [\d,]+ steps exhausted|time limit of [\d.]+ s exceeded"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    homes = {name: ({"hostile.scm": text, **OTHER_FILE}, FAST_LIMITS)
             for name, (text, _) in CASES.items()}
    return run_homes(tmp_path_factory, "analysis", homes, load_task, timeout=60)


@pytest.mark.parametrize("case", list(CASES))
def test_the_analyses_of_a_files_hooks_end_inside_its_load_budget(results, case):
    run = results[case]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    (message,) = run.value["load_errors"]
    assert re.search(CASES[case][1], message.splitlines()[0]), message[:300]
    assert run.value["answers"] == [{"bystander": "other file"}]
    assert run.value["cpu"] < SECONDS + SLACK, run.describe()
