"""A file's hooks share its budget on a dispatch, and a file's registrations are capped
(issue 23, item 7): 100 looping pre_tool hooks of one file had held a dispatch 29.5 s
against a 5 s limit, linear in their number. Each hook gets an equal part of what its
file has left, so one runaway hook does not starve the file's other hooks; leaf hooks
(bounded by their code) take no part, unless what they call was redefined."""

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

from harness.loading.scheme_loader import MAX_REGISTRATIONS

LOOPING = hook_on("post_message", "(let loop () (loop))") * 100
#: 100 leaf hooks (they call only a helper that was leaf code when the file loaded), and a
#: first hook that makes the helper loop: they must share the budget too
REDEFINED = ("(define (helper p) (car p))\n"
             + hook_on("post_message", "(set! helper (lambda (p) (let loop () (loop))))")
             + hook_on("post_message", "(helper p)") * 100)


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    homes = {"steps": ({"many.scm": LOOPING, **OTHER_FILE}, FAST_LIMITS),
             "seconds": ({"many.scm": LOOPING, **OTHER_FILE}, TIME_ONLY_LIMITS),
             "redefined": ({"many.scm": REDEFINED, **OTHER_FILE}, TIME_ONLY_LIMITS)}
    return run_homes(tmp_path_factory, "many", homes, fire_task, timeout=60)


def test_a_runaway_hook_leaves_its_files_other_hooks_a_part(tmp_path_factory):
    text = (hook_on("post_message", "(let loop () (loop))")
            + hook_on("post_message", '(list (cons "after" "the runaway"))'))
    runs = run_homes(tmp_path_factory, "part", {"part": ({"two.scm": text, **OTHER_FILE},
                                                         FAST_LIMITS)}, fire_task)
    value = runs["part"].value
    assert len(value["errors"]) == 1 and "step budget" in value["errors"][0]
    assert value["answers"] == [{"after": "the runaway"}, {"bystander": "other file"}]
    assert value["cpu"] < SECONDS + SLACK


@pytest.mark.parametrize("limit", ["steps", "seconds", "redefined"])
def test_many_looping_hooks_of_one_file_end_inside_one_budget(results, limit):
    run = results[limit]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    value = run.value
    errors = value["errors"]
    assert len(errors) == 100
    assert all(re.search(r"many\.scm:\d+:\d+: (step budget|time limit)", m) or
               "share one budget per dispatch, and its earlier hooks spent it" in m
               for m in errors), errors
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
