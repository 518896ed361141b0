"""Linear self-recursion compiled to a loop with an explicit stack.

A global procedure whose body calls itself exactly once other than in tail position, and
otherwise does only work that cannot run Scheme code (inlined primitives, calls of the
primitives in ``LEAF_PRIMITIVES``), is compiled as one Python function with a loop: going
down, each level keeps what its pending operation needs (the values evaluated before the
self call, the variables used after it) on a Python list and loops with the new
arguments; at a base case the levels are popped and their pending operations applied::

    (define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))

    def s_sum(v0_l):
        w_pending = []; w_levels = 0; w_bound = FIRST_DEPTH_CHECK
        while True:
            if v0_l is h_NIL:
                w_value = 0
                break
            <budget check>
            t1 = +(t0 := v0_l[0])            # evaluated before the self call, as before
            w_pending.append(t1)
            w_levels += 1
            if w_levels > w_bound:            # the recursion depth limit (depth_room)
                w_bound = h_linear_room(w_levels)
            if h_twin_1_s_sum is not w_me_s_sum:  # the name holds another procedure now
                w_value = h_twin_1_s_sum(v0_l[1])
                break
            v0_l = v0_l[1]
            continue
        while w_pending:
            t1 = w_pending.pop()
            w_value = t1 + w_value           # the pending operation, same code and place
        return w_value

A level costs one list slot per value kept instead of a Python frame (~130 bytes). What
a program sees does not change:

* the code of each part is the compiler's own (the same inlined primitives, checks and
  source positions), only split at the self call: what Python evaluates before the call
  runs going down, the rest on the way up with the level's variables restored, so a wrong
  type found deep in the recursion is the same error at the same place;
* each level passes the budget check the procedure's entry would (one step per level);
* the depth is bounded as Python bounds a recursion of frames: ``depth_room`` counts the
  frames under the loop once the recursion is ``FIRST_DEPTH_CHECK`` levels deep and raises
  Python's own RecursionError ("recursion too deep") at the level where the next frame
  would have passed the recursion limit;
* the self call goes to the name's current value: the procedure is also stored in the
  first twin's global (``names.twin_name``), which a later ``define``, ``set!`` or
  ``Environment.define`` of the name replaces (compiler.py); each level compares it with
  the procedure itself and, if it is another value, calls that value for the rest;
* no Scheme code runs inside the loop, so no continuation can be captured there (the
  calls it makes are not resumable sites); a primitive global that a program rebinds
  later still runs as a plain call, and a continuation captured inside it can escape but
  not be re-entered.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable

from harness.scheme.ast_nodes import Call, If, Lambda, Let, Node, Seq, SetGlobal, SetLocal

#: the function name the compiler gives the self call of a candidate (never run)
SELF_CALL = "w_self_call"
#: the locals of the loop function
VALUE, PENDING, LEVELS, BOUND = "w_value", "w_pending", "w_levels", "w_bound"
#: the global of ``depth_room`` in compiled code
ROOM = "h_linear_room"
#: levels a recursion goes down before its frame depth is counted (a count walks every
#: frame under it: this many levels make its cost negligible)
FIRST_DEPTH_CHECK = 1000

#: primitives that never call a procedure, capture a continuation or do I/O, and charge
#: the budget for big walks themselves: the only calls a loop may make
LEAF_PRIMITIVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("scheme base", (
        "+", "-", "*", "/", "=", "<", ">", "<=", ">=", "abs", "quotient", "remainder",
        "modulo", "min", "max", "gcd", "lcm", "square", "exact", "inexact", "floor",
        "ceiling", "round", "truncate", "number?", "integer?", "exact?", "inexact?",
        "exact-integer?", "zero?", "positive?", "negative?", "odd?", "even?",
        "number->string", "car", "cdr", "caar", "cadr", "cdar", "cddr", "cons", "list",
        "length", "append", "reverse", "list-tail", "list-ref", "list-copy", "memq",
        "memv", "assq", "assv", "null?", "pair?", "list?", "not", "boolean?", "eq?",
        "eqv?", "equal?", "symbol?", "string?", "char?", "vector?", "procedure?",
        "string-length", "string-ref", "substring", "string-append", "string=?",
        "string<?", "char=?", "char<?", "char->integer", "integer->char",
        "symbol->string", "string->symbol", "vector-ref", "vector-length", "vector",
        "make-vector", "make-string", "string", "bytevector-u8-ref", "bytevector-length")),
    ("scheme cxr", ("caddr", "cdddr", "cadddr")),
    ("scheme inexact", ("sqrt", "exp", "log", "sin", "cos", "atan")),
)

_leaf_ids: set[int] | None = None


def is_leaf_primitive(proc: object) -> bool:
    """Whether ``proc`` is one of ``LEAF_PRIMITIVES`` (a call a loop may make)."""
    global _leaf_ids
    if _leaf_ids is None:
        from harness.scheme.primitives import LIBRARIES
        ids = set()
        for lib, names in LEAF_PRIMITIVES:
            table = LIBRARIES.get(tuple(lib.split()), {})
            ids.update(id(table[n]) for n in names if n in table)
        _leaf_ids = ids
    return id(proc) in _leaf_ids


# -- which procedures ------------------------------------------------------------------------


def is_candidate(lam: Lambda, is_self: Callable[[Node], bool]) -> bool:
    """Whether ``lam`` (a global procedure's) may be a linear recursion: fixed parameters
    that no ``set!`` assigns, exactly one self call other than in tail position, and no
    inner procedure (which could keep a level's variables). What it calls is checked on
    the compiled code (``loop_body``)."""
    if lam.rest is not None or any(v.assigned for v in lam.params):
        return False
    nested = 0
    stack: list[tuple[Node, bool]] = [(lam.body, True)]
    while stack:
        node, tail = stack.pop()
        cls = node.__class__
        if cls is Call:
            if is_self(node.fn) and not tail:
                nested += 1
                if nested > 1:
                    return False
            stack.append((node.fn, False))
            stack.extend((a, False) for a in node.args)
        elif cls is If:
            stack += [(node.test, False), (node.then, tail), (node.else_, tail)]
        elif cls is Seq:
            stack.extend((n, False) for n in node.body[:-1])
            stack.append((node.body[-1], tail))
        elif cls is Let:
            stack.extend((i, False) for i in node.inits)
            stack.append((node.body, tail))
        elif cls is SetLocal or cls is SetGlobal:
            stack.append((node.value, False))
        elif cls is Lambda:
            return False
    return nested == 1


# -- the loop ---------------------------------------------------------------------------------


class _NotLinear(Exception):
    """The compiled body does not have the shape a loop needs."""


def loop_body(body: list[ast.stmt], params: list[str], *, tmp: Callable[[], str],
              is_leaf_call: Callable[[ast.Call], bool], place_check: Callable,
              twin: str, me: str) -> list[ast.stmt] | None:
    """The statements of the loop function for ``body`` (the compiled tail-position body
    of a candidate whose non-tail self call is a call of ``SELF_CALL``; its tail self calls
    assign ``params`` and ``continue``), or None if it cannot be one: a call that may run
    Scheme code (``is_leaf_call`` says which calls of primitives may stay), or a self call
    whose pending operation Python does not evaluate strictly before and after it.
    ``place_check(stmts)`` adds the budget check to one level's statements; ``twin`` is the
    global that holds the name's current value, ``me`` the cell that holds the procedure."""
    try:
        hole = _check_calls(body, is_leaf_call)
        level = _Level(params, tmp, twin, me, hole, _stored_names(body) | set(params))
        down = level.rewrite(body)
        if level.after is None:
            raise _NotLinear
    except _NotLinear:
        return None
    keeps = level.keeps
    out: list[ast.stmt] = []
    if keeps:
        out.append(_assign(PENDING, ast.List(elts=[], ctx=ast.Load())))
    out += [_assign(LEVELS, _const(0)), _assign(BOUND, _const(FIRST_DEPTH_CHECK)),
            ast.While(test=_const(True), body=place_check(down), orelse=[])]
    # on the way up: restore the level's variables, apply its pending operation
    up: list[ast.stmt] = [_assign(name, _call(_attr(PENDING, "pop"), []))
                          for name in reversed(keeps)]
    if keeps:
        test: ast.expr = _name(PENDING)
    else:
        test = _name(LEVELS)
        up.append(ast.AugAssign(target=_name(LEVELS, ast.Store()), op=ast.Sub(),
                                value=_const(1)))
    up.append(_located(_assign(VALUE, level.after), level.where))
    out += [ast.While(test=test, body=up, orelse=[]), ast.Return(value=_name(VALUE))]
    return out


def _check_calls(body: list[ast.stmt], is_leaf_call: Callable[[ast.Call], bool]) -> ast.Call:
    """The self call of ``body``; every other call that is a site must be a leaf call (it
    stops being a site: a frame of the loop cannot be resumed) and the statements must be
    those of straight tail-position code."""
    hole = None
    for stmt in body:
        for node in ast.walk(stmt):
            cls = node.__class__
            if cls is ast.Call:
                if node.func.__class__ is ast.Name and node.func.id == SELF_CALL:
                    if hole is not None:
                        raise _NotLinear
                    hole = node
                elif "h_site" in node.__dict__:
                    if not is_leaf_call(node):
                        raise _NotLinear
                    del node.h_site
            elif isinstance(node, ast.stmt) and cls not in _STATEMENTS:
                raise _NotLinear  # an inner procedure (a function definition), a loop
    if hole is None:
        raise _NotLinear
    return hole


_STATEMENTS = frozenset({ast.Assign, ast.Expr, ast.If, ast.Return, ast.Continue, ast.Pass})


def _stored_names(body: list[ast.stmt]) -> set[str]:
    """The local variables of the compiled body (every name it assigns)."""
    names: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if node.__class__ is ast.Name and node.ctx.__class__ is ast.Store:
                names.add(node.id)
    return names


class _Level:
    """Rewrites the body into one level of the loop."""

    def __init__(self, params: list[str], tmp: Callable[[], str], twin: str, me: str,
                 hole: ast.Call, locals_: set[str]) -> None:
        self.params, self.tmp, self.twin, self.me = params, tmp, twin, me
        self.hole = hole
        self.locals = locals_
        self.after: ast.expr | None = None  # the pending operation, with VALUE for the call
        self.where: ast.AST = hole  # the statement it returned from (its position)
        self.keeps: list[str] = []  # the names it reads, kept per level

    def rewrite(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            cls = stmt.__class__
            if cls is ast.If:
                if _contains(stmt.test, self.hole):
                    raise _NotLinear
                stmt.body = self.rewrite(stmt.body)
                stmt.orelse = self.rewrite(stmt.orelse)
                out.append(stmt)
            elif cls is ast.Return:
                if _contains(stmt.value, self.hole):
                    out += self.descend(stmt)
                else:  # a base case: the value to start the way up with
                    out += [ast.copy_location(_assign(VALUE, stmt.value), stmt), ast.Break()]
            elif _contains(stmt, self.hole):
                raise _NotLinear  # the self call's value goes into a statement
            else:
                out.append(stmt)
        return out

    def descend(self, ret: ast.Return) -> list[ast.stmt]:
        """What replaces ``ret`` (the path with the self call): the operands Python
        evaluates before the call, kept; the call's arguments, the new parameters."""
        before: list[ast.stmt] = []
        self.after = _split(ret.value, self.hole, before, self.tmp, ret)
        self.where = ret
        stored = {n.id for n in ast.walk(self.after)
                  if n.__class__ is ast.Name and n.ctx.__class__ is ast.Store}
        hoisted = {s.targets[0].id for s in before}
        keeps = []
        for n in ast.walk(self.after):
            if (n.__class__ is ast.Name and n.ctx.__class__ is ast.Load and n.id not in stored
                    and (n.id in self.locals or n.id in hoisted) and n.id not in keeps):
                keeps.append(n.id)
        self.keeps = keeps
        hole = self.hole
        args = hole.args
        if len(args) != len(self.params):
            raise _NotLinear  # an arity error: the plain call reports it
        out = [_expr(_call(_attr(PENDING, "append"), [_name(k)])) for k in keeps]
        out.append(ast.AugAssign(target=_name(LEVELS, ast.Store()), op=ast.Add(),
                                 value=_const(1)))
        out.append(ast.If(
            test=ast.Compare(left=_name(LEVELS), ops=[ast.Gt()], comparators=[_name(BOUND)]),
            body=[_assign(BOUND, _call(_name(ROOM), [_name(LEVELS)]))], orelse=[]))
        # the name holds another procedure: it does the rest of the recursion
        other = _call(_name(self.twin), [_clone(a) for a in args])
        out.append(ast.If(
            test=ast.Compare(left=_name(self.twin), ops=[ast.IsNot()],
                             comparators=[_name(self.me)]),
            body=[_assign(VALUE, other), ast.Break()], orelse=[]))
        if len(self.params) == 1:
            out.append(_assign(self.params[0], args[0]))
        elif self.params:
            out.append(ast.Assign(
                targets=[ast.Tuple(elts=[_name(p, ast.Store()) for p in self.params],
                                   ctx=ast.Store())],
                value=ast.Tuple(elts=list(args), ctx=ast.Load())))
        out.append(ast.Continue())
        return before + [_located(s, hole) for s in out]


def _split(e: ast.expr, hole: ast.Call, before: list[ast.stmt], tmp, where: ast.AST
           ) -> ast.expr:
    """``e`` with ``hole`` replaced by VALUE and every operand Python evaluates before
    ``hole`` (but constants and names) moved into a temporary assigned in ``before``, at
    the source position it had (its own, else that of the nearest node around it, from
    ``where`` down, as compiler._locate_all gives it)."""
    if e is hole:
        return _name(VALUE)
    if "lineno" in e.__dict__:
        where = e
    for parent, field, index in _evaluation_order(e):
        child = getattr(parent, field) if index is None else getattr(parent, field)[index]
        if _contains(child, hole):
            new = _split(child, hole, before, tmp, where)
            if index is None:
                setattr(parent, field, new)
            else:
                getattr(parent, field)[index] = new
            return e
        if child.__class__ is ast.Constant or child.__class__ is ast.Name:
            continue  # a name's value is restored on the way up (or a global, read again)
        at = child if "lineno" in child.__dict__ else where
        if child.__class__ is ast.NamedExpr:
            name = child.target.id
            before.append(_located(_assign(name, child.value), at))
        else:
            name = tmp()
            before.append(_located(_assign(name, child), at))
        kept = _name(name)
        if index is None:
            setattr(parent, field, kept)
        else:
            getattr(parent, field)[index] = kept
    raise _NotLinear


def _evaluation_order(e: ast.expr) -> list[tuple[ast.expr, str, int | None]]:
    """The operands of ``e`` in the order Python evaluates them, as far as it evaluates
    each one always, before the expression's own operation."""
    cls = e.__class__
    if cls is ast.BinOp:
        return [(e, "left", None), (e, "right", None)]
    if cls is ast.UnaryOp or cls is ast.Attribute or cls is ast.NamedExpr:
        return [(e, "operand" if cls is ast.UnaryOp else "value", None)]
    if cls is ast.Call and not e.keywords:
        return [(e, "func", None)] + [(e, "args", i) for i in range(len(e.args))]
    if cls is ast.List or cls is ast.Tuple:
        return [(e, "elts", i) for i in range(len(e.elts))]
    if cls is ast.Subscript:
        return [(e, "value", None), (e, "slice", None)]
    if cls is ast.Compare:  # a chain evaluates its later operands only if the first holds
        return [(e, "left", None), (e, "comparators", 0)]
    if cls is ast.IfExp:  # only the test is always evaluated
        return [(e, "test", None)]
    if cls is ast.BoolOp:
        return [(e, "values", 0)]
    return []


def _contains(node: ast.AST, target: ast.AST) -> bool:
    return any(n is target for n in ast.walk(node))


def depth_room(levels: int) -> int:
    """(``h_linear_room``) The levels a loop called from the calling frame may go down: as
    many as the frames a recursion could still add under Python's recursion limit. Raises
    Python's RecursionError if ``levels`` is more."""
    room = sys.getrecursionlimit() - _depth() + _DEPTH_OFFSET
    if levels > room:
        raise RecursionError("maximum recursion depth exceeded")
    return room


_DEPTH_MESSAGE = re.compile(r"at the recursion depth (\d+)")
#: depth_room's and _depth's frames are not the recursion's, and a recursion of frames
#: fails only once its next frame would be two past the limit (CPython 3.11, as measured by
#: tests/security/test_linear_recursion_limits.py)
_DEPTH_OFFSET = 3


def _depth() -> int:
    """The recursion depth here as CPython counts it against the limit (frames, and the
    C-level calls it counts too): setting a limit below it fails and says what it is."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(1)
    except RecursionError as exc:
        m = _DEPTH_MESSAGE.search(str(exc))
        if m:
            return int(m[1])
    else:  # (a Python that allows it)
        sys.setrecursionlimit(limit)
    frame, depth = sys._getframe(), 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


# -- building Python code ----------------------------------------------------------------------


def _name(id_: str, ctx: ast.expr_context | None = None) -> ast.Name:
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _const(value: object) -> ast.Constant:
    return ast.Constant(value=value)


def _attr(name: str, attr: str) -> ast.Attribute:
    return ast.Attribute(value=_name(name), attr=attr, ctx=ast.Load())


def _call(func: ast.expr, args: list[ast.expr]) -> ast.Call:
    return ast.Call(func=func, args=args, keywords=[])


def _expr(e: ast.expr) -> ast.Expr:
    return ast.Expr(value=e)


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(name, ast.Store())], value=value)


def _clone(e: ast.expr) -> ast.expr:
    """A copy of ``e`` (a node must not appear twice: positions are set per node)."""
    import copy
    return copy.deepcopy(e)


def _located(stmt: ast.stmt, at: ast.AST) -> ast.stmt:
    """``stmt`` at ``at``'s source position (without a site: end = start, see sites.py);
    its unlocated parts inherit it (compiler._locate_all)."""
    if "lineno" in at.__dict__:
        stmt.lineno = stmt.end_lineno = at.lineno
        stmt.col_offset = stmt.end_col_offset = at.col_offset
    return stmt
