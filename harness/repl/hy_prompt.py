"""Hy at the REPL prompt (``harness-repl --hy`` or ``,hy``): one module namespace for the
session's Hy code, where ``@hook`` / ``@tool`` register with the runtime at once, so a Hy
hook can be defined and fired on the spot.

Hy runs as Python, with the unsandboxed tier's time limit. ``hook``, ``tool``,
``call_tool`` and ``home`` of harness.api are there without an import. A hook or tool
defined at the prompt (source ``hy:<repl-N>:LINE``) replaces one of the same function name
(hooks) or tool name defined there before, and lasts as long as the REPL.
"""

from __future__ import annotations

import contextlib
import io
import linecache
import types

from harness.bridge import dumps, loads
from harness.loading.python_loader import PythonCollector, describe_python_error
from harness.loading.registry import PythonHook, PythonTool
from harness.sandbox.thread_context import call_slot, loading, using_runtime


class HyError(Exception):
    """A Hy entry failed; the message is FILE:LINE:COL with a caret, ready to show."""


class HyPrompt:
    """The Hy side of one REPL session."""

    def __init__(self, runtime) -> None:
        import hy  # ~20-70 ms: only sessions that use Hy pay for it
        self._hy = hy
        self.runtime = runtime
        from harness import api
        self.module = types.ModuleType("harness_repl")
        # ready without an import, as the Scheme prompt has register-hook and friends
        self.module.__dict__.update(hook=api.hook, tool=api.tool, call_tool=api.call_tool,
                                    home=api.home)
        self._registered: dict[tuple[str, str], object] = {}  # (kind, key) -> handle item
        self._entries = 0

    def is_complete(self, text: str) -> bool:
        """False while Hy's reader says the input ends inside a form."""
        try:
            for _ in self._hy.read_many(text):
                pass
        except self._hy.PrematureEndOfInput:
            return False
        except Exception:  # noqa: BLE001 - any other problem is reported when it runs
            return True
        return True

    def evaluate(self, text: str) -> tuple[str, object]:
        """Run every form of ``text``; return what it printed and the last form's value.
        Raises HyError."""
        self._entries += 1
        name = f"<repl-{self._entries}>"
        collector = PythonCollector(name, "hy")
        printed = io.StringIO()

        def run(forms):
            from hy.compiler import hy_compile
            namespace = self.module.__dict__
            value = None
            for form in forms:  # one by one: a macro defined by one form serves the next
                body, expression = hy_compile(form, self.module, get_expr=True,
                                              filename=name, source=text)
                exec(compile(body, name, "exec"), namespace)  # noqa: S102 - the user's Hy
                value = eval(compile(expression, name, "eval"), namespace)
            return value

        # the entry's text, for carets under errors of hooks it defines, raised later
        linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
        try:
            forms = list(self._hy.read_many(text, filename=name))
            with using_runtime(self.runtime), loading(collector), \
                    contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                value = call_slot().call(run, forms,
                                         self.runtime.limits_for("unsandboxed").seconds)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - shown to the user, never raised
            message = describe_python_error(exc, name, text)
            shown = printed.getvalue().rstrip("\n")
            raise HyError(f"{shown}\n{message}" if shown else message) from None
        self._adopt(collector)
        return printed.getvalue(), value

    def json_value(self, text: str, what: str) -> object:
        """The value of the Hy expression ``text`` as JSON data; HyError if it has none."""
        _printed, value = self.evaluate(text)
        try:
            return loads(dumps(value))
        except (TypeError, ValueError) as exc:
            raise HyError(f"{what} has no JSON form: {exc}") from None

    def show(self, value: object) -> str:
        """``value`` as Hy writes it."""
        return self._hy.repr(value)

    def names(self) -> list[str]:
        """The names bound at the prompt, as Hy spells them."""
        return sorted(self._hy.unmangle(n) for n in self.module.__dict__
                      if not n.startswith("_"))

    def _adopt(self, collector: PythonCollector) -> None:
        """Register what the entry's decorators collected, replacing what an earlier entry
        registered under the same function (hooks) or tool name."""
        registry = self.runtime.registry
        for item in [*collector.hooks, *collector.tools]:
            if isinstance(item, PythonHook):
                key = ("hook", f"{item.point} {getattr(item.fn, '__name__', '')}")
            else:
                key = ("tool", item.name)
            previous = self._registered.pop(key, None)
            if previous is not None:
                registry.remove_host(previous)
            if isinstance(item, PythonTool):
                registry.add_host_tool(item)
            else:
                registry.add_host_hook(item)
            self._registered[key] = item
