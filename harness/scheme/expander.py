"""The expander: data from the reader -> core AST nodes (ast_nodes.py).

Core forms and the derived forms of R7RS 4.2 are handled here, in Python, and build AST
nodes directly: nothing they introduce is an identifier, so they are hygienic by
construction and expansion stays fast. ``syntax-rules`` macros (user-defined and those in
scheme_lib/) are expanded by syntax_rules.py and the result is expanded again.
"""

from __future__ import annotations

from harness.scheme import run_support as rt
from harness.scheme.ast_nodes import (
    Call,
    Const,
    GlobalRef,
    Lambda,
    Let,
    LocalRef,
    Node,
    Seq,
    SetGlobal,
    Var,
)
from harness.scheme.datatypes import NIL, Symbol, Vector, list_to_py, split_list, sym
from harness.scheme.deferred import bind_deferred
from harness.scheme.errors import SourcePos, syntax_error
from harness.scheme.limits import CHUNK, charge
from harness.scheme.syntax import (
    Alias,
    Rewriter,
    Scope,
    Special,
    base_symbol,
    is_identifier,
    resolve,
    strip,
)
from harness.scheme.syntax_rules import Macro, parse_syntax_rules

SPECIALS: dict[str, Special] = {}

S_ELSE, S_ARROW, S_DEFINE, S_BEGIN = sym("else"), sym("=>"), sym("define"), sym("begin")
S_UNQUOTE, S_UNQUOTE_SPLICING, S_QUASIQUOTE = (
    sym("unquote"), sym("unquote-splicing"), sym("quasiquote"))


def special(name: str):
    def register(fn):
        SPECIALS[name] = Special(name, fn)
        return fn
    return register


#: ``(define ((f a) b) ...)`` nests at most this deep (a datum label can make it endless)
MAX_CURRIED = 1000


class Expander:
    """Expands the forms of one compilation unit; ``smap`` gives source positions."""

    def __init__(self, env, smap) -> None:
        self.env = env
        self.smap = smap
        self.file = smap.name if smap is not None else "<unknown>"
        self.extra_maps: list = []  # source maps of included files
        self.work = 0  # expansions since the last charge (expansion counts as steps)

    # -- positions -----------------------------------------------------------------------
    def pos(self, x: object, fallback: SourcePos | None) -> SourcePos | None:
        if x.__class__ is list and self.smap is not None:
            p = self.smap.pos_of(x)
            if p is not None:
                return p
            for smap in self.extra_maps:
                p = smap.pos_of(x)
                if p is not None:
                    return p
        return fallback

    def error(self, message: str, where: SourcePos | None):
        return syntax_error(message, where)

    # -- entry points --------------------------------------------------------------------
    def expand_toplevel(self, x: object, scope: Scope) -> Node:
        """Expand one top-level form; definitions become global definitions."""
        where = self.pos(x, None)
        x, head = self._macroexpand_head(x, scope, where)
        if head is not None and isinstance(head, Special):
            if head.name == "define":
                return self._define_global(x, scope, where)
            if head.name == "begin":
                forms = list_to_py(x[1])
                return Seq([self.expand_toplevel(f, scope) for f in forms] or [Const(None)],
                           where)
            if head.name == "define-values":
                return self._define_values_global(x, scope, where)
            if head.name == "define-record-type":
                return self.expand_toplevel(self._record_definitions(x, scope, where), scope)
        return self.expand(x, scope, where)

    def count(self) -> None:
        """One more expansion: every 1,000 count against the running budget (a macro
        that expands forever or a huge program stops at its load's limits)."""
        self.work += 1
        if self.work >= CHUNK:
            self.work = 0
            charge(CHUNK)

    def expand(self, x: object, scope: Scope, where: SourcePos | None = None) -> Node:
        self.count()
        if is_identifier(x):
            return self._variable(x, scope, where)
        if x.__class__ is not list:
            if x is NIL:
                raise self.error("empty combination () is not an expression", where)
            if x.__class__ is Vector:
                return Const(strip(x), where)
            return Const(x, where)
        where = self.pos(x, where)
        head = x[0]
        if is_identifier(head):
            b = resolve(head, scope)
            if isinstance(b, Special):
                return b.handler(self, x, scope, where)
            if isinstance(b, Macro):
                return self.expand(b.expand(x, scope, where), scope, where)
            if isinstance(b, Rewriter):
                return self.expand(b.rewrite(self, x, scope, where), scope, where)
        fn = self.expand(head, scope, where)
        args = []
        rest = x[1]
        for _ in split_list(rest)[0]:  # (refuses a circular list)
            args.append(self.expand(rest[0], scope, self.pos(rest, where)))
            rest = rest[1]
        if rest is not NIL:
            raise self.error("improper list in procedure call", where)
        return Call(fn, args, where)

    def _variable(self, ident, scope: Scope, where) -> Node:
        b = resolve(ident, scope)
        if isinstance(b, Var):
            return LocalRef(b, where)
        if isinstance(b, tuple):
            env, name = b
            if env.pending and not env.is_bound(name.name) and name.name not in env.declared:
                env.load_pending(name.name)  # of the Scheme half of a prelude library?
            if env.lazy and name.name in env.lazy:
                bind_deferred(env, name.name)
            getter = env.dynamic.get(name.name)
            if getter is not None:
                return Call(Const(getter), [], where)
            return GlobalRef(name.name, env, where)
        raise self.error(f"syntax keyword {base_symbol(ident).name} used as a variable", where)

    def _macroexpand_head(self, x, scope: Scope, where):
        """Expand macro uses at the head of ``x`` until a special form or other form."""
        while x.__class__ is list and is_identifier(x[0]):
            self.count()
            b = resolve(x[0], scope)
            if isinstance(b, Macro):
                x = b.expand(x, scope, where)
                continue
            if isinstance(b, Rewriter):
                x = b.rewrite(self, x, scope, where)
                continue
            return x, b
        return x, None

    # -- bodies --------------------------------------------------------------------------
    def body(self, forms, scope: Scope, where) -> Node:
        """A lambda/let body: internal definitions (letrec* semantics) then expressions."""
        pending = list_to_py(forms)
        if not pending:
            raise self.error("empty body", where)
        defs: list[tuple[Var, object, Scope, SourcePos | None]] = []
        exprs: list = []
        i = 0
        while i < len(pending):
            form = pending[i]
            i += 1
            fpos = self.pos(form, where)
            form, head = self._macroexpand_head(form, scope, fpos)
            if exprs or not isinstance(head, Special):
                exprs.append((form, fpos))
                continue
            name = head.name
            if name == "begin":
                pending[i:i] = list_to_py(form[1])
            elif name == "define":
                ident, value = self._define_parts(form, fpos)
                var = Var(base_symbol(ident).name)
                scope.bind(ident, var)
                defs.append((var, value, fpos, ident))
            elif name == "define-values":
                pending[i:i] = self._define_values_as_defines(form, scope, fpos)
            elif name == "define-record-type":
                pending[i:i] = list_to_py(self._record_definitions(form, scope, fpos)[1])
            elif name == "define-syntax":
                self._define_syntax(form, scope, fpos)
            else:
                exprs.append((form, fpos))
        if not exprs:
            raise self.error("body has no expression after its definitions", where)
        inits = []
        for var, value, fpos, ident in defs:
            node = self.expand(value, scope, fpos)
            if isinstance(node, Lambda):
                node.name = var.name
                node.self_var = var
            inits.append(node)
        body_nodes = [self.expand(f, scope, p) for f, p in exprs]
        body = body_nodes[0] if len(body_nodes) == 1 else Seq(body_nodes, where)
        if not defs:
            return body
        return Let([d[0] for d in defs], inits, body, True, where)

    def _define_parts(self, form, where):
        """(define x v) / (define (f . args) body...) / (define ((f a) b) ...) -> (ident, value)."""
        rest = form[1]
        if rest.__class__ is not list:
            raise self.error("define: bad syntax", where)
        target = rest[0]
        curried = 0
        while target.__class__ is list:  # procedure (possibly curried) definition
            curried += 1
            if curried > MAX_CURRIED:
                raise self.error("define: procedure name nested too deep", where)
            lam = [sym("lambda"), [target[1], rest[1]]]
            lam[0] = _LAMBDA_KEY
            rest = [target[0], [lam, NIL]]
            target = target[0]
        if not is_identifier(target):
            raise self.error("define: expected an identifier", where)
        tail = rest[1]
        if tail is NIL:
            return target, _UNSPECIFIED_FORM
        if tail.__class__ is not list or tail[1] is not NIL:
            raise self.error("define: expected exactly one value expression", where)
        return target, tail[0]

    def _define_global(self, form, scope: Scope, where) -> Node:
        ident, value = self._define_parts(form, where)
        name = base_symbol(ident)
        if not scope.toplevel:
            raise self.error("define: not allowed in an expression context", where)
        self.env.syntax.pop(name, None)
        self.env.declare(name.name)
        node = self.expand(value, scope, where)
        if isinstance(node, Lambda):
            node.name = name.name
            node.self_var = name.name
        return SetGlobal(name.name, self.env, node, True, where)

    def _define_syntax(self, form, scope: Scope, where) -> None:
        parts = list_to_py(form)
        if len(parts) != 3 or not is_identifier(parts[1]):
            raise self.error("define-syntax: expected (define-syntax name transformer)", where)
        macro = self.transformer(parts[2], scope, base_symbol(parts[1]).name, where)
        if scope.toplevel:
            self.env.syntax[base_symbol(parts[1])] = macro
        else:
            scope.bind(parts[1], macro)

    def transformer(self, spec, scope: Scope, name: str, where):
        spec, head = self._macroexpand_head(spec, scope, where)
        if isinstance(head, Special) and head.name == "syntax-rules":
            return parse_syntax_rules(spec, scope, name, where)
        if is_identifier(spec):  # (define-syntax new-name old-keyword)
            b = resolve(spec, scope)
            if isinstance(b, (Macro, Special, Rewriter)):
                return b
        raise self.error(f"{name}: expected a syntax-rules transformer", where)

    # -- record types ---------------------------------------------------------------------
    def _record_definitions(self, form, scope: Scope, where):
        """(define-record-type name (ctor field ...) pred (field accessor [modifier]) ...)
        -> (begin (define ...) ...) with the procedures as constants."""
        parts = list_to_py(form)
        if len(parts) < 3:
            raise self.error("define-record-type: bad syntax", where)
        type_name, ctor, pred = parts[1], parts[2], parts[3] if len(parts) > 3 else False
        field_specs = parts[4:]
        fields = []
        for spec in field_specs:
            spec_items = list_to_py(spec) if spec.__class__ is list else [spec]
            if not spec_items or not is_identifier(spec_items[0]):
                raise self.error("define-record-type: bad field spec", where)
            fields.append(spec_items)
        tname = base_symbol(type_name if is_identifier(type_name) else type_name[0]).name
        rtd = rt.RecordType(tname.strip("<>") or tname, tuple(base_symbol(f[0]).name
                                                              for f in fields))
        defs = [[_DEFINE_KEY, [type_name if is_identifier(type_name) else type_name[0],
                               [rtd, NIL]]]]
        index = {f[0]: i for i, f in enumerate(fields)}
        index_by_name = {base_symbol(f[0]): i for i, f in enumerate(fields)}
        if ctor is not False and ctor is not NIL:
            if is_identifier(ctor):
                cname, cfields = ctor, list(range(len(fields)))
            else:
                items = list_to_py(ctor)
                cname = items[0]
                cfields = []
                for fid in items[1:]:
                    i = index.get(fid, index_by_name.get(base_symbol(fid)))
                    if i is None:
                        raise self.error(f"define-record-type: constructor field {fid!r} is "
                                         "not a field", where)
                    cfields.append(i)
            defs.append([_DEFINE_KEY, [cname, [rt.record_constructor(rtd, cfields), NIL]]])
        if pred is not False and is_identifier(pred):
            defs.append([_DEFINE_KEY, [pred, [rt.record_predicate(rtd), NIL]]])
        for i, spec in enumerate(fields):
            if len(spec) > 1:
                defs.append([_DEFINE_KEY, [spec[1], [rt.record_accessor(rtd, i), NIL]]])
            if len(spec) > 2:
                defs.append([_DEFINE_KEY, [spec[2], [rt.record_modifier(rtd, i), NIL]]])
        result = NIL
        for d in reversed(defs):  # each d is already a Scheme list (define name value)
            result = [d, result]
        return [_BEGIN_KEY, result]

    # -- define-values ------------------------------------------------------------------
    def _formals_idents(self, formals) -> list:
        out, formals = split_list(formals)
        if formals is not NIL:
            out.append(formals)
        return out

    def _define_values_as_defines(self, form, scope: Scope, where) -> list:
        parts = list_to_py(form)
        if len(parts) != 3:
            raise self.error("define-values: expected (define-values formals expr)", where)
        formals, expr = parts[1], parts[2]
        idents = self._formals_idents(formals)
        temps = [Alias(sym("t"), scope) for _ in idents]
        tmp_formals = _rebuild_formals(formals, dict(zip(map(id, idents), temps)))
        defs = [_py_list([_DEFINE_KEY, i, _UNSPECIFIED_FORM]) for i in idents]
        # the final #f keeps the consumer's body non-empty for (define-values () ...)
        sets = [_py_list([_SET_KEY, i, t]) for i, t in zip(idents, temps)] + [False]
        setter = _py_list([_CALL_WITH_VALUES_KEY, _py_list([_LAMBDA_KEY, NIL, expr]),
                           _py_list([_LAMBDA_KEY, tmp_formals] + sets)])
        # An expression after definitions would end the definition part of a body, so
        # the assignment is wrapped as the value of a dummy definition.
        dummy = _py_list([_DEFINE_KEY, Alias(sym("dv"), scope), setter])
        return defs + [dummy]

    def _define_values_global(self, form, scope: Scope, where) -> Node:
        forms = self._define_values_as_defines(form, scope, where)
        return Seq([self.expand_toplevel(f, scope) for f in forms], where)


def _rebuild_formals(formals, mapping: dict):
    if formals.__class__ is list:
        return [mapping[id(formals[0])], _rebuild_formals(formals[1], mapping)]
    if formals is NIL:
        return NIL
    return mapping[id(formals)]


def _py_list(items: list, tail=NIL):
    result = tail
    for item in reversed(items):
        result = [item, result]
    return result


# Keywords that Python-built forms refer to: Specials used directly as identifiers would
# not be identifiers, so use aliases of the core names resolved in a scope that has them.
class _CoreScope(Scope):
    pass


def _core_alias(name: str) -> Alias:
    return Alias(sym(name), _CORE_SCOPE)


class _CoreEnv:
    """The environment in which core keyword aliases resolve: just the special forms."""

    def __init__(self) -> None:
        self.syntax: dict = {}


_CORE_ENV = _CoreEnv()
_CORE_SCOPE = Scope(None, _CORE_ENV)
_LAMBDA_KEY = _core_alias("lambda")
_DEFINE_KEY = _core_alias("define")
_BEGIN_KEY = _core_alias("begin")
_SET_KEY = _core_alias("set!")
_CALL_WITH_VALUES_KEY = None  # set in forms.py once the runtime procedure exists
_UNSPECIFIED_FORM = None  # set in forms.py: an expression whose value is unspecified


def install_core_syntax() -> None:
    """Make the core aliases resolve to the special forms (after forms.py registered them)."""
    global _CALL_WITH_VALUES_KEY, _UNSPECIFIED_FORM
    for name, sp in SPECIALS.items():
        _CORE_ENV.syntax[sym(name)] = sp
    _CALL_WITH_VALUES_KEY = rt.call_with_values
    _UNSPECIFIED_FORM = [_core_alias("if"), [False, [False, NIL]]]


__all__ = ["SPECIALS", "Expander", "Symbol", "install_core_syntax", "special"]
