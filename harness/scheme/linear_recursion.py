"""Linear self-recursion compiled to a loop with an explicit stack.

A global procedure that calls itself other than in tail position at most once on any path
through its body (once in all, or once in each of several branches, as ``merge`` does;
tail self calls besides are fine), and otherwise does only work that cannot run Scheme
code (inlined primitives, calls of the primitives in ``LEAF_PRIMITIVES``), is compiled as
one Python function with a loop. Going down, each level keeps on a Python list what its
pending work needs (the operands Python evaluates before the self call, the variables the
rest reads) and loops with the new arguments; at a base case the levels are popped and
their pending work done, each with its variables restored::

    (define (sum l) (if (null? l) 0 (+ (car l) (sum (cdr l)))))

    def s_sum(v0_l):
        w_pending = []
        w_levels = 0
        w_bound = 0 if h_twin_1_s_sum is not w_me_s_sum else FIRST_DEPTH_CHECK
        while True:
            if v0_l is h_NIL:
                w_value = 0                  # a base case: the value to go up with
                break
            t1 = +(t0 := v0_l[0])            # evaluated before the self call, as before
            <budget check>
            w_pending.append(t1)
            w_levels += 1
            if w_levels > w_bound:
                w_bound = h_linear_room(w_levels)  # the recursion depth limit
                if h_twin_1_s_sum is not w_me_s_sum:  # the name holds another value
                    w_value = h_twin_1_s_sum(v0_l[1])
                    break
            v0_l = v0_l[1]                   # the self call's arguments
            continue
        while w_pending:
            t1 = w_pending.pop()
            w_value = t1 + w_value           # the pending operation: same code, same place
        return w_value

With several such self calls each level also pushes the number of its call, and the way up
dispatches on it; a self call whose value a ``let`` binds leaves the rest of the body
(``let`` body, ``if`` branches) as the level's work on the way up.

A level costs a list slot per value kept instead of a Python frame (~130 bytes). What a
program sees does not change:

* the code of each part is the compiler's own (the same inlined primitives, checks and
  source positions), only split at the self call: what Python evaluates before the call
  runs going down, the rest on the way up, so a wrong type found deep in the recursion
  is the same error at the same place, found at the same level;
* each level passes the budget check the procedure's entry would (one step per level);
* the depth is bounded as Python bounds a recursion of frames: once the recursion is
  ``FIRST_DEPTH_CHECK`` levels deep ``depth_room`` reads the interpreter's recursion depth
  and raises Python's own RecursionError ("recursion too deep") at the level where the
  next frame would have passed the recursion limit;
* the self call goes to the name's current value: the procedure is also stored in the
  first twin's global (``names.twin_name``), which a later ``define``, ``set!`` or
  ``Environment.define`` of the name replaces (compiler.py); if it holds another value,
  that value is called for the rest of the recursion. Without a call of a primitive on
  the way down nothing in the loop can change it, so it is looked at on entry (the depth
  check then comes at the first level) and with the depth; otherwise at every level;
* no Scheme code runs inside the loop, so no continuation can be captured there (the
  calls it makes are not resumable sites); a primitive's global that a program rebinds
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
VALUE, PENDING, LEVELS, BOUND, TAG = "w_value", "w_pending", "w_levels", "w_bound", "w_tag"
#: the global of ``depth_room`` in compiled code
ROOM = "h_linear_room"
#: levels a recursion goes down before its frame depth is counted (a count walks every
#: frame under it: this many levels make its cost negligible)
FIRST_DEPTH_CHECK = 1000

#: primitives that never call a procedure, capture a continuation or do I/O, and charge
#: the budget for big walks themselves: the only calls a loop may make (by library and
#: name, so a procedure a program defines under one of these names is not one)
LEAF_PRIMITIVES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("scheme base", (
        "+", "-", "*", "/", "=", "<", ">", "<=", ">=", "abs", "quotient", "remainder",
        "modulo", "floor-quotient", "floor-remainder", "truncate-quotient",
        "truncate-remainder", "min", "max", "gcd", "lcm", "square", "expt", "exact",
        "inexact", "exact->inexact", "inexact->exact", "floor", "ceiling", "round",
        "truncate", "numerator", "denominator", "exact-integer-sqrt", "number?", "real?",
        "rational?", "integer?", "exact?", "inexact?", "exact-integer?", "zero?",
        "positive?", "negative?", "odd?", "even?", "number->string", "string->number",
        "car", "cdr", "caar", "cadr", "cdar", "cddr", "cons", "list", "make-list", "length",
        "append", "reverse", "list-tail", "list-ref", "list-copy", "memq", "memv", "member",
        "assq", "assv", "assoc", "null?", "pair?", "list?", "not", "boolean?", "boolean=?",
        "eq?", "eqv?", "equal?", "symbol?", "symbol=?", "string?", "char?", "vector?",
        "procedure?", "string-length", "string-ref", "substring", "string-append",
        "string-copy", "string", "make-string", "string->list", "list->string",
        "string->symbol", "symbol->string", "string=?", "string<?", "string>?",
        "string<=?", "string>=?", "char=?", "char<?", "char>?", "char<=?", "char>=?",
        "char->integer", "integer->char", "vector", "make-vector", "vector-ref",
        "vector-length", "vector->list", "list->vector", "bytevector-u8-ref",
        "bytevector-length", "set-car!", "set-cdr!", "vector-set!", "vector-fill!",
        "string-set!", "list-set!")),
    ("scheme cxr", ("caddr", "cdddr", "cadddr")),
    ("scheme char", ("char-upcase", "char-downcase", "char-alphabetic?", "char-numeric?",
                     "char-whitespace?", "char-upper-case?", "char-lower-case?",
                     "digit-value", "string-upcase", "string-downcase", "char-ci=?",
                     "string-ci=?")),
    ("scheme inexact", ("sqrt", "exp", "log", "sin", "cos", "tan", "atan", "nan?",
                        "infinite?", "finite?")),
)
#: leaf primitives that call a procedure when given more arguments than this (a third
#: argument of ``member`` or ``assoc`` is the equivalence they call)
LEAF_MAX_ARGUMENTS = {"member": 2, "assoc": 2}

_leaf_arities: dict[int, int | None] | None = None


def is_leaf_primitive(proc: object, nargs: int) -> bool:
    """Whether a call of ``proc`` with ``nargs`` arguments is a call a loop may make: of
    one of ``LEAF_PRIMITIVES``, within ``LEAF_MAX_ARGUMENTS``."""
    global _leaf_arities
    if _leaf_arities is None:
        from harness.scheme.primitives import load_all
        libraries = load_all()
        arities: dict[int, int | None] = {}
        for lib, names in LEAF_PRIMITIVES:
            table = libraries.get(tuple(lib.split()), {})
            for n in names:
                if n in table:
                    arities[id(table[n])] = LEAF_MAX_ARGUMENTS.get(n)
        _leaf_arities = arities
    if id(proc) not in _leaf_arities:
        return False
    most = _leaf_arities[id(proc)]
    return most is None or nargs <= most


# -- which procedures ------------------------------------------------------------------------


class _NotLinear(Exception):
    """The procedure does not have the shape a loop needs."""


#: most self calls (other than in tail position) a loop handles, one per path of the body
MAX_PENDING_KINDS = 8


def is_candidate(lam: Lambda, is_self: Callable[[Node], bool],
                 is_primitive: Callable[[Node], bool]) -> bool:
    """Whether ``lam`` (a global procedure's) may be a linear recursion: fixed parameters
    that no ``set!`` assigns, at least one self call other than in tail position and at
    most one on any path through the body (so not a tree recursion), no inner procedure
    (which could keep a level's variables) and no call of anything but itself and what
    ``is_primitive`` (given a call's operator) says is a primitive. Which primitives it
    calls is checked on the compiled code (``loop_body``)."""
    if lam.rest is not None or any(v.assigned for v in lam.params):
        return False
    counts = [0, 0]  # [self calls other than in tail position, of which on one path]
    try:
        counts[1] = _self_calls(lam.body, True, (is_self, is_primitive), counts)
    except _NotLinear:
        return False
    return 1 <= counts[0] <= MAX_PENDING_KINDS and counts[1] == 1


def _self_calls(node: Node, tail: bool, tests: tuple, counts: list[int]) -> int:
    """The most self calls other than in tail position one evaluation of ``node`` makes
    (``counts[0]`` adds up all of them); raises _NotLinear at an inner procedure or a call
    of something else than itself or a primitive (``tests``: is_candidate's two)."""
    cls = node.__class__
    if cls is Call:
        n = 0
        if tests[0](node.fn):
            if not tail:
                n = 1
                counts[0] += 1
        elif not tests[1](node.fn):
            raise _NotLinear
        return n + sum(_self_calls(x, False, tests, counts) for x in (node.fn, *node.args))
    if cls is If:
        return _self_calls(node.test, False, tests, counts) + max(
            _self_calls(node.then, tail, tests, counts),
            _self_calls(node.else_, tail, tests, counts))
    if cls is Seq:
        return sum(_self_calls(x, tail and i == len(node.body) - 1, tests, counts)
                   for i, x in enumerate(node.body))
    if cls is Let:
        return sum(_self_calls(x, False, tests, counts) for x in node.inits) + \
            _self_calls(node.body, tail, tests, counts)
    if cls is SetLocal or cls is SetGlobal:
        return _self_calls(node.value, False, tests, counts)
    if cls is Lambda:
        raise _NotLinear
    return 0


# -- the loop ---------------------------------------------------------------------------------


def loop_body(body: list[ast.stmt], params: list[str], *, tmp: Callable[[], str],
              is_leaf_call: Callable[[ast.Call], bool], place_check: Callable,
              twin: str, me: str) -> list[ast.stmt] | None:
    """The statements of the loop function for ``body`` (the compiled tail-position body
    of a candidate whose non-tail self calls are calls of ``SELF_CALL``; its tail self calls
    assign ``params`` and ``continue``), or None if it cannot be one: a call that may run
    Scheme code (``is_leaf_call`` says which calls of primitives may stay), or a self call
    whose pending work Python does not do strictly before and after it.
    ``place_check(stmts)`` adds the budget check to one level's statements; ``twin`` is the
    global that holds the name's current value, ``me`` the cell that holds the procedure."""
    try:
        holes, leaf_calls = _check_calls(body, is_leaf_call)
        level = _Level(params, tmp, twin, me, holes, _stored_names(body) | set(params))
        level.leaf_calls = leaf_calls
        down = level.rewrite(body)
        if len(level.pending) != len(holes):
            raise _NotLinear  # a self call not on a path of its own
    except _NotLinear:
        return None
    pending = level.pending
    pushes = any(p.keeps for p in pending) or len(pending) > 1
    bound: ast.expr = _const(FIRST_DEPTH_CHECK)
    if not all(p.each_level for p in pending):
        bound = ast.IfExp(test=_redefined(twin, me), body=_const(0), orelse=bound)
    out: list[ast.stmt] = []
    if pushes:
        out.append(_assign(PENDING, ast.List(elts=[], ctx=ast.Load())))
    out += [_assign(LEVELS, _const(0)), _assign(BOUND, bound),
            ast.While(test=_const(True), body=place_check(down), orelse=[])]
    # on the way up: each level's variables restored, its pending work done
    if pushes:
        test: ast.expr = _name(PENDING)
        up: list[ast.stmt] = []
    else:
        test = _name(LEVELS)
        up = [ast.AugAssign(target=_name(LEVELS, ast.Store()), op=ast.Sub(), value=_const(1))]
    if len(pending) == 1:
        up += pending[0].unwind()
    else:
        up.append(_assign(TAG, _call(_attr(PENDING, "pop"), [])))
        chain: list[ast.stmt] = []
        for p in reversed(pending):
            chain = [ast.If(test=ast.Compare(left=_name(TAG), ops=[ast.Eq()],
                                             comparators=[_const(p.tag)]),
                            body=p.unwind(), orelse=chain)]
        up += chain
    out += [ast.While(test=test, body=up, orelse=[]), ast.Return(value=_name(VALUE))]
    return out


def _check_calls(body: list[ast.stmt], is_leaf_call: Callable[[ast.Call], bool]
                 ) -> tuple[list[ast.Call], list[ast.Call]]:
    """The self calls of ``body`` and its calls of primitives: every call that is a site
    must be a leaf call (it stops being a site: a frame of the loop cannot be resumed) and
    the statements must be those of straight tail-position code."""
    holes, leaf_calls = [], []
    for stmt in body:
        for node in ast.walk(stmt):
            cls = node.__class__
            if cls is ast.Call:
                if node.func.__class__ is ast.Name and node.func.id == SELF_CALL:
                    holes.append(node)
                elif "h_site" in node.__dict__:
                    if not is_leaf_call(node):
                        raise _NotLinear
                    del node.h_site
                    leaf_calls.append(node)
            elif isinstance(node, ast.stmt) and cls not in _STATEMENTS:
                raise _NotLinear  # an inner procedure (a function definition), a loop
    if not holes:
        raise _NotLinear
    return holes, leaf_calls


_STATEMENTS = frozenset({ast.Assign, ast.Expr, ast.If, ast.Return, ast.Continue, ast.Pass})


def _stored_names(body: list[ast.stmt]) -> set[str]:
    """The local variables of the compiled body (every name it assigns)."""
    names: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if node.__class__ is ast.Name and node.ctx.__class__ is ast.Store:
                names.add(node.id)
    return names


class _Pending:
    """One self call other than in tail position: the work its level does after it."""

    __slots__ = ("after", "each_level", "keeps", "tag")

    def __init__(self, tag: int, after: list[ast.stmt]) -> None:
        self.tag = tag
        self.after = after  # the rest of the body, from the call's value on
        self.keeps: list[str] = []  # the variables it reads, kept per level
        #: whether each level compares the name's value with the procedure (else only
        #: the depth check does)
        self.each_level = True

    def unwind(self) -> list[ast.stmt]:
        """A level's work on the way up: its variables restored, then the rest."""
        return [_assign(name, _call(_attr(PENDING, "pop"), []))
                for name in reversed(self.keeps)] + self.after


class _Level:
    """Rewrites the body into one level of the loop going down, and the work of each
    pending self call on the way up."""

    def __init__(self, params: list[str], tmp: Callable[[], str], twin: str, me: str,
                 holes: list[ast.Call], locals_: set[str]) -> None:
        self.params, self.tmp, self.twin, self.me = params, tmp, twin, me
        self.holes = holes
        self.locals = locals_
        self.pending: list[_Pending] = []
        self.leaf_calls: list[ast.Call] = []

    def hole_in(self, node: ast.AST) -> ast.Call | None:
        for n in ast.walk(node):
            if n.__class__ is ast.Call and any(n is h for h in self.holes):
                return n
        return None

    def rewrite(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, stmt in enumerate(stmts):
            cls = stmt.__class__
            hole = self.hole_in(stmt)
            if cls is ast.If:
                if hole is not None and (i < len(stmts) - 1 or self.hole_in(stmt.test)):
                    # an `if` whose value the statements after it use (not a tail-position
                    # one): its branches do not end the level
                    raise _NotLinear
                stmt.body = self.rewrite(stmt.body)
                stmt.orelse = self.rewrite(stmt.orelse)
                out.append(stmt)
            elif hole is not None:
                return out + self.descend(stmt, hole, stmts[i + 1:])
            elif cls is ast.Return:  # a base case: the value to start the way up with
                out += [ast.copy_location(_assign(VALUE, stmt.value), stmt), ast.Break()]
            else:
                out.append(stmt)
        return out

    def descend(self, stmt: ast.stmt, hole: ast.Call, rest: list[ast.stmt]) -> list[ast.stmt]:
        """What replaces ``stmt`` and the statements after it (``rest``) on the path of the
        self call ``hole``: the operands Python evaluates before the call, kept; the
        call's arguments, the new parameters. The rest is the level's pending work."""
        if any(self.hole_in(s) is not None or _loops(s) for s in rest):
            raise _NotLinear  # another self call after this one, or a tail call
        before: list[ast.stmt] = []
        if stmt.__class__ is ast.Return:
            after = [_located(_assign(VALUE, _split(stmt.value, hole, before, self.tmp, stmt)),
                              stmt)]
        elif stmt.__class__ is ast.Assign or stmt.__class__ is ast.Expr:
            stmt.value = _split(stmt.value, hole, before, self.tmp, stmt)
            after = [stmt] + _returns_to_value(rest)
        else:
            raise _NotLinear
        p = _Pending(len(self.pending), after)
        self.pending.append(p)
        stored = {n.id for s in after for n in ast.walk(s)
                  if n.__class__ is ast.Name and n.ctx.__class__ is ast.Store}
        hoisted = {s.targets[0].id for s in before}
        for s in after:
            for n in ast.walk(s):
                if (n.__class__ is ast.Name and n.ctx.__class__ is ast.Load
                        and n.id not in stored and (n.id in self.locals or n.id in hoisted)
                        and n.id not in p.keeps):
                    p.keeps.append(n.id)
        args = hole.args
        if len(args) != len(self.params):
            raise _NotLinear  # an arity error: the plain call reports it
        out: list[ast.stmt] = [_expr(_call(_attr(PENDING, "append"), [_name(k)]))
                               for k in p.keeps]
        if len(self.holes) > 1:
            out.append(_expr(_call(_attr(PENDING, "append"), [_const(p.tag)])))
        out.append(ast.AugAssign(target=_name(LEVELS, ast.Store()), op=ast.Add(),
                                 value=_const(1)))
        deeper = ast.If(
            test=ast.Compare(left=_name(LEVELS), ops=[ast.Gt()], comparators=[_name(BOUND)]),
            body=[_assign(BOUND, _call(_name(ROOM), [_name(LEVELS)]))], orelse=[])
        out.append(deeper)
        # the name holds another procedure: it does the rest of the recursion
        other = _call(_name(self.twin), [_clone(a) for a in args])
        redefined = ast.If(test=_redefined(self.twin, self.me),
                           body=[_assign(VALUE, other), ast.Break()], orelse=[])
        # With no call of a primitive on the way down (which a program could have rebound
        # to a procedure), nothing in the loop can redefine the name: the depth check
        # compares it, and the depth's bound starts at 0 if it is redefined at entry.
        in_after = {id(n) for s in after for n in ast.walk(s)}
        p.each_level = any(id(c) not in in_after for c in self.leaf_calls)
        (out if p.each_level else deeper.body).append(redefined)
        if len(self.params) == 1:
            out.append(_assign(self.params[0], args[0]))
        elif self.params:
            out.append(ast.Assign(
                targets=[ast.Tuple(elts=[_name(n, ast.Store()) for n in self.params],
                                   ctx=ast.Store())],
                value=ast.Tuple(elts=list(args), ctx=ast.Load())))
        out.append(ast.Continue())
        return before + [_located(s, hole) for s in out]


def _returns_to_value(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Tail-position statements (every path ends in a return) with each ``return X`` made
    ``w_value = X``: as the rest of a level on the way up, they end the loop's iteration."""
    out: list[ast.stmt] = []
    for stmt in stmts:
        if stmt.__class__ is ast.Return:
            out.append(ast.copy_location(_assign(VALUE, stmt.value), stmt))
        elif stmt.__class__ is ast.If:
            stmt.body = _returns_to_value(stmt.body)
            stmt.orelse = _returns_to_value(stmt.orelse)
            out.append(stmt)
        else:
            out.append(stmt)
    return out


def _loops(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` continues the loop (a tail self call)."""
    return any(n.__class__ is ast.Continue for n in ast.walk(stmt))


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


def _redefined(twin: str, me: str) -> ast.expr:
    """Whether the name's value (``twin``) is no longer the procedure (``me``)."""
    return ast.Compare(left=_name(twin), ops=[ast.IsNot()], comparators=[_name(me)])


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
#: fails only once its next frame would be past the limit: two past on CPython 3.11, one
#: on 3.12 and 3.13, where the depth counts Python frames only (as measured by
#: tests/security/test_linear_recursion_limits.py on each)
_DEPTH_OFFSET = 3 if sys.version_info < (3, 12) else 2


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
