"""Firing a hook point: the one place where hooks run and their answers are combined.

Order: subprocess plugins (by name), then declared handlers (hooks.toml, then the Claude
Code settings files, in declaration order; they run at the same time, their answers are
read in that order), then the hooks of the tool files — Scheme, Hy and Python alike — by
file path, then registration order, then the Python hooks the host registered. A hook that
fails is reported and skipped; the others still run. Permission hooks fail closed (a
failed hook denies), all others fail open. While the in-process hooks of a point run on a
thread, a nested dispatch of that point on that thread skips them (re-entrancy guard);
plugins and declared handlers still fire. A file or plugin of the home that failed to load
is listed in the errors of every dispatch until it is fixed (a file running its last good
version says so), so a broken guard is never silent; a file with no good version running
never opens what it guards (``_unguarded_answers``, SPEC §14).

Scheme hooks get the payload converted to Scheme data and run under their tier's budget
with their output captured (``_scheme_hooks``), except a run of leaf hooks, whose code
writes nothing and cannot recurse: they run under a bare budget, or none when they are
straight-line and cannot run away (harness/scheme/hook_bounds.py: ``_leaf_hooks``); Python
hooks get the payload dict itself and run under the unsandboxed tier's wall clock
(``_in_process_hooks``). A source with nothing for the hook point costs one lookup: most
dispatches have no plugin, no declared handler and few hooks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from harness.bridge import (
    NO_ANSWER,
    BridgeError,
    dumps,
    json_entries_to_scheme,
    json_to_scheme,
    loads,
    scheme_to_json,
)
from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.combine import block_answer, combine
from harness.loading.python_loader import describe_python_error
from harness.loading.registry import file_source
from harness.sandbox.scheme_calls import describe_error, pooled_capture
from harness.sandbox.thread_context import contexts, thread_context
from harness.sandbox.tier_limits import budget_share, budget_shares
from harness.scheme.continuations import prompt
from harness.scheme.datatypes import NIL
from harness.scheme.errors import ResourceLimitExceeded

#: the combine rules of the points a hook can block (``{"block": true}``)
_BLOCKING_RULES = ("tool_call", "tool_output", "spawn_agent")

PermissionHandler = Callable[[str, dict], object]


class Dispatcher:
    """Fires hook points over a runtime's plugins, declared handlers and in-process hooks
    (the tool files' Scheme, Hy and Python hooks, then the host's)."""

    def __init__(self, runtime, permission_handler: PermissionHandler | None = None) -> None:
        self.runtime = runtime
        self.permission_handler = permission_handler
        self.trace_enabled = False

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
        answers: list[tuple[str, object]] = []
        broken, not_loaded = registry.broken, plugins.not_loaded  # failed to load: SPEC §9
        errors: list[dict] = ([dict(e) for e in (*not_loaded, *broken)] if broken or not_loaded
                              else [])
        failed: list[str] = []
        recorder = runtime.recorder  # the audit log (harness.record) needs the trace
        trace: list[dict] | None = [] if self.trace_enabled or recorder is not None else None
        start = time.perf_counter() if recorder is not None else 0.0
        # Each source is asked only when it has something for this point: most dispatches
        # find no plugin, no declared handler and no in-process hook, and cost ~nothing.
        if hook in plugins.by_hook:
            self._plugin_answers(runtime.plugins.call_hooks(hook, payload), answers, errors,
                                 failed, trace)
        if not handlers.idle:
            self._handler_answers(handlers, hook, payload, answers, errors, failed, trace)
        runs = registry.runs.get(hook)
        if runs:
            self._in_process_hooks(runs, hook, payload, answers, errors, failed, trace)
        if registry.unguarded:  # a guard that does not load never opens: SPEC §14
            self._unguarded_answers(point, registry.unguarded, answers)
        closed = self._failed_closed(point, failed, answers) if failed else ()
        outcome, problems = combine(point, payload, answers, self.permission_handler, closed)
        if problems:
            errors.extend(problems)
        result = {"hook": hook, "outcome": outcome,
                  "answers": [{"source": s, "answer": a} for s, a in answers] if answers
                  else [],
                  "errors": errors}
        if self.trace_enabled:
            result["trace"] = trace
        if recorder is not None:
            recorder.dispatched(hook, payload, result, trace, start, bool(_nested_in()))
        return result

    def _handler_answers(self, handlers, hook: str, payload: dict, answers: list,
                         errors: list, failed: list, trace: list | None) -> None:
        problems = handlers.dispatch_errors(hook)  # a broken source is never silent
        if problems:
            errors.extend(problems)
        results = handlers.call_hooks(hook, payload)
        if results:
            self._plugin_answers(results, answers, errors, failed, trace)

    def _in_process_hooks(self, runs: tuple, hook: str, payload: dict, answers: list,
                          errors: list, failed: list, trace: list | None) -> None:
        """The tool files' hooks and the host's, run by run, under the re-entrancy guard."""
        try:  # thread_context(), inline
            context = contexts.context
        except AttributeError:
            context = thread_context()
        if hook in context.points:
            if trace is not None:
                trace.append({"source": "in-process", "skipped": "re-entrant dispatch"})
            return
        first = runs[0]
        if not first.python and first.leaf is not None and (
                first.leaf.holds() if len(runs) == 1 else _leaf_only(runs)):
            # leaf hooks read nothing of the thread context and cannot dispatch (they call
            # only bounded primitives and leaf procedures of their file): no need to enter it
            for run in runs:
                self._leaf_hooks(context, hook, run, payload, answers, errors, failed, trace)
            return
        name = payload.get("context_name")
        # context.enter_dispatch / leave_dispatch, inline: this runs on every dispatch
        saved = context.runtime, context.context_name, context.tier, context.code_file
        context.runtime = self.runtime
        context.context_name = name if type(name) is str else context.calling_context
        context.points.add(hook)
        try:
            for run in runs:
                if not run.python:
                    if run.leaf is not None and run.leaf.holds():
                        self._leaf_hooks(context, hook, run, payload, answers, errors,
                                         failed, trace)
                    else:
                        self._scheme_hooks(context, hook, run, payload, answers, errors,
                                           failed, trace)
                    continue
                # Python hooks, inline: a no-op one should cost about a pluggy call
                context.tier, context.code_file = "unsandboxed", None  # (SPEC §12)
                slot = context.calls
                seconds = self.runtime.config.limits["unsandboxed"].seconds
                for h in run.hooks:
                    start = time.perf_counter() if trace is not None else 0.0
                    try:
                        value = slot.call(h.fn, payload, seconds)
                    except BaseException as exc:
                        if isinstance(exc, KeyboardInterrupt):
                            raise
                        _python_failure(h, hook, exc, answers, errors, failed, trace, start,
                                        slot)
                        continue
                    if value is not None:  # None: no answer (the usual case)
                        answer, message = _python_answer_of(value, f"{hook} hook {h.source}")
                        _record(h.source, answer, message, answers, errors, failed, trace,
                                start, slot.printed_text)
                    elif trace is not None:
                        trace.append(_trace_entry(h.source, start, slot.printed_text(), None,
                                                  NO_ANSWER))
        finally:
            context.runtime, context.context_name, context.tier, context.code_file = saved
            context.points.discard(hook)

    def _failed_closed(self, point, failed: list, answers: list) -> list[str]:
        """The failed hooks that fail closed; on a point that is no permission point each
        stands for a block at its place in the order (inserted into ``answers``)."""
        closed = [src for src in failed if self._fails_closed(point, src)]
        if closed and point.combine != "permission":
            order = {src: i for i, (src, _) in enumerate(answers)}
            for src in closed:
                block = block_answer(point, f"hook failed: {src}")
                if block is not None:
                    answers.insert(order.get(src, len(answers)), (src, block))
        return closed

    def _unguarded_answers(self, point, failures: tuple, answers: list) -> None:
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
            answers.append((source, answer))

    def _load_policy(self, source: str) -> str:
        """The failure policy of a tool file that does not load: its [failure] key, else
        ``[failure] default``, else open (its permission points still deny: see
        ``_unguarded_answers``)."""
        config = self.runtime.config
        override = config.failure_override(source, str(self.runtime.tools_dir))
        return override or config.failure_default or "open"

    @staticmethod
    def _plugin_answers(results: list, answers: list, errors: list, failed: list,
                        trace: list | None) -> None:
        """Plugins' and declared handlers' results into answers, errors and the trace."""
        for result in results:
            entry = {"source": result.source, "ms": round(result.duration * 1000, 3)}
            note = getattr(result, "note", None)
            if note:
                entry["note"] = note
            for warning in result.warnings:
                errors.append({"source": result.source, "message": warning})
            if result.failed:
                errors.append({"source": result.source, "message": result.error})
                failed.append(result.source)
                entry["error"] = result.error
            elif result.answer is not NO_ANSWER:
                answers.append((result.source, result.answer))
                entry["answer"] = result.answer
            if trace is not None:
                stderr = getattr(result, "stderr", None)  # a plugin's; handlers keep notes
                if stderr:
                    entry["output"] = stderr
                trace.append(entry)

    def _fails_closed(self, point, source: str) -> bool:
        """Failure policy: harness.toml [failure] overrides; then ``[failure] default =
        "closed"`` makes every hook fail closed; by default guards (permission hooks) fail
        closed and every other hook fails open."""
        runtime = self.runtime
        override = runtime.config.failure_override(source, str(runtime.tools_dir))
        if override is not None:
            return override == "closed"
        return runtime.config.failure_default == "closed" or point.combine == "permission"

    def _scheme_hooks(self, context, hook: str, run, payload: dict, answers: list,
                      errors: list, failed: list, trace: list | None) -> None:
        limits = self.runtime.config.limits
        converted: dict[str, object] = {}
        capture = pooled_capture(limits["sandboxed"].max_output, run.watch_deadline)
        budget = capture.budget
        # a file's hooks share its budget (limits.budget_share); most runs have no file
        # with two hooks, and skip all of it
        shares = budget_shares(run.hooks) if run.shared else None
        pool = None  # [steps, deadline] left to the file whose hooks share it
        share = 0
        with capture:
            for h in run.hooks:
                start = time.perf_counter() if trace is not None else 0.0
                env = h.env
                bounds = limits[env.tier]
                if shares is not None:
                    share = shares[id(h)]
                    if share > 1 and pool is None:
                        pool = [bounds.steps, None if bounds.seconds is None
                                else time.monotonic() + bounds.seconds]
                    if share and pool is not None:
                        bounds = budget_share(bounds, pool[0], pool[1], share)
                        if bounds is None:
                            _record(h.source, NO_ANSWER, f"{hook} hook skipped: the hooks "
                                    f"of {h.file} share one budget per dispatch, and its "
                                    "earlier hooks spent it", answers, errors, failed, trace,
                                    start, _no_output)
                            if share == 1:
                                pool = None
                            continue
                scheme_payload = _scheme_payload(h, payload, converted, run.file_keys)
                context.tier = env.tier
                context.code_file = h.file
                marks = capture.start_call(bounds)
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
                if share and pool is not None:  # what it spent leaves the file's budget
                    if share == 1:
                        pool = None
                    elif pool[0] is not None:
                        pool[0] -= bounds.steps - max(budget.steps, 0)
                if budget.memory_start is not None:  # (a call that measured its memory)
                    dropped = self.runtime.live_memory.note(h.file, budget.memory_start,
                                                            bounds.max_memory)
                    if dropped is not None:
                        self.runtime.drop_file(h.file, dropped)
                        message = f"{hook} hook failed: {dropped}"
                if message is not None:
                    errors.append({"source": h.source, "message": message})
                    failed.append(h.source)
                elif answer is not NO_ANSWER:
                    answers.append((h.source, answer))
                if trace is not None:
                    trace.append(_trace_entry(h.source, start, capture.output(marks),
                                              message, answer))

    def _leaf_hooks(self, context, hook: str, run, payload: dict, answers: list,
                    errors: list, failed: list, trace: list | None) -> None:
        """A run of leaf hooks (hook_bounds.py, just found to call only what they were read
        to call) under a bare budget, or under none when they are straight-line and their
        limits leave room: they write nothing and capture no continuation, so no output
        capture and no prompt; they cannot recurse, so no recursion window."""
        limits = self.runtime.config.limits
        if run.straight and _leave_room(run, limits):
            budget = None
        else:  # context.leaf_budget, inline
            budget = context.budget
            if budget is None or budget.active:
                budget = context.leaf_budget(run.watch_deadline)
            else:
                budget.watch = run.watch_deadline
            budget.enter_shallow()
        converted: dict[str, object] = {}
        try:
            for h in run.hooks:
                start = time.perf_counter() if trace is not None else 0.0
                # _scheme_payload, inline for a leaf hook (whose keys hold: see there)
                if h.blind:
                    scheme_payload = NIL
                else:
                    scheme_payload = converted.get(h.file)
                    if scheme_payload is None:
                        scheme_payload = converted[h.file] = _file_payload(
                            payload, run.file_keys.get(h.file))
                if budget is not None:  # (no context.tier: nothing a leaf hook calls reads it)
                    bounds = limits[h.env.tier]
                    budget.reset(bounds.steps, bounds.seconds, bounds.max_memory)
                try:
                    value = h.proc(scheme_payload)
                except BaseException as exc:
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    _record(h.source, NO_ANSWER, f"{hook} hook failed: {describe_error(exc)}",
                            answers, errors, failed, trace, start, _no_output)
                    continue
                if value is not NIL and value is not None:  # '(): no answer
                    # (still under the budget: converting a huge answer is charged)
                    answer, message = _answer_of(value, f"{hook} hook at {h.file}:{h.line}")
                    _record(h.source, answer, message, answers, errors, failed, trace, start,
                            _no_output)
                elif trace is not None:
                    trace.append(_trace_entry(h.source, start, ("", ""), None, NO_ANSWER))
        finally:
            if budget is not None:
                budget.exit_shallow()


def _nested_in() -> set:
    """The hook points whose in-process hooks are running on this thread."""
    return thread_context().points


def _leaf_only(runs: tuple) -> bool:
    """Whether every run is of leaf hooks that still call only their primitives."""
    for run in runs:
        if run.leaf is None or not run.leaf.holds():
            return False
    return True


def _leave_room(run, limits: dict) -> bool:
    """Whether the limits of the tiers of ``run`` leave room for straight-line hooks to
    run without a budget (``Limits.leave_room``)."""
    for tier in run.tiers:
        if not limits[tier].leave_room:
            return False
    return True


def _record(source: str, answer: object, message: str | None, answers: list, errors: list,
            failed: list, trace: list | None, start: float,
            output: Callable[[], tuple[str, str]]) -> None:
    """Record one hook's answer, or its failure when ``message`` is set; ``output()``
    gives what it printed, for the trace."""
    if message is not None:
        errors.append({"source": source, "message": message})
        failed.append(source)
    elif answer is not NO_ANSWER:
        answers.append((source, answer))
    if trace is not None:
        trace.append(_trace_entry(source, start, output(), message, answer))


def _python_failure(h, hook: str, exc: BaseException, answers: list, errors: list,
                    failed: list, trace: list | None, start: float, slot) -> None:
    """Record the failure of Python hook ``h``, which raised ``exc``."""
    message = f"{hook} hook failed: {describe_python_error(exc, h.file or None)}"
    _record(h.source, NO_ANSWER, message, answers, errors, failed, trace, start,
            slot.printed_text)


def _no_output() -> tuple[str, str]:
    return "", ""


def _python_answer_of(value: object, where: str) -> tuple[object, str | None]:
    """(answer, None) for a Python hook's result, a private JSON copy (the hook may keep
    and change what it returned), or (NO_ANSWER, why it has no JSON form)."""
    try:
        return loads(dumps(value)), None
    except (TypeError, ValueError) as exc:
        return NO_ANSWER, f"{where}: the answer has no JSON form: {exc}"


def _scheme_payload(h, payload: dict, converted: dict, file_keys: dict) -> object:
    """The payload as ``h`` sees it. Scheme data are mutable: each file gets its own copy,
    so no file's hooks can change what another file's hooks see. The copy holds only what
    the file's hooks can look up (payload_use.py): nothing for a hook that never reads its
    argument, only the entries of the keys it passes to ``assoc`` for one that does just
    that (or passes it to procedures of its file that do); the conversion is most of a
    cheap hook's cost. (A leaf hook just found to call only what it was read to call gets
    the file's copy without more checks: ``_leaf_hooks``. Its keys hold: assoc and the
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


def _trace_entry(source: str, start: float, output: tuple[str, str], message: str | None,
                 answer: object) -> dict:
    entry = {"source": source, "ms": round((time.perf_counter() - start) * 1000, 3)}
    if output[0] or output[1]:
        entry["output"] = output[0] + output[1]
    if message is not None:
        entry["error"] = message
    elif answer is not NO_ANSWER:
        entry["answer"] = answer
    return entry
