"""The scope of one dispatch's in-process hooks: the thread context they run in.

Entering it makes this thread's context (harness.sandbox.thread_context) say which runtime
and which context name the hooks run as, and marks the hook point as running there: a
nested dispatch of the same point on this thread skips the in-process hooks (the
re-entrancy guard, ``reentered``). Leaving restores it all. A dispatch whose runs are all
leaf hooks does not enter it: they read nothing of the context and cannot dispatch.

It is a small slotted class rather than a ``@contextmanager`` generator: it sits on every
dispatch that has in-process hooks.
"""

from __future__ import annotations

from typing import Self

from harness.sandbox.thread_context import ThreadContext, contexts, thread_context


def this_thread() -> ThreadContext:
    """This thread's context (``thread_context()`` with its fast path inline)."""
    try:
        return contexts.context
    except AttributeError:
        return thread_context()


def reentered(context: ThreadContext, hook: str) -> bool:
    """Whether the in-process hooks of ``hook`` already run on this thread."""
    return hook in context.points


class DispatchScope:
    """``with DispatchScope(context, runtime, hook, payload):`` the in-process hooks of a
    dispatch of ``hook`` run as ``runtime``, in the payload's context (``context_name``,
    else the calling tool call's), with ``hook`` marked as running on this thread."""

    __slots__ = ("context", "hook", "name", "runtime", "saved")

    def __init__(self, context: ThreadContext, runtime, hook: str, payload: dict) -> None:
        self.context = context
        self.runtime = runtime
        self.hook = hook
        self.name = payload.get("context_name")

    def __enter__(self) -> Self:
        context = self.context
        self.saved = (context.runtime, context.context_name, context.tier,
                      context.code_file)
        context.runtime = self.runtime
        name = self.name
        context.context_name = name if type(name) is str else context.calling_context
        context.points.add(self.hook)
        return self

    def __exit__(self, *exc) -> None:
        context = self.context
        context.runtime, context.context_name, context.tier, context.code_file = self.saved
        context.points.discard(self.hook)
