"""Firing a hook point: the one place where hooks run and their answers are combined.

Order: subprocess plugins (by name), then Scheme hooks (by file path, then registration
order). A hook that fails is reported and skipped; the others still run. Permission hooks
fail closed (a failed hook denies), all others fail open. While the Scheme hooks of a point
run on a thread, a nested dispatch of that point on that thread skips them (re-entrancy
guard); plugins still fire.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from harness.bridge import NO_ANSWER, BridgeError, json_to_scheme, scheme_to_json
from harness.hooks.catalogue import HOOK_POINTS, hook_point
from harness.hooks.combine import combine
from harness.scheme.continuations import prompt
from harness.scheme.datatypes import NIL
from harness.tools.context import ThreadContext, thread_context
from harness.tools.execution import describe_error, pooled_capture

PermissionHandler = Callable[[str, dict], object]


#: combine rules whose hooks can block: a failing hook with a "closed" policy blocks
_BLOCKING = ("tool_call", "tool_output", "spawn_agent")


class Dispatcher:
    """Fires hook points over a runtime's plugins and Scheme registrations."""

    def __init__(self, runtime, permission_handler: PermissionHandler | None = None) -> None:
        self.runtime = runtime
        self.permission_handler = permission_handler
        self.trace_enabled = False

    def fire(self, hook: str, payload: dict | None = None) -> dict:
        """Run every hook of ``hook`` on ``payload``; return the dispatch result (SPEC §9):
        ``{"hook", "outcome", "answers": [{"source", "answer"}], "errors": [...]}``
        (plus ``"trace"`` when tracing is on). Raises UnknownHookError for a bad name."""
        point = HOOK_POINTS.get(hook) if type(hook) is str else None
        if point is None:
            point = hook_point(hook)  # raises, naming the closest valid point
        payload = dict(payload) if payload else {}
        answers: list[tuple[str, object]] = []
        errors: list[dict] = []
        failed: list[str] = []
        trace: list[dict] | None = [] if self.trace_enabled else None
        runtime = self.runtime
        plugin_results = runtime.plugins.call_hooks(hook, payload)
        if plugin_results:
            self._plugin_answers(plugin_results, answers, errors, failed, trace)
        context = thread_context()
        if hook in context.points:
            if trace is not None:
                trace.append({"source": "scheme", "skipped": "re-entrant dispatch"})
        else:
            hooks = runtime.registry.hooks_for(hook)
            if hooks:
                self._scheme_hooks(context, hook, hooks, payload, answers, errors, failed,
                                   trace)
        closed = [src for src in failed if self._fails_closed(point, src)] if failed else ()
        if closed and point.combine in _BLOCKING:
            # a hook that must not fail open stands for a block at its place in the order
            order = {src: i for i, (src, _) in enumerate(answers)}
            for src in closed:
                answers.insert(order.get(src, len(answers)),
                               (src, {"block": True, "message": f"hook failed: {src}"}))
        outcome, problems = combine(point, payload, answers, self.permission_handler, closed)
        if problems:
            errors.extend(problems)
        result = {"hook": hook, "outcome": outcome,
                  "answers": [{"source": s, "answer": a} for s, a in answers] if answers
                  else [],
                  "errors": errors}
        if trace is not None:
            result["trace"] = trace
        return result

    @staticmethod
    def _plugin_answers(results: list, answers: list, errors: list, failed: list,
                        trace: list | None) -> None:
        for result in results:
            entry = {"source": result.source, "ms": round(result.duration * 1000, 3)}
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
                trace.append(entry)

    def _fails_closed(self, point, source: str) -> bool:
        """Failure policy: harness.toml [failure] overrides; by default guards
        (permission hooks) fail closed and every other hook fails open."""
        runtime = self.runtime
        override = runtime.config.failure_override(source, str(runtime.tools_dir))
        if override is not None:
            return override == "closed"
        return point.combine == "permission"

    def _scheme_hooks(self, context: ThreadContext, hook: str, hooks: tuple, payload: dict,
                      answers: list, errors: list, failed: list, trace: list | None) -> None:
        runtime = self.runtime
        limits = runtime.config.limits
        name = payload.get("context_name")
        context_name = name if type(name) is str else "default"
        # The deadline monitor is only needed when some hook's code does not count steps.
        watch = False
        for h in hooks:
            if h.env.budget_check != "steps":
                watch = True
                break
        converted: dict[str, object] = {}
        capture = pooled_capture(limits["sandboxed"].max_output, watch)
        saved = context.enter_dispatch(runtime, hook, context_name)
        try:
            with capture:
                for h in hooks:
                    start = time.perf_counter() if trace is not None else 0.0
                    env = h.env
                    # Scheme data are mutable: each file gets its own copy of the payload, so
                    # no file's hooks can change what another file's hooks see.
                    if not h.reads_payload:
                        scheme_payload = NIL  # it cannot look: spare the conversion
                    else:
                        scheme_payload = converted.get(h.file)
                        if scheme_payload is None:
                            scheme_payload = converted[h.file] = json_to_scheme(payload)
                    context.tier = env.tier
                    marks = capture.start_call(limits[env.tier])
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
                    if message is not None:
                        errors.append({"source": h.source, "message": message})
                        failed.append(h.source)
                    elif answer is not NO_ANSWER:
                        answers.append((h.source, answer))
                    if trace is not None:
                        trace.append(_trace_entry(h.source, start, capture.output(marks),
                                                  message, answer))
        finally:
            context.leave_dispatch(hook, saved)


def _answer_of(value: object, where: str) -> tuple[object, str | None]:
    """(answer, None) for a Scheme hook's result, or (NO_ANSWER, why it has no JSON form)."""
    try:
        return scheme_to_json(value, where=where), None
    except BridgeError as exc:
        return NO_ANSWER, str(exc)


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
