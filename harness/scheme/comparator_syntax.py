"""``comparator-if<=>`` (SRFI 128) and the exports of (srfi 128) that are per environment.

``(comparator-if<=> [comparator] obj1 obj2 less equal greater)`` becomes

    ((lambda (c a b)
       (if ((ordering-of c) a b) less (if ((equality-of c) a b) equal greater)))
     comparator obj1 obj2)

with ``lambda`` and ``if`` the core forms, ``c``, ``a``, ``b`` identifiers no user code
can name, and ``ordering-of`` / ``equality-of`` the functions below (constants in the
expansion, which check the comparator and call nothing of the program): the comparator's
own procedures are called from the program's compiled code, so they count their steps and
a continuation captured in them resumes with nothing written for it, and the three
branches stay in tail position. Without a comparator, the default comparator of the
importing environment is the constant (see primitives/default_comparator.py for why each
environment has its own): so this is syntax written here, not in scheme_lib/srfi/128.sld,
whose macros could name only the library's own bindings.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.scheme.datatypes import NIL, list_to_py, sym
from harness.scheme.errors import error
from harness.scheme.expander import _LAMBDA_KEY, _core_alias
from harness.scheme.primitives.comparators import check_comparator
from harness.scheme.primitives.default_comparator import (
    default_comparator_of,
    environment_exports,
)
from harness.scheme.syntax import Alias, Rewriter

USAGE = "comparator-if<=>: expected ([comparator] obj1 obj2 less-than equal-to greater-than)"


def _list(*items: object) -> object:
    result = NIL
    for item in reversed(items):
        result = [item, result]
    return result


def ordering_of(comparator: object) -> Callable:
    """The ordering predicate of ``comparator``, or the error that it is no comparator or
    has none."""
    c = check_comparator("comparator-if<=>", comparator)
    if not c.ordered:
        raise error("comparator-if<=>: the comparator has no ordering predicate", c)
    return c.ordering


def equality_of(comparator: object) -> Callable:
    """The equality predicate of ``comparator`` (ordering_of has checked it)."""
    return comparator.equality


def comparator_if(default: object) -> Rewriter:
    """The ``comparator-if<=>`` keyword whose default comparator is ``default``."""

    def rewrite(exp, form, scope, where):
        args = list_to_py(form[1])
        if len(args) == 5:
            args.insert(0, default)
        elif len(args) != 6:
            raise exp.error(USAGE, where)
        comparator, a, b, less, equal, greater = args
        c, x, y = (Alias(sym(name), scope) for name in ("c", "a", "b"))
        if_ = _core_alias("if")
        body = _list(if_, _list(_list(ordering_of, c), x, y), less,
                     _list(if_, _list(_list(equality_of, c), x, y), equal, greater))
        return _list(_list(_LAMBDA_KEY, _list(c, x, y), body), comparator, a, b)

    return Rewriter("comparator-if<=>", rewrite)


def srfi128_environment_exports() -> dict[str, object]:
    """What one environment importing (srfi 128) gets of its own."""
    exports = environment_exports()
    exports["comparator-if<=>"] = comparator_if(default_comparator_of(exports))
    return exports
