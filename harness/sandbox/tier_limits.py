"""The budget of a Scheme call in each tier (``Limits``) and the defaults ``harness run``
and a home without ``[limits]`` in harness.toml use.

Kept apart from harness.sandbox.scheme_calls, and a plain class rather than a dataclass, so
that ``harness run`` reads its defaults without importing the call machinery or
``dataclasses`` (which imports ``inspect``, ``dis`` and ``tokenize``: ~4 ms of a 50 ms
start, bench/commands.py)."""

from __future__ import annotations

#: the least limits under which straight-line hooks run without a budget
ROOMY_STEPS = 100_000
ROOMY_SECONDS = 0.1
ROOMY_MEMORY = 64 << 20


class Limits:
    """The budget of one Scheme call: ``steps`` (None: unlimited) and ``seconds`` (None:
    no deadline), the most output it may write and the most memory it may use. Frozen:
    equal limits compare and hash alike."""

    __slots__ = ("leave_room", "max_memory", "max_output", "seconds", "steps")

    steps: int | None
    seconds: float | None
    max_output: int
    max_memory: int | None
    #: whether these limits are loose enough to run a straight-line hook without them
    #: (harness.scheme.hook_bounds: its work is bounded, and far below these)
    leave_room: bool

    def __init__(self, steps: int | None = 10_000_000, seconds: float | None = 5.0,
                 max_output: int = 1 << 20, max_memory: int | None = 512 << 20) -> None:
        set_field = object.__setattr__
        set_field(self, "steps", steps)
        set_field(self, "seconds", seconds)
        set_field(self, "max_output", max_output)
        set_field(self, "max_memory", max_memory)
        set_field(self, "leave_room", (steps is None or steps >= ROOMY_STEPS)
                  and (seconds is None or seconds >= ROOMY_SECONDS)
                  and (max_memory is None or max_memory >= ROOMY_MEMORY))

    def _fields(self) -> tuple:
        return (self.steps, self.seconds, self.max_output, self.max_memory)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Limits are frozen: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Limits:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self):  # copy and pickle build a new one (setting fields would raise)
        return Limits, self._fields()

    def __repr__(self) -> str:
        return (f"Limits(steps={self.steps!r}, seconds={self.seconds!r}, "
                f"max_output={self.max_output!r}, max_memory={self.max_memory!r})")


#: the limits of each tier when harness.toml says nothing (``harness run`` uses these; here,
#: not in harness.config, so that ``harness run`` need not import the hook runtime)
DEFAULT_LIMITS = {
    "sandboxed": Limits(steps=10_000_000, seconds=5.0, max_memory=512 << 20),
    "unsandboxed": Limits(steps=None, seconds=30.0, max_memory=2048 << 20),
}


def budget_share(limits: Limits, steps: int | None, deadline: float | None,
                 parts: int) -> Limits | None:
    """``limits`` for one of ``parts`` hooks of a file still to run on a dispatch, when
    the file has ``steps`` and time until ``deadline`` left of its budget (None: no such
    limit): an equal part of what is left; None when nothing is left.

    A file's hooks share its budget on a dispatch (issue 23, item 7: 100 looping hooks of
    one file had held a dispatch 100 budgets long), and what a hook leaves goes to the
    ones after it, so one runaway hook does not starve its file's other hooks. Leaf hooks
    take no part (budget_shares): their work is bounded by their code."""
    import time
    if steps is not None:
        if steps <= 0:
            return None
        steps = max(steps // parts, 1)
    seconds = None
    if deadline is not None:
        seconds = (deadline - time.monotonic()) / parts
        if seconds <= 0:
            return None
    return Limits(steps, seconds, limits.max_output, limits.max_memory)


def budget_shares(hooks: tuple) -> dict[int, int]:
    """For each hook of a run (by id), how many hooks of its file that share its budget
    run from it on, itself included; 0 for a leaf hook that still calls only what it was
    read to call (harness.scheme.hook_bounds: its work is bounded by its code, so it needs
    no part of its file's budget)."""
    shares: dict[int, int] = {}
    following, file = 0, None
    for h in reversed(hooks):
        if h.file != file:
            following, file = 0, h.file
        leaf = h.leaf
        if leaf is None or not _still_calls(h.env, leaf):
            following += 1
            shares[id(h)] = following
        else:
            shares[id(h)] = 0
    return shares


def _still_calls(env, leaf) -> bool:
    table = env.table
    return all(table.get(name) is value for name, value in leaf.calls)
