"""shell_exec: ``sh -c COMMAND`` in the project root, with a timeout that kills the whole
process group (chibi only stops waiting; its command may run on).

Output is one compact JSON line with sorted keys, as chibi prints it:
``{"exit_code":0,"stderr":"","stdout":"hi\\n","timed_out":false}``. A non-zero exit is a
result, not an error; a command killed by a signal (or the timeout) has exit_code -1.
stdin is empty (chibi inherits its own; harness's may be a JSON-RPC stream).
"""

from __future__ import annotations

import os
import signal
import subprocess

import orjson

from harness.builtins import lenient_count, python_tool
from harness.calls.run_tool import ToolError
from harness.sandbox.thread_context import current_runtime

MAX_CAPTURE = 8 << 20  # bytes of stdout/stderr kept; the rest is cut


@python_tool("shell_exec", "Run a shell command (sh -c) in the project root; returns JSON "
             "with exit_code, stdout, stderr and timed_out.", {
                 "properties": {
                     "command": {"type": "string", "description": "the command line"},
                     "timeout_secs": {"type": "integer", "default": 30,
                                      "description": "seconds before it is killed"}},
                 "required": ["command"]}, "shell")
def shell_exec(arguments: dict) -> str:
    command = arguments.get("command")
    if not isinstance(command, str):
        raise ToolError("Missing 'command' parameter")
    timeout = lenient_count(arguments, "timeout_secs", 30)
    runtime = current_runtime()
    cwd = str(runtime.project_root) if runtime is not None else None
    try:
        process = subprocess.Popen(["sh", "-c", command], cwd=cwd, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   start_new_session=True)
    except OSError as exc:
        raise ToolError(f"Failed to spawn command: {exc}") from None
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        process.communicate()
        return _result(-1, b"", b"", True)
    except BaseException:
        _kill_group(process)
        raise
    code = process.returncode
    return _result(code if code >= 0 else -1, out, err, False)


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _result(code: int, out: bytes, err: bytes, timed_out: bool) -> str:
    return orjson.dumps({"exit_code": code,
                         "stderr": err[:MAX_CAPTURE].decode("utf-8", errors="replace"),
                         "stdout": out[:MAX_CAPTURE].decode("utf-8", errors="replace"),
                         "timed_out": timed_out}).decode()


TOOLS = (shell_exec,)
