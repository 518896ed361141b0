"""harness.sandbox.tier_limits.Limits: a frozen value (a plain class, not a dataclass: see the
module) that behaves as the dataclass it replaced did."""

from __future__ import annotations

import copy
import pickle

import pytest

from harness.sandbox.tier_limits import DEFAULT_LIMITS, Limits


def test_limits_have_the_defaults_and_compare_and_hash_by_value():
    assert Limits() == Limits(steps=10_000_000, seconds=5.0, max_output=1 << 20,
                              max_memory=512 << 20)
    assert Limits(steps=5) != Limits(steps=6) and Limits() != (10_000_000, 5.0)
    assert len({Limits(seconds=1.0), Limits(seconds=1.0), Limits(seconds=2.0)}) == 2
    assert repr(Limits(steps=None)) == ("Limits(steps=None, seconds=5.0, "
                                        "max_output=1048576, max_memory=536870912)")


def test_limits_are_frozen_and_survive_copy_and_pickle():
    limits = DEFAULT_LIMITS["unsandboxed"]
    with pytest.raises(AttributeError, match="frozen"):
        limits.steps = 1
    for twin in (copy.copy(limits), copy.deepcopy(limits), pickle.loads(pickle.dumps(limits))):
        assert twin == limits and twin.leave_room == limits.leave_room


def test_leave_room_says_whether_a_straight_line_hook_can_run_without_a_budget():
    assert Limits(steps=None, seconds=None, max_memory=None).leave_room
    assert Limits().leave_room
    assert not Limits(steps=1000).leave_room
    assert not Limits(seconds=0.01).leave_room
    assert not Limits(max_memory=1 << 20).leave_room
