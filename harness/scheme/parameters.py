"""Parameter objects (``make-parameter`` / ``parameterize``).

A parameter is a plain Python function (so it is a Scheme procedure) carrying a ``Param``
in its ``param`` attribute. ``parameterize`` rebinds per thread: each thread sees the
global value until it parameterizes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

_local = threading.local()


class Param:
    __slots__ = ("__weakref__", "converter", "value")

    def __init__(self, value: object, converter: Callable | None) -> None:
        self.value = value
        self.converter = converter


def _bindings() -> dict:
    try:
        return _local.bindings
    except AttributeError:
        _local.bindings = {}
        return _local.bindings


def make_parameter(value: object, converter: Callable | None = None) -> Callable:
    """A new parameter procedure with initial ``value`` (passed through ``converter``)."""
    if converter is not None:
        value = converter(value)
    param = Param(value, converter)

    def parameter(*args: object) -> object:
        if args:  # (p v) sets the current value, an extension chibi also allows
            value = args[0] if param.converter is None else param.converter(args[0])
            stack = _bindings().get(param)
            if stack:
                stack[-1] = value
            else:
                param.value = value
            return None
        stack = _bindings().get(param)
        return stack[-1] if stack else param.value

    parameter.param = param
    return parameter


def is_parameter(obj: object) -> bool:
    return callable(obj) and isinstance(getattr(obj, "param", None), Param)


def push_binding(parameter: Callable, value: object, convert: bool = True) -> None:
    param = parameter.param
    if convert and param.converter is not None:
        value = param.converter(value)
    _bindings().setdefault(param, []).append(value)


def pop_binding(parameter: Callable) -> None:
    _bindings()[parameter.param].pop()
