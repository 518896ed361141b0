"""Control procedures: apply, continuations, values, exceptions, parameters, promises.
(eval, environment and load are the interpreter's: harness.scheme.interpreter.)"""

from __future__ import annotations

import sys

from harness.scheme import run_support as rt
from harness.scheme.continuations import call_cc
from harness.scheme.datatypes import Promise, String, Symbol, py_to_list
from harness.scheme.errors import ErrorObject, wrong_type
from harness.scheme.parameters import make_parameter as _make_parameter
from harness.scheme.primitives import define, primitive

BASE = "scheme base"

define(BASE, "apply", rt.apply)
define(BASE, "call-with-current-continuation", call_cc)
define(BASE, "call/cc", call_cc)
define(BASE, "dynamic-wind", rt.dynamic_wind)
define(BASE, "values", rt.values)
define(BASE, "call-with-values", rt.call_with_values)
define(BASE, "with-exception-handler", rt.with_exception_handler)
define(BASE, "raise", rt.raise_)
define(BASE, "raise-continuable", rt.raise_continuable)
define(BASE, "error", rt.scheme_error_proc)
define("scheme lazy", "force", rt.force)
define("scheme lazy", "make-promise", rt.make_promise)


def not_(x):
    return x is False


define(BASE, "not", not_)


@primitive(BASE)
def procedure_p(x):
    return callable(x) and not isinstance(x, type)


@primitive(BASE)
def boolean_p(x):
    return x is True or x is False


@primitive(BASE)
def boolean_eq_p(a, b, *more):
    items = (a, b, *more)
    for x in items:
        if x is not True and x is not False:
            raise wrong_type("boolean=?", "a boolean", x)
    return all(x is items[0] for x in items)


boolean_eq_p.__name__ = "boolean=?"
define(BASE, "boolean=?", boolean_eq_p)


@primitive("harness checks core")
def raise_wrong_type(who, expected, value):
    """Raise the standard argument error ``WHO: expected EXPECTED, got VALUE`` (the value
    written shortened, as every primitive writes it): the native half of (harness checks),
    for procedures written in Scheme. The error is placed where the program called into
    scheme_lib/, as a primitive's would be."""
    from harness.scheme.libraries import SCHEME_LIB
    from harness.scheme.translate import locate_caller
    name = who.name if isinstance(who, Symbol) else getattr(who, "s", who)
    exc = wrong_type(str(name), getattr(expected, "s", str(expected)), value)
    exc.where = locate_caller(sys._getframe(1), str(SCHEME_LIB))
    raise exc


@primitive(BASE)
def make_parameter(value, converter=None):
    if converter is not None and not callable(converter):
        raise wrong_type("make-parameter", "a procedure", converter)
    return _make_parameter(value, converter)


@primitive(BASE)
def error_object_p(x):
    return isinstance(x, ErrorObject)


def _error_object(who: str, x) -> ErrorObject:
    if not isinstance(x, ErrorObject):
        raise wrong_type(who, "an error object", x)
    return x


@primitive(BASE)
def error_object_message(x):
    return String(_error_object("error-object-message", x).message)


@primitive(BASE)
def error_object_irritants(x):
    return py_to_list(_error_object("error-object-irritants", x).irritants)


@primitive(BASE)
def read_error_p(x):
    return isinstance(x, ErrorObject) and x.kind == "read"


@primitive(BASE)
def file_error_p(x):
    return isinstance(x, ErrorObject) and x.kind == "file"


@primitive("scheme lazy")
def promise_p(x):
    return isinstance(x, Promise)
