"""The scope of one dispatch's in-process hooks: the thread context they run in and the
state their runs share.

Entering it makes this thread's context (harness.sandbox.thread_context) say which runtime
and which context name the hooks run as, and marks the hook point as running there: a
nested dispatch of the same point on this thread skips the in-process hooks (the
re-entrancy guard). Leaving restores it all. A dispatch whose runs are all leaf hooks
does not enter it: they read nothing of the context and cannot dispatch.

It is a small slotted class rather than a ``@contextmanager`` generator: it sits on every
dispatch that has in-process hooks.
"""

from __future__ import annotations

from harness.hooks.dispatch_record import DispatchRecord
from harness.sandbox.thread_context import ThreadContext, contexts, thread_context


class DispatchScope:
    """One dispatch of ``hook`` through its in-process hooks (``with scope:``), and what
    its runs share: the payload converted per file, a file's budget pool, the output
    capture of the last Scheme run (for the trace)."""

    __slots__ = ("capture", "context", "converted", "hook", "payload", "pool", "record",
                 "runtime", "saved")

    def __init__(self, runtime, hook: str, payload: dict, record: DispatchRecord) -> None:
        self.runtime = runtime
        self.hook = hook
        self.payload = payload
        self.record = record
        try:
            self.context: ThreadContext = contexts.context
        except AttributeError:
            self.context = thread_context()
        #: file -> the payload as its Scheme hooks see it (payload_use.py)
        self.converted: dict[str, object] = {}
        #: [steps, deadline] left to the file whose hooks share one budget (see
        #: SchemeRunner), or None
        self.pool: list | None = None
        #: the output capture of the last Scheme run, None after a leaf run
        self.capture = None

    @property
    def reentered(self) -> bool:
        """Whether the in-process hooks of this point already run on this thread."""
        return self.hook in self.context.points

    def __enter__(self) -> DispatchScope:
        context = self.context
        self.saved = (context.runtime, context.context_name, context.tier,
                      context.code_file)
        context.runtime = self.runtime
        name = self.payload.get("context_name")  # else: the calling tool call's
        context.context_name = name if type(name) is str else context.calling_context
        context.points.add(self.hook)
        return self

    def __exit__(self, *exc) -> None:
        context = self.context
        context.runtime, context.context_name, context.tier, context.code_file = self.saved
        context.points.discard(self.hook)
