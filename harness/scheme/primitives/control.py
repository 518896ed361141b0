"""Control procedures: apply, continuations, values, exceptions, parameters, promises, eval."""

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


@primitive(BASE)
def features():
    from harness.scheme.environment import FEATURES
    return py_to_list([Symbol.intern(f) for f in FEATURES])


@primitive("scheme lazy")
def promise_p(x):
    return isinstance(x, Promise)


@primitive("scheme eval")
def environment(*specs):
    from harness.scheme.interpreter import make_environment
    from harness.scheme.libraries import import_into
    env = make_environment("unsandboxed", imports=())
    for spec in specs:
        import_into(env, spec)
    return env


@primitive("scheme eval", name="eval")
def eval_(expr, env=None):
    from harness.scheme.environment import Environment
    from harness.scheme.interpreter import eval_datum, interaction_environment
    if env is None:
        env = interaction_environment()
    if not isinstance(env, Environment):
        raise wrong_type("eval", "an environment", env)
    return eval_datum(env, expr)


@primitive("scheme repl")
def interaction_environment():
    from harness.scheme.interpreter import interaction_environment as ie
    return ie()


@primitive("scheme load")
def load(filename, env=None):
    from harness.scheme.interpreter import interaction_environment, run_file
    if not isinstance(filename, String):
        raise wrong_type("load", "a string", filename)
    run_file(env or interaction_environment(), filename.s)


R5RS = "scheme r5rs"


#: the libraries of each report version: R5RS's bindings, or R7RS-small's (R7RS 6.12 lets
#: an implementation support versions besides 5; chibi-scheme accepts 7 too)
REPORT_LIBRARIES = {
    5: (("scheme", "r5rs"),),
    7: tuple(("scheme", name) for name in (
        "base", "case-lambda", "char", "complex", "cxr", "eval", "file", "inexact", "lazy",
        "load", "process-context", "read", "repl", "time", "write")),
}


def _report_libraries(who: str, version: object) -> tuple:
    if type(version) is not int or version not in REPORT_LIBRARIES:
        raise wrong_type(who, "the version 5 or 7", version)
    return REPORT_LIBRARIES[version]


def _import_set(key: tuple) -> object:
    return py_to_list([Symbol.intern(part) for part in key])


@primitive(R5RS)
def scheme_report_environment(version):
    """(scheme-report-environment 5): a fresh environment of R5RS's bindings; with 7, of
    R7RS-small's."""
    return environment(*map(_import_set,
                            _report_libraries("scheme-report-environment", version)))


@primitive(R5RS)
def null_environment(version):
    """(null-environment 5): a fresh environment with only the syntax keywords (of R5RS,
    or with 7 of R7RS-small)."""
    from harness.scheme.interpreter import make_environment
    from harness.scheme.libraries import find_library
    from harness.scheme.syntax import Rewriter, Special
    from harness.scheme.syntax_rules import Macro
    keys = _report_libraries("null-environment", version)
    env = make_environment("unsandboxed", imports=())
    for key in keys:
        for name, value in find_library(key).exports.items():
            if isinstance(value, (Special, Macro, Rewriter)):
                env.syntax[Symbol.intern(name)] = value
    return env
