"""Firing a hook point: the one place where hooks run and their answers are combined.

``Dispatcher.fire`` asks each source that has something for the point, in order:
subprocess plugins (by name), then declared handlers (hooks.toml, then the Claude Code
settings files, in declaration order; they run at the same time, their answers are read in
that order), then the in-process hooks — the tool files' (Scheme, Hy and Python alike) by
file path, then registration order, then the Python hooks the host registered — run by
run, each run by the runner the registry chose for it (harness.hooks.runners), inside the
dispatch scope (harness.hooks.dispatch_scope). What they report goes into one
``DispatchRecord``, made by the first source with something to report (most dispatches of
a guard have nothing, and make none); then the fail-closed answers are added and the
answers combined (harness.hooks.combine).

A hook that fails is reported and skipped; the others still run. Permission hooks fail
closed (a failed hook denies), all others fail open. While the in-process hooks of a point
run on a thread, a nested dispatch of that point on that thread skips them (re-entrancy
guard); plugins and declared handlers still fire. A file or plugin of the home that failed
to load is listed first in the errors of every dispatch until it is fixed (a file running
its last good version says so), so a broken guard is never silent; a file with no good
version running never opens what it guards (``_unguarded_answers``, SPEC §14). The other
errors are in dispatch order, a combine problem where the source of its answer ran.

Tracing (``trace_enabled``, or an audit log that lists every hook: harness.record) swaps
in a ``TracedRecord`` and runners wrapped in ``TracedRunner``: the untraced path never asks
whether it is on. An audit log that lists only the hooks that answered or failed
(``[record] hooks = "answered"``) keeps the untraced runners and an ``AnsweredRecord``,
made up front: it costs a record and one entry per answer or failure, no timing per hook
and no run split into single hooks. A
source with nothing for the hook point costs one lookup: most dispatches have no plugin,
no declared handler and few hooks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.combine import block_answer, combine_placed
from harness.hooks.dispatch_record import AnsweredRecord, DispatchRecord, TracedRecord
from harness.hooks.dispatch_scope import run_in_scope
from harness.hooks.runners import plain_runners, traced_runners
from harness.loading.registry import file_source
from harness.sandbox.thread_context import thread_context

#: the combine rules of the points a hook can block (``{"block": true}``)
_BLOCKING_RULES = ("tool_call", "tool_output", "spawn_agent")

PermissionHandler = Callable[[str, dict], object]


class Dispatcher:
    """Fires hook points over a runtime's plugins, declared handlers and in-process hooks
    (the tool files' Scheme, Hy and Python hooks, then the host's)."""

    def __init__(self, runtime, permission_handler: PermissionHandler | None = None) -> None:
        self.runtime = runtime
        self.permission_handler = permission_handler
        #: dispatch results carry a ``"trace"`` (SPEC §9)
        self.trace_enabled = False
        # indexed by HookRun.runner; the traced ones when tracing or recording every hook
        self._runners = plain_runners(runtime)
        self._traced_runners = traced_runners(runtime)

    def fire(self, hook: str, payload: dict | None = None) -> dict:
        """Run every hook of ``hook`` on ``payload``; return the dispatch result (SPEC §9):
        ``{"hook", "outcome", "answers": [{"source", "answer"}], "errors": [...]}``
        (plus ``"trace"`` when tracing is on). Raises UnknownHookError for a bad name and
        PayloadError when ``payload`` is not a JSON object."""
        point = HOOK_POINTS.get(hook) if type(hook) is str else None
        if point is None:
            point = hook_point(hook)  # raises, naming the closest valid point
        payload = dict(payload) if type(payload) is dict else _payload_object(payload)
        runtime = self.runtime
        registry, plugins, handlers = runtime.registry, runtime.plugins.state, runtime.handlers
        broken, not_loaded = registry.broken, plugins.not_loaded  # failed to load: SPEC §9
        errors = [dict(e) for e in (*not_loaded, *broken)] if broken or not_loaded else []
        recorder = runtime.recorder  # the audit log (harness.record)
        # made by the first source with something to report (traced, recorded: up front)
        if recorder is None:
            traced = self.trace_enabled
            record = TracedRecord(hook) if traced else None
        else:  # every hook's trace entry, or only those of the hooks that answered or failed
            start = time.perf_counter()
            traced = self.trace_enabled or recorder.hook_trace
            record = TracedRecord(hook) if traced else AnsweredRecord(hook)
        runners = self._traced_runners if traced else self._runners
        # Each source is asked only when it has something for this point: most dispatches
        # find no plugin, no declared handler and few in-process hooks, and cost ~nothing.
        if hook in plugins.by_hook:
            record = record or DispatchRecord(hook)
            record.results(runtime.plugins.call_hooks(hook, payload))
        if not handlers.idle:
            problems = handlers.dispatch_errors(hook)  # never silent when broken
            results = handlers.call_hooks(hook, payload)
            if problems or results:
                record = record or DispatchRecord(hook)
                record.errors.extend(problems)
                record.results(results)
        runs = registry.runs.get(hook)
        if runs:
            record = run_in_scope(runtime, hook, runs, runners, record, payload)
        if registry.unguarded:  # a guard that does not load never opens: SPEC §14
            record = record or DispatchRecord(hook)
            self._unguarded_answers(point, registry.unguarded, record)
        if record is None or not (record.answers or record.errors):
            # nothing answered, nothing failed: the usual dispatch
            outcome, _ = combine_placed(point, payload, (), self.permission_handler)
            result = {"hook": hook, "outcome": outcome, "answers": [], "errors": errors}
            trace = None if record is None else record.trace
        else:
            closed = self._failed_closed(point, record) if record.failed else ()
            answers = record.answers
            outcome, problems = combine_placed(point, payload, answers,
                                               self.permission_handler, closed)
            if problems:
                record.place_problems(problems)
            errors.extend(record.errors)
            result = {"hook": hook, "outcome": outcome,
                      "answers": [{"source": s, "answer": a} for s, a in answers] if answers
                      else [],
                      "errors": errors}
            trace = record.trace
        if self.trace_enabled:
            result["trace"] = trace
        if recorder is not None:
            points = thread_context().points
            if traced:
                recorder.dispatched(hook, payload, result, trace, start, bool(points))
            else:  # (a re-entrant dispatch skipped the in-process hooks)
                ran = record.ran
                if runs and hook not in points:
                    for run in runs:
                        ran += len(run.hooks)
                recorder.dispatched(hook, payload, result, trace, start, bool(points), ran)
        return result

    def _failed_closed(self, point, record: DispatchRecord) -> list[str]:
        """The failed hooks that fail closed; on a point that is no permission point each
        stands for a block at its place in the order (inserted into the answers)."""
        closed = [src for src in record.failed if self._fails_closed(point, src)]
        if closed and point.combine != "permission":
            order = {src: i for i, (src, _) in enumerate(record.answers)}
            for src in closed:
                block = block_answer(point, f"hook failed: {src}")
                if block is not None:
                    record.insert_answer(order.get(src, len(record.answers)), src, block)
        return closed

    def _unguarded_answers(self, point, failures: tuple, record: DispatchRecord) -> None:
        """Answers that stand for the tool files that do not load and have no good version
        running: a file whose failure policy is closed blocks (``pre_tool``,
        ``pre_tool_output``, ``pre_spawn_agent``) or denies (the permission points); a
        file that was going to guard a permission point (it names it) denies it, whatever
        its policy. Each answer's reason names the file and its error."""
        permission = point.combine == "permission"
        if not permission and point.combine not in _BLOCKING_RULES:
            return
        for failure in failures:
            source = file_source(failure.path, self.runtime.home)
            if permission and point.name in failure.points:
                why = f"it was going to guard {point.name}"
            elif self._load_policy(source) == "closed":
                why = "its failure policy is closed"
            else:
                continue
            reason = (f"{failure.path} does not load and no good version of it runs, so "
                      f"{point.name} {'denies' if permission else 'blocks'} until it loads "
                      f"({why}): {failure.message}")
            answer = {"denied": True, "reason": reason} if permission else \
                block_answer(point, reason)
            record.answer(source, answer)

    def _load_policy(self, source: str) -> str:
        """The failure policy of a tool file that does not load: its [failure] key, else
        ``[failure] default``, else open (its permission points still deny: see
        ``_unguarded_answers``)."""
        config = self.runtime.config
        override = config.failure_override(source, str(self.runtime.tools_dir))
        return override or config.failure_default or "open"

    def _fails_closed(self, point, source: str) -> bool:
        """Failure policy: harness.toml [failure] overrides; then ``[failure] default =
        "closed"`` makes every hook fail closed; by default guards (permission hooks) fail
        closed and every other hook fails open."""
        runtime = self.runtime
        override = runtime.config.failure_override(source, str(runtime.tools_dir))
        if override is not None:
            return override == "closed"
        return runtime.config.failure_default == "closed" or point.combine == "permission"


class PayloadError(TypeError):
    """A payload that is not a JSON object (a dict)."""


def _payload_object(payload: object) -> dict:
    """A copy of a payload given as None (empty) or another mapping; PayloadError else."""
    if payload is None:
        return {}
    if isinstance(payload, Mapping):
        return dict(payload)
    raise PayloadError(f"payload must be a JSON object (a dict), got "
                       f"{type(payload).__name__}: {payload!r:.80}")
