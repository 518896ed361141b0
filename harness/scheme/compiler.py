"""The compiler: core AST nodes -> a Python ``ast.Module`` -> a code object.

Shape of the generated code for one top-level form::

    def h_make(k0, k1, ...):          # constants arrive as closure cells
        def h_top():
            global s_fib               # Scheme globals are the module globals (``s_`` names)
            def s_fib(v1_n):
                <budget check>
                return v1_n if v1_n < 2 else s_fib(v1_n - 1) + s_fib(v1_n - 2)
            return None
        return h_top

* Scheme procedures are Python functions; local variables are Python locals/cells.
* A self tail call of a procedure that owns no captured variable becomes a ``while`` loop.
* A tail call to any other unknown procedure returns a marker ``(proc, args)``: the
  procedure is then compiled as a body (returns markers) plus a public function that runs
  ``h_trampoline`` on them, so such calls take constant stack. A tail call to a procedure
  known at compile time (known_calls.py) goes to its body: a Python call where that cannot
  recurse, else a marker ``(None, body, arg, ...)``; a known procedure only ever
  tail-called, and a continuation ``lambda`` passed where only bodies go, is compiled as
  its body alone.
* A few primitives are inlined as Python operators (``car`` -> ``x[0]``, ``+`` -> ``a + b``);
  Python's own TypeError then signals a wrong argument and translate.py names it.
* The budget check (limits.py) sits at the entry of every procedure path that calls, and in
  every loop iteration (code that counts steps takes those in the loop's ``for``
  statement: ``_counted_loop``). A global procedure that calls itself, never in tail position (a
  tree recursion like ``fib``), is compiled ``limits.TWIN_LEVELS`` times in code that
  checks: the procedure itself, whose self calls go to an unchecked *twin* (global
  ``h_twin_1_s_NAME``), whose self calls go to the next twin, and so on; the last one's
  go back to the global. So one level of the recursion in TWIN_LEVELS pays the check
  (counting that many steps: ``h_step_twin``), and the work between two checks is still
  bounded by the size of the code. A twin is never a Scheme value (it is reached only
  from the body before it); a later ``define`` or ``set!`` of the name (compiled, or
  ``Environment.define``) stores the new value into the first twin's global too, so the
  old procedure's self calls reach it; a name some compiled ``set!`` assigned before its
  definition gets no twins.
* A global procedure that calls itself other than in tail position at most once on any
  path, and otherwise only primitives that cannot run Scheme code (a linear recursion:
  ``length``, ``append``, ``(* n (fact (- n 1)))``), is instead one Python function with
  a loop and an explicit stack (linear_recursion.py), stored in the first twin's global
  too, by the twins' rules.
* Every Python node carries the Scheme line and column, so a traceback position *is* the
  Scheme source position.
* For re-entrant continuations (continuations.py) every frame must be resumable at the
  call it waits in, at no cost to code that never re-enters: each call that may run Scheme
  code is a numbered *site* (sites.py); a variable that ``set!`` assigns lives in a box
  (``v[0]``) so copies of a frame share it; and an operand evaluated before a call in the
  same expression is kept in a temporary unless it can be computed again (a constant, a
  variable, arithmetic on those), since Python's value stack cannot be read back.
"""

from __future__ import annotations

import ast
import itertools
import math
import warnings

from harness.scheme import linear_recursion
from harness.scheme.ast_nodes import (
    Call,
    Const,
    GlobalRef,
    If,
    Lambda,
    Let,
    LocalRef,
    Node,
    Seq,
    SetGlobal,
    SetLocal,
    Var,
)
from harness.scheme.errors import SourcePos, error
from harness.scheme.inline import RUNS_NO_CODE
from harness.scheme.known_calls import analyze as analyze_known_calls
from harness.scheme.limits import TWIN_LEVELS
from harness.scheme.names import SCHEME_CODE_PREFIX, escape, global_name, twin_name
from harness.scheme.sites import CALL, WRAPPER, CompiledUnit, register

#: the docstring of the body function of a procedure that returns tail-call markers
BODY_DOC = "h:body"

Stmts = list[ast.stmt]


def _name(id_: str, ctx=None) -> ast.Name:
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _const(value) -> ast.Constant:
    return ast.Constant(value=value)


def _is_not_false(e: ast.expr) -> ast.expr:
    return ast.Compare(left=e, ops=[ast.IsNot()], comparators=[_const(False)])


class _Function:
    """Code generation state of one Python function."""

    def __init__(self, lam: Lambda | None, parent: _Function | None) -> None:
        self.lam = lam
        self.parent = parent
        self.globals: set[str] = set()
        self.needs_trampoline = False
        self.loop_used = False
        self.loopable = False
        self.param_names: list[str] = []
        self.rest_name: str | None = None
        #: the Python name its non-tail self calls use (the unchecked twin), if not its own
        self.self_call: str | None = None


class Compiler:
    """Compiles one top-level form of environment ``env`` from source ``filename``;
    ``resuming``: a resume procedure (resume.py) made of parts of a form compiled before."""

    def __init__(self, env, filename: str, budget_check: str = "none",
                 resuming: bool = False) -> None:
        self.env = env
        self.filename = filename
        self.budget_check = budget_check  # "none", "flag" or "steps" (see limits.py)
        self.resuming = resuming
        #: the known procedures (known_calls.py) whose binding this form defines
        self.bound_here: set[Var] = set()
        self.constants: list = []
        self._const_index: dict[int, str] = {}
        self._tmp = itertools.count()
        self.inline = env.inline_table()
        self.effect_inline = env.effect_inline_table()
        self.unit: CompiledUnit | None = None
        self.twins: set[str] = set()  # the unchecked twins this form defines

    # -- entry -------------------------------------------------------------------------------
    def compile(self, node: Node):
        """Return (code object, constants) for a top-level node."""
        _analyze(node)
        if not self.resuming:  # (a resume procedure keeps the findings of its form)
            analyze_known_calls(node, self._loops, self._plain_tail_call, _analyze)
        self.unit = CompiledUnit(node, self.env, self.filename, self.budget_check)
        top = _Function(None, None)
        body = self.tail(node, top)
        fn = ast.FunctionDef(name="h_top", args=_arguments([], None), body=self._decls(top) + body,
                             decorator_list=[], returns=None)
        make = ast.FunctionDef(
            name="h_make", args=_arguments([f"k{i}" for i in range(len(self.constants))], None),
            body=[fn, ast.Return(value=_name("h_top"))], decorator_list=[], returns=None)
        module = ast.Module(body=[make], type_ignores=[])
        _locate_all(module, node.pos)
        with warnings.catch_warnings():
            # Generated tests like `x is 1` are deliberate (eq? on immediates).
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile(module, SCHEME_CODE_PREFIX + self.filename, "exec")
        register(code, self.unit)
        return code, self.constants

    # -- helpers ------------------------------------------------------------------------------
    def tmp(self) -> str:
        return f"t{next(self._tmp)}"

    def constant(self, value) -> ast.expr:
        t = type(value)
        if value is None or t is bool or t is int or t is str:
            return _const(value)
        if t is float and math.isfinite(value):
            return _const(value)
        key = id(value)
        name = self._const_index.get(key)
        if name is None:
            name = f"k{len(self.constants)}"
            self.constants.append(value)
            self._const_index[key] = name
        return _name(name)

    def var_name(self, var: Var) -> str:
        return f"v{var.uid}_{escape(var.name)}"

    def at(self, node, pos: SourcePos | None):
        if pos is not None:
            node.lineno = node.end_lineno = pos.line
            node.col_offset = node.end_col_offset = pos.col
        return node

    def site(self, call: ast.Call, kind: str, node: Node | None, fn: _Function) -> ast.Call:
        """Mark ``call`` as a resumable site (its number goes into its position)."""
        call.h_site = self.unit.add_site(kind, node, fn.lam)
        return call

    def spill(self, e: ast.expr, node: Node, stmts: Stmts | None) -> ast.expr:
        """Keep the value of ``e`` (compiled from ``node``) in a temporary: assigned by a
        statement added to ``stmts``, or (``stmts`` None) where it is evaluated, as
        ``(t := e)``, which keeps it on the stack too (cheaper than a store and a load). An
        ``e`` already kept that way (an operand before two later calls) is not kept again."""
        if e.__class__ is ast.NamedExpr:
            if stmts is None:
                return e
            stmts.append(ast.Assign(targets=[_name(e.target.id, ast.Store())], value=e.value))
            return _name(e.target.id)
        t = self.unit.spilled.get(id(node)) or self.tmp()  # twins share their temporaries
        self.unit.spilled[id(node)] = t
        if stmts is None:
            return ast.NamedExpr(target=_name(t, ast.Store()), value=e)
        stmts.append(ast.Assign(targets=[_name(t, ast.Store())], value=e))
        return _name(t)

    def _decls(self, fn: _Function) -> Stmts:
        out: Stmts = []
        if fn.globals:
            out.append(ast.Global(names=sorted(fn.globals)))
        return out

    def _budget(self, twins: bool = False) -> Stmts:
        """The budget check; ``twins``: of a procedure compiled as twins (its check counts
        ``limits.TWIN_LEVELS`` steps)."""
        if self.budget_check == "steps":
            step, refill = ("h_step_twin", "h_refill_twin") if twins else ("h_step", "h_refill")
            return [ast.Try(body=[ast.Expr(ast.Call(func=_name(step), args=[], keywords=[]))],
                            handlers=[ast.ExceptHandler(
                                type=_name("h_IndexError"), name=None,
                                body=[ast.Expr(ast.Call(func=_name(refill), args=[],
                                                        keywords=[]))])],
                            orelse=[], finalbody=[])]
        if self.budget_check == "flag":
            return [ast.If(test=ast.Attribute(value=_name("h_limits"), attr="stop", ctx=ast.Load()),
                           body=[ast.Expr(ast.Call(func=_name("h_interrupt"), args=[],
                                                   keywords=[]))], orelse=[])]
        return []

    # -- statements / expressions -------------------------------------------------------------
    def effect(self, node: Node, fn: _Function) -> Stmts:
        if node.__class__ is Call:
            proc = self.known_procedure(node.fn)
            template = None if proc is None else self.effect_inline.get(id(proc))
            if template is not None and template[0] is proc:
                stmts, args = self._args(node.args, fn)
                inlined = template[1](args, self.tmp)
                if inlined is not None:
                    self.unit.inlined[id(node)] = proc
                    return stmts + [self.at(s, node.pos) for s in inlined]
                stmts, e = self.finish_call(node, fn, stmts, args)
                return stmts + [self.at(ast.Expr(value=e), node.pos)]
        stmts, e = self.expr(node, fn)
        if isinstance(e, (ast.Constant, ast.Name)):
            return stmts
        return stmts + [self.at(ast.Expr(value=e), node.pos)]

    def tail(self, node: Node, fn: _Function) -> Stmts:
        """Statements that compute ``node`` and return it (or continue a loop)."""
        cls = node.__class__
        if cls is If:
            stmts, test = self.test(node.test, fn)
            return stmts + [self.at(ast.If(test=test, body=self.tail(node.then, fn),
                                           orelse=self.tail(node.else_, fn)), node.pos)]
        if cls is Seq:
            out: Stmts = []
            for n in node.body[:-1]:
                out += self.effect(n, fn)
            return out + self.tail(node.body[-1], fn)
        if cls is Let:
            return self.let_bindings(node, fn) + self.tail(node.body, fn)
        if cls is Call and fn.lam is not None:
            return self.tail_call(node, fn)
        stmts, e = self.expr(node, fn)
        return stmts + [self.at(ast.Return(value=e), node.pos)]

    def test(self, node: Node, fn: _Function) -> tuple[Stmts, ast.expr]:
        """A condition: Scheme truth (everything but #f is true)."""
        stmts, e = self.expr(node, fn)
        if _is_boolean_expr(e):
            return stmts, e
        return stmts, _is_not_false(e)

    def expr(self, node: Node, fn: _Function) -> tuple[Stmts, ast.expr]:
        cls = node.__class__
        if cls is Const:
            return [], self.constant(node.value)
        if cls is LocalRef:
            ref = _name(self.var_name(node.var))
            if node.var.assigned:
                ref = _sub0(ref)
            return [], self.at(ref, node.pos)
        if cls is GlobalRef:
            return [], self.at(self.global_ref(node.name, node.env, fn), node.pos)
        if cls is Call:
            return self.call(node, fn)
        if cls is If:
            return self.if_expr(node, fn)
        if cls is Seq:
            out: Stmts = []
            for n in node.body[:-1]:
                out += self.effect(n, fn)
            stmts, e = self.expr(node.body[-1], fn)
            return out + stmts, e
        if cls is Let:
            stmts = self.let_bindings(node, fn)
            body_stmts, e = self.expr(node.body, fn)
            return stmts + body_stmts, e
        if cls is Lambda:
            name = self.tmp() if node.name is None else f"{self.tmp()}_{escape(node.name)}"
            return self.function(node, name, fn), _name(name)
        if cls is SetLocal:
            return self.set_local(node, fn), _const(None)
        if cls is SetGlobal:
            return self.set_global(node, fn), _const(None)
        raise TypeError(f"cannot compile {node!r}")

    def global_ref(self, name: str, env, fn: _Function) -> ast.expr:
        if env is self.env:
            return _name(global_name(name))
        return ast.Subscript(value=self.constant(env.table), slice=_const(global_name(name)),
                             ctx=ast.Load())

    def if_expr(self, node: If, fn: _Function) -> tuple[Stmts, ast.expr]:
        stmts, test = self.test(node.test, fn)
        s1, e1 = self.expr(node.then, fn)
        s2, e2 = self.expr(node.else_, fn)
        if not s1 and not s2:
            return stmts, self.at(ast.IfExp(test=test, body=e1, orelse=e2), node.pos)
        t = self.tmp()
        then = s1 + [ast.Assign(targets=[_name(t, ast.Store())], value=e1)]
        else_ = s2 + [ast.Assign(targets=[_name(t, ast.Store())], value=e2)]
        return stmts + [self.at(ast.If(test=test, body=then, orelse=else_), node.pos)], _name(t)

    def let_bindings(self, node: Let, fn: _Function) -> Stmts:
        out: Stmts = []
        for var, init in zip(node.vars, node.inits):
            name = self.var_name(var)
            if init.__class__ is Lambda:
                if var.known is init:
                    self.bound_here.add(var)
                out += self.function(init, name, fn)
                if var.assigned:
                    out.append(_assign(name, _box(_name(name))))
                continue
            stmts, e = self.expr(init, fn)
            out += stmts
            out.append(self.at(_assign(name, _box(e) if var.assigned else e), init.pos))
        return out

    def set_local(self, node: SetLocal, fn: _Function) -> Stmts:
        # set! marks its variable assigned, so the variable is a box: store into it
        name = self.var_name(node.var)
        if node.value.__class__ is Lambda:
            t = f"{self.tmp()}_{escape(node.var.name)}"
            stmts, e = self.function(node.value, t, fn), _name(t)
        else:
            stmts, e = self.expr(node.value, fn)
        target = ast.Subscript(value=_name(name), slice=_const(0), ctx=ast.Store())
        return stmts + [self.at(ast.Assign(targets=[target], value=e), node.pos)]

    def set_global(self, node: SetGlobal, fn: _Function) -> Stmts:
        py = global_name(node.name)
        # a name that has an unchecked twin (a recursive procedure defined earlier) gets
        # the new value as its twin too, so the old procedure's self calls reach it
        if not node.define:
            node.env.assigned.add(py)
        twin = twin_name(py)
        mirrored = twin in node.env.table or twin in self.twins
        if node.env is not self.env:
            stmts, e = self.expr(node.value, fn)
            table = self.constant(node.env.table)
            targets = [ast.Subscript(value=table, slice=_const(py), ctx=ast.Store())]
            if mirrored:
                targets.append(ast.Subscript(value=self.constant(node.env.table),
                                             slice=_const(twin), ctx=ast.Store()))
            return stmts + [self.at(ast.Assign(targets=targets, value=e), node.pos)]
        fn.globals.add(py)
        if node.value.__class__ is Lambda:
            twins = len(self.twins)
            stmts = self.function(node.value, py, fn)
            if mirrored and len(self.twins) == twins:  # (a new pair sets both names)
                fn.globals.add(twin)
                stmts.append(self.at(_assign(twin, _name(py)), node.pos))
            return stmts
        stmts, e = self.expr(node.value, fn)
        targets = [_name(py, ast.Store())]
        if mirrored:
            fn.globals.add(twin)
            targets.append(_name(twin, ast.Store()))
        return stmts + [self.at(ast.Assign(targets=targets, value=e), node.pos)]

    # -- procedures -----------------------------------------------------------------------------
    def function(self, lam: Lambda, name: str, parent: _Function) -> Stmts:
        """Statements defining the procedure ``lam`` as the Python name ``name``.

        A global procedure that calls itself other than in tail position, in code that
        checks its budget, is compiled as a pair of twins (see the module docstring),
        unless it is a linear recursion, which becomes a loop (linear_recursion.py)."""
        global_procedure = (parent.lam is None and isinstance(lam.self_var, str)
                            and name == global_name(lam.self_var)
                            and name not in self.env.assigned)
        if global_procedure and linear_recursion.is_candidate(
                lam, lambda target: _is_self_ref(target, lam, self.env), self._is_primitive):
            loop = self._linear_loop(lam, name, parent)
            if loop is not None:
                return loop
        if (self.budget_check != "none" and global_procedure
                and _self_calls(lam, self.env) == {"nested"}):
            names = [name] + [twin_name(name, i) for i in range(1, TWIN_LEVELS)]
            parent.globals.update(names[1:])
            self.twins.add(names[1])
            out: Stmts = []
            for i in range(TWIN_LEVELS - 1, 0, -1):  # each defined before its caller
                calls = names[i + 1] if i + 1 < TWIN_LEVELS else None
                out += self._procedure(lam, names[i], parent, calls, checked=False)
            return out + self._procedure(lam, name, parent, names[1], checked=True)
        return self._procedure(lam, name, parent, None, checked=True)

    def _linear_loop(self, lam: Lambda, name: str, parent: _Function) -> Stmts | None:
        """``lam`` as a loop with an explicit stack (linear_recursion.py), stored in the
        global ``name`` and in its first twin's (what its self calls reach), or None if
        its body does not allow one."""
        fn = _Function(lam, parent)
        fn.self_call = linear_recursion.SELF_CALL
        fn.param_names = [self.var_name(v) for v in lam.params]
        fn.loopable = _loopable(lam)
        body = self.tail(lam.body, fn)
        if fn.needs_trampoline:
            return None
        # (the cell's name is this definition's own: a form may define the name twice)
        twin, me = twin_name(name), f"w_me{self.tmp()}_{name}"
        loop = linear_recursion.loop_body(
            body, fn.param_names, tmp=self.tmp, is_leaf_call=self._is_leaf_call,
            place_check=lambda stmts: _place_budget_check(stmts, self._budget),
            twin=twin, me=me)
        if loop is None:
            return None
        parent.globals.add(twin)
        self.twins.add(twin)
        self.unit.add_procedure(name, lam)
        fdef = ast.FunctionDef(name=name, args=_arguments(fn.param_names, None),
                               body=self._decls(fn) + loop, decorator_list=[], returns=None)
        return [self.at(fdef, lam.pos), self.at(_assign(me, _name(name)), lam.pos),
                self.at(_assign(twin, _name(name)), lam.pos)]

    def _is_primitive(self, target: Node) -> bool:
        """Whether the operator ``target`` is bound at compile time to a primitive that
        cannot run Scheme code or is inlined (``_is_leaf_call`` looks at the calls that
        remain, with their arguments)."""
        proc = self.known_procedure(target)
        return proc is not None and (id(proc) in self.inline or id(proc) in self.effect_inline
                                     or linear_recursion.is_leaf_primitive(proc, 0))

    def _is_leaf_call(self, call: ast.Call) -> bool:
        """Whether the site ``call`` calls a primitive that cannot run Scheme code."""
        node = self.unit.sites[call.h_site].node
        proc = None if node is None else self.known_procedure(node.fn)
        return proc is not None and linear_recursion.is_leaf_primitive(proc, len(node.args))

    def _procedure(self, lam: Lambda, name: str, parent: _Function, self_call: str | None,
                   checked: bool) -> Stmts:
        """``function``'s work: ``self_call`` is the name its non-tail self calls use
        instead of the procedure's own; ``checked`` False leaves out the budget check."""
        fn = _Function(lam, parent)
        fn.self_call = self_call
        fn.param_names = [self.var_name(v) for v in lam.params]
        fn.rest_name = self.var_name(lam.rest) if lam.rest is not None else None
        fn.loopable = lam.self_var is not None and _loopable(lam)
        body = self.tail(lam.body, fn)
        if (checked and fn.loop_used and self.budget_check == "steps"
                and "nested" not in _self_calls(lam, self.env)):
            body = _counted_loop(body)
        elif checked:
            twins = self_call is not None
            body = _place_budget_check(body, lambda: self._budget(twins))
        if fn.loop_used:
            body = [ast.While(test=_const(True), body=body, orelse=[])]
        boxes = [] if lam.arrives_boxed else [
            _assign(name, _box(_name(name)))
            for var, name in zip(lam.params, fn.param_names) if var.assigned]
        if fn.rest_name:
            rest_list = ast.Call(func=_name("h_tuple_to_list"), args=[_name(fn.rest_name)],
                                 keywords=[])
            if lam.rest.assigned and not lam.arrives_boxed:
                rest_list = _box(rest_list)
            boxes.append(_assign(fn.rest_name, rest_list))
        body = boxes + body
        args = _arguments(fn.param_names, fn.rest_name)
        if lam.captures:  # taken by value when the procedure is made (known_calls.py)
            names = [self.var_name(v) for v in lam.captures]
            args.args += [ast.arg(arg=n) for n in names]
            args.defaults = [_name(n) for n in names]
        self.unit.add_procedure(name, lam)
        if lam.bounces is not None and lam.bounces != fn.needs_trampoline:
            raise error(f"internal error: {lam.name or 'a lambda'} was expected to "
                        f"{'' if lam.bounces else 'not '}return tail-call markers")
        if not fn.needs_trampoline:
            return [self.at(ast.FunctionDef(name=name, args=args, body=self._decls(fn) + body,
                                            decorator_list=[], returns=None),
                            lam.pos)]
        body_name = name if lam.only_body else f"{name}_b"
        # the docstring marks the code of a body (continuations.py rebuilds its procedure)
        body_def = ast.FunctionDef(name=body_name, args=args,
                                   body=[ast.Expr(_const(BODY_DOC))] + self._decls(fn) + body,
                                   decorator_list=[], returns=None)
        if lam.only_body:  # only the trampoline protocol calls it: no public function
            return [self.at(body_def, lam.pos)]
        call_args = [_name(p) for p in fn.param_names]
        if fn.rest_name:
            # body(a, *rest) would recurse through C: pass all arguments via h_call_n
            all_args = ast.BinOp(left=ast.Tuple(elts=call_args, ctx=ast.Load()), op=ast.Add(),
                                 right=_name(fn.rest_name))
            first_call = ast.Call(func=_name("h_call_n"), args=[_name(body_name), all_args],
                                  keywords=[])
        else:
            first_call = ast.Call(func=_name(body_name), args=call_args, keywords=[])
        self.site(first_call, WRAPPER, None, fn)
        outer_body = [
            ast.Assign(targets=[_name("r", ast.Store())], value=first_call),
            ast.If(test=ast.Compare(left=ast.Attribute(value=_name("r"), attr="__class__",
                                                       ctx=ast.Load()),
                                    ops=[ast.Is()], comparators=[_name("h_tuple")]),
                   body=[ast.Assign(targets=[_name("r", ast.Store())],
                                    value=self.site(ast.Call(func=_name("h_trampoline"),
                                                             args=[_name("r")], keywords=[]),
                                                    WRAPPER, None, fn))],
                   orelse=[]),
            ast.Return(value=_name("r")),
        ]
        outer = ast.FunctionDef(name=name, args=_arguments(fn.param_names, fn.rest_name),
                                body=outer_body, decorator_list=[], returns=None)
        if lam.private:  # its tail calls name the body: nothing looks it up
            return [self.at(body_def, lam.pos), self.at(outer, lam.pos)]
        attach = ast.Assign(targets=[ast.Attribute(value=_name(name), attr="h_body",
                                                   ctx=ast.Store())], value=_name(body_name))
        return [self.at(body_def, lam.pos), self.at(outer, lam.pos), attach]

    # -- calls -----------------------------------------------------------------------------------
    def _args(self, args: list[Node], fn: _Function) -> tuple[Stmts, list[ast.expr]]:
        stmts: Stmts = []
        exprs: list[ast.expr] = []
        for a in args:
            s, e = self.expr(a, fn)
            if exprs and (s or _may_call(e)):
                # Statements: keep left-to-right evaluation, earlier arguments go to
                # temporaries. A call: what waits on the value stack must be recomputable.
                keep = _is_simple if s else _is_recomputable
                for i, prev in enumerate(exprs):
                    if not keep(prev):
                        exprs[i] = self.spill(prev, args[i], stmts if s else None)
            stmts += s
            exprs.append(e)
        return stmts, exprs

    def _loops(self, lam: Lambda, call: Call) -> bool:
        """Whether tail ``call`` in ``lam`` becomes an iteration of a loop (tail_call)."""
        n = len(lam.params)
        return (_is_self_ref(call.fn, lam, self.env) and lam.self_var is not None
                and _loopable(lam)
                and (len(call.args) == n or (lam.rest is not None and len(call.args) >= n)))

    def _plain_tail_call(self, call: Call) -> bool:
        """Whether tail ``call`` is a Python call of a procedure that is not compiled Scheme
        code (a primitive: it returns its value, never a tail-call marker). The one test
        of it for ``tail_call`` and known_calls.py, which must agree."""
        proc = self.known_procedure(call.fn)
        return (proc is not None and not _is_scheme_procedure(proc)
                and not (proc is self.env.apply_procedure and call.args))

    def _body_name(self, var: Var) -> str | None:
        """The Python name of the body of the procedure ``var`` holds, if this code can
        name it: a continuation parameter holds bodies; a known procedure's body is its
        own function, or ``NAME_b`` beside its public one where this form defines it."""
        lam = var.known
        if var.raw or (lam is not None and (not lam.bounces or lam.only_body)):
            return self.var_name(var)
        if lam is not None and var in self.bound_here:
            return f"{self.var_name(var)}_b"
        return None

    def known_procedure(self, node: Node):
        """The procedure a call target is bound to at compile time, if it is a constant or a
        global of this environment that the program does not redefine."""
        if node.__class__ is Const:
            return node.value
        if node.__class__ is GlobalRef and node.env is self.env:
            return self.env.stable_value(node.name)
        return None

    def call(self, node: Call, fn: _Function) -> tuple[Stmts, ast.expr]:
        stmts, args = self._args(node.args, fn)
        proc = self.known_procedure(node.fn)
        if proc is not None:
            template = self.inline.get(id(proc))
            if template is not None and template[0] is proc:
                e = template[1](args)
                if e is not None:
                    self.unit.inlined[id(node)] = proc
                    return stmts, self.at(e, node.pos)
        return self.finish_call(node, fn, stmts, args)

    def finish_call(self, node: Call, fn: _Function, stmts: Stmts,
                    args: list[ast.expr]) -> tuple[Stmts, ast.expr]:
        """The call of ``node`` whose arguments are compiled (``stmts``, ``args``)."""
        if fn.self_call is not None and _is_self_ref(node.fn, fn.lam, self.env):
            fstmts, f = [], self.at(_name(fn.self_call), node.fn.pos)
        else:
            fstmts, f = self.expr(node.fn, fn)
        if fstmts or stmts:
            if not _is_simple(f):
                f = self.spill(f, node.fn, fstmts)
        elif not _is_recomputable(f) and any(map(_may_call, args)):
            f = self.spill(f, node.fn, None)
        call = self.at(ast.Call(func=f, args=args, keywords=[]), node.pos)
        return fstmts + stmts, self.site(call, CALL, node, fn)

    def tail_call(self, node: Call, fn: _Function) -> Stmts:
        lam = fn.lam
        target = node.fn
        is_self = _is_self_ref(target, lam, self.env)
        nparams = len(lam.params)
        if is_self and fn.loopable and (len(node.args) == nparams or (
                lam.rest is not None and len(node.args) >= nparams)):
            stmts, args = self._args(node.args, fn)
            names = list(fn.param_names)
            values = [_box(v) if var.assigned else v for var, v in zip(lam.params, args)]
            if lam.rest is not None:
                names.append(fn.rest_name)
                rest_list = ast.Call(func=_name("h_tuple_to_list"),
                                     args=[ast.Tuple(elts=args[nparams:], ctx=ast.Load())],
                                     keywords=[])
                values.append(_box(rest_list) if lam.rest.assigned else rest_list)
            fn.loop_used = True
            if not names:
                return stmts + [ast.Continue()]
            if len(names) == 1:
                assign = ast.Assign(targets=[_name(names[0], ast.Store())], value=values[0])
            else:
                assign = ast.Assign(
                    targets=[ast.Tuple(elts=[_name(n, ast.Store()) for n in names],
                                       ctx=ast.Store())],
                    value=ast.Tuple(elts=values, ctx=ast.Load()))
            return stmts + [self.at(assign, node.pos), ast.Continue()]
        if self._plain_tail_call(node):
            stmts, e = self.call(node, fn)
            return stmts + [self.at(ast.Return(value=e), node.pos)]
        if node.args and self.known_procedure(target) is self.env.apply_procedure:
            stmts, args = self._args(node.args, fn)
            fn.needs_trampoline = True
            marker = ast.Call(func=_name("h_apply_marker"), args=args, keywords=[])
            return stmts + [self.at(ast.Return(value=marker), node.pos)]
        body = self._body_name(target.var) if target.__class__ is LocalRef else None
        if body is not None:
            return self.known_tail_call(node, fn, body)
        fstmts, f = self.expr(target, fn)
        stmts, args = self._args(node.args, fn)
        if fstmts and stmts:
            f = self.spill(f, target, fstmts)
        elif not _is_recomputable(f) and any(map(_may_call, args)):
            f = self.spill(f, target, None)
        fn.needs_trampoline = True
        marker = ast.Tuple(elts=[f, ast.Tuple(elts=args, ctx=ast.Load())], ctx=ast.Load())
        marker.h_marker = True  # a call made by the trampoline (see _runs_code)
        return fstmts + stmts + [self.at(ast.Return(value=marker), node.pos)]

    def known_tail_call(self, node: Call, fn: _Function, body: str) -> Stmts:
        """A tail call whose callee's body is the Python name ``body``: called directly if
        ``node.direct`` (the frame then passes the body's value or marker on), else a
        marker ``(None, body, arg, ...)`` for the trampoline."""
        stmts, args = self._args(node.args, fn)
        callee = node.fn.var.known
        if node.direct and callee is not None:
            if callee.bounces:
                fn.needs_trampoline = True
            call = self.site(self.at(ast.Call(func=_name(body), args=args, keywords=[]),
                                     node.pos), WRAPPER, None, fn)
            return stmts + [self.at(ast.Return(value=call), node.pos)]
        fn.needs_trampoline = True
        marker = ast.Tuple(elts=[_const(None), _name(body), *args], ctx=ast.Load())
        marker.h_marker = True
        return stmts + [self.at(ast.Return(value=marker), node.pos)]


def _self_calls(lam: Lambda, env) -> set[str]:
    """How ``lam``'s body calls the procedure itself (not counting inner procedures):
    "tail" if in tail position (such a call may become a loop), "nested" if other than in
    tail position, both, or neither (the empty set)."""
    kinds: set[str] = set()
    stack: list[tuple[Node, bool]] = [(lam.body, True)]
    while stack:
        node, tail = stack.pop()
        cls = node.__class__
        if cls is Call:
            if _is_self_ref(node.fn, lam, env):
                kinds.add("tail" if tail else "nested")
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
    return kinds


def _is_self_ref(target: Node, lam: Lambda, env) -> bool:
    """Whether ``target`` names the procedure ``lam`` itself (its name's binding)."""
    return ((target.__class__ is LocalRef and target.var is lam.self_var)
            or (target.__class__ is GlobalRef and target.env is env
                and isinstance(lam.self_var, str) and target.name == lam.self_var))


def _place_budget_check(body: Stmts, make_check) -> Stmts:
    """``body`` with the budget check (``make_check()``: its statements, none for unchecked
    code) on every path that calls or loops, before its first call. A path that does
    neither (the base case of a recursion: constants, variables, inlined operators) does
    bounded work and needs none. Every invocation that makes a call, and every loop
    iteration, still passes a check before it does, so the work done between two checks
    stays bounded by the size of the code."""
    for i, stmt in enumerate(body):
        if not _runs_code(stmt):
            continue
        rest = body[i + 1:]
        if stmt.__class__ is ast.If and not _runs_code(stmt.test) and not any(
                map(_runs_code, rest)):
            stmt.body = _place_budget_check(stmt.body, make_check)
            stmt.orelse = _place_budget_check(stmt.orelse, make_check)
            return body
        return body[:i] + make_check() + body[i:]
    return body


def _counted_loop(body: Stmts) -> Stmts:
    """The body of a loop that counts steps (the statements inside its ``while True``):
    each iteration, the first included, takes one step from the shared iterator of
    ``limits.refill_loop`` in a ``for`` statement, which costs no call (3 ns against the
    8 ns of ``h_step()``; bench/library_loops.py, the lset family: 4-7%); the body's
    ``continue`` is the ``for``'s. When the iterator runs out, ``h_refill_loop()``
    charges the next chunk and the ``while`` starts the ``for`` again. Not for a
    procedure that also calls itself other than in tail position (``tak``): most of its
    calls end at once, in a base case that counts no step (``_place_budget_check``),
    where starting a ``for`` made bench/interpreter.py's tak 1.2x slower."""
    steps = ast.Attribute(value=_name("h_limits"), attr="loop_steps", ctx=ast.Load())
    return [ast.For(target=_name("h_", ast.Store()), iter=steps, body=body, orelse=[]),
            ast.Expr(ast.Call(func=_name("h_refill_loop"), args=[], keywords=[]))]


def _runs_code(node: ast.AST) -> bool:
    """Whether executing ``node`` may call a procedure or start a loop iteration: a call, a
    tail-call marker (the trampoline calls it), ``continue`` or a loop. The body of a
    nested function definition runs only when that function is called."""
    stack = [node]
    while stack:
        x = stack.pop()
        cls = x.__class__
        if cls is ast.Call:
            if not (x.func.__class__ is ast.Name and x.func.id in RUNS_NO_CODE):
                return True
        elif cls is ast.Continue or cls is ast.While:
            return True
        if cls is ast.Tuple and getattr(x, "h_marker", False):
            return True
        if cls is ast.FunctionDef:
            continue  # defining a closure runs nothing (no decorators, no defaults)
        stack.extend(ast.iter_child_nodes(x))
    return False


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(name, ast.Store())], value=value)


def _box(e: ast.expr) -> ast.expr:
    return ast.List(elts=[e], ctx=ast.Load())


def _sub0(e: ast.expr) -> ast.expr:
    return ast.Subscript(value=e, slice=_const(0), ctx=ast.Load())


def _is_simple(e: ast.expr) -> bool:
    return isinstance(e, (ast.Constant, ast.Name))


def _may_call(e: ast.expr) -> bool:
    """Whether evaluating ``e`` may call a procedure (and so run Scheme code): a call
    site. The other calls the compiler writes (budget checks, the procedure an inlined
    primitive falls back to) never run Scheme code, so no continuation is captured there."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Call) and "h_site" in x.__dict__:
            return True
        if not isinstance(x, (ast.Constant, ast.Name)):
            stack.extend(ast.iter_child_nodes(x))
    return False


def _is_recomputable(e: ast.expr) -> bool:
    """Whether ``e`` gives the same value when evaluated again after a call returns: a
    constant, a variable (a box read is not), or arithmetic and tests on those. A global is
    read again (R7RS leaves the order of operand evaluation unspecified)."""
    cls = e.__class__
    if cls is ast.Constant or cls is ast.Name:
        return True
    if cls is ast.BinOp:
        return _is_recomputable(e.left) and _is_recomputable(e.right)
    if cls is ast.UnaryOp:
        return _is_recomputable(e.operand)
    if cls is ast.Compare:
        return _is_recomputable(e.left) and all(map(_is_recomputable, e.comparators))
    if cls is ast.Attribute:
        return _is_recomputable(e.value)
    if cls is ast.Call:  # the type of a value, in an inlined type test (inline.py)
        return (e.func.__class__ is ast.Name and e.func.id == "h_type"
                and _is_recomputable(e.args[0]))
    if cls is ast.Subscript:  # a global of another environment: env_table['s_name']
        return (e.slice.__class__ is ast.Constant and type(e.slice.value) is str
                and _is_recomputable(e.value))
    return False


def _is_scheme_procedure(proc) -> bool:
    code = getattr(proc, "__code__", None)
    return code is not None and code.co_filename.startswith(SCHEME_CODE_PREFIX)


def _is_boolean_expr(e: ast.expr) -> bool:
    if isinstance(e, ast.Compare):
        return True
    if isinstance(e, ast.Constant):
        return isinstance(e.value, bool)
    return isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not)


def _arguments(names: list[str], rest: str | None) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names],
                         vararg=ast.arg(arg=rest) if rest else None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def _locate_all(module: ast.Module, pos: SourcePos | None) -> None:
    """Give every node without a position its nearest located ancestor's (``pos`` at the
    top), as ``ast.fix_missing_locations`` does, in a third of its time: ``Compiler.at``
    sets the four position attributes together, so one (line, col) pair is inherited, and
    operators and contexts (never located) are not visited."""
    stack: list[tuple[ast.AST, int, int]] = [(module, pos.line if pos else 1,
                                              pos.col if pos else 0)]
    pop, push = stack.pop, stack.append
    shapes = _SHAPES
    while stack:
        node, line, col = pop()
        fields = node.__dict__
        shape = shapes.get(node.__class__) or _shape(node.__class__)
        if shape[0]:
            if "lineno" in fields:
                line, col = fields["lineno"], fields["col_offset"]
            else:
                node.lineno = node.end_lineno = line
                node.col_offset = node.end_col_offset = col
            if node.__class__ is ast.Call and "h_site" in fields:  # see sites.py
                node.end_lineno = node.lineno
                node.end_col_offset = node.col_offset + 1 + fields["h_site"]
        for name in shape[1]:
            value = fields.get(name)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        push((item, line, col))
            elif isinstance(value, ast.AST):
                push((value, line, col))


# node class -> (whether it has a position, the fields that may hold located nodes)
_SHAPES: dict[type, tuple[bool, tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[bool, tuple[str, ...]]:
    fields = () if cls is ast.Constant else tuple(f for f in cls._fields if f not in _LEAVES)
    shape = _SHAPES[cls] = ("lineno" in cls._attributes, fields)
    return shape


# fields that never hold a located node: operators, contexts, identifiers and flags
_LEAVES = frozenset({"ctx", "op", "ops", "id", "arg", "attr", "name", "module", "level", "kind",
                     "type_comment", "conversion", "is_async", "simple"})


# -- analysis -------------------------------------------------------------------------------------


def _analyze(root: Node) -> None:
    """Set each variable's owner (the Lambda whose Python function holds it) and mark
    variables used or assigned from an inner Lambda as captured (in a cell: not those an
    inner lambda takes by value, ``Lambda.captures``)."""
    stack: list[tuple[Node, Lambda | None]] = [(root, None)]
    while stack:
        node, lam = stack.pop()
        cls = node.__class__
        if cls is LocalRef:
            if node.var.owner is not lam and not _by_value(node.var, lam):
                node.var.captured = True
        elif cls is SetLocal:
            node.var.assigned = True
            if node.var.owner is not lam and not _by_value(node.var, lam):
                node.var.captured = True
            stack.append((node.value, lam))
        elif cls is Lambda:
            node.parent = lam
            for v in node.params:
                v.owner = node
                v.captured = False
            if node.rest is not None:
                node.rest.owner = node
                node.rest.captured = False
            stack.append((node.body, node))
        elif cls is Let:
            for v in node.vars:
                v.owner = lam
                v.captured = False
            stack.extend((i, lam) for i in node.inits)
            stack.append((node.body, lam))
        elif cls is If:
            stack.append((node.test, lam))
            stack.append((node.then, lam))
            stack.append((node.else_, lam))
        elif cls is Seq:
            stack.extend((n, lam) for n in node.body)
        elif cls is Call:
            stack.append((node.fn, lam))
            stack.extend((a, lam) for a in node.args)
        elif cls is SetGlobal:
            stack.append((node.value, lam))


def _by_value(var: Var, lam: Lambda) -> bool:
    """Whether ``var``, used in ``lam`` (inside the procedure that owns it), reaches it as
    a value the outermost lambda between them took when it was made (``captures``)."""
    while lam is not None and lam.parent is not var.owner:
        lam = lam.parent
    return lam is not None and var in lam.captures


def _loopable(lam: Lambda) -> bool:
    """A self tail call may become a loop only if no variable living in this function is
    captured by an inner closure (a loop would share one cell between iterations) and the
    procedure's own name is never reassigned."""
    sv = lam.self_var
    if isinstance(sv, Var) and sv.assigned:
        return False
    owned: list[Var] = list(lam.params) + ([lam.rest] if lam.rest else [])
    stack: list[Node] = [lam.body]
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls is Let:
            owned.extend(node.vars)
            stack.extend(node.inits)
            stack.append(node.body)
        elif cls is If:
            stack += [node.test, node.then, node.else_]
        elif cls is Seq:
            stack.extend(node.body)
        elif cls is Call:
            stack.append(node.fn)
            stack.extend(node.args)
        elif cls is SetLocal or cls is SetGlobal:
            stack.append(node.value)
    return not any(v.captured for v in owned)
