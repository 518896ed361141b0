"""The terminal front end: a prompt_toolkit session over a ReplSession.

Enter submits once every datum is complete (otherwise it starts a new line); history is
kept in HOME/.repl_history; Tab completes; hot-reload events print above the prompt.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.patch_stdout import patch_stdout

from harness.repl import render
from harness.repl.completion import ReplCompleter
from harness.repl.session import ReplSession
from harness.repl.worker import run_interruptibly

HISTORY_FILE = ".repl_history"


def history_for(home: Path) -> History:
    """HOME/.repl_history when the home exists; otherwise history lasts one session."""
    return FileHistory(str(home / HISTORY_FILE)) if home.is_dir() else InMemoryHistory()


def _key_bindings(session: ReplSession) -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("enter")
    def _submit_when_complete(event) -> None:
        buffer = event.current_buffer
        if session.is_complete(buffer.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    return bindings


def _continuation(width: int, line_number: int, is_soft_wrap: bool) -> str:
    return "." * (width - 1) + " "


def prompt_session(session: ReplSession) -> PromptSession:
    """A multi-line prompt with history, completion and (unless NO_COLOR) Scheme or Hy
    colours; the prompt says which language is typed."""
    plain = bool(os.environ.get("NO_COLOR"))
    lexer = None
    if not plain:
        from prompt_toolkit.lexers import DynamicLexer, PygmentsLexer
        from pygments.lexers.lisp import HyLexer, SchemeLexer
        lexers = {"scheme": PygmentsLexer(SchemeLexer), "hy": PygmentsLexer(HyLexer)}
        lexer = DynamicLexer(lambda: lexers[session.language])
    return PromptSession(
        lambda: session.prompt, multiline=True, key_bindings=_key_bindings(session),
        prompt_continuation=_continuation, history=history_for(session.home),
        completer=ReplCompleter(session), complete_while_typing=False, lexer=lexer,
        color_depth=ColorDepth.MONOCHROME if plain else None, enable_history_search=False)


def start_watching(session: ReplSession):
    """Hot reload of the home with one printed line per event; None when unavailable."""
    if not session.home.is_dir():
        return None
    # the listener shows every event; the watcher's log would repeat it on stderr
    logging.getLogger("harness.reload").addHandler(logging.NullHandler())
    try:
        from harness.reload import Watcher
        watcher = Watcher(session.runtime)
        watcher.add_listener(lambda event: print(render.reload_event(event, session.home)))
        watcher.start()
    except Exception as exc:  # noqa: BLE001 - the REPL is useful without hot reload
        print(f"hot reload unavailable: {exc}")
        return None
    return watcher


def banner(session: ReplSession, watching: bool) -> str:
    runtime = session.runtime
    files, plugins = len(runtime.registry.files), len(runtime.plugins.plugins)
    lines = [f"harness REPL: home {session.home} ({files} tool file{'s' * (files != 1)}, "
             f"{plugins} plugin{'s' * (plugins != 1)}"
             + ("; watching for changes)" if watching else ")"),
             ",help lists the commands; Ctrl-D quits."]
    lines += [f"load error: {message}" for message in runtime.load_errors.values()]
    lines += [f"{p['source']}: {p['message']}" for p in runtime.plugins.problems]
    return "\n".join(lines)


def run(session: ReplSession, files: list[str], watch: bool = True) -> int:
    """Read, evaluate and print until ,quit or Ctrl-D."""
    prompt = prompt_session(session)
    watcher = start_watching(session) if watch else None
    try:
        print(banner(session, watcher is not None))
        for name in files:
            print(session.execute(f",load {name}"))
        while not session.finished:
            try:
                # only while the prompt is up: other threads' output goes above it
                with patch_stdout(raw=True):
                    text = prompt.prompt()
            except KeyboardInterrupt:  # Ctrl-C drops the entry being typed
                continue
            except EOFError:
                break
            _show(session, text)
    finally:
        if watcher is not None:
            watcher.stop()
    return 0


def _show(session: ReplSession, text: str) -> None:
    try:
        output = run_interruptibly(lambda: session.execute(text))
    except KeyboardInterrupt:
        output = "interrupted"
    if output:
        print(output)
