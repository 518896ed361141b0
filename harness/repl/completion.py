"""Tab completion: ``,command`` names and their arguments (hook points, tools, tiers, file
paths), and in Scheme code bound names, hook points after a quote and tool names in a
string."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from harness.hooks.catalogue import HOOK_POINTS
from harness.repl.commands import COMMANDS
from harness.repl.session import TIERS, ReplSession

_WORD = re.compile(r"[^\s()\[\]'\"`,;]*\Z")  # the Scheme identifier being typed
_ARGUMENT_WORDS = {"tier": TIERS, "trace": ("on", "off"), "hooks": ("all",),
                   "hy": ("on", "off")}


class ReplCompleter(Completer):
    """Completes against the session's current environment, runtime and the catalogue."""

    def __init__(self, session: ReplSession) -> None:
        self.session = session
        self._paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterator[Completion]:
        text = document.text_before_cursor
        stripped = text.lstrip()
        if stripped.startswith(",") and "\n" not in stripped:
            yield from self._command_line(stripped[1:], complete_event)
        else:
            yield from self._scheme(text)

    # -- ,commands ---------------------------------------------------------------------------
    def _command_line(self, line: str, event: CompleteEvent) -> Iterator[Completion]:
        name, space, rest = line.partition(" ")
        if not space:
            yield from _matching(name, ((n, c.summary) for n, c in COMMANDS.items()))
            return
        arg_done = " " in rest.lstrip()
        if name == "load":
            sub = Document(rest.lstrip())
            yield from self._paths.get_completions(sub, event)
        elif name in ("fire", "sample") and not arg_done:
            yield from _matching(rest.lstrip(), self._hook_points())
        elif name == "call" and not arg_done:
            yield from _matching(rest.lstrip(), self._tool_names())
        elif name == "help" and not arg_done:
            yield from _matching(rest.lstrip(), ((n, c.summary) for n, c in COMMANDS.items()))
        elif name in _ARGUMENT_WORDS and not arg_done:
            yield from _matching(rest.lstrip(), ((w, "") for w in _ARGUMENT_WORDS[name]))
        elif name in ("fire", "call") and arg_done:
            yield from self._scheme(rest)  # the payload may be a Scheme expression

    # -- Scheme code ------------------------------------------------------------------------------
    def _scheme(self, text: str) -> Iterator[Completion]:
        word = _WORD.search(text).group()
        opener = text[len(text) - len(word) - 1] if len(text) > len(word) else ""
        if opener == '"':
            yield from _matching(word, [*self._tool_names(), *self._hook_points()])
        elif opener == "'":
            yield from _matching(word, [*self._hook_points(), *self._bound_names()])
        elif word:
            yield from _matching(word, self._bound_names())

    def _bound_names(self) -> list[tuple[str, str]]:
        if self.session.language == "hy":
            return [(name, "") for name in self.session.hy.names()]
        env = self.session.env
        names = set(env.names()) | {symbol.name for symbol in env.syntax}
        return [(name, "") for name in sorted(names) if not name.startswith("%")]

    def _hook_points(self) -> list[tuple[str, str]]:
        return [(point.name, point.doc) for point in HOOK_POINTS.values()]

    def _tool_names(self) -> list[tuple[str, str]]:
        try:
            tools = self.session.runtime.tools(builtins=True)
        except Exception:  # noqa: BLE001 - a half-reloaded plugin must not break typing
            return []
        return [(tool["name"], tool.get("description", "")) for tool in tools]


def _matching(prefix: str, candidates: Iterable[tuple[str, str]]) -> Iterator[Completion]:
    seen = set()
    for name, meta in candidates:
        if name.startswith(prefix) and name not in seen:
            seen.add(name)
            yield Completion(name, start_position=-len(prefix), display_meta=meta or None)
