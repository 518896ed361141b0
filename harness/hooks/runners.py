"""How a run of in-process hooks runs: one runner per kind of run, chosen when the
registry reindexes (``HookRun.runner``), and a tracing wrapper chosen when tracing is on.

* ``PythonRunner``: Python hooks (``.py`` / ``.hy`` files, the host's) get the payload
  dict itself and run under the unsandboxed tier's wall clock (SPEC §12).
* ``SchemeRunner``: Scheme hooks get the payload converted to Scheme data (per file, only
  what its hooks can look up: payload_use.py) and run under their tier's budget with
  their output captured and a continuation prompt under them; a file's hooks in one run
  share its budget (tier_limits.budget_shares).
* ``LeafRunner``: a run of leaf hooks (harness/scheme/hook_bounds.py), whose code writes
  nothing and cannot recurse, runs under a bare budget, or none when the hooks are
  straight-line and their tiers' limits leave room (when a hook's file redefined what it
  calls since it was read, the dispatch scope gives the run to ``SchemeRunner``).
* ``TracedRunner`` wraps any of them: it runs a run's hooks one at a time and writes each
  one's trace entry (``TracedRecord.hook_ran``), so the runners themselves never ask
  whether tracing is on.

``run(hook, record, context, run, hooks, payload)`` runs ``hooks`` (``run.hooks``, or a
part of it) of hook point ``hook`` on this thread (``context``), reports each answer or
failure to ``record`` and returns it: the record is made by the first answer or failure
(``None`` until then; most dispatches of a guard have none: dispatch_record.py). What the
hooks of a run share (the payload converted per file, the budget left to a file whose
hooks share one, the output capture) is the run's own, or ``share``'s (a ``RunShare``)
when ``TracedRunner`` runs it one hook at a time, so running it in parts changes nothing.
"""

from __future__ import annotations

import time

from harness.bridge import (
    NO_ANSWER,
    BridgeError,
    dumps,
    json_entries_to_scheme,
    json_to_scheme,
    loads,
    scheme_to_json,
)
from harness.hooks.dispatch_record import DispatchRecord, TracedRecord
from harness.loading.python_loader import describe_python_error
from harness.sandbox.scheme_calls import describe_error, pooled_capture
from harness.sandbox.tier_limits import budget_share, budget_shares
from harness.scheme.continuations import prompt
from harness.scheme.datatypes import NIL
from harness.scheme.errors import ResourceLimitExceeded


class RunShare:
    """What the hooks of one run share when it is run in parts (``TracedRunner``): the
    payload converted per file (payload_use.py), the [steps, deadline] left to the file
    whose hooks share one budget, the output capture of the last Scheme part."""

    __slots__ = ("capture", "converted", "pool")

    def __init__(self) -> None:
        self.converted: dict[str, object] = {}
        self.pool: list | None = None
        self.capture = None


class PythonRunner:
    """Python hooks: the payload dict itself, the unsandboxed tier's wall clock (they
    share nothing: ``share`` goes unused)."""

    __slots__ = ("runtime",)

    def __init__(self, runtime) -> None:
        self.runtime = runtime

    def run(self, hook: str, record: DispatchRecord | None, context, run, hooks: tuple,
            payload: dict, share: RunShare | None = None) -> DispatchRecord | None:
        context.tier, context.code_file = "unsandboxed", None  # (SPEC §12)
        slot = context.calls
        seconds = self.runtime.config.limits["unsandboxed"].seconds
        for h in hooks:
            try:
                value = slot.call(h.fn, payload, seconds)
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                record = record or DispatchRecord(hook)
                record.fail(h.source, f"{hook} hook failed: "
                                      f"{describe_python_error(exc, h.file or None)}")
                continue
            if value is not None:  # None: no answer (the usual case)
                record = record or DispatchRecord(hook)
                try:  # a private JSON copy: the hook may keep and change what it returned
                    record.answer(h.source, loads(dumps(value)))
                except (TypeError, ValueError) as exc:
                    record.fail(h.source, f"{hook} hook {h.source}: the answer has no JSON "
                                          f"form: {exc}")
        return record

    @staticmethod
    def output(share: RunShare, context) -> tuple[str, str]:
        """What the last hook run printed (for the trace)."""
        return context.calls.printed_text()


class SchemeRunner:
    """Scheme hooks under their tier's budget, output captured, under a prompt."""

    __slots__ = ("runtime",)

    def __init__(self, runtime) -> None:
        self.runtime = runtime

    def run(self, hook: str, record: DispatchRecord | None, context, run, hooks: tuple,
            payload: dict, share: RunShare | None = None) -> DispatchRecord | None:
        runtime = self.runtime
        limits = runtime.config.limits
        converted, pool = ({}, None) if share is None else (share.converted, share.pool)
        capture = pooled_capture(limits["sandboxed"].max_output, run.watch_deadline)
        budget = capture.budget
        # a file's hooks share its budget; most runs have no file with two hooks
        shares = budget_shares(run.hooks) if run.shared else None
        part = 0  # how many hooks of its file share the budget left (budget_shares)
        with capture:
            for h in hooks:
                bounds = limits[h.env.tier]
                if shares is not None:
                    part = shares[id(h)]
                    if part > 1 and pool is None:
                        pool = [bounds.steps, None if bounds.seconds is None
                                else time.monotonic() + bounds.seconds]
                    if part and pool is not None:
                        bounds = budget_share(bounds, pool[0], pool[1], part)
                        if bounds is None:
                            record = record or DispatchRecord(hook)
                            record.fail(h.source, f"{hook} hook skipped: the hooks of "
                                        f"{h.file} share one budget per dispatch, and its "
                                        "earlier hooks spent it")
                            if part == 1:
                                pool = None
                            continue
                scheme_payload = _scheme_payload(h, payload, converted, run.file_keys)
                context.tier = h.env.tier
                context.code_file = h.file
                capture.start_call(bounds)
                message = None
                answer = NO_ANSWER
                try:
                    value = prompt(h.proc, scheme_payload)
                except BaseException as exc:
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    message = f"{hook} hook failed: {describe_error(exc)}"
                else:
                    if value is not NIL and value is not None:  # '(): no answer
                        answer, message = _answer_of(value, f"{hook} hook at {h.file}:"
                                                            f"{h.line}")
                if part and pool is not None:  # what it spent leaves the file's budget
                    if part == 1:
                        pool = None
                    elif pool[0] is not None:
                        pool[0] -= bounds.steps - max(budget.steps, 0)
                if budget.memory_start is not None:  # (a call that measured its memory)
                    dropped = runtime.live_memory.note(h.file, budget.memory_start,
                                                       bounds.max_memory)
                    if dropped is not None:
                        runtime.drop_file(h.file, dropped)
                        message = f"{hook} hook failed: {dropped}"
                if message is not None:
                    record = record or DispatchRecord(hook)
                    record.fail(h.source, message)
                elif answer is not NO_ANSWER:
                    record = record or DispatchRecord(hook)
                    record.answer(h.source, answer)
        if share is not None:
            share.pool, share.capture = pool, capture
        return record

    @staticmethod
    def output(share: RunShare, context) -> tuple[str, str]:
        """What the last hook run printed (for the trace)."""
        capture = share.capture
        return ("", "") if capture is None else capture.output((0, 0))


class LeafRunner:
    """Leaf hooks (hook_bounds.py) that still call only what they were read to call,
    under a bare budget, or none when straight-line; no output capture, no prompt, no
    recursion window."""

    __slots__ = ("runtime",)

    def __init__(self, runtime) -> None:
        self.runtime = runtime

    def run(self, hook: str, record: DispatchRecord | None, context, run, hooks: tuple,
            payload: dict, share: RunShare | None = None) -> DispatchRecord | None:
        limits = self.runtime.config.limits
        # straight-line hooks run with no budget while their tiers' limits leave room
        # (Limits.leave_room; a loop, not _leave_room(): this sits on every dispatch)
        bounded = not run.straight
        if not bounded:
            for tier in run.tiers:
                if not limits[tier].leave_room:
                    bounded = True
                    break
        if not bounded:
            budget = None
        else:  # context.leaf_budget, inline
            budget = context.budget
            if budget is None or budget.active:
                budget = context.leaf_budget(run.watch_deadline)
            else:
                budget.watch = run.watch_deadline
            budget.enter_shallow()
        converted = {} if share is None else share.converted
        file_keys = run.file_keys
        try:
            for h in hooks:
                # _scheme_payload, inline for a leaf hook (whose keys hold: see there)
                if h.blind:
                    scheme_payload = NIL
                else:
                    scheme_payload = converted.get(h.file)
                    if scheme_payload is None:
                        scheme_payload = converted[h.file] = _file_payload(
                            payload, file_keys.get(h.file))
                if budget is not None:  # (no context.tier: nothing a leaf hook calls reads it)
                    bounds = limits[h.env.tier]
                    budget.reset(bounds.steps, bounds.seconds, bounds.max_memory)
                try:
                    value = h.proc(scheme_payload)
                except BaseException as exc:
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    record = record or DispatchRecord(hook)
                    record.fail(h.source, f"{hook} hook failed: {describe_error(exc)}")
                    continue
                if value is not NIL and value is not None:  # '(): no answer
                    # (still under the budget: converting a huge answer is charged)
                    answer, message = _answer_of(value, f"{hook} hook at {h.file}:{h.line}")
                    if message is not None:
                        record = record or DispatchRecord(hook)
                        record.fail(h.source, message)
                    elif answer is not NO_ANSWER:
                        record = record or DispatchRecord(hook)
                        record.answer(h.source, answer)
        finally:
            if budget is not None:
                budget.exit_shallow()
        return record

    @staticmethod
    def output(share: RunShare, context) -> tuple[str, str]:
        """What the last hook run printed: nothing."""
        return "", ""


class TracedRunner:
    """``runner`` with a trace entry per hook: it runs the hooks one at a time."""

    __slots__ = ("runner",)

    def __init__(self, runner: PythonRunner | SchemeRunner | LeafRunner) -> None:
        self.runner = runner

    def run(self, hook: str, record: TracedRecord, context, run, hooks: tuple,
            payload: dict) -> TracedRecord:
        """(A traced dispatch makes its record up front: ``record`` is never None.)"""
        runner = self.runner
        share = RunShare()
        for h in hooks:
            answers, failures = len(record.answers), len(record.failed)
            start = time.perf_counter()
            runner.run(hook, record, context, run, (h,), payload, share)
            record.hook_ran(h.source, start, runner.output(share, context), answers,
                            failures)
        return record


def plain_runners(runtime) -> tuple[PythonRunner, LeafRunner, SchemeRunner]:
    """The runners of ``runtime``'s dispatches, indexed by ``HookRun.runner``
    (PYTHON_RUNNER, LEAF_RUNNER, SCHEME_RUNNER)."""
    return PythonRunner(runtime), LeafRunner(runtime), SchemeRunner(runtime)


def traced_runners(runtime) -> tuple[TracedRunner, TracedRunner, TracedRunner]:
    """``plain_runners(runtime)``, each wrapped in a ``TracedRunner``."""
    python, leaf, scheme = plain_runners(runtime)
    return TracedRunner(python), TracedRunner(leaf), TracedRunner(scheme)


def leaf_only(runs: tuple) -> bool:
    """Whether every run is of leaf hooks that still call only their primitives (they
    need no dispatch scope entered)."""
    for run in runs:
        if run.leaf is None or not run.leaf.holds():
            return False
    return True


def _scheme_payload(h, payload: dict, converted: dict, file_keys: dict) -> object:
    """The payload as ``h`` sees it. Scheme data are mutable: each file gets its own copy,
    so no file's hooks can change what another file's hooks see. The copy holds only what
    the file's hooks can look up (payload_use.py): nothing for a hook that never reads its
    argument, only the entries of the keys it passes to ``assoc`` for one that does just
    that (or passes it to procedures of its file that do); the conversion is most of a
    cheap hook's cost. (A leaf hook just found to call only what it was read to call gets
    the file's copy without more checks: ``LeafRunner``. Its keys hold: assoc and the
    procedures it passes its payload to are still what they were, and nothing can change
    its key strings: no other code reaches them, and it calls nothing that changes a
    string.)"""
    if h.blind:
        return NIL
    copy = converted.get(h.file)
    wanted = file_keys.get(h.file)
    if copy is None:
        copy = converted[h.file] = _file_payload(payload, wanted)
    if wanted is not None and not h.payload_keys.hold(h.env.table):
        # an earlier hook redefined assoc or a procedure this one passes its payload to,
        # or changed a key string: this one sees it all
        return json_to_scheme(payload)
    return copy


def _file_payload(payload: dict, wanted: tuple | None) -> object:
    """The payload converted for a file whose hooks can look up the entries ``wanted``
    (None: all of it)."""
    return json_to_scheme(payload) if wanted is None else \
        json_entries_to_scheme(payload, wanted)


def _answer_of(value: object, where: str) -> tuple[object, str | None]:
    """(answer, None) for a Scheme hook's result, or (NO_ANSWER, why it has no JSON form
    or why converting it ran out of the hook's budget). ``#f`` is no answer, as ``'()``
    is: Scheme's idiomatic nothing, ``(and (guarded? payload) answer)``."""
    if value is False:
        return NO_ANSWER, None
    try:
        return scheme_to_json(value, where=where), None
    except BridgeError as exc:
        return NO_ANSWER, str(exc)
    except ResourceLimitExceeded as exc:
        return NO_ANSWER, f"{where}: converting the answer: {exc.message}"
