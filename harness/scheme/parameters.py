"""Parameter objects (``make-parameter`` / ``parameterize``).

A parameter is a plain Python function (so it is a Scheme procedure) carrying a ``Param``
in its ``param`` attribute. ``parameterize`` rebinds per thread: each thread sees the
global value until it parameterizes.

A parameter may also have a per-thread default (``thread_value``): a function that gives
this thread's value, or None for the global one. Output capture uses it for the current
ports, so a dispatch redirects them with one thread-local assignment instead of three
parameterize bindings, and builds a port only when a hook really writes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from harness.scheme.errors import error

_local = threading.local()


class Param:
    __slots__ = ("__weakref__", "converter", "value")

    def __init__(self, value: object, converter: Callable | None) -> None:
        self.value = value
        self.converter = converter


def thread_bindings() -> dict:
    """This thread's parameterize bindings: Param -> stack of values."""
    try:
        return _local.bindings
    except AttributeError:
        _local.bindings = {}
        return _local.bindings


def make_parameter(value: object, converter: Callable | None = None,
                   thread_value: Callable[[], object] | None = None) -> Callable:
    """A new parameter procedure with initial ``value`` (passed through ``converter``);
    ``thread_value()`` (if given) overrides the global value on threads where it is not
    None."""
    if converter is not None:
        value = converter(value)
    param = Param(value, converter)

    def parameter(*args: object) -> object:
        if args:  # (p v) sets the current value, an extension chibi also allows
            value = args[0] if param.converter is None else param.converter(args[0])
            stack = thread_bindings().get(param)
            if stack:
                stack[-1] = value
            elif thread_value is not None and thread_value() is not None:
                # the global value would change every thread's: only parameterize may
                raise error(f"{parameter.__qualname__}: this call has its own value; use "
                            "parameterize to change it")
            else:
                param.value = value
            return None
        stack = thread_bindings().get(param)
        if stack:
            return stack[-1]
        if thread_value is not None:
            value = thread_value()
            if value is not None:
                return value
        return param.value

    parameter.param = param
    return parameter


def is_parameter(obj: object) -> bool:
    return callable(obj) and isinstance(getattr(obj, "param", None), Param)


def push_binding(parameter: Callable, value: object, convert: bool = True) -> None:
    param = parameter.param
    if convert and param.converter is not None:
        value = param.converter(value)
    thread_bindings().setdefault(param, []).append(value)


def pop_binding(parameter: Callable) -> None:
    bindings = thread_bindings()
    stack = bindings[parameter.param]
    stack.pop()
    if not stack:  # an empty dict means "nothing parameterized on this thread"
        del bindings[parameter.param]
