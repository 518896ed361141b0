"""Per-thread context of running hook code: which runtime, which file is loading, which
tier, which context name, which hook points are running (the re-entrancy guard), and the
slot the time limit of Python calls watches.

It all lives in one slotted object per thread: one thread-local lookup, then plain slot
reads. The context managers are small classes rather than @contextmanager generators; the
dispatcher enters a dispatch inline (harness/hooks/dispatch_scope.py ``run_in_scope``:
it sits on every dispatch).
"""

from __future__ import annotations

import threading

from harness.sandbox.python_calls import CallSlot
from harness.scheme.datatypes import String, frozen_string
from harness.scheme.limits import Budget


class ThreadContext:
    """The context of Scheme code on one thread (see ``thread_context``)."""

    __slots__ = ("budget", "calling_context", "calls", "code_file", "context_name", "load",
                 "points", "runtime", "system_caller", "tier", "tool_mark")

    def __init__(self) -> None:
        self.runtime = None
        self.tier: str | None = None
        self.context_name = "default"  # Scheme reads it as an immutable String
        #: the context of the running tool call (--context NAME): what a dispatch without
        #: a context_name in its payload runs as
        self.calling_context = "default"
        #: how many hook points were running when the innermost tool call started: more
        #: than that means a hook callback is running inside it (see tool_call_scope)
        self.tool_mark = 0
        #: the innermost tool call was made from a hook callback of an unsandboxed file: it
        #: runs as the System VFS caller (chibi's rule), not as its context
        self.system_caller = False
        #: the file of the Scheme hook callback or tool running on this thread (None: the
        #: host, or Python code); see harness.calls.hook_caller and scheme_eval's sessions
        self.code_file: str | None = None
        self.load = None
        self.points: set[str] = set()  # hook points whose in-process hooks run here
        self.calls = CallSlot()  # Python hooks and tools of this thread run through it
        self.budget: Budget | None = None  # see leaf_budget

    def leaf_budget(self, watch_deadline: bool) -> Budget:
        """This thread's reusable budget for a run of leaf hooks (``Budget.enter_shallow``;
        a fresh one if it is in use). ``watch_deadline``: some code of the run does not
        count steps, so the monitor must watch its deadline."""
        budget = self.budget
        if budget is None or budget.active:  # (in use: only a host's signal handler could)
            budget = Budget(steps=None, seconds=None, watch=watch_deadline)
            if self.budget is None:
                self.budget = budget
            return budget
        budget.watch = watch_deadline
        return budget


#: ``.context``: this thread's ThreadContext once made (read it through
#: ``thread_context()``; the dispatcher reads the attribute inline)
contexts = threading.local()


def thread_context() -> ThreadContext:
    """This thread's context (made on first use)."""
    try:
        return contexts.context
    except AttributeError:
        contexts.context = ThreadContext()
        return contexts.context


def call_slot() -> CallSlot:
    """This thread's slot for Python calls under a time limit (see python_calls)."""
    return thread_context().calls


def current_runtime():
    return thread_context().runtime


def current_tier() -> str | None:
    """The tier of the Scheme code running on this thread (None outside Scheme calls)."""
    return thread_context().tier


def current_context_name() -> String:
    """The context of the running dispatch or tool call (Scheme's ``%context-name%``).

    Every file of a dispatch may read it, so no file may change what another sees: it is
    the shared immutable String of the name (string-set! and string-fill! refuse it), or,
    for a name too long to share, a fresh String at each reference."""
    return frozen_string(thread_context().context_name)


def in_hook_callback() -> bool:
    """True while a hook callback runs on this thread, inside the innermost tool call (or
    outside any): a tool call it makes runs as the dispatch's context (or as System from
    an unsandboxed file; see harness.calls.hook_caller)."""
    context = thread_context()
    return len(context.points) > context.tool_mark


class ToolCallScope:
    """The extent of one tool call as context ``name``: the calling context of dispatches
    and ``%context-name%`` of the tool's code; restored after."""

    __slots__ = ("name", "saved")

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> ThreadContext:
        context = thread_context()
        self.saved = (context.calling_context, context.context_name, context.tool_mark,
                      context.system_caller)
        context.system_caller = len(context.points) > context.tool_mark and \
            context.tier == "unsandboxed"
        context.calling_context = context.context_name = self.name
        context.tool_mark = len(context.points)
        return context

    def __exit__(self, *exc) -> None:
        context = thread_context()
        (context.calling_context, context.context_name, context.tool_mark,
         context.system_caller) = self.saved


def tool_call_scope(name: str) -> ToolCallScope:
    return ToolCallScope(name)


def current_load():
    """The ``LoadCollector`` of the file being loaded on this thread, or None."""
    return thread_context().load


class _Rebind:
    """Set an attribute of this thread's context for the extent of a ``with``; restore it
    after."""

    __slots__ = ("name", "previous", "value")

    def __init__(self, name: str, value) -> None:
        self.name = name
        self.value = value

    def __enter__(self):
        context = thread_context()
        self.previous = getattr(context, self.name)
        setattr(context, self.name, self.value)
        return self.value

    def __exit__(self, *exc) -> None:
        setattr(thread_context(), self.name, self.previous)


def using_runtime(runtime) -> _Rebind:
    return _Rebind("runtime", runtime)


def loading(collector) -> _Rebind:
    return _Rebind("load", collector)


def in_tier(tier: str) -> _Rebind:
    return _Rebind("tier", tier)


def running_file(path: str | None) -> _Rebind:
    """The Scheme code of ``path`` runs for the extent of the ``with``."""
    return _Rebind("code_file", path)
