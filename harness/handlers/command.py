"""``command`` handlers: the process Claude Code would start, as a `ProcessSpec`.

Shell form (no ``args``): ``/bin/sh -c COMMAND`` (``bash -c`` with ``"shell": "bash"``), so
``~``, ``$CLAUDE_PROJECT_DIR`` and pipes work as in Claude Code. Exec form (``args``
present): ``command`` is the executable (looked up on the handler's ``PATH``) and no shell
is involved; ``${CLAUDE_PROJECT_DIR}``, ``${CLAUDE_PLUGIN_ROOT}`` and
``${CLAUDE_PLUGIN_DATA}`` in it and in ``args`` are replaced as plain text. The event JSON
is on stdin; stdout and stderr are captured; the process runs in its own session (no
controlling terminal) and its whole group is killed on a timeout.
"""

from __future__ import annotations

import shutil

from harness.handlers.spec import Handler
from harness.plugins.process import ProcessSpec

__all__ = ["MAX_STDOUT", "command_spec"]

#: bytes of a handler's stdout kept; a handler printing more is stopped (non-blocking error)
MAX_STDOUT = 4 * 1024 * 1024
_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")


def command_spec(handler: Handler, stdin: bytes, timeout: float, env: dict[str, str],
                 cwd: str) -> ProcessSpec:
    """The process that runs `handler` with `stdin`; raises ValueError when its program
    cannot be found."""
    options = handler.options
    command = options["command"]
    if "args" in options:
        program = _placeholders(command, env)
        found = shutil.which(program, path=env.get("PATH")) if "/" not in program else program
        if found is None:
            raise ValueError(f"cannot run {program}: not found on PATH")
        argv = [found, *(_placeholders(arg, env) for arg in options["args"])]
    else:
        shell = "/bin/sh"
        if options.get("shell") == "bash":
            shell = shutil.which("bash", path=env.get("PATH"))
            if shell is None:
                raise ValueError("cannot run the command: \"shell\": \"bash\" but bash is not "
                                 "on PATH")
        argv = [shell, "-c", command]
    return ProcessSpec(argv, stdin, timeout, env, cwd, capture_stderr=True,
                       max_output=MAX_STDOUT)


def _placeholders(text: str, env: dict[str, str]) -> str:
    for name in _PLACEHOLDERS:
        text = text.replace("${" + name + "}", env.get(name, ""))
    return text
