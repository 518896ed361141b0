"""Primitives the compiler writes as Python operators instead of calls.

Each template takes the compiled argument expressions and returns a Python expression, or
None when that argument count is not inlined (the call then goes to the procedure).
"""

from __future__ import annotations

import ast
import copy as copy_module
from collections.abc import Callable

from harness.scheme import run_support as rt

Template = Callable[[list[ast.expr]], "ast.expr | None"]

#: the globals inlined code calls: the procedures of inlined primitives (for arguments the
#: Python operator does not take), ``len`` and ``type``. None runs Scheme code, and each
#: charges the big work it does itself, so a procedure whose only calls are these does
#: bounded work and needs no budget check of its own (compiler.py: ``_runs_code``)
RUNS_NO_CODE = frozenset({
    "h_len", "h_type", "h_vector_ref", "h_vector_length", "h_vector_set", "h_string_length",
    "h_bytevector_length", "h_mul", "h_quotient", "h_remainder", "h_modulo", "h_procedure_p"})


def _sub(e: ast.expr, i: int) -> ast.expr:
    return ast.Subscript(value=e, slice=ast.Constant(i), ctx=ast.Load())


def _name(n: str) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Load())


def _class_of(e: ast.expr) -> ast.expr:
    return ast.Attribute(value=e, attr="__class__", ctx=ast.Load())


def _class_is(e: ast.expr, cls: str) -> ast.expr:
    """``e.__class__ is <cls>``: the guard of an inlined operation, whose operand has the
    same class at a site nearly always. CPython 3.11 specialises the attribute load for the
    class it last saw (a slot read, a little cheaper than ``type(e)``); another class there
    is a miss (~10 ns more)."""
    return ast.Compare(left=_class_of(e), ops=[ast.Is()], comparators=[_name(cls)])


def _type_is(e: ast.expr, cls: str, op: type[ast.cmpop] = ast.Is) -> ast.expr:
    """``h_type(e) is <cls>`` (``type``): the test of a type predicate (``pair?``,
    ``symbol?``...), which is asked because the class varies: the call of ``type`` is
    specialised for any argument, with no miss when the class changes. The compiler knows
    that it runs no Scheme code (compiler.py: ``_runs_code``, ``_is_recomputable``)."""
    return ast.Compare(left=ast.Call(func=_name("h_type"), args=[e], keywords=[]),
                       ops=[op()], comparators=[_name(cls)])


def _all_true(tests: list[ast.expr]) -> ast.expr:
    return tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)


def _copy(e: ast.expr) -> ast.expr:
    return copy_module.deepcopy(e)  # one node per place (positions are set per node)


def _path(*idx: int) -> Template:
    def t(a):
        if len(a) != 1:
            return None
        e = a[0]
        for i in idx:
            e = _sub(e, i)
        return e
    return t


def _is(const_name: str) -> Template:
    def t(a):
        if len(a) != 1:
            return None
        return ast.Compare(left=a[0], ops=[ast.Is()],
                           comparators=[ast.Name(id=const_name, ctx=ast.Load())])
    return t


def _is_false(a):
    if len(a) != 1:
        return None
    if a[0].__class__ is ast.Compare:
        # a comparison gives True or False: Python's `not` on it is one jump, no `is False`
        return ast.UnaryOp(op=ast.Not(), operand=a[0])
    return ast.Compare(left=a[0], ops=[ast.Is()], comparators=[ast.Constant(False)])


def _pair_p(a):
    if len(a) != 1:
        return None
    return _type_is(a[0], "h_list")


def _class_p(cls: str) -> Template:
    """``(symbol? x)`` and the like: ``type(x) is <cls>`` (the procedure's own test)."""
    def t(a):
        if len(a) != 1:
            return None
        return _type_is(a[0], cls)
    return t


def _eq(a):
    if len(a) != 2:
        return None
    return ast.Compare(left=a[0], ops=[ast.Is()], comparators=[a[1]])


def _cons(a):
    if len(a) != 2:
        return None
    return ast.List(elts=list(a), ctx=ast.Load())


def _is_number_literal(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and type(e.value) in (int, float, complex)


def _number(e: ast.expr) -> ast.expr:
    """``+e``: Python's unary plus is the identity on numbers and a TypeError on anything
    else a Scheme value can be (a pair, a string, a symbol...). Without it Python would
    compare or concatenate two pairs (lists) instead of failing, recursing in C on long
    ones; a number literal needs no check."""
    if _is_number_literal(e) or _gives_number(e):
        return e
    return ast.UnaryOp(op=ast.UAdd(), operand=e)


def _gives_number(e: ast.expr) -> bool:
    """Whether ``e`` is inlined arithmetic: its value is a number (or it raises)."""
    cls = e.__class__
    if cls is ast.BinOp:  # the templates' + - * // %: no operand is a pair
        return True
    if cls is ast.UnaryOp:
        return e.op.__class__ is ast.UAdd or e.op.__class__ is ast.USub
    return getattr(e, "h_number", False)


def _numeric(e: ast.expr) -> ast.expr:
    e.h_number = True  # see _gives_number
    return e


def _binop(op: ast.operator, unary: ast.unaryop | None = None, min_args: int = 2,
           check_first: bool = False) -> Template:
    """``a op b op ...``; ``check_first``: checked with ``_number`` when no operand is a
    number literal (``+``: a number plus a non-number fails in Python, two pairs do not)."""
    def t(a):
        if len(a) == 1 and unary is not None:
            return ast.UnaryOp(op=unary, operand=a[0])
        if len(a) < min_args or len(a) > 4:
            return None
        e = a[0]
        if check_first and not any(_is_number_literal(x) for x in a):
            e = _number(e)
        for x in a[1:]:
            e = ast.BinOp(left=e, op=op, right=x)
        return e
    return t


def _compare(op_cls) -> Template:
    """Chained comparisons of checked operands (``_number``). Python's chains evaluate a
    later operand only when the earlier comparisons hold, so a chain is inlined only when
    its later operands are names or constants (Scheme evaluates every argument).

    Two operands, one of them a number literal, need no check: an order comparison of a
    number with a non-number fails in Python, and ``x == 5`` of a non-number is false at
    once (never a comparison of two pairs); the check would cost a tight loop ~7%. So
    ``(= x 5)`` of a non-number answers #f instead of failing (docs/reference/scheme.md: Known deviations).
    """
    equality = op_cls is ast.Eq

    def t(a):
        if len(a) < 2 or len(a) > 4:
            return None
        if len(a) > 2 and not all(isinstance(x, (ast.Name, ast.Constant)) for x in a[2:]):
            return None
        if len(a) == 2 and (_is_number_literal(a[0]) or _is_number_literal(a[1])):
            operands = list(a)
        elif len(a) == 2 and not equality:
            if _gives_number(a[0]) or _gives_number(a[1]):
                operands = list(a)  # a number against a non-number fails
            else:
                operands = [_number(a[0]), a[1]]
        else:
            operands = [_number(x) for x in a]
        return ast.Compare(left=operands[0], ops=[op_cls() for _ in a[1:]],
                           comparators=operands[1:])
    return t


def _zero_p(a):
    """``x == 0``: like ``(= x 0)`` (see _compare), a non-number answers #f."""
    if len(a) != 1:
        return None
    return ast.Compare(left=a[0], ops=[ast.Eq()], comparators=[ast.Constant(0)])


def _pure(e: ast.expr) -> bool:
    """A variable, a constant, or arithmetic on those: evaluating it again gives the same
    value and has no effect (so a template may use it more than once)."""
    cls = e.__class__
    if cls is ast.Name or cls is ast.Constant:
        return True
    if cls is ast.BinOp:
        return _pure(e.left) and _pure(e.right)
    return cls is ast.UnaryOp and _pure(e.operand)


def _items(v: ast.expr) -> ast.expr:
    return ast.Attribute(value=_copy(v), attr="items", ctx=ast.Load())


def _indexes_vector(v: ast.expr, k: ast.expr) -> ast.expr:
    """The test that ``v`` is a vector and ``k`` an exact integer that is not negative.
    An index past the end makes Python's own IndexError, which translate.py reports as
    the primitive's "index out of range" (``v`` and ``k`` are pure, so nothing else in the
    expression can raise it): one comparison per access instead of a chained one and a
    ``len`` call (vector loops ~20% faster)."""
    not_negative = ast.Compare(left=_copy(k), ops=[ast.GtE()], comparators=[ast.Constant(0)])
    return _all_true([_class_is(_copy(v), "h_Vector"), _class_is(_copy(k), "h_int"),
                      not_negative])


#: the temporary an inlined vector-ref keeps a computed index in (the index is pure: no
#: other inlined vector-ref can run between its assignment and its last use)
_INDEX = "w_index"


def _vector_ref(a):
    """``v.items[k]`` when ``v`` is a vector and ``k`` an index (see _indexes_vector),
    else the procedure (which reports the error): a vector loop without a call per
    element."""
    if len(a) != 2 or not all(map(_pure, a)):
        return None
    v, k = a
    if k.__class__ is ast.Name or k.__class__ is ast.Constant:
        test = _indexes_vector(v, k)
    else:  # an index computed once, into a temporary, before anything else reads it
        first = ast.NamedExpr(target=ast.Name(id=_INDEX, ctx=ast.Store()), value=_copy(k))
        k = _name(_INDEX)
        test = _all_true([_class_is(first, "h_int"), _class_is(_copy(v), "h_Vector"),
                          ast.Compare(left=_copy(k), ops=[ast.GtE()],
                                      comparators=[ast.Constant(0)])])
    return ast.IfExp(test=test,
                     body=ast.Subscript(value=_items(v), slice=_copy(k), ctx=ast.Load()),
                     orelse=ast.Call(func=_name("h_vector_ref"), args=[_copy(v), _copy(k)],
                                     keywords=[]))


def _procedure_p(a):
    """``(procedure? x)``: True at once for a Python function (what a lambda, a define and
    most primitives are), #f at once for a pair (a record of data, the usual other case:
    an evaluator's closure, a tagged list), else the procedure."""
    if len(a) != 1 or not _pure(a[0]):
        return None
    x = a[0]
    return ast.BoolOp(op=ast.Or(), values=[
        _type_is(_copy(x), "h_function"),
        ast.BoolOp(op=ast.And(), values=[
            _type_is(_copy(x), "h_list", ast.IsNot),
            ast.Call(func=_name("h_procedure_p"), args=[_copy(x)], keywords=[])])])


def _length(cls: str, field: str, procedure: str) -> Template:
    """``len(x.<field>)`` when ``x`` is of class ``cls`` (vector, string, bytevector), else
    the procedure (which reports it)."""
    def t(a):
        if len(a) != 1 or not _pure(a[0]):
            return None
        x = a[0]
        data = ast.Attribute(value=_copy(x), attr=field, ctx=ast.Load())
        return _numeric(ast.IfExp(
            test=_class_is(_copy(x), cls),
            body=ast.Call(func=_name("h_len"), args=[data], keywords=[]),
            orelse=ast.Call(func=_name(procedure), args=[_copy(x)], keywords=[])))
    return t


#: a float times a literal this small stays a float (no exact product to check)
_EXACT_FLOAT_INT = 2 ** 53


def _mul(a):
    """``a * b [* c]`` when every operand that is not a literal is a float (a float
    product cannot grow past its size: nothing to check), else the procedure, which
    checks exact products' sizes and the types. Operands appear twice, so each must be
    a literal or pure (see _pure)."""
    if len(a) not in (2, 3):
        return None
    floats = []
    for e in a:
        if e.__class__ is ast.Constant:
            v = e.value
            if not (type(v) is float or (type(v) is int and -_EXACT_FLOAT_INT < v
                                         < _EXACT_FLOAT_INT)):
                return None
        elif _pure(e):
            if not any(ast.dump(e) == ast.dump(f) for f in floats):  # (* x x): one test
                floats.append(e)
        else:
            return None
    if not floats:
        return None
    classes = [_class_of(_copy(e)) for e in floats]
    # x.__class__ is h_float is y.__class__ is z.__class__: all three are floats
    test = ast.Compare(left=classes[0], ops=[ast.Is() for _ in classes],
                       comparators=[_name("h_float"), *classes[1:]])
    product = _copy(a[0])
    for e in a[1:]:
        product = ast.BinOp(left=product, op=ast.Mult(), right=_copy(e))
    return _numeric(ast.IfExp(test=test, body=product,
                              orelse=ast.Call(func=_name("h_mul"), args=[_copy(e) for e in a],
                                              keywords=[])))


#: quotient, remainder and modulo inline a dividend below this (as the procedures' own
#: fast path) when the divisor is a bigger literal
_SMALL_INT = 2 ** 62
#: the largest one-digit integer of CPython: ``n % d`` and ``n // d`` of a divisor up to
#: this are one pass over ``n`` however long it is (as an inlined ``+`` of it is), and a
#: comparison of two one-digit integers is specialised (``d <= 2**30 - 1``), where one
#: against 2**30 or 2**62 takes CPython 3.11's generic comparison every time
_ONE_DIGIT_MAX = 2 ** 30 - 1
#: the temporary an inlined division keeps its dividend in (used before any other inlined
#: division can assign it: the divisor is pure, so it holds no inlined division)
_DIVIDEND = "w_dividend"


def _division(op: ast.operator, procedure: str, any_sign: bool = False) -> Template:
    """``a op b`` for exact integers, ``0 <= a`` (for modulo, where Python's floor division
    agrees with Scheme, ``a`` of any sign) and ``0 < b < 2**30``, or a literal ``b`` below
    2**62 (from 2**30 on, with ``a < 2**62``): as cheap as the procedures' own fast path,
    without the call; anything else goes to the procedure, which checks, charges big
    divisions and reports. The divisor must be a literal or pure; the dividend is kept in a temporary
    when it is not (it is evaluated once, first)."""
    def t(a):
        if len(a) != 2:
            return None
        n, d = a
        if not _pure(d):
            return None
        literal = d.__class__ is ast.Constant
        if literal and not (type(d.value) is int and 0 < d.value < _SMALL_INT):
            return None
        if _pure(n):
            first, n_ref = _copy(n), (lambda: _copy(n))
        else:
            first = ast.NamedExpr(target=ast.Name(id=_DIVIDEND, ctx=ast.Store()), value=n)
            n_ref = (lambda: _name(_DIVIDEND))
        # Plain comparisons, not chained ones (`0 <= n < B` swaps and copies on the stack),
        # and one class test for both operands: ~10 % less time in the guard.
        if literal:
            tests = [_class_is(first, "h_int")]
        else:
            tests = [ast.Compare(left=_class_of(first), ops=[ast.Is(), ast.Is()],
                                 comparators=[_name("h_int"), _class_of(_copy(d))])]
        if not any_sign:
            tests.append(_compare_with(n_ref(), ast.GtE(), 0))
        if not literal:
            tests += [_compare_with(_copy(d), ast.Gt(), 0),
                      _compare_with(_copy(d), ast.LtE(), _ONE_DIGIT_MAX)]
        elif d.value > _ONE_DIGIT_MAX and not any_sign:
            tests.append(_compare_with(n_ref(), ast.Lt(), _SMALL_INT))
        return _numeric(ast.IfExp(test=_all_true(tests),
                                  body=ast.BinOp(left=n_ref(), op=op, right=_copy(d)),
                                  orelse=ast.Call(func=_name(procedure),
                                                  args=[n_ref(), _copy(d)], keywords=[])))
    return t


def _compare_with(e: ast.expr, op: ast.cmpop, value: int) -> ast.expr:
    return ast.Compare(left=e, ops=[op], comparators=[ast.Constant(value)])


def _vector_set(a, tmp: Callable[[], str]) -> list[ast.stmt] | None:
    """(statement template) ``v.items[k] = x`` when ``v`` is a vector and ``k`` an index
    (see _indexes_vector), else the procedure (which reports the error); ``v`` and ``k``
    must be pure, ``x`` is evaluated once, before the test."""
    if len(a) != 3 or not (_pure(a[0]) and _pure(a[1])):
        return None
    v, k, x = a
    out: list[ast.stmt] = []
    if not _pure(x):
        t = tmp()
        out.append(ast.Assign(targets=[ast.Name(id=t, ctx=ast.Store())], value=x))
        x = _name(t)
    test = _indexes_vector(v, k)
    store = ast.Subscript(value=_items(v), slice=_copy(k), ctx=ast.Store())
    out.append(ast.If(test=test, body=[ast.Assign(targets=[store], value=_copy(x))],
                      orelse=[ast.Expr(ast.Call(func=_name("h_vector_set"),
                                                args=[_copy(v), _copy(k), _copy(x)],
                                                keywords=[]))]))
    return out


TEMPLATES: dict[tuple[str, str], Template] = {
    ("scheme base", "car"): _path(0),
    ("scheme base", "cdr"): _path(1),
    ("scheme base", "caar"): _path(0, 0),
    ("scheme base", "cadr"): _path(1, 0),
    ("scheme base", "cdar"): _path(0, 1),
    ("scheme base", "cddr"): _path(1, 1),
    ("scheme cxr", "caddr"): _path(1, 1, 0),
    ("scheme cxr", "cdddr"): _path(1, 1, 1),
    ("scheme cxr", "cadddr"): _path(1, 1, 1, 0),
    ("scheme base", "symbol?"): _class_p("h_Symbol"),
    ("scheme base", "string?"): _class_p("h_String"),
    ("scheme base", "vector?"): _class_p("h_Vector"),
    ("scheme base", "procedure?"): _procedure_p,
    ("scheme base", "char?"): _class_p("h_Char"),
    ("scheme base", "bytevector?"): _class_p("h_Bytevector"),
    ("scheme base", "cons"): _cons,
    ("scheme base", "null?"): _is("h_NIL"),
    ("scheme base", "pair?"): _pair_p,
    ("scheme base", "not"): _is_false,
    ("scheme base", "eq?"): _eq,
    ("scheme base", "+"): _binop(ast.Add(), check_first=True),
    ("scheme base", "-"): _binop(ast.Sub(), ast.USub()),
    ("scheme base", "<"): _compare(ast.Lt),
    ("scheme base", ">"): _compare(ast.Gt),
    ("scheme base", "<="): _compare(ast.LtE),
    ("scheme base", ">="): _compare(ast.GtE),
    ("scheme base", "="): _compare(ast.Eq),
    ("scheme base", "zero?"): _zero_p,
    ("scheme base", "vector-ref"): _vector_ref,
    ("scheme base", "vector-length"): _length("h_Vector", "items", "h_vector_length"),
    ("scheme base", "string-length"): _length("h_String", "s", "h_string_length"),
    ("scheme base", "bytevector-length"): _length("h_Bytevector", "b", "h_bytevector_length"),
    # `*` only for floats: Python's `*` repeats a pair (a list) and squares big integers
    # with no size check; the procedure checks both
    ("scheme base", "*"): _mul,
    ("scheme base", "quotient"): _division(ast.FloorDiv(), "h_quotient"),
    ("scheme base", "remainder"): _division(ast.Mod(), "h_remainder"),
    ("scheme base", "modulo"): _division(ast.Mod(), "h_modulo", any_sign=True),
}

#: primitives written as statements where their value is not used
EFFECT_TEMPLATES: dict[tuple[str, str], Callable] = {
    ("scheme base", "vector-set!"): _vector_set,
}

#: operator names that the error translator reports for inlined primitives
INLINE_NAMES = {name for _, name in TEMPLATES}


def build_inline_table(libraries: dict) -> dict[int, tuple[object, Template]]:
    """id(procedure) -> (procedure, template) for the registered primitives."""
    table = _table(libraries, TEMPLATES)
    table[id(rt.cons)] = (rt.cons, _cons)
    table[id(rt.eq)] = (rt.eq, _eq)
    return table


def build_effect_table(libraries: dict) -> dict[int, tuple[object, Callable]]:
    """id(procedure) -> (procedure, statement template) (EFFECT_TEMPLATES)."""
    return _table(libraries, EFFECT_TEMPLATES)


def _table(libraries: dict, templates: dict) -> dict[int, tuple[object, Callable]]:
    table: dict[int, tuple[object, Callable]] = {}
    for (lib, name), template in templates.items():
        proc = libraries.get(tuple(lib.split()), {}).get(name)
        if proc is not None:
            table[id(proc)] = (proc, template)
    return table
