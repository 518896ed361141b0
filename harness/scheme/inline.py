"""Primitives the compiler writes as Python operators instead of calls.

Each template takes the compiled argument expressions and returns a Python expression, or
None when that argument count is not inlined (the call then goes to the procedure).
"""

from __future__ import annotations

import ast
import copy as copy_module
from collections.abc import Callable

Template = Callable[[list[ast.expr]], "ast.expr | None"]


def _sub(e: ast.expr, i: int) -> ast.expr:
    return ast.Subscript(value=e, slice=ast.Constant(i), ctx=ast.Load())


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
    cls = ast.Attribute(value=a[0], attr="__class__", ctx=ast.Load())
    return ast.Compare(left=cls, ops=[ast.Is()], comparators=[ast.Name(id="h_list",
                                                                        ctx=ast.Load())])


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
    if _is_number_literal(e):
        return e
    return ast.UnaryOp(op=ast.UAdd(), operand=e)


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
    ``(= x 5)`` of a non-number answers #f instead of failing (README: Known deviations).
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
            operands = [_number(a[0]), a[1]]  # a number against a non-number fails
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


def _vector_ref(a):
    """``v.items[k]`` when ``v`` is a vector and ``k`` an index in range, else the
    procedure (which reports the error): a vector loop without a call per element."""
    if len(a) != 2 or not all(map(_pure, a)):
        return None
    v, k = a

    def copy(e: ast.expr) -> ast.expr:  # one node per place (positions are set per node)
        return copy_module.deepcopy(e)

    def name(n: str) -> ast.Name:
        return ast.Name(id=n, ctx=ast.Load())

    def items() -> ast.expr:
        return ast.Attribute(value=copy(v), attr="items", ctx=ast.Load())

    def class_is(e: ast.expr, cls: str) -> ast.expr:
        return ast.Compare(left=ast.Attribute(value=copy(e), attr="__class__", ctx=ast.Load()),
                           ops=[ast.Is()], comparators=[name(cls)])

    in_range = ast.Compare(left=ast.Constant(0), ops=[ast.LtE(), ast.Lt()],
                           comparators=[copy(k), ast.Call(func=name("h_len"), args=[items()],
                                                          keywords=[])])
    test = ast.BoolOp(op=ast.And(), values=[class_is(v, "h_Vector"), class_is(k, "h_int"),
                                             in_range])
    return ast.IfExp(test=test,
                     body=ast.Subscript(value=items(), slice=copy(k), ctx=ast.Load()),
                     orelse=ast.Call(func=name("h_vector_ref"), args=[copy(v), copy(k)],
                                     keywords=[]))


def _vector_length(a):
    """``len(v.items)`` when ``v`` is a vector, else the procedure (which reports it)."""
    if len(a) != 1 or not _pure(a[0]):
        return None
    v = a[0]
    test = ast.Compare(left=ast.Attribute(value=copy_module.deepcopy(v), attr="__class__",
                                          ctx=ast.Load()),
                       ops=[ast.Is()], comparators=[ast.Name(id="h_Vector", ctx=ast.Load())])
    items = ast.Attribute(value=copy_module.deepcopy(v), attr="items", ctx=ast.Load())
    return ast.IfExp(test=test,
                     body=ast.Call(func=ast.Name(id="h_len", ctx=ast.Load()), args=[items],
                                   keywords=[]),
                     orelse=ast.Call(func=ast.Name(id="h_vector_length", ctx=ast.Load()),
                                     args=[copy_module.deepcopy(v)], keywords=[]))


TEMPLATES: dict[tuple[str, str], Template] = {
    ("scheme base", "car"): _path(0),
    ("scheme base", "cdr"): _path(1),
    ("scheme base", "caar"): _path(0, 0),
    ("scheme base", "cadr"): _path(1, 0),
    ("scheme base", "cdar"): _path(0, 1),
    ("scheme base", "cddr"): _path(1, 1),
    ("scheme cxr", "caddr"): _path(1, 1, 0),
    ("scheme cxr", "cdddr"): _path(1, 1, 1),
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
    ("scheme base", "vector-length"): _vector_length,
}

# `*` is not inlined: Python's `*` repeats a pair (a list) and squares big integers with
# no size check; the primitive checks both.

#: operator names that the error translator reports for inlined primitives
INLINE_NAMES = {name for _, name in TEMPLATES}


def build_inline_table(libraries: dict) -> dict[int, tuple[object, Template]]:
    """id(procedure) -> (procedure, template) for the registered primitives."""
    from harness.scheme import runtime as rt
    table: dict[int, tuple[object, Template]] = {}
    for (lib, name), template in TEMPLATES.items():
        proc = libraries.get(tuple(lib.split()), {}).get(name)
        if proc is not None:
            table[id(proc)] = (proc, template)
    table[id(rt.cons)] = (rt.cons, _cons)
    table[id(rt.eq)] = (rt.eq, _eq)
    return table
