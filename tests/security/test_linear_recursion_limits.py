"""A linear recursion compiled as a loop (linear_recursion.py) keeps every limit a
recursion of Python frames had: a step per level, the deadline, the memory its explicit
stack holds on to, and the recursion depth limit, failing at the same depth with the same
error. Each case also runs with the loop switched off, as every procedure ran before."""

from __future__ import annotations

import re

import pytest
from security_helpers import (
    BYSTANDER,
    NEXT_OK,
    OTHER_FILE,
    SECONDS,
    SLACK,
    TIME_ONLY_LIMITS,
    answers_of,
    fire_timed,
    hook_on,
    messages_of,
    write_home,
)

from harness.runtime import Runtime
from harness.scheme import limits, linear_recursion
from harness.scheme.errors import SizeLimitExceeded, StepLimitExceeded, TimeLimitExceeded
from harness.scheme.interpreter import Interpreter, format_error
from harness.scheme.limits import Budget, pending_steps
from harness.scheme.names import global_name


def interpreter(src: str, loops: bool, monkeypatch) -> Interpreter:
    """A sandboxed interpreter with ``src`` defined, with or without the loops."""
    if not loops:
        monkeypatch.setattr(linear_recursion, "is_candidate", lambda *args: False)
    interp = Interpreter(tier="sandboxed")
    interp.eval_string(src, "hostile.scm")
    monkeypatch.undo()
    is_loop = linear_recursion.LEVELS in interp.env.table[global_name("f")].__code__.co_varnames
    assert is_loop == loops
    return interp


BOTH = pytest.mark.parametrize("loops", [True, False], ids=["loop", "frames"])


@BOTH
def test_a_runaway_recursion_stops_at_the_step_budget(loops, monkeypatch):
    interp = interpreter("(define (f n) (+ 1 (f n)))", loops, monkeypatch)
    with Budget(steps=20_000, seconds=10), pytest.raises(StepLimitExceeded):
        interp.eval_string("(f 1)")


def test_every_level_counts_a_step(monkeypatch):
    used = []
    for loops in (True, False):
        interp = interpreter("(define (f n) (if (= n 0) '() (cons n (f (- n 1)))))", loops,
                             monkeypatch)
        pending = pending_steps()
        with Budget(steps=10**9, seconds=10) as budget:
            interp.eval_string("(f 30000)")
        used.append(10**9 - budget.steps - (pending_steps() - pending))
    # (a refill serves the step that found the list empty too: one step in 1,001 is free)
    assert used[0] >= 30_000 * 0.99
    assert used[0] >= used[1] * 0.99


@BOTH
def test_a_runaway_recursion_stops_at_the_deadline(loops, monkeypatch):
    # each level walks a 2,000-element list: a million levels would take seconds
    interp = interpreter("(define (f l) (+ (length l) (f l)))", loops, monkeypatch)
    with Budget(steps=None, seconds=0.1), pytest.raises(TimeLimitExceeded):
        interp.eval_string("(f (make-list 2000 0))")


@BOTH
def test_what_the_levels_keep_counts_against_the_memory_limit(loops, monkeypatch):
    interp = interpreter("(define (f n) (cons (make-string 20000 #\\a) (f n)))", loops,
                         monkeypatch)
    with Budget(steps=None, seconds=10, max_memory=64 << 20), \
            pytest.raises(SizeLimitExceeded, match="memory limit"):
        interp.eval_string("(f 1)")


def test_a_bottomless_recursion_fails_with_the_same_error_at_the_same_place(monkeypatch):
    monkeypatch.setattr(limits, "DEFAULT_DEPTH", 20_000)  # keep the frames' run short
    messages = []
    for loops in (True, False):
        interp = interpreter("(define (f n) (+ 1 (f n)))", loops, monkeypatch)
        monkeypatch.setattr(limits, "DEFAULT_DEPTH", 20_000)
        with Budget(steps=None, seconds=10), pytest.raises(RecursionError) as info:
            interp.eval_string("(f 1)")
        messages.append(format_error(info.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("hostile.scm:1:20: recursion too deep")


def test_the_depth_limit_is_the_frames_limit(monkeypatch):
    src = "(define (f n) (if (= n 0) 0 (+ 1 (f (- n 1)))))"

    def deepest(interp: Interpreter) -> int:
        lo, hi = 10_000, 20_000
        while lo + 1 < hi:
            mid = (lo + hi) // 2
            try:
                with Budget(steps=None, seconds=10):
                    interp.eval_string(f"(f {mid})")
                lo = mid
            except RecursionError:
                hi = mid
        return lo

    depths = []
    for loops in (True, False):
        interp = interpreter(src, loops, monkeypatch)
        monkeypatch.setattr(limits, "DEFAULT_DEPTH", 20_000)
        depths.append(deepest(interp))
        monkeypatch.undo()
    assert depths[0] == depths[1]
    assert 10_000 < depths[0] < 20_000


@pytest.mark.parametrize("toml", ["steps", "time only"])
def test_a_hook_calling_a_bottomless_recursion_ends_alone_inside_its_budget(tmp_path, toml):
    files = {"hostile.scm": "(define (f n) (+ 1 (f n)))\n" + hook_on("post_message", "(f 1)")
             + BYSTANDER, **OTHER_FILE}
    home = write_home(tmp_path, files, **({"toml": TIME_ONLY_LIMITS} if toml != "steps" else {}))
    rt = Runtime(home)
    assert rt.load_errors == {}
    result, cpu = fire_timed(rt)
    (message,) = messages_of(result)
    assert message.startswith("post_message hook failed: ") and "hostile.scm:" in message
    expected = ("step budget of [\\d,]+ steps exhausted" if toml == "steps"
                else "recursion too deep|time limit of [\\d.]+ s exceeded")
    assert re.search(expected, message), message
    assert answers_of(result) == [{"bystander": "same file"}, {"bystander": "other file"}]
    assert cpu < SECONDS + SLACK
    assert answers_of(rt.fire("pre_message", {"prompt": "p"})) == [NEXT_OK]
