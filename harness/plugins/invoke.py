"""Call a plugin executable for a hook or a tool (SPEC §3): the conventions on top of
`process.run_plugins` — environment variables, JSON in, an answer or a result out.

Exit 2 on a hook point that can block or deny is a block or deny with the plugin's stderr
as the message (Claude Code's habit); any other failure is no answer, reported with the
end of what the plugin wrote to stderr."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from harness.bridge import dumps, loads
from harness.hooks.catalogue import HOOK_POINTS
from harness.hooks.outcome import NO_ANSWER
from harness.json_errors import json_error
from harness.plugins.process import MAX_OUTPUT, ProcessRun, run_plugin, run_plugins

__all__ = [
    "HOOK_TIMEOUT", "TOOL_TIMEOUT", "HookCallResult", "ToolCallResult", "call_hook",
    "call_hooks", "call_tool",
]

#: seconds a hook call may take (SPEC §3 default)
HOOK_TIMEOUT = 30.0
#: seconds a tool call may take
TOOL_TIMEOUT = 30.0
# Linux refuses any single NAME=value environment string over 128 KiB (MAX_ARG_STRLEN),
# so a bigger payload goes on stdin only.
_ENV_VALUE_MAX = 128 * 1024 - 64
_HOOK_VARS = ("CHIBI_HOOK", "HARNESS_HOOK", "CHIBI_HOOK_DATA")
_TOOL_VARS = ("CHIBI_TOOL_NAME", "HARNESS_TOOL_NAME")
#: the exit status that blocks or denies (Claude Code's convention)
BLOCKING_EXIT = 2
#: where a plugin's stderr is copied as it comes (it is also kept, for failures)
_OUR_STDERR = 2
#: characters of a plugin's stderr quoted in a failure message (its end: a traceback's
#: last line says what went wrong)
_STDERR_QUOTED = 2000


class Runnable(Protocol):
    """Anything with a plugin `name` and an executable `path` (PluginFile, Plugin)."""

    name: str
    path: Path


@dataclass(frozen=True)
class HookCallResult:
    """One plugin's answer to one hook call.

    `answer` is the parsed stdout (NO_ANSWER when empty or when the call failed; a block or
    deny for exit 2 where the hook point has one); `error` says why the call failed (then
    the plugin counts as failed: a deny on a permission hook), with the end of its stderr;
    `warnings` note things that did not stop the answer (invalid UTF-8); `stderr` is the
    end of what it wrote there.
    """

    plugin: str
    hook: str
    answer: object
    error: str | None
    duration: float
    exit_code: int | None
    warnings: tuple[str, ...] = ()
    stderr: str = ""

    @property
    def source(self) -> str:
        return f"plugin:{self.plugin}"

    @property
    def failed(self) -> bool:
        return self.error is not None


@dataclass(frozen=True)
class ToolCallResult:
    """One tool call: `output` is the plugin's stdout as text; `error` is set on failure
    (with the end of its stderr); `stderr` is the end of what it wrote there."""

    plugin: str
    tool: str
    output: str
    error: str | None
    duration: float
    exit_code: int | None
    warnings: tuple[str, ...] = ()
    stderr: str = ""


def call_hook(plugin: Runnable, hook: str, payload: Mapping | bytes,
              timeout: float = HOOK_TIMEOUT, *, env: Mapping[str, str] | None = None,
              max_output: int = MAX_OUTPUT) -> HookCallResult:
    """Run `plugin` for `hook` with `payload` (a dict, or JSON bytes already encoded).

    The payload goes on stdin as compact JSON and in CHIBI_HOOK_DATA (when small enough
    for the environment). Trimmed stdout: empty -> NO_ANSWER, JSON -> that value, other
    text -> a string answer. A non-zero exit, a timeout or an overflow -> NO_ANSWER and
    `error`. `env` adds variables (e.g. HARNESS_HOME) to the inherited environment.
    """
    return call_hooks([plugin], hook, payload, timeout, env=env, max_output=max_output)[0]


def call_hooks(plugins: Sequence[Runnable], hook: str, payload: Mapping | bytes,
               timeout: float = HOOK_TIMEOUT, *, env: Mapping[str, str] | None = None,
               max_output: int = MAX_OUTPUT, at_once: int = 1) -> list[HookCallResult]:
    """`call_hook` for each of `plugins` with the same payload, at most `at_once` of them
    running at a time (1: one after the other, in order). Each has its own timeout, counted
    from its start; one plugin's failure never touches the others. Results in the order of
    `plugins`, whatever order they finish in."""
    data = payload if isinstance(payload, bytes) else dumps(payload)
    variables = {"CHIBI_HOOK": hook, "HARNESS_HOOK": hook}
    if len(data) <= _ENV_VALUE_MAX:
        variables["CHIBI_HOOK_DATA"] = data.decode("utf-8", "replace")
    runs = run_plugins([plugin.path for plugin in plugins], (), data, timeout,
                       env=_environment(env, drop=_TOOL_VARS + _HOOK_VARS, add=variables),
                       max_output=max_output, at_once=at_once, capture_stderr=True,
                       stderr_to=_OUR_STDERR)
    return [_hook_result(plugin, hook, run) for plugin, run in zip(plugins, runs)]


def _hook_result(plugin: Runnable, hook: str, run: ProcessRun) -> HookCallResult:
    stderr = run.stderr.decode("utf-8", "replace")
    if run.error is None and run.exit_code == BLOCKING_EXIT:
        answer = blocking_answer(hook, stderr.strip())
        if answer is not None:
            return HookCallResult(plugin.name, hook, answer, None, run.duration,
                                  run.exit_code, stderr=stderr)
    failure = run.error or _exit_problem(run.exit_code)
    if failure is not None:
        return HookCallResult(plugin.name, hook, NO_ANSWER, with_stderr(failure, stderr),
                              run.duration, run.exit_code, stderr=stderr)
    text, warnings = _decode(run.stdout)
    answer, broken = _answer_of(text.strip())
    if broken is not None:  # a failure, not a text answer: a guard that says this fails
        return HookCallResult(plugin.name, hook, NO_ANSWER, with_stderr(broken, stderr),
                              run.duration, run.exit_code, warnings, stderr)
    return HookCallResult(plugin.name, hook, answer, None, run.duration, run.exit_code,
                          warnings, stderr)


def blocking_answer(hook: str, message: str) -> dict | None:
    """The answer an exit 2 stands for on ``hook``: a deny on a permission hook, a block
    where the point takes ``block``, else None (exit 2 is then just a failure). An empty
    ``message`` leaves the hook point's default reason or message."""
    point = HOOK_POINTS.get(hook)
    if point is None:
        return None
    if point.combine == "permission":
        return {"denied": True, "reason": message} if message else {"denied": True}
    if "block" in point.answer_keys:
        return {"block": True, "message": message} if message else {"block": True}
    return None


def with_stderr(failure: str, stderr: str) -> str:
    """``failure`` followed by (the end of) what the plugin wrote to stderr, if anything."""
    stderr = stderr.strip()
    if len(stderr) > _STDERR_QUOTED:
        stderr = "..." + stderr[-_STDERR_QUOTED:]
    return f"{failure}; stderr: {stderr}" if stderr else failure


def call_tool(plugin: Runnable, tool_name: str, args: Mapping | bytes,
              timeout: float = TOOL_TIMEOUT, *, env: Mapping[str, str] | None = None,
              max_output: int = MAX_OUTPUT) -> ToolCallResult:
    """Run `plugin` as the tool `tool_name`: CHIBI_TOOL_NAME set, `args` as JSON on stdin,
    stdout (as text, untrimmed) is the result. A non-zero exit sets `error` and keeps the
    output."""
    data = args if isinstance(args, bytes) else dumps(args)
    variables = {"CHIBI_TOOL_NAME": tool_name, "HARNESS_TOOL_NAME": tool_name}
    run = run_plugin(plugin.path, (), data, timeout,
                     env=_environment(env, drop=_HOOK_VARS, add=variables),
                     max_output=max_output, capture_stderr=True, stderr_to=_OUR_STDERR)
    text, warnings = _decode(run.stdout)
    stderr = run.stderr.decode("utf-8", "replace")
    failure = run.error or _exit_problem(run.exit_code)
    return ToolCallResult(plugin.name, tool_name, text,
                          None if failure is None else with_stderr(failure, stderr),
                          run.duration, run.exit_code, warnings, stderr)


def _environment(extra: Mapping[str, str] | None, drop: Sequence[str],
                 add: Mapping[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    for name in drop:  # an inherited CHIBI_HOOK would make a tool call look like a hook
        env.pop(name, None)
    if extra:
        env.update(extra)
    env.update(add)
    return env


def _exit_problem(code: int | None) -> str | None:
    if code is None or code == 0:
        return None
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _decode(raw: bytes) -> tuple[str, tuple[str, ...]]:
    try:
        return raw.decode("utf-8"), ()
    except UnicodeDecodeError:
        return (raw.decode("utf-8", "replace"),
                ("output is not valid UTF-8; invalid bytes were replaced with U+FFFD",))


def _answer_of(text: str) -> tuple[object, str | None]:
    """(the answer stdout ``text`` gives, None), or (NO_ANSWER, why) for text that starts
    as a JSON object or array does but does not parse (a truncated or malformed answer,
    not a text one)."""
    if not text:
        return NO_ANSWER, None
    try:
        return loads(text), None
    except ValueError as exc:
        if not text.startswith(("{", "[")):
            return text, None
        return NO_ANSWER, ("printed an answer that starts as JSON but is not valid JSON: "
                           + json_error("stdout", text, exc))
