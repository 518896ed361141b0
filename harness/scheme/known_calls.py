"""Known procedures: which calls of a form the compiler can make without the generic protocol.

A tail call to a procedure the compiler cannot see returns a marker ``(procedure,
arguments)``, and the trampoline looks the procedure's body up (run_support.py). Where the
callee is known, less is needed. This pass finds, before the compiler runs:

* **Known procedures**: a ``let``/``letrec``/internal ``define`` variable bound to a
  ``lambda`` of fixed arity and never assigned (``Var.known``). A tail call to one goes
  straight to its body: as a Python call (``Call.direct``) where that cannot recurse (the
  direct calls of a form never form a cycle, so a chain of them is as long as the code at
  most), else as a marker ``(None, body, argument, ...)`` that the trampoline calls as it is.
  One that is never used as a value (``Lambda.private``) needs no ``h_body`` link; one
  that is only ever tail-called needs no public function at all (``Lambda.only_body``).
* **Continuation parameters**: a parameter of a private known procedure that is only ever
  tail-called, or passed on to such a parameter (``Var.raw``), and every call of which
  passes a ``lambda``, such a parameter or a known procedure that is only ever tail-called
  or passed to such parameters (a named continuation). It only ever holds bodies, so each
  ``lambda`` and named continuation passed there is compiled as its body alone
  (``only_body``): in continuation-passing code
  (``(tak x y z (lambda (v) ...))``) each continuation is one Python function, not a body,
  a public function and the link between them, and calling it is one bounce.
* **Values, not cells**: a continuation ``lambda`` that every call it can reach passes its
  exact number of arguments takes the variables it uses from enclosing procedures as
  hidden parameters with defaults (``Lambda.captures``): the values they have when it is
  made, which a cell would hold as long as the variable lives (a variable ``set!``
  assigns lives in a box, and the box is what is taken; a loop's next iteration is a new
  binding in Scheme). ``letrec`` variables stay cells: they may not be set yet. No cell is
  made for the others, and a procedure whose variables no closure holds in a cell can make
  its self tail calls a loop.
* **Bounces** (``Lambda.bounces``): whether a procedure's body may return a marker, so the
  compiler knows before it compiles a call what the callee returns.

The findings are stored on the nodes once, by the first compilation of a form: resume
procedures (resume.py) are compiled later from parts of the same tree, and must treat the
values saved from its frames as the original code made them.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.scheme.ast_nodes import (
    Call,
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


class _Uses:
    """How the variables and procedures of one form are used (one walk)."""

    def __init__(self) -> None:
        self.root: Node | None = None
        self.lambdas: list[Lambda] = []
        self.bound: dict[Var, Lambda] = {}  # let-bound to a lambda of fixed arity
        self.calls: dict[Var, list[tuple[Call, bool]]] = {}  # var as operator: (call, tail)
        self.passed: dict[Var, list[tuple[Call, int]]] = {}  # var as argument i of call
        self.valued: set[Var] = set()  # var used as a value any other way
        self.tail_calls: dict[Lambda, list[Call]] = {}
        self.recursive: set[Var] = set()  # bound by letrec (or internal defines)

    def walk(self, root: Node) -> None:
        self.root = root
        stack: list[tuple[Node, Lambda | None, bool]] = [(root, None, False)]
        while stack:
            node, lam, tail = stack.pop()
            cls = node.__class__
            if cls is LocalRef:
                self.valued.add(node.var)
            elif cls is Call:
                if tail:
                    self.tail_calls[lam].append(node)
                fn = node.fn
                if fn.__class__ is LocalRef:
                    self.calls.setdefault(fn.var, []).append((node, tail))
                else:
                    stack.append((fn, lam, False))
                for i, a in enumerate(node.args):
                    if a.__class__ is LocalRef:
                        self.passed.setdefault(a.var, []).append((node, i))
                    else:
                        stack.append((a, lam, False))
            elif cls is Lambda:
                self.lambdas.append(node)
                self.tail_calls[node] = []
                stack.append((node.body, node, True))
            elif cls is If:
                stack += [(node.test, lam, False), (node.then, lam, tail),
                          (node.else_, lam, tail)]
            elif cls is Seq:
                stack.extend((n, lam, False) for n in node.body[:-1])
                stack.append((node.body[-1], lam, tail))
            elif cls is Let:
                if node.rec:
                    self.recursive.update(node.vars)
                for var, init in zip(node.vars, node.inits):
                    if init.__class__ is Lambda and init.rest is None and not var.assigned:
                        self.bound[var] = init
                    stack.append((init, lam, False))
                stack.append((node.body, lam, tail))
            elif cls is SetLocal or cls is SetGlobal:
                stack.append((node.value, lam, False))

    def escapes(self, var: Var) -> bool:
        return var in self.valued or var in self.passed


def analyze(root: Node, loops: Callable[[Lambda, Call], bool],
            plain: Callable[[Call], bool], recount: Callable[[Node], None]) -> None:
    """Store the findings (see the module docstring) on the nodes of ``root``, a form
    compiled for the first time.

    ``loops(lam, call)``: the compiler makes tail ``call`` in ``lam`` a loop iteration;
    ``plain(call)``: it calls the callee of tail ``call`` directly, a procedure that never
    returns a marker (a primitive). Both as the compiler decides them. ``recount(root)``
    marks again the variables closures hold in cells, once some are taken by value."""
    uses = _Uses()
    uses.walk(root)
    for var, lam in uses.bound.items():
        var.known = lam
        lam.private = not uses.escapes(var)
    if _continuation_parameters(uses):
        recount(root)
    _direct_calls(uses)
    _bounces(uses, loops, plain)
    for var, lam in uses.bound.items():
        if lam.private and lam.bounces and all(tail for _, tail in uses.calls.get(var, ())):
            lam.only_body = True


def _continuation_parameters(uses: _Uses) -> bool:
    """Mark the parameters that only ever hold bodies, and the lambdas and named
    continuations passed to them: a fixed point, from every parameter of a private known
    procedure that is never assigned nor used as a value, and every known procedure only
    tail-called or passed, dropping those used or bound otherwise. True if some of those
    lambdas take values (``captures``)."""
    candidates: dict[Var, tuple[Var, int]] = {}  # parameter -> (its procedure's var, index)
    for var, lam in uses.bound.items():
        calls = uses.calls.get(var, [])
        if not lam.private or any(len(c.args) != len(lam.params) for c, _ in calls):
            continue
        for i, p in enumerate(lam.params):
            if not p.assigned and p not in uses.valued:
                candidates[p] = (var, i)
    named = {var for var in uses.bound if var in uses.passed and var not in uses.valued
             and all(tail for _, tail in uses.calls.get(var, ()))}

    def passed_to_bodies(var: Var) -> bool:
        return all(_param(uses, c, j) in candidates for c, j in uses.passed.get(var, ()))

    def holds_body(arg: Node) -> bool:
        if arg.__class__ is Lambda:
            return arg.rest is None
        return arg.__class__ is LocalRef and (arg.var in candidates or arg.var in named)

    def keeps_bodies(p: Var, proc: Var, i: int) -> bool:
        if not all(tail for _, tail in uses.calls.get(p, ())):
            return False  # called other than in tail position: it must return a value
        if not passed_to_bodies(p):
            return False  # passed on where a procedure is expected
        return all(holds_body(c.args[i]) for c, _ in uses.calls.get(proc, ()))

    changed = True
    while changed:
        changed = False
        for p, (proc, i) in list(candidates.items()):
            if not keeps_bodies(p, proc, i):
                del candidates[p]
                changed = True
        for var in list(named):
            if not passed_to_bodies(var):
                named.discard(var)
                changed = True
    for var in named:
        uses.bound[var].only_body = True
    by_value = False
    free = None
    for p, (proc, i) in candidates.items():
        p.raw = True
        arities = _arities(uses, p)
        for c, _ in uses.calls.get(proc, ()):
            lam = c.args[i]
            if lam.__class__ is Lambda:
                lam.only_body = True
                if arities <= {len(lam.params)}:  # no call can fill a hidden parameter
                    free = free or _free_vars_of_lambdas(uses.root)
                    lam.captures = tuple(v for v in free[lam] if v not in uses.recursive)
                    by_value = by_value or bool(lam.captures)
    return by_value


def _arities(uses: _Uses, p: Var) -> set[int]:
    """The numbers of arguments of the calls of the bodies parameter ``p`` holds: its own
    calls and those of the parameters it is passed on to."""
    seen, todo, out = {p}, [p], set()
    while todo:
        q = todo.pop()
        out.update(len(c.args) for c, _ in uses.calls.get(q, ()))
        for c, j in uses.passed.get(q, ()):
            r = _param(uses, c, j)
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return out


def free_vars(node: Node) -> list[Var]:
    """The variables ``node`` uses (or assigns) where it does not bind them."""
    outside = Lambda([], None, node, None)
    return _free_vars_of_lambdas(outside)[outside]


def _free_vars_of_lambdas(root: Node) -> dict[Lambda, list[Var]]:
    """The free variables (used or assigned, not bound inside) of every lambda in
    ``root``: one walk, then each lambda's from its own uses and its inner lambdas'."""
    # (None: the top level of the form, outside every lambda)
    uses: dict[Lambda | None, dict[Var, None]] = {None: {}}
    binds: dict[Lambda | None, set[Var]] = {None: set()}
    inner: dict[Lambda | None, list[Lambda]] = {None: []}
    order: list[Lambda] = []  # outer before inner
    stack: list[tuple[Node, Lambda | None]] = [(root, None)]
    while stack:
        n, lam = stack.pop()
        cls = n.__class__
        if cls is LocalRef or cls is SetLocal:
            uses[lam].setdefault(n.var, None)
        if cls is Lambda:
            inner[lam].append(n)
            order.append(n)
            uses[n], inner[n] = {}, []
            binds[n] = {*n.params, *([n.rest] if n.rest is not None else [])}
            stack.append((n.body, n))
        elif cls is Let:
            binds[lam].update(n.vars)
            stack.extend((x, lam) for x in (*n.inits, n.body))
        elif cls is Call:
            stack.extend((x, lam) for x in (n.fn, *n.args))
        elif cls is If:
            stack.extend((x, lam) for x in (n.test, n.then, n.else_))
        elif cls is Seq:
            stack.extend((x, lam) for x in n.body)
        elif cls is SetLocal or cls is SetGlobal:
            stack.append((n.value, lam))
    free: dict[Lambda, list[Var]] = {}
    for lam in reversed(order):
        seen = dict(uses[lam])
        for child in inner[lam]:
            seen.update(dict.fromkeys(free[child]))
        free[lam] = [v for v in seen if v not in binds[lam]]
    return free


def _param(uses: _Uses, call: Call, index: int) -> Var | None:
    """The parameter that argument ``index`` of ``call`` binds, if the callee is known."""
    lam = uses.bound.get(call.fn.var) if call.fn.__class__ is LocalRef else None
    if lam is None or index >= len(lam.params):
        return None
    return lam.params[index]


def _direct_calls(uses: _Uses) -> None:
    """Mark the tail calls of known procedures that can be Python calls: every such call
    but those that would close a cycle (a depth-first walk drops its back edges)."""
    edges: dict[Lambda, list[tuple[Call, Lambda]]] = {}
    for lam, calls in uses.tail_calls.items():
        out = edges[lam] = []
        for c in calls:
            callee = uses.bound.get(c.fn.var) if c.fn.__class__ is LocalRef else None
            if callee is not None and callee is not lam and len(c.args) == len(callee.params):
                out.append((c, callee))
    state: dict[Lambda, int] = {}  # 1: on the walk's path, 2: done
    for start in uses.lambdas:
        if start in state:
            continue
        state[start] = 1
        path = [(start, iter(edges[start]))]
        while path:
            lam, out = path[-1]
            step = next(out, None)
            if step is None:
                state[lam] = 2
                path.pop()
                continue
            call, callee = step
            seen = state.get(callee)
            if seen == 1:
                continue  # a back edge: this call stays a marker
            call.direct = True
            if seen is None:
                state[callee] = 1
                path.append((callee, iter(edges[callee])))


def _bounces(uses: _Uses, loops: Callable[[Lambda, Call], bool],
             plain: Callable[[Call], bool]) -> None:
    """Whether each lambda's body may return a marker: a fixed point, from none."""
    for lam in uses.lambdas:
        lam.bounces = False
    changed = True
    while changed:
        changed = False
        for lam in uses.lambdas:
            if lam.bounces:
                continue
            for c in uses.tail_calls[lam]:
                if loops(lam, c) or plain(c):
                    continue
                if c.direct and not c.fn.var.known.bounces:
                    continue
                lam.bounces = changed = True
                break
