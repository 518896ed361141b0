"""A file's hooks share its budget on a dispatch, and a file's registrations are capped
(issue 23, item 7): 100 looping pre_tool hooks of one file had held a dispatch 29.5 s
against a 5 s limit, linear in their number."""

from __future__ import annotations

import re

import pytest
from security_helpers import (
    FAST_LIMITS,
    OTHER_FILE,
    SECONDS,
    SLACK,
    TIME_ONLY_LIMITS,
    fire_task,
    hook_on,
    load_task,
    run_homes,
)

from harness.tools.scheme_loader import MAX_REGISTRATIONS

LOOPING = hook_on("post_message", "(let loop () (loop))") * 100


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    homes = {"steps": ({"many.scm": LOOPING, **OTHER_FILE}, FAST_LIMITS),
             "seconds": ({"many.scm": LOOPING, **OTHER_FILE}, TIME_ONLY_LIMITS)}
    return run_homes(tmp_path_factory, "many", homes, fire_task, timeout=60)


@pytest.mark.parametrize("limit", ["steps", "seconds"])
def test_many_looping_hooks_of_one_file_end_inside_one_budget(results, limit):
    run = results[limit]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    value = run.value
    first, *rest = value["errors"]
    assert re.search(r"many\.scm:1:\d+: (step budget|time limit)", first), first
    assert len(rest) == 99
    assert all("share one budget per dispatch, and its earlier hooks spent it" in m
               for m in rest), rest[0]
    assert value["answers"] == [{"bystander": "other file"}]
    assert value["next_answers"] == [{"prompt": "next dispatch works"}]
    assert value["cpu"] < SECONDS + SLACK, run.describe()


def test_a_file_may_make_only_so_many_registrations(tmp_path_factory):
    many = (f"(do ((i 0 (+ i 1))) ((= i {MAX_REGISTRATIONS + 1}))\n"
            "  (register-hook 'post_message (lambda (p) '())))\n")
    runs = run_homes(tmp_path_factory, "regs", {"cap": ({"many.scm": many, **OTHER_FILE},
                                                        FAST_LIMITS)}, load_task)
    run = runs["cap"]
    assert run.status == "ok", run.describe()
    (message,) = run.value["load_errors"]
    assert f"a file may make at most {MAX_REGISTRATIONS} registrations" in message
    assert run.value["answers"] == [{"bystander": "other file"}]
