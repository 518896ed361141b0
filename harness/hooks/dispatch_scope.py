"""The scope of one dispatch's in-process hooks: the thread context they run in, and the
runs run inside it.

``run_in_scope`` makes this thread's context (harness.sandbox.thread_context) say which
runtime and which context name the hooks run as, marks the hook point as running there (a
nested dispatch of the same point on this thread skips the in-process hooks: the
re-entrancy guard), runs each run of hooks with its runner, and restores the context. A
dispatch whose runs are all leaf hooks does not enter the scope: they read nothing of the
context and cannot dispatch.

It is one function, not a context manager: it sits on every dispatch with in-process
hooks, and a ``DispatchScope`` class entered with ``with`` measured 0.4-0.5 µs more per
dispatch to one no-op Python hook (bench/hooks.py: 2.0 against 2.4-2.5 µs).
"""

from __future__ import annotations

from harness.hooks.dispatch_record import DispatchRecord
from harness.hooks.runners import leaf_only
from harness.loading.registry import LEAF_RUNNER, SCHEME_RUNNER
from harness.sandbox.thread_context import contexts, thread_context


def run_in_scope(runtime, hook: str, runs: tuple, runners: tuple,
                 record: DispatchRecord | None, payload: dict) -> DispatchRecord | None:
    """Run ``runs`` (the in-process hooks of ``hook``, in order), each with its runner of
    ``runners`` (indexed by ``HookRun.runner``), in the dispatch scope; return ``record``,
    or the record the first answer or failure made (None: the hooks reported nothing)."""
    try:  # thread_context(), inline
        context = contexts.context
    except AttributeError:
        context = thread_context()
    if hook in context.points:
        if record is not None:  # (a traced dispatch says so)
            record.skipped("in-process", "re-entrant dispatch")
        return record
    first = runs[0]
    if first.runner == LEAF_RUNNER and (first.leaf.holds() if len(runs) == 1
                                        else leaf_only(runs)):
        leaf = runners[LEAF_RUNNER]
        for run in runs:
            record = leaf.run(hook, record, context, run, run.hooks, payload)
        return record
    # enter the scope
    saved = context.runtime, context.context_name, context.tier, context.code_file
    context.runtime = runtime
    name = payload.get("context_name")  # else: the calling tool call's context
    context.context_name = name if type(name) is str else context.calling_context
    context.points.add(hook)
    try:
        for run in runs:
            kind = run.runner
            if kind == LEAF_RUNNER and not run.leaf.holds():
                kind = SCHEME_RUNNER  # its file redefined what a hook calls
            record = runners[kind].run(hook, record, context, run, run.hooks, payload)
    finally:  # leave it
        context.runtime, context.context_name, context.tier, context.code_file = saved
        context.points.discard(hook)
    return record
