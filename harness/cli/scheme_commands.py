"""``harness run FILE.scm`` and ``harness eval EXPR``: run Scheme programs."""

from __future__ import annotations

import gc
import os
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

from harness.cli.frozen_imports import freeze_imports
from harness.sandbox.tier_limits import DEFAULT_LIMITS

# Scheme recursion is Python recursion; run programs on a thread with a large C stack so
# that a deep recursion through a C boundary cannot overflow the default 8 MiB stack.
_STACK_BYTES = 512 * 1024 * 1024


def register(sub) -> None:
    run = sub.add_parser("run", help="run a Scheme program",
                         description="Run a Scheme program: its output to stdout; an error "
                                     "to stderr as FILE:LINE:COL: message with a caret, "
                                     "exit status 1.")
    run.add_argument("file", help="the .scm file")
    run.add_argument("args", nargs="*", help="arguments for (command-line)")
    run.add_argument("--unsandboxed", action="store_true",
                     help="run with file, process and environment access (default: sandboxed)")
    _limit_options(run)
    run.set_defaults(run=_run)
    ev = sub.add_parser("eval", help="evaluate Scheme expressions and print the last value",
                        description="Evaluate Scheme expressions (one argument: quote it) and "
                                    "print the last value; what they print goes to stdout, an "
                                    "error to stderr with a caret, exit status 1.")
    ev.add_argument("expr", help="one or more Scheme expressions")
    ev.add_argument("--unsandboxed", action="store_true",
                    help="evaluate with file, process and environment access (default: "
                         "sandboxed)")
    _limit_options(ev)
    ev.set_defaults(run=_eval)


def plain_run_args(words: list[str]) -> SimpleNamespace | None:
    """What the parser of ``harness run`` makes of ``words`` (the words after ``run``)
    when none of them is an option: ``FILE ARG...``, no word starting with ``-``; else
    None (the parser reads them). Importing argparse and building the parser was a tenth
    of a one-line program's start (bench/commands.py); tests/cli/test_parser.py checks
    that both read such words alike."""
    if not words or any(word.startswith("-") for word in words):
        return None
    return SimpleNamespace(command="run", file=words[0], args=words[1:], unsandboxed=False,
                           steps=None, timeout=None, run=_run)


def _limit_options(parser) -> None:
    sandboxed = DEFAULT_LIMITS["sandboxed"]
    parser.add_argument("--steps", type=int, default=None,
                        help=f"step budget (sandboxed default: {sandboxed.steps:,}; "
                             "unsandboxed: none)")
    parser.add_argument("--timeout", type=float, default=None,
                        help=f"wall-clock limit in seconds (sandboxed default: "
                             f"{sandboxed.seconds:g}; unsandboxed: none)")


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
             timeout=None, argv=None, print_value=False, command="run") -> int:
    """Run a program in its tier. The sandboxed tier has the default sandboxed limits
    (steps, seconds, memory) unless ``steps``/``timeout`` say otherwise; the unsandboxed
    tier only those given."""
    from harness.host_libraries import offer_to_scheme
    from harness.scheme.errors import ResourceLimitExceeded, SchemeError
    from harness.scheme.interpreter import Interpreter, libraries_cached_in, run_file
    from harness.scheme.limits import Budget
    from harness.scheme.primitives import system
    from harness.scheme.reader import read_all

    offer_to_scheme()  # a program may import the (harness ...) libraries too
    freeze_imports()
    tier = "unsandboxed" if unsandboxed else "sandboxed"
    memory = None
    if not unsandboxed:
        sandboxed = DEFAULT_LIMITS["sandboxed"]
        steps = sandboxed.steps if steps is None else steps
        timeout = sandboxed.seconds if timeout is None else timeout
        memory = sandboxed.max_memory
    try:
        interp = Interpreter(tier=tier, budget_check="flag" if steps is None else "steps")
        if argv is not None:
            system.COMMAND_LINE = tuple(argv)
        with Budget(steps=steps, seconds=timeout, max_memory=memory):
            if source_kind == "file":
                cache = _parse_cache()
                read = read_all if cache is None else cache.read
                try:
                    with libraries_cached_in(cache):
                        value = run_file(interp.env, text_or_path, read)
                finally:
                    if cache is not None and cache.misses:
                        cache.prune()  # something new was read: drop what no run read lately
            else:
                value = interp.eval_string(text_or_path, "<eval>")
            if print_value and value is not None:  # printing is part of the budget
                from harness.scheme.printer import write_string
                print(write_string(value))
        _flush()
        return 0
    except system.SchemeExit as exc:
        _flush()
        return exc.code
    except ResourceLimitExceeded as exc:
        _flush()
        print(_described(exc, command), file=sys.stderr)
        if not unsandboxed:
            print("harness: the sandboxed tier's limits apply; change them with --steps "
                  "and --timeout", file=sys.stderr)
        return 1
    except (SchemeError, RecursionError, MemoryError) as exc:
        _flush()
        print(_described(exc, command), file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - users get FILE:LINE:COL, never a traceback
        _flush()
        print(_described(exc, command), file=sys.stderr)
        return 1


def _parse_cache():
    """Where ``harness run`` keeps what the reader made of the programs it ran and of the
    library files they imported: ``$XDG_CACHE_HOME/harness/parsed``, else
    ``~/.cache/harness/parsed``, so that an unchanged program is not read with lark again
    (importing lark and building its lexer is a quarter of a short program's start). None
    (every program is read) when there is no home directory to put it in."""
    from harness.scheme.parse_cache import ParseCache
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative path is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):  # no $HOME and no password entry: "~" stayed as it was
        return None
    return ParseCache(Path(base, "harness", "parsed"))


def _described(exc: BaseException, command: str) -> str:
    """``FILE:LINE:COL: message`` and a caret; an error with no place (a file that cannot
    be read) is named by the command, as every command names its errors."""
    from harness.scheme.interpreter import error_message, error_position, format_error
    if error_position(exc) is None:
        return f"harness {command}: {error_message(exc)}"
    return format_error(exc)


def _flush() -> None:
    """The end of a program: what it wrote to files it never closed, then stdout."""
    from harness.scheme.primitives.ports import report_unflushed_files
    report_unflushed_files()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass


def run_program(path, unsandboxed: bool = False) -> int:
    """Run a Scheme file as ``harness run`` does; return the exit status."""
    return _in_big_stack(lambda: _execute("file", str(path), unsandboxed))


def _collector_tuned(run):
    """``run()`` with the young generation of the cyclic garbage collector made larger
    (700 objects by default), so that a program building a million pairs is not traversed
    over and over (bench/whole_process.py, deep.scm: ~0.2 s of collection out of 1 s of
    CPU); the thresholds are restored after. The memory limit still reads the resident
    size, and cycles are still collected, a little later."""
    old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, 20, 20)
    try:
        return run()
    finally:
        gc.set_threshold(*old)


#: the collector's first threshold while ``harness run``/``eval`` run a program
GC_YOUNG = 50_000


def _run(args) -> int:
    return _collector_tuned(lambda: _in_big_stack(
        lambda: _execute("file", args.file, args.unsandboxed, args.steps, args.timeout,
                         [args.file, *args.args])))


def _eval(args) -> int:
    return _collector_tuned(lambda: _in_big_stack(
        lambda: _execute("text", args.expr, args.unsandboxed, args.steps, args.timeout,
                         print_value=True, command="eval")))
