"""``harness run FILE.scm`` and ``harness eval EXPR``: run Scheme programs."""

from __future__ import annotations

import sys
import threading

# Scheme recursion is Python recursion; run programs on a thread with a large C stack so
# that a deep recursion through a C boundary cannot overflow the default 8 MiB stack.
_STACK_BYTES = 512 * 1024 * 1024


def register(sub) -> None:
    run = sub.add_parser("run", help="run a Scheme program")
    run.add_argument("file", help="the .scm file")
    run.add_argument("args", nargs="*", help="arguments for (command-line)")
    run.add_argument("--unsandboxed", action="store_true",
                     help="run with file, process and environment access (default: sandboxed)")
    run.add_argument("--steps", type=int, default=None,
                     help="step budget (sandboxed default: unlimited for run)")
    run.add_argument("--timeout", type=float, default=None, help="wall-clock limit in seconds")
    run.set_defaults(run=_run)
    ev = sub.add_parser("eval", help="evaluate Scheme expressions and print the last value")
    ev.add_argument("expr", help="one or more Scheme expressions")
    ev.add_argument("--unsandboxed", action="store_true")
    ev.set_defaults(run=_eval)


def _in_big_stack(fn):
    result: list = []

    def target() -> None:
        result.append(fn())

    old = threading.stack_size()
    threading.stack_size(_STACK_BYTES)
    try:
        t = threading.Thread(target=target, name="harness-main")
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    return result[0] if result else 1


def _execute(source_kind: str, text_or_path: str, unsandboxed: bool, steps=None,
             timeout=None, argv=None, print_value=False) -> int:
    from harness.scheme.errors import ResourceLimitExceeded, SchemeError
    from harness.scheme.interpreter import Interpreter, format_error
    from harness.scheme.limits import Budget
    from harness.scheme.primitives import system

    tier = "unsandboxed" if unsandboxed else "sandboxed"
    try:
        interp = Interpreter(tier=tier, budget_check="flag" if steps is None else "steps")
        if argv is not None:
            system.COMMAND_LINE = tuple(argv)
        with Budget(steps=steps, seconds=timeout):
            if source_kind == "file":
                value = interp.load_file(text_or_path)
            else:
                value = interp.eval_string(text_or_path, "<eval>")
        if print_value and value is not None:
            from harness.scheme.printer import write_string
            print(write_string(value))
        _flush()
        return 0
    except system.SchemeExit as exc:
        _flush()
        return exc.code
    except (SchemeError, ResourceLimitExceeded, RecursionError, MemoryError) as exc:
        _flush()
        print(format_error(exc), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - users get FILE:LINE:COL, never a traceback
        _flush()
        print(format_error(exc), file=sys.stderr)
        return 1


def _flush() -> None:
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def run_program(path, unsandboxed: bool = False) -> int:
    """Run a Scheme file as ``harness run`` does; return the exit status."""
    return _in_big_stack(lambda: _execute("file", str(path), unsandboxed))


def _run(args) -> int:
    return _in_big_stack(lambda: _execute("file", args.file, args.unsandboxed, args.steps,
                                          args.timeout, [args.file, *args.args]))


def _eval(args) -> int:
    return _in_big_stack(lambda: _execute("text", args.expr, args.unsandboxed,
                                          print_value=True))
