"""``comparator-if<=>`` (SRFI 128) and the exports of (srfi 128) that are per environment.

``(comparator-if<=> [comparator] obj1 obj2 less equal greater)`` becomes

    ((lambda (r) (if (eqv? r -1) less (if (eqv? r 0) equal greater)))
     (order-of comparator obj1 obj2))

with ``lambda`` and ``if`` the core forms, ``r`` an identifier no user code can name,
and ``eqv?`` / ``order-of`` the procedures themselves (constants in the expansion): the
three branches stay in tail position. Without a comparator, the default comparator of the
importing environment is the constant (see primitives/default_comparator.py for why each
environment has its own).
"""

from __future__ import annotations

from harness.scheme.datatypes import NIL, list_to_py, sym
from harness.scheme.expander import _LAMBDA_KEY, _core_alias
from harness.scheme.primitives.comparators import order_of
from harness.scheme.primitives.default_comparator import (
    default_comparator_of,
    environment_exports,
)
from harness.scheme.primitives.equivalence import is_eqv
from harness.scheme.syntax import Alias, Rewriter

USAGE = "comparator-if<=>: expected ([comparator] obj1 obj2 less-than equal-to greater-than)"


def _list(*items: object) -> object:
    result = NIL
    for item in reversed(items):
        result = [item, result]
    return result


def comparator_if(default: object) -> Rewriter:
    """The ``comparator-if<=>`` keyword whose default comparator is ``default``."""

    def rewrite(exp, form, scope, where):
        args = list_to_py(form[1])
        if len(args) == 5:
            args.insert(0, default)
        elif len(args) != 6:
            raise exp.error(USAGE, where)
        comparator, a, b, less, equal, greater = args
        r = Alias(sym("r"), scope)
        if_ = _core_alias("if")
        body = _list(if_, _list(is_eqv, r, -1), less,
                     _list(if_, _list(is_eqv, r, 0), equal, greater))
        return _list(_list(_LAMBDA_KEY, _list(r), body), _list(order_of, comparator, a, b))

    return Rewriter("comparator-if<=>", rewrite)


def srfi128_environment_exports() -> dict[str, object]:
    """What one environment importing (srfi 128) gets of its own."""
    exports = environment_exports()
    exports["comparator-if<=>"] = comparator_if(default_comparator_of(exports))
    return exports
