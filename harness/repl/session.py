"""The REPL without a terminal: ``ReplSession.execute(text)`` takes one entry (a Scheme
expression, Hy code in Hy mode, or a ``,command``) and returns the text to show. The
prompt_toolkit front end and the tests both drive it."""

from __future__ import annotations

from pathlib import Path

from harness.loading.scheme_loader import TOOL_PRELUDE
from harness.repl.commands import run_command
from harness.repl.repl_error import ReplError
from harness.sandbox.scheme_calls import call_scheme, describe_error
from harness.sandbox.thread_context import current_context_name, tool_call_scope, using_runtime
from harness.scheme.datatypes import Values
from harness.scheme.errors import ResourceLimitExceeded
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.printer import write_string

TIERS = ("sandboxed", "unsandboxed")
LANGUAGES = ("scheme", "hy")


class ReplSession:
    """A runtime, an environment of one tier for typed expressions, and the files that
    ``,load`` added from outside HOME/tools."""

    def __init__(self, runtime, tier: str = "sandboxed", language: str = "scheme") -> None:
        self.runtime = runtime
        self.tier = tier
        self.env = self.fresh_environment(tier)
        self.language = "scheme"  # what typed code is: "scheme", or "hy" (see set_language)
        self._hy = None  # the HyPrompt, made when Hy is first used
        self.extra_files: list[Path] = []
        self.finished = False  # set by ,quit
        #: the calling context of what is typed and of ,call (set by ,context)
        self.context = "default"
        self._entries = 0
        self.set_language(language)

    @property
    def home(self) -> Path:
        return self.runtime.home

    @property
    def prompt(self) -> str:
        return "hy> " if self.language == "hy" else "harness> "

    @property
    def hy(self):
        """The session's HyPrompt (Hy imported on first use)."""
        if self._hy is None:
            from harness.repl.hy_prompt import HyPrompt
            self._hy = HyPrompt(self.runtime)
        return self._hy

    def set_language(self, language: str) -> None:
        if language not in LANGUAGES:
            raise ReplError(f"unknown language {language!r}: use scheme or hy")
        if language == "hy":
            self.hy  # noqa: B018 - import Hy now, not in the middle of the first entry
        self.language = language

    def is_complete(self, text: str) -> bool:
        """True when ``text`` is a whole entry (a ,command line, or complete code)."""
        from harness.repl.input import is_complete
        if self.language == "hy" and not text.lstrip().startswith(","):
            return self.hy.is_complete(text)
        return is_complete(text)

    def fresh_environment(self, tier: str):
        """An environment like a tool file's: the tool prelude and ``%context-name%``."""
        env = make_environment(tier, imports=TOOL_PRELUDE, name="repl")
        env.dynamic["%context-name%"] = current_context_name
        return env

    def set_tier(self, tier: str) -> None:
        self.tier = tier
        self.env = self.fresh_environment(tier)

    # -- entries ---------------------------------------------------------------------------
    def execute(self, text: str) -> str:
        """Run one entry and return what to show ("" for nothing). Never raises for what
        the entry does: Scheme errors come back in the caret format, Ctrl-C as
        ``interrupted``."""
        try:
            if not text.strip():
                return ""
            if text.lstrip().startswith(","):
                return run_command(self, text.strip())
            return self.evaluate(text)
        except ReplError as exc:
            return str(exc)
        except KeyboardInterrupt:
            return "interrupted"
        except Exception as exc:  # noqa: BLE001 - the REPL never shows a Python traceback
            return f"internal error: {type(exc).__name__}: {exc}"

    def evaluate(self, text: str) -> str:
        """Evaluate every form of ``text`` as the session's context (``%context-name%``,
        ``call-tool``, the VFS zones); show what it printed and its last value."""
        with tool_call_scope(self.context):
            if self.language == "hy":
                return self._evaluate_hy(text)
            stdout, stderr, value = self._run(text)
        shown = [part.rstrip("\n") for part in (stdout, stderr) if part]
        if value is not None:
            items = value if isinstance(value, Values) else (value,)
            shown.extend(self._written(item) for item in items)
        return "\n".join(shown)

    def _written(self, value: object) -> str:
        """``value`` written, at most the tier's output cap (a value can stand for an
        exponential text)."""
        try:
            return write_string(value, self.runtime.limits_for(self.tier).max_output)
        except ResourceLimitExceeded as exc:
            return f"; the value is not shown: {exc.message}"

    def value_of(self, text: str) -> object:
        """The value of the Scheme expression ``text``; ReplError if it fails."""
        _stdout, _stderr, value = self._run(text)
        return value

    def _evaluate_hy(self, text: str) -> str:
        from harness.repl.hy_prompt import HyError
        try:
            printed, value = self.hy.evaluate(text)
        except HyError as exc:
            raise ReplError(str(exc)) from None
        shown = [printed.rstrip("\n")] if printed else []
        if value is not None:
            shown.append(self.hy.show(value))
        return "\n".join(shown)

    def hy_json(self, text: str, what: str) -> object:
        """The value of the Hy expression ``text`` as JSON data; ReplError if it fails."""
        from harness.repl.hy_prompt import HyError
        try:
            return self.hy.json_value(text, what)
        except HyError as exc:
            raise ReplError(str(exc)) from None

    def _run(self, text: str) -> tuple[str, str, object]:
        self._entries += 1
        name = f"<repl-{self._entries}>"
        with using_runtime(self.runtime):
            call = call_scheme(lambda: run_source(self.env, text, name), (),
                               self.runtime.limits_for(self.tier))
        if call.error is not None:
            printed = (call.stdout + call.stderr).rstrip("\n")
            message = describe_error(call.error)
            raise ReplError(f"{printed}\n{message}" if printed else message)
        return call.stdout, call.stderr, call.value

    # -- files -----------------------------------------------------------------------------
    def load(self, path: Path) -> str | None:
        """Load a tool file into the runtime (in the tier harness.toml gives it); a file
        outside HOME/tools that loaded is remembered (even when a later load fails) so that
        ``,reload`` loads it again. One that never loaded (a mistyped path) is forgotten
        once its error is shown: it must not haunt every ``,fire`` after."""
        runtime = self.runtime
        error = runtime.load_file(path)
        if path.is_relative_to(runtime.tools_dir.resolve()):
            return error
        if error is not None and runtime.registry.get(str(path)) is None:
            runtime.unload_file(path)
            if path in self.extra_files:
                self.extra_files.remove(path)
        elif path not in self.extra_files:
            self.extra_files.append(path)
        return error

    def reload(self) -> list[str]:
        """Load every tool file and plugin again; return the problems."""
        runtime = self.runtime
        runtime.load_all()
        for path in self.extra_files:
            runtime.load_file(path)
        runtime.plugins.reload(retry_failed=True)  # an explicit reload runs failed --schemas again
        problems = list(runtime.load_errors.values())
        problems += [f"{p['source']}: {p['message']}" for p in runtime.plugins.problems]
        return problems
