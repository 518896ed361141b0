"""scheme_eval: Scheme typed by the model, in one persistent sandboxed environment per
context (reference §5.9) and per calling file: a tool or hook file that calls scheme_eval
gets a session of its own for each context, so one file's definitions never reach another
file or the model's session (issue 23, item 11). ``%context-name%`` and ``call-tool``
work; ``(harness io)`` does not (the sandbox). The result text is three lines:
``result: <written value or error: message>``, ``stdout: ...``, ``stderr: ...``
(``(empty)`` for nothing).
"""

from __future__ import annotations

import threading
import weakref

from harness.builtins import python_tool
from harness.sandbox.thread_context import current_runtime, in_tier, thread_context

#: runtime -> {(context, calling file or None): env}
_sessions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _environment(runtime, context: str, caller: str | None):
    from harness.loading.scheme_loader import TOOL_PRELUDE
    from harness.sandbox.thread_context import current_context_name
    from harness.scheme.interpreter import make_environment
    with _lock:
        envs = _sessions.setdefault(runtime, {})
        env = envs.get((context, caller))
        if env is None:
            name = f"scheme_eval:{context}" + (f":{caller}" if caller else "")
            env = envs[context, caller] = make_environment(
                "sandboxed", "steps", imports=TOOL_PRELUDE, name=name)
            env.dynamic["%context-name%"] = current_context_name
        return env


@python_tool("scheme_eval", "Evaluate Scheme code in this context's persistent sandboxed "
             "session; returns the value and what it printed.", {
                 "properties": {"code": {"type": "string", "description": "Scheme code"}},
                 "required": ["code"]}, "eval")
def scheme_eval(arguments: dict) -> str:
    from harness.sandbox.scheme_calls import call_scheme
    from harness.scheme.interpreter import error_message, run_source
    from harness.scheme.printer import write_string
    code = arguments.get("code")
    if not isinstance(code, str) or not code.strip():
        return ""
    runtime = current_runtime()
    state = thread_context()
    env = _environment(runtime, state.calling_context, state.code_file)
    with in_tier("sandboxed"):
        call = call_scheme(lambda: run_source(env, code, "scheme_eval"), (),
                           runtime.limits_for("sandboxed"), watch_deadline=False)
    value = f"error: {error_message(call.error)}" if call.error is not None \
        else write_string(call.value)
    return (f"result: {value}\nstdout: {call.stdout or '(empty)'}\n"
            f"stderr: {call.stderr or '(empty)'}")


TOOLS = (scheme_eval,)
