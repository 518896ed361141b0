"""Handlers for the special forms: each turns one form into core AST nodes.

Registered with ``@special(name)``; libraries export them as syntax (see libraries.py).
"""

from __future__ import annotations

from pathlib import Path

from harness.scheme import run_support as rt
from harness.scheme.ast_nodes import (
    Call,
    Const,
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
from harness.scheme.datatypes import NIL, Char, String, Symbol, Vector, list_to_py, split_list, sym
from harness.scheme.deferred import bind_deferred
from harness.scheme.expander import (
    S_ARROW,
    S_ELSE,
    S_QUASIQUOTE,
    S_UNQUOTE,
    S_UNQUOTE_SPLICING,
    Expander,
    install_core_syntax,
    special,
)
from harness.scheme.syntax import Rewriter, Scope, base_symbol, is_identifier, resolve, strip

E = Expander


def _parts(exp: E, x, where, least: int, most: int | None, usage: str) -> list:
    items, rest = split_list(x)
    if rest is not NIL or len(items) < least or (most is not None and len(items) > most):
        raise exp.error(f"bad syntax: expected {usage}", where)
    return items


def _seq(exp: E, forms: list, scope: Scope, where) -> Node:
    nodes = [exp.expand(f, scope, exp.pos(f, where)) for f in forms]
    if not nodes:
        return Const(None, where)
    return nodes[0] if len(nodes) == 1 else Seq(nodes, where)


def _is_kw(exp: E, x, scope: Scope, keyword: Symbol) -> bool:
    """Is ``x`` the auxiliary keyword ``keyword`` (else, =>, …) and not a local variable?"""
    if not is_identifier(x) or base_symbol(x) is not keyword:
        return False
    return not isinstance(resolve(x, scope), Var)


# -- core forms -----------------------------------------------------------------------------
@special("quote")
def _quote(exp: E, x, scope, where):
    (datum,) = _parts(exp, x[1], where, 1, 1, "(quote datum)")
    return Const(strip(datum), where)


@special("if")
def _if(exp: E, x, scope, where):
    items = _parts(exp, x[1], where, 2, 3, "(if test then [else])")
    test = exp.expand(items[0], scope, where)
    then = exp.expand(items[1], scope, exp.pos(x[1][1], where))
    else_ = exp.expand(items[2], scope, where) if len(items) == 3 else Const(None, where)
    return If(test, then, else_, where)


def _definition(name: str, at_top_level) -> None:
    """Register a definition form: bodies handle it themselves (Expander.body), so here it
    is either at top level or misplaced in an expression."""
    def handler(exp: E, x, scope, where):
        if scope.toplevel:
            return at_top_level(exp, x, scope, where)
        raise exp.error(f"{name}: only allowed at top level or at the start of a body", where)
    special(name)(handler)


_definition("define", lambda exp, x, scope, where: exp._define_global(x, scope, where))
_definition("define-values",
            lambda exp, x, scope, where: exp._define_values_global(x, scope, where))
_definition("define-record-type", lambda exp, x, scope, where: exp.expand_toplevel(
    exp._record_definitions(x, scope, where), scope))


@special("set!")
def _set(exp: E, x, scope, where):
    target, value = _parts(exp, x[1], where, 2, 2, "(set! variable expression)")
    if not is_identifier(target):
        raise exp.error("set!: expected a variable", where)
    b = resolve(target, scope)
    node = exp.expand(value, scope, where)
    if isinstance(b, Var):
        b.assigned = True
        return SetLocal(b, node, where)
    if isinstance(b, tuple):
        if b[0].lazy:
            bind_deferred(b[0], b[1].name)
        return SetGlobal(b[1].name, b[0], node, False, where)
    raise exp.error(f"set!: cannot assign the syntax keyword {base_symbol(target).name}", where)


def bind_formals(exp: E, lam: Lambda, formals, inner: Scope, where) -> None:
    """Bind ``formals`` (``(a b . rest)``, ``args``, ``()``) in ``inner`` as ``lam``'s
    parameters."""
    seen = set()
    params: list[Var] = []
    while formals.__class__ is list:
        ident = formals[0]
        if not is_identifier(ident):
            raise exp.error("lambda: parameters must be identifiers", where)
        if ident in seen:
            raise exp.error(f"lambda: duplicate parameter {base_symbol(ident).name}", where)
        seen.add(ident)
        var = Var(base_symbol(ident).name)
        inner.bind(ident, var)
        params.append(var)
        formals = formals[1]
    if formals is not NIL:
        if not is_identifier(formals):
            raise exp.error("lambda: bad parameter list", where)
        lam.rest = Var(base_symbol(formals).name)
        inner.bind(formals, lam.rest)
    lam.params = params


def make_lambda(exp: E, formals, body, scope: Scope, where, name: str | None = None) -> Lambda:
    lam = Lambda([], None, None, name, where)
    inner = scope.child()
    bind_formals(exp, lam, formals, inner, where)
    lam.body = exp.body(body, inner, where)
    return lam


@special("lambda")
def _lambda(exp: E, x, scope, where):
    if x[1].__class__ is not list:
        raise exp.error("lambda: expected (lambda formals body ...)", where)
    return make_lambda(exp, x[1][0], x[1][1], scope, where)


@special("begin")
def _begin(exp: E, x, scope, where):
    forms = _parts(exp, x[1], where, 0, None, "(begin expression ...)")
    if scope.toplevel:
        return Seq([exp.expand_toplevel(f, scope) for f in forms] or [Const(None)], where)
    if not forms:
        raise exp.error("begin: empty begin in an expression", where)
    return _seq(exp, forms, scope, where)


# -- binding forms ---------------------------------------------------------------------------
def _bindings(exp: E, spec, where, form: str) -> list[tuple[object, object]]:
    out = []
    for b in _parts(exp, spec, where, 0, None, f"({form} ((name value) ...) body ...)"):
        items = _parts(exp, b, where, 1, 2, f"({form} ((name value) ...) body ...)")
        if not is_identifier(items[0]):
            from harness.scheme.printer import write_truncated
            raise exp.error(f"{form}: expected an identifier, got "
                            f"{write_truncated(strip(items[0]))}", where)
        out.append((items[0], items[1] if len(items) == 2 else None))
    return out


def _new_var(ident) -> Var:
    return Var(base_symbol(ident).name)


@special("let")
def _let(exp: E, x, scope, where):
    if x[1].__class__ is not list:
        raise exp.error("let: bad syntax", where)
    if is_identifier(x[1][0]):
        return _named_let(exp, x, scope, where)
    pairs = _bindings(exp, x[1][0], where, "let")
    inits = [exp.expand(v, scope, where) if v is not None else Const(None) for _, v in pairs]
    inner = scope.child()
    vars_ = []
    for ident, _ in pairs:
        var = _new_var(ident)
        inner.bind(ident, var)
        vars_.append(var)
    body = exp.body(x[1][1], inner, where)
    if not vars_:
        return body
    return Let(vars_, inits, body, False, where)


def _named_let(exp: E, x, scope, where):
    name = x[1][0]
    rest = x[1][1]
    if rest.__class__ is not list:
        raise exp.error("let: bad named let", where)
    pairs = _bindings(exp, rest[0], where, "let")
    inits = [exp.expand(v, scope, where) for _, v in pairs]
    outer = scope.child()
    loop_var = _new_var(name)
    outer.bind(name, loop_var)
    formals = NIL
    for ident, _ in reversed(pairs):
        formals = [ident, formals]
    lam = make_lambda(exp, formals, rest[1], outer, where, base_symbol(name).name)
    lam.self_var = loop_var
    return Let([loop_var], [lam], Call(LocalRef(loop_var, where), inits, where), True, where)


@special("let*")
def _let_star(exp: E, x, scope, where):
    if x[1].__class__ is not list:
        raise exp.error("let*: bad syntax", where)
    pairs = _bindings(exp, x[1][0], where, "let*")
    lets = []
    cur = scope
    for ident, v in pairs:
        init = exp.expand(v, cur, where) if v is not None else Const(None)
        cur = cur.child()
        var = _new_var(ident)
        cur.bind(ident, var)
        lets.append((var, init))
    body = exp.body(x[1][1], cur.child(), where)
    for var, init in reversed(lets):
        body = Let([var], [init], body, False, where)
    return body


def _letrec(exp: E, x, scope, where, form: str):
    if x[1].__class__ is not list:
        raise exp.error(f"{form}: bad syntax", where)
    pairs = _bindings(exp, x[1][0], where, form)
    inner = scope.child()
    vars_ = []
    for ident, _ in pairs:
        var = _new_var(ident)
        inner.bind(ident, var)
        vars_.append(var)
    inits = []
    for var, (_, v) in zip(vars_, pairs):
        node = exp.expand(v, inner, where) if v is not None else Const(None)
        if isinstance(node, Lambda):
            node.name, node.self_var = var.name, var
        inits.append(node)
    body = exp.body(x[1][1], inner, where)
    return Let(vars_, inits, body, True, where)


special("letrec")(lambda exp, x, scope, where: _letrec(exp, x, scope, where, "letrec"))
special("letrec*")(lambda exp, x, scope, where: _letrec(exp, x, scope, where, "letrec*"))


# -- conditionals ------------------------------------------------------------------------------
@special("and")
def _and(exp: E, x, scope, where):
    forms = _parts(exp, x[1], where, 0, None, "(and expression ...)")
    if not forms:
        return Const(True, where)
    nodes = [exp.expand(f, scope, where) for f in forms]
    result = nodes[-1]
    for n in reversed(nodes[:-1]):
        result = If(n, result, Const(False), where)
    return result


@special("or")
def _or(exp: E, x, scope, where):
    forms = _parts(exp, x[1], where, 0, None, "(or expression ...)")
    if not forms:
        return Const(False, where)
    nodes = [exp.expand(f, scope, where) for f in forms]
    result = nodes[-1]
    for n in reversed(nodes[:-1]):
        tmp = Var("or")
        result = Let([tmp], [n], If(LocalRef(tmp), LocalRef(tmp), result, where), False, where)
    return result


@special("when")
def _when(exp: E, x, scope, where):
    forms = _parts(exp, x[1], where, 2, None, "(when test expression ...)")
    return If(exp.expand(forms[0], scope, where), _seq(exp, forms[1:], scope, where),
              Const(None), where)


@special("unless")
def _unless(exp: E, x, scope, where):
    forms = _parts(exp, x[1], where, 2, None, "(unless test expression ...)")
    return If(exp.expand(forms[0], scope, where), Const(None),
              _seq(exp, forms[1:], scope, where), where)


def cond_clauses(exp: E, clauses: list, scope: Scope, where, fallback: Node) -> Node:
    """The If chain of cond clauses; ``fallback`` when none applies."""
    result = fallback
    for i in range(len(clauses) - 1, -1, -1):
        clause = clauses[i]
        cpos = exp.pos(clause, where)
        items = _parts(exp, clause, cpos, 1, None, "cond clause (test expression ...)")
        if _is_kw(exp, items[0], scope, S_ELSE):
            if i != len(clauses) - 1:
                raise exp.error("cond: else clause must be last", cpos)
            if len(items) > 2 and _is_kw(exp, items[1], scope, S_ARROW):
                raise exp.error("cond: => in an else clause", cpos)
            result = _seq(exp, items[1:], scope, cpos)
            continue
        test = exp.expand(items[0], scope, cpos)
        if len(items) == 1:
            tmp = _new_var(sym("t"))
            result = Let([tmp], [test], If(LocalRef(tmp), LocalRef(tmp), result, cpos), False,
                         cpos)
        elif _is_kw(exp, items[1], scope, S_ARROW):
            if len(items) != 3:
                raise exp.error("cond: expected (test => receiver)", cpos)
            tmp = _new_var(sym("t"))
            receiver = exp.expand(items[2], scope, cpos)
            result = Let([tmp], [test],
                         If(LocalRef(tmp), Call(receiver, [LocalRef(tmp)], cpos), result, cpos),
                         False, cpos)
        else:
            result = If(test, _seq(exp, items[1:], scope, cpos), result, cpos)
    return result


@special("cond")
def _cond(exp: E, x, scope, where):
    clauses = _parts(exp, x[1], where, 1, None, "(cond clause ...)")
    return cond_clauses(exp, clauses, scope, where, Const(None, where))


def _eqv_test(key: Node, datum: object, where) -> Node:
    if datum.__class__ in (Symbol, Char, bool) or datum is NIL:
        return Call(Const(rt.eq), [key, Const(datum)], where)
    return Call(Const(rt.eqv), [key, Const(datum)], where)


@special("case")
def _case(exp: E, x, scope, where):
    items = _parts(exp, x[1], where, 2, None, "(case key clause ...)")
    key = exp.expand(items[0], scope, where)
    tmp = _new_var(sym("key"))
    result: Node = Const(None, where)
    clauses = items[1:]
    for i in range(len(clauses) - 1, -1, -1):
        clause = clauses[i]
        cpos = exp.pos(clause, where)
        parts = _parts(exp, clause, cpos, 2, None, "case clause ((datum ...) expression ...)")
        if len(parts) == 3 and _is_kw(exp, parts[1], scope, S_ARROW):
            body = Call(exp.expand(parts[2], scope, cpos), [LocalRef(tmp)], cpos)
        else:
            body = _seq(exp, parts[1:], scope, cpos)
        if _is_kw(exp, parts[0], scope, S_ELSE):
            if i != len(clauses) - 1:
                raise exp.error("case: else clause must be last", cpos)
            result = body
            continue
        data = list_to_py(strip(parts[0])) if parts[0].__class__ is list else None
        if data is None:
            if parts[0] is NIL:
                continue
            raise exp.error("case: expected a list of data", cpos)
        test: Node = Const(False)
        for d in reversed(data):
            test = If(_eqv_test(LocalRef(tmp), d, cpos), Const(True), test, cpos)
        result = If(test, body, result, cpos)
    return Let([tmp], [key], result, False, where)


@special("do")
def _do(exp: E, x, scope, where):
    items = _parts(exp, x[1], where, 2, None, "(do ((var init step) ...) (test expr ...) body ...)")
    specs = []
    for spec in _parts(exp, items[0], where, 0, None, "do bindings"):
        p = _parts(exp, spec, where, 2, 3, "(var init [step])")
        if not is_identifier(p[0]):
            raise exp.error("do: expected a variable", where)
        specs.append(p)
    exit_clause = _parts(exp, items[1], where, 1, None, "(test expression ...)")
    inits = [exp.expand(p[1], scope, where) for p in specs]
    outer = scope.child()
    loop_var = _new_var(sym("do-loop"))
    lam = Lambda([], None, None, "do-loop", where)
    inner = outer.child()
    params = []
    for p in specs:
        v = Var(base_symbol(p[0]).name)
        inner.bind(p[0], v)
        params.append(v)
    steps = [exp.expand(p[2], inner, where) if len(p) == 3 else LocalRef(v)
             for p, v in zip(specs, params)]
    test = exp.expand(exit_clause[0], inner, where)
    result = _seq(exp, exit_clause[1:], inner, where)
    body_forms = items[2:]
    body_nodes = [exp.expand(f, inner, exp.pos(f, where)) for f in body_forms]
    again = Call(LocalRef(loop_var, where), steps, where)
    lam.params = params
    lam.body = If(test, result, Seq(body_nodes + [again], where) if body_nodes else again, where)
    lam.self_var = loop_var
    return Let([loop_var], [lam], Call(LocalRef(loop_var), inits, where), True, where)


# -- quasiquote ----------------------------------------------------------------------------------
def _has_unquote(x) -> bool:
    stack = [x]
    while stack:
        y = stack.pop()
        if y.__class__ is list:
            if is_identifier(y[0]) and base_symbol(y[0]) in (S_UNQUOTE, S_UNQUOTE_SPLICING):
                return True
            stack.append(y[0])
            stack.append(y[1])
        elif y.__class__ is Vector:
            stack.extend(y.items)
    return False


def _qq(exp: E, x, depth: int, scope: Scope, where) -> Node:
    if not _has_unquote(x):
        return Const(strip(x), where)
    if x.__class__ is Vector:
        items = NIL
        for item in reversed(x.items):
            items = [item, items]
        return Call(Const(rt.list_to_vector), [_qq(exp, items, depth, scope, where)], where)
    head = x[0]
    if is_identifier(head):
        hs = base_symbol(head)
        if hs is S_UNQUOTE:
            arg = _parts(exp, x[1], where, 1, 1, "(unquote expression)")[0]
            if depth == 1:
                return exp.expand(arg, scope, exp.pos(x, where))
            return _list_node([Const(S_UNQUOTE), _qq(exp, arg, depth - 1, scope, where)], where)
        if hs is S_QUASIQUOTE:
            arg = _parts(exp, x[1], where, 1, 1, "(quasiquote template)")[0]
            return _list_node([Const(S_QUASIQUOTE), _qq(exp, arg, depth + 1, scope, where)],
                              where)
    first = x[0]
    if (first.__class__ is list and is_identifier(first[0])
            and base_symbol(first[0]) is S_UNQUOTE_SPLICING):
        arg = _parts(exp, first[1], where, 1, 1, "(unquote-splicing expression)")[0]
        rest = _qq(exp, x[1], depth, scope, where)
        if depth == 1:
            return Call(Const(rt.append2), [exp.expand(arg, scope, exp.pos(first, where)), rest],
                        where)
        inner = _list_node([Const(S_UNQUOTE_SPLICING), _qq(exp, arg, depth - 1, scope, where)],
                           where)
        return Call(Const(rt.cons), [inner, rest], where)
    return Call(Const(rt.cons), [_qq(exp, first, depth, scope, exp.pos(x, where)),
                                 _qq(exp, x[1], depth, scope, where)], where)


def _list_node(nodes: list[Node], where) -> Node:
    result: Node = Const(NIL)
    for n in reversed(nodes):
        result = Call(Const(rt.cons), [n, result], where)
    return result


@special("quasiquote")
def _quasiquote(exp: E, x, scope, where):
    (template,) = _parts(exp, x[1], where, 1, 1, "(quasiquote template)")
    return _qq(exp, template, 1, scope, where)


@special("unquote")
def _unquote(exp: E, x, scope, where):
    raise exp.error("unquote (,) outside of quasiquote", where)


@special("unquote-splicing")
def _unquote_splicing(exp: E, x, scope, where):
    raise exp.error("unquote-splicing (,@) outside of quasiquote", where)


# -- macros ---------------------------------------------------------------------------------------
@special("define-syntax")
def _define_syntax_form(exp: E, x, scope, where):
    if not scope.toplevel:
        raise exp.error("define-syntax: only allowed at top level or at the start of a body",
                        where)
    exp._define_syntax(x, scope, where)
    return Const(None, where)


def _let_syntax(exp: E, x, scope, where, rec: bool):
    if x[1].__class__ is not list:
        raise exp.error("let-syntax: bad syntax", where)
    inner = scope.child()
    for ident, spec in _bindings(exp, x[1][0], where, "let-syntax"):
        inner.bind(ident, exp.transformer(spec, inner if rec else scope,
                                          base_symbol(ident).name, where))
    if scope.toplevel:  # at top level the body's definitions are global (R7RS 5.3)
        inner.toplevel = True
        forms = list_to_py(x[1][1])
        return Seq([exp.expand_toplevel(f, inner) for f in forms] or [Const(None)], where)
    return exp.body(x[1][1], inner, where)


special("let-syntax")(lambda exp, x, scope, where: _let_syntax(exp, x, scope, where, False))
special("letrec-syntax")(lambda exp, x, scope, where: _let_syntax(exp, x, scope, where, True))


@special("syntax-rules")
def _syntax_rules(exp: E, x, scope, where):
    raise exp.error("syntax-rules: only valid as a macro transformer", where)


@special("syntax-error")
def _syntax_error(exp: E, x, scope, where):
    items = list_to_py(strip(x[1]))
    from harness.scheme.printer import write_truncated
    msg = items[0].s if items and isinstance(items[0], String) else "syntax error"
    raise exp.error(" ".join([msg] + [write_truncated(i, 400) for i in items[1:]]), where)


# -- dynamic forms built on runtime procedures -----------------------------------------------------
def _thunk(exp: E, body, scope: Scope, where) -> Lambda:
    return make_lambda(exp, NIL, body, scope, where)


@special("delay")
def _delay(exp: E, x, scope, where):
    _parts(exp, x[1], where, 1, 1, "(delay expression)")
    return Call(Const(rt.make_delay), [_thunk(exp, x[1], scope, where)], where)


@special("delay-force")
def _delay_force(exp: E, x, scope, where):
    _parts(exp, x[1], where, 1, 1, "(delay-force expression)")
    return Call(Const(rt.make_delay_force), [_thunk(exp, x[1], scope, where)], where)


@special("parameterize")
def _parameterize(exp: E, x, scope, where):
    if x[1].__class__ is not list:
        raise exp.error("parameterize: bad syntax", where)
    args: list[Node] = [_thunk(exp, x[1][1], scope, where)]
    for p, v in _bindings(exp, x[1][0], where, "parameterize"):
        args.append(exp.expand(p, scope, where))
        args.append(exp.expand(v, scope, where))
    return Call(Const(rt.parameterize), args, where)


@special("guard")
def _guard(exp: E, x, scope, where):
    if x[1].__class__ is not list or x[1][0].__class__ is not list:
        raise exp.error("guard: expected (guard (var clause ...) body ...)", where)
    spec = x[1][0]
    var_ident = spec[0]
    if not is_identifier(var_ident):
        raise exp.error("guard: expected a variable", where)
    body = _thunk(exp, x[1][1], scope, where)
    lam = Lambda([], None, None, "guard-handler", where)
    inner = scope.child()
    var = Var(base_symbol(var_ident).name)
    inner.bind(var_ident, var)
    lam.params = [var]
    clauses = list_to_py(spec[1])
    lam.body = cond_clauses(exp, clauses, inner, where, Const(rt.NO_CLAUSE, where))
    # Only a guard without else ever raises again (and pays for reading the raise's frames)
    last = clauses[-1] if clauses else None
    has_else = last.__class__ is list and _is_kw(exp, last[0], inner, S_ELSE)
    return Call(Const(rt.guard if has_else else rt.guard_reraising), [body, lam], where)


@special("case-lambda")
def _case_lambda(exp: E, x, scope, where):
    clauses = _parts(exp, x[1], where, 0, None, "(case-lambda (formals body ...) ...)")
    lams = []
    for c in clauses:
        if c.__class__ is not list:
            raise exp.error("case-lambda: bad clause", where)
        lams.append(make_lambda(exp, c[0], c[1], scope, exp.pos(c, where)))
    # the dispatcher over these arities is made here, once: an evaluation only closes over
    # the clauses
    arities = tuple((len(lam.params), lam.rest is not None) for lam in lams)
    return Call(Const(rt.case_lambda_maker(arities)), lams, where)


def _values_binding(exp: E, formals, expr: Node, body_fn, scope: Scope, where) -> Node:
    """(call-with-values (lambda () expr) (lambda formals body))."""
    producer = Lambda([], None, expr, None, where)
    consumer = body_fn(formals)
    return Call(Const(rt.call_with_values), [producer, consumer], where)


def _let_values(exp: E, x, scope, where, sequential: bool):
    if x[1].__class__ is not list:
        raise exp.error("let-values: bad syntax", where)
    specs = _parts(exp, x[1][0], where, 0, None, "(let-values (((formals) expr) ...) body ...)")
    pairs = [_parts(exp, s, where, 2, 2, "((formals) expression)") for s in specs]
    body_forms = x[1][1]
    # R7RS let-values evaluates every init in the outer scope; let*-values in sequence.
    def build(i: int, cur: Scope) -> Node:
        if i == len(pairs):  # the body's definitions get their own scope (as let*'s)
            return exp.body(body_forms, cur.child(), where)
        formals, init = pairs[i]
        init_node = exp.expand(init, cur if sequential else scope, where)
        consumer = Lambda([], None, None, None, where)
        inner = cur.child()
        bind_formals(exp, consumer, formals, inner, where)
        consumer.body = build(i + 1, inner)
        producer = Lambda([], None, init_node, None, where)
        return Call(Const(rt.call_with_values), [producer, consumer], where)
    return build(0, scope)


special("let-values")(lambda exp, x, scope, where: _let_values(exp, x, scope, where, False))
special("let*-values")(lambda exp, x, scope, where: _let_values(exp, x, scope, where, True))


@special("assert")
def _assert(exp: E, x, scope, where):
    (expr,) = _parts(exp, x[1], where, 1, 1, "(assert expression)")
    from harness.scheme.printer import write_truncated
    text = write_truncated(strip(expr), 1000)
    return If(exp.expand(expr, scope, where), Const(None),
              Call(Const(rt.assertion_failed), [Const(String(text))], where), where)


# -- rewriters: forms that become other data (work at top level, in bodies and expressions) -----
def _cond_expand(exp: E, x, scope: Scope, where):
    for clause in list_to_py(x[1]):
        if clause.__class__ is not list:
            raise exp.error("cond-expand: bad clause", where)
        if _feature_match(exp, clause[0], scope, where):
            return [_begin_alias(), clause[1]] if clause[1] is not NIL else _void_form()
    return _void_form()


def _feature_match(exp: E, req, scope: Scope, where) -> bool:
    if is_identifier(req):
        name = base_symbol(req).name
        return name == "else" or name in exp.env.features()
    if req.__class__ is list and is_identifier(req[0]):
        op = base_symbol(req[0]).name
        args = list_to_py(req[1])
        if op == "and":
            return all(_feature_match(exp, a, scope, where) for a in args)
        if op == "or":
            return any(_feature_match(exp, a, scope, where) for a in args)
        if op == "not":
            return not _feature_match(exp, args[0], scope, where)
        if op == "library":
            return exp.env.has_library(strip(args[0]))
    raise exp.error("cond-expand: bad feature requirement", where)


def _include(exp: E, x, scope: Scope, where, fold: bool):
    names = list_to_py(x[1])
    if not names or not all(isinstance(n, String) for n in names):
        raise exp.error("include: expected file names as strings", where)
    if not exp.env.allow_include:
        raise exp.error("include: not allowed in the sandboxed tier", where)
    from harness.scheme.reader import read_all
    forms: list = []
    base = Path(exp.file).parent if exp.file and not exp.file.startswith("<") else Path.cwd()
    for n in names:
        path = base / n.s
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise exp.error(f"include: cannot read {path}: {e.strerror}", where) from None
        if fold:
            text = "#!fold-case\n" + text
        data, smap = read_all(text, str(path))
        exp.extra_maps.append(smap)
        forms.extend(data)
    result = NIL
    for f in reversed(forms):
        result = [f, result]
    return [_begin_alias(), result]


def _begin_alias():
    from harness.scheme.expander import _BEGIN_KEY
    return _BEGIN_KEY


def _void_form():
    from harness.scheme import expander
    return expander._UNSPECIFIED_FORM


REWRITERS = {
    "cond-expand": Rewriter("cond-expand", _cond_expand),
    "include": Rewriter("include", lambda exp, x, s, w: _include(exp, x, s, w, False)),
    "include-ci": Rewriter("include-ci", lambda exp, x, s, w: _include(exp, x, s, w, True)),
}

install_core_syntax()
