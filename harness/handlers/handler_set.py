"""All the declared handlers of one home, ready to be fired (the dispatcher's entry point).

`HandlerSet.call_hooks(point, payload)` picks the handlers of `point` whose matcher (and
``if`` rule) select the event, runs each distinct one once, all at the same time — command
handlers as processes watched together, the others on threads — and returns one
`HandlerResult` per handler in declaration order, whatever order they finish in. ``async``
handlers go to the background pool instead; nothing waits for them.

Sources (hooks.toml, the settings files named in harness.toml, the managed file) are
reloaded one file at a time; a file that cannot be parsed keeps its last good version and
its error shows in every dispatch until it is fixed.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from harness.bridge import dumps
from harness.config import HooksConfig
from harness.handlers.async_pool import AsyncPool
from harness.handlers.invocation import Invocation, current_invocation
from harness.handlers.output import (
    Interpreted,
    blocking_answer,
    command_answer,
    json_object,
    text_answer,
)
from harness.handlers.policy import HandlerTable, build_table
from harness.handlers.sources import LoadedSource, Source, SourceError, load_source
from harness.handlers.spec import Handler, LoadProblem
from harness.hooks.catalogue import HOOK_POINTS
from harness.hooks.claude_events import CLAUDE_EVENTS, TOOL_EVENTS
from harness.hooks.outcome import NO_ANSWER

# Every runtime makes a HandlerSet, most with no handlers: what runs a command, an HTTP
# request or a model is imported by the first handler of that type that runs.
if TYPE_CHECKING:
    from harness.handlers.model_handlers import AskModel
    from harness.plugins.process import ProcessRun

__all__ = ["RECURSION_VARIABLE", "HandlerResult", "HandlerSet", "default_timeout"]

#: set for every handler: "SESSION/EVENT" of the dispatch that started it, so a
#: ``harness claude-hook`` run by a handler of that same event can tell it is recursing
RECURSION_VARIABLE = "HARNESS_HANDLING"


@dataclass(frozen=True)
class HandlerResult:
    """One handler's part in a dispatch; the shape the dispatcher reads from plugins too.

    `answer` is NO_ANSWER or the answer; `error` says why the handler failed (it then
    counts as failed: a deny on a permission hook); `warnings` are reported without failing
    it; `note` is for the trace (output that was ignored)."""

    source: str
    answer: object
    error: str | None
    duration: float
    warnings: tuple[str, ...] = ()
    note: str | None = None

    @property
    def failed(self) -> bool:
        return self.error is not None


def default_timeout(handler: Handler, point: str) -> float:
    """Claude Code's default timeout of `handler` on `point`, in seconds."""
    if handler.type == "prompt":
        return 30.0
    if handler.type == "agent":
        return 60.0
    return {"UserPromptSubmit": 30.0, "MessageDisplay": 10.0}.get(point, 600.0)


def _session_end_budget(handlers: Sequence[Handler], env: dict) -> float:
    """SessionEnd's shared budget: 1.5 s, raised to the largest handler timeout (at most
    60 s); CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS overrides it."""
    override = env.get("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
    if override and override.isdigit():
        return int(override) / 1000
    return min(60.0, max([1.5, *(h.timeout for h in handlers if h.timeout)]))


@dataclass(frozen=True)
class _Call:
    """What every handler of one dispatch shares."""

    point: str
    payload: dict
    body: bytes
    env: dict[str, str]
    cwd: str
    project_dir: str


class HandlerSet:
    """The declared handlers of `home` per `config` (harness.toml's ``[hooks]``).

    `ask_model` answers ``prompt`` and ``agent`` handlers (``Runtime.ask_model``)."""

    def __init__(self, home: str | os.PathLike, config: HooksConfig | None = None,
                 ask_model: AskModel | None = None) -> None:
        self.home = Path(home)
        self.ask_model = ask_model
        self._mcp_servers = None  # harness.handlers.mcp.McpServers, made on first use
        self.pool = AsyncPool()
        self._lock = threading.RLock()
        self._loaded: dict[str, LoadedSource] = {}
        self._errors: dict[str, str] = {}  # file -> why its current text does not load
        self._table = HandlerTable()
        #: nothing declared and nothing to report: a dispatch may skip the handlers
        self.idle = True
        #: when set, the handlers a dispatch selects are not run: each gives no answer and
        #: this note (``harness replay`` without ``--handlers``: they have side effects)
        self.dry_run: str | None = None
        self.configure(config or HooksConfig())

    # -- sources -------------------------------------------------------------------------
    def configure(self, config: HooksConfig) -> None:
        """Take harness.toml's ``[hooks]`` (again): the source files, the project
        directory, the async bound; reloads every source."""
        with self._lock:
            self.config = config
            self.pool.limit = config.async_limit
            self.project_dir = self._project_dir(config)
            self.sources = self._sources(config)
            self.reload()

    def _project_dir(self, config: HooksConfig) -> str:
        if config.project_dir:
            return str(Path(self.home, os.path.expanduser(config.project_dir)).resolve())
        return os.environ.get("CLAUDE_PROJECT_DIR") or Invocation().directory()

    def _sources(self, config: HooksConfig) -> list[Source]:
        sources = [Source(str(self.home / "hooks.toml"), "harness")]
        for path in config.claude_settings:
            resolved = self._resolve(path)
            inside = Path(resolved).resolve().is_relative_to(Path(self.project_dir).resolve())
            sources.append(Source(resolved, "project" if inside else "settings"))
        if config.managed_settings:
            sources.append(Source(self._resolve(config.managed_settings), "managed"))
        return sources

    def _resolve(self, path: str) -> str:
        for form in ("${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"):
            path = path.replace(form, self.project_dir)
        return str(Path(self.project_dir, os.path.expanduser(path)))

    def source_paths(self) -> list[str]:
        """Every file handlers are read from (watched for hot reload)."""
        return [s.path for s in self.sources]

    def reload(self, path: str | None = None) -> str | None:
        """Read `path` again (None: every source); on failure keep its last good version
        and return the error (FILE:LINE:COL: ...)."""
        with self._lock:
            error = None
            for source in self.sources:
                if path is not None and source.path != path:
                    continue
                try:
                    self._loaded[source.path] = load_source(source)
                    self._errors.pop(source.path, None)
                except SourceError as exc:
                    error = self._errors[source.path] = str(exc)
            known = {s.path for s in self.sources}
            for stale in set(self._loaded) - known:
                del self._loaded[stale]
            for stale in set(self._errors) - known:
                del self._errors[stale]
            self._table = build_table([self._loaded[s.path] for s in self.sources
                                       if s.path in self._loaded])
            self.idle = not (self._table.by_point or self._table.problems or self._errors)
            return error

    @property
    def table(self) -> HandlerTable:
        return self._table

    def load_errors(self) -> dict[str, str]:
        """The source files whose current text does not load: path -> FILE:LINE:COL error
        (their last good version, if any, stays live)."""
        return dict(self._errors)

    def problems(self) -> list[LoadProblem]:
        """What is wrong in the entries of the sources that load (errors and warnings)."""
        return list(self._table.problems)

    def load_failures(self) -> list[dict]:
        """What does not load, now, in ``Runtime.load_failures`` form: each source file
        whose current text does not load (``last_good_runs``: an earlier version of it is
        still live) and each entry that is in error (it never runs)."""
        with self._lock:
            out = [{"source": f"handlers:{path}", "message": message,
                    "last_good_runs": path in self._loaded}
                   for path, message in sorted(self._errors.items())]
            out += [{"source": f"handlers:{p.file}", "message": _entry_message(p),
                     "last_good_runs": False}
                    for p in self._table.problems if p.severity == "error"]
            return out

    def dispatch_errors(self, point: str) -> list[dict]:
        """The source errors a dispatch of `point` reports: files that do not load, and
        errors of entries about `point` (warnings are for ``check`` only)."""
        table = self._table
        if not self._errors and not table.problems:
            return []
        out = [{"source": f"handlers:{path}", "message": f"{message} (the last good version "
                                                          "of the file, if any, stays live)"}
               for path, message in self._errors.items()]
        for p in table.problems:
            if p.severity == "error" and p.point in (point, None):
                out.append({"source": f"handlers:{p.file}", "message": _entry_message(p)})
        return out

    # -- firing --------------------------------------------------------------------------
    def call_hooks(self, point: str, payload: dict) -> list[HandlerResult]:
        """Run the handlers `point` selects for `payload` (see the module doc)."""
        handlers = self._table.handlers_for(point)
        if not handlers:
            return []
        call = self._call(point, payload)
        chosen = _select(handlers, point, payload, call)
        if not chosen:
            return []
        if self.dry_run is not None:
            return [HandlerResult(h.source, NO_ANSWER, None, 0.0, note=self.dry_run)
                    for h in chosen]
        budget = _session_end_budget(chosen, call.env) if point == "SessionEnd" else None
        results: dict[int, HandlerResult] = {}
        others: dict[int, _Background] = {}
        commands: list[tuple[int, Handler, float]] = []
        for index, handler in enumerate(chosen):
            timeout = _timeout(handler, point, budget)
            if handler.is_async:
                refusal = self.pool.submit(
                    lambda h=handler, t=timeout: self._log_async(h, self._run(h, call, t)),
                    {"point": point, "source": handler.source, "payload": payload,
                     "env": call.env, "cwd": call.cwd})
                results[index] = HandlerResult(handler.source, NO_ANSWER, None, 0.0,
                                               (refusal,) if refusal else (),
                                               note="async: runs in the background, its "
                                                    "answer is ignored")
            elif handler.type == "command":
                commands.append((index, handler, timeout))
            else:  # a thread each: a slow server never holds up another dispatch
                others[index] = _Background(self._run, handler, call, timeout)
        if commands:
            ran = self._commands([(h, t) for _, h, t in commands], call)
            results.update((index, result) for (index, _, _), result in zip(commands, ran))
        for index, background in others.items():
            results[index] = background.result() or self._result(
                background.handler, point,
                Interpreted(error=f"timed out after {background.timeout:g} s"),
                background.timeout)
        return [results[i] for i in range(len(chosen))]

    def run_detached(self, point: str, payload: dict, sources: Sequence[str],
                     invocation: Invocation) -> list[HandlerResult]:
        """Run the handlers named by `sources` (as a detached async run does), now."""
        wanted = set(sources)
        handlers = [h for h in self._table.handlers_for(point) if h.source in wanted]
        from harness.handlers.invocation import using_invocation
        with using_invocation(invocation):
            call = self._call(point, payload)
        return [self._run(h, call, _timeout(h, point, None)) for h in handlers]

    def _call(self, point: str, payload: dict) -> _Call:
        invocation = current_invocation()
        env = invocation.environment()
        for name in ("CHIBI_HOOK", "HARNESS_HOOK", "CHIBI_HOOK_DATA", "CHIBI_TOOL_NAME",
                     "HARNESS_TOOL_NAME"):
            env.pop(name, None)  # a handler is not a plugin
        project_dir = env.get("CLAUDE_PROJECT_DIR") or self.project_dir
        env["CLAUDE_PROJECT_DIR"] = project_dir
        env[RECURSION_VARIABLE] = f"{payload.get('session_id')}/{point}"
        cwd = payload.get("cwd")
        if not (isinstance(cwd, str) and os.path.isdir(cwd)):
            cwd = invocation.directory()
        return _Call(point, payload, dumps(payload), env, cwd, project_dir)

    def _commands(self, commands: list[tuple[Handler, float]],
                  call: _Call) -> list[HandlerResult]:
        """Run command handlers (with their timeouts) at once; results in their order."""
        from harness.handlers.command import command_spec
        from harness.plugins.process import run_processes
        specs, failures = [], {}
        try:
            here = os.getcwd()
        except OSError:
            here = None
        cwd = None if call.cwd == here else call.cwd  # no directory change: no trampoline
        for position, (handler, timeout) in enumerate(commands):
            try:
                specs.append(command_spec(handler, call.body, timeout, call.env, cwd))
            except ValueError as exc:
                failures[position] = str(exc)
        runs = iter(run_processes(specs, at_once=len(specs)) if specs else ())
        results = []
        for position, (handler, _) in enumerate(commands):
            if position in failures:
                results.append(self._result(handler, call.point, Interpreted(
                    error=failures[position]), 0.0))
                continue
            run: ProcessRun = next(runs)
            interpreted = Interpreted(error=_process_error(run)) if run.error else \
                command_answer(call.point, run)
            results.append(self._result(handler, call.point, interpreted, run.duration))
        return results

    def _run(self, handler: Handler, call: _Call, timeout: float) -> HandlerResult:
        """Run one handler of any type on this thread."""
        start = time.monotonic()
        warnings: tuple[str, ...] = ()
        if handler.type == "command":
            return self._commands([(handler, timeout)], call)[0]
        if handler.type == "http":
            from harness.handlers.http import call_http
            table = self._table
            allowed = [v for v in handler.options.get("allowedEnvVars", ())
                       if table.allowed_env_vars is None or v in table.allowed_env_vars]
            reply = call_http(handler, call.body, timeout, call.env, allowed, table.url_allowed)
            warnings = reply.warnings
            interpreted = Interpreted(error=reply.error) if reply.error else \
                _text_or_error(call.point, reply.body, "the HTTP answer")
        elif handler.type == "mcp_tool":
            interpreted = self._mcp(handler, call, timeout)
        elif self.ask_model is None:
            interpreted = Interpreted(error="no model is configured for prompt and agent "
                                            "handlers")
        elif handler.type == "prompt":
            from harness.handlers.model_handlers import ask_prompt
            interpreted = ask_prompt(handler, call.point, call.payload, self.ask_model, timeout)
        else:
            from harness.handlers.model_handlers import ask_agent
            interpreted = ask_agent(handler, call.point, call.payload, self.ask_model, timeout,
                                    call.cwd)
        return self._result(handler, call.point, interpreted, time.monotonic() - start,
                            warnings)

    @property
    def mcp(self):
        """The MCP servers of mcp_tool handlers (asyncio is imported on first use)."""
        with self._lock:
            if self._mcp_servers is None:
                from harness.handlers.mcp import McpServers
                self._mcp_servers = McpServers()
            return self._mcp_servers

    def _mcp(self, handler: Handler, call: _Call, timeout: float) -> Interpreted:
        from harness.handlers.mcp import substitute
        name = handler.options["server"]
        spec = self._table.mcp_servers.get(name)
        if spec is None:
            known = ", ".join(self._table.mcp_servers) or "none"
            return Interpreted(error=f"MCP server {name!r} is not configured (configured: "
                                     f"{known}); name it under [mcp_servers] in hooks.toml")
        template = handler.options.get("input")
        arguments = call.payload if template is None else substitute(template, call.payload)
        text, error = self.mcp.call(name, spec, handler.options["tool"], arguments, timeout)
        if error is not None:
            return Interpreted(error=error)
        return _text_or_error(call.point, text, "the MCP tool's text")

    @staticmethod
    def _result(handler: Handler, point: str, interpreted: Interpreted, duration: float,
                warnings: tuple[str, ...] = ()) -> HandlerResult:
        answer, error = interpreted.answer, interpreted.error
        if error is not None and handler.on_failure == "block":
            block = blocking_answer(point, f"{handler.source} failed: {error}")
            if block is not None:  # onFailure: "block" -- the failure blocks, reported
                return HandlerResult(handler.source, block, None, duration,
                                     (*warnings, f"failed (onFailure: block): {error}"),
                                     interpreted.note)
        return HandlerResult(handler.source, answer, error, duration, warnings,
                             interpreted.note)

    @staticmethod
    def _log_async(handler: Handler, result: HandlerResult) -> None:
        from harness.handlers.async_pool import logger
        log = logger()
        for message in (*result.warnings, *((result.error,) if result.error else ())):
            log.warning("async handler %s: %s", handler.source, message)

    def close(self) -> None:
        """Stop the MCP servers and the async pool (running async handlers finish alone)."""
        if self._mcp_servers is not None:
            self._mcp_servers.close()
        self.pool.close()


class _Background:
    """One handler run on a thread of its own. Every handler type keeps its own timeout;
    should one overrun it anyway (a server that trickles bytes), `result` stops waiting
    a second later and says so, leaving the thread to finish alone."""

    def __init__(self, run, handler: Handler, call: _Call, timeout: float) -> None:
        self.handler, self.timeout, self.start = handler, timeout, time.monotonic()
        self.outcome: list[HandlerResult] = []
        self.thread = threading.Thread(target=lambda: self.outcome.append(
            run(handler, call, timeout)), name="harness-handler", daemon=True)
        self.thread.start()

    def result(self) -> HandlerResult | None:
        """The handler's result, or None when it overran its timeout."""
        self.thread.join(max(0.0, self.start + self.timeout + 1.0 - time.monotonic()))
        return self.outcome[0] if self.outcome else None


def _timeout(handler: Handler, point: str, budget: float | None) -> float:
    """The seconds `handler` may take on `point`: its own, or its type's default; on
    SessionEnd, never more than the shared `budget`."""
    own = handler.timeout or default_timeout(handler, point)
    return min(handler.timeout or budget, budget) if budget else own


def _select(handlers: Sequence[Handler], point: str, payload: dict,
            call: _Call) -> list[Handler]:
    """The handlers the event selects, each distinct one once (the first declared)."""
    event = CLAUDE_EVENTS.get(point)
    field = event.matcher if event is not None else (
        "tool_name" if "tool_name" in HOOK_POINTS[point].fields else None)
    from harness.handlers.matcher import matched_value  # imported by the first group parsed
    value = matched_value(point, field, payload)
    seen: set = set()
    chosen = []
    for handler in handlers:
        if field is not None and not handler.matcher.matches(value):
            continue
        if handler.if_rule is not None and not _if_holds(handler, point, payload, call):
            continue
        if handler.identity in seen and not handler.is_async:
            continue
        seen.add(handler.identity)
        chosen.append(handler)
    return chosen


def _if_holds(handler: Handler, point: str, payload: dict, call: _Call) -> bool:
    if point in TOOL_EVENTS:
        tool_input = payload.get("tool_input")
    elif point not in CLAUDE_EVENTS and "tool_name" in HOOK_POINTS[point].fields:
        tool_input = payload.get("arguments")
    else:
        return False  # Claude Code: on any other event a handler with `if` never runs
    return handler.if_rule.matches(payload.get("tool_name"), tool_input, call.cwd,
                                   call.project_dir)


def _entry_message(problem: LoadProblem) -> str:
    return f"{problem.key}: {problem.message}" if problem.key else problem.message


def _process_error(run: ProcessRun) -> str:
    stderr = run.stderr.decode("utf-8", "replace").strip()
    return run.error + (f" (stderr: {stderr.splitlines()[-1][:300]})" if stderr else "")


def _text_or_error(point: str, text: str | None, what: str) -> Interpreted:
    """`text` answered like a command's stdout on exit 0, but text that looks like JSON and
    is not is an error here (an HTTP or MCP answer has no exit code to fall back on)."""
    text = text or ""
    parsed = json_object(text)
    if parsed is None and text.lstrip().startswith("{"):
        return Interpreted(error=f"{what} is not a JSON object: {text.strip()[:200]}")
    return text_answer(point, text, parsed)

