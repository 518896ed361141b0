"""Resume procedures: the rest of a compiled procedure's body after one of its call sites.

A frame waiting at a site (sites.py) is resumed by a procedure compiled from the core AST
of what its body still has to do once that call returns: the path from the body down to
the call is rebuilt with the call replaced by a parameter (the value it returned), operands
evaluated before the call replaced by the temporaries that held them, and every variable
the rest uses taken as a parameter (from the frame's locals; a ``set!`` variable arrives in
its box, so the copy and the original share it). Compiled once per site, on first re-entry.
"""

from __future__ import annotations

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
from harness.scheme.compiler import Compiler
from harness.scheme.errors import error
from harness.scheme.known_calls import free_vars
from harness.scheme.sites import CompiledUnit


def resume_procedure(unit: CompiledUnit, index: int) -> tuple[object, list[str]]:
    """(procedure, names): call ``procedure(value, *[locals[n] for n in names])`` to finish
    a frame waiting at site ``index`` of ``unit`` whose call returned ``value``. (A loop's
    own name is not among the locals of its Python function: the caller supplies it.)"""
    cached = unit.resumers.get(index)
    if cached is None:
        cached = unit.resumers[index] = _compile(unit, index)
    return cached


def _compile(unit: CompiledUnit, index: int) -> tuple[object, list[str]]:
    site = unit.sites[index]
    lam = site.lam
    body = unit.root if lam is None else lam.body
    path = _path_to(body, site.node)
    if path is None:
        raise error("internal error: a continuation's call site was not found")
    hole = Var("value")
    temps: dict[str, Var] = {}
    rest: Node = LocalRef(hole, site.node.pos)
    for parent, slot in reversed(path):
        rest = _rebuild(parent, slot, rest, unit, temps)
    compiler = Compiler(unit.env, unit.filename, unit.budget_check, resuming=True)
    own = {hole, *temps.values()}
    free = [v for v in free_vars(rest) if v not in own]
    params = [hole, *temps.values(), *free]
    resumed = Lambda(params, None, rest, f"{getattr(lam, 'name', None) or 'top'}-resumed",
                     site.node.pos)
    resumed.arrives_boxed = True
    code, constants = compiler.compile(resumed)
    namespace: dict = {}
    exec(code, unit.env.table, namespace)  # noqa: S102 - code the compiler generated
    names = [*temps, *(compiler.var_name(v) for v in free)]
    return namespace["h_make"](*constants)(), names


def _children(node: Node) -> list[tuple[tuple, Node]]:
    """(slot, child) of a node, in evaluation order; a lambda's body is not its child."""
    cls = node.__class__
    if cls is Call:
        return [(("fn",), node.fn)] + [(("arg", i), a) for i, a in enumerate(node.args)]
    if cls is If:
        return [(("test",), node.test), (("then",), node.then), (("else",), node.else_)]
    if cls is Seq:
        return [(("body", i), n) for i, n in enumerate(node.body)]
    if cls is Let:
        return [(("init", i), n) for i, n in enumerate(node.inits)] + [(("body",), node.body)]
    if cls is SetLocal or cls is SetGlobal:
        return [(("value",), node.value)]
    return []


def _path_to(root: Node, target: Node) -> list[tuple[Node, tuple]] | None:
    """The (ancestor, slot) pairs from ``root`` down to ``target``."""
    stack: list[tuple[Node, list]] = [(root, [])]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        for slot, child in _children(node):
            if child.__class__ is not Lambda:
                stack.append((child, [*path, (node, slot)]))
    return None


def _rebuild(parent: Node, slot: tuple, value: Node, unit: CompiledUnit,
             temps: dict[str, Var]) -> Node:
    """``parent`` whose child at ``slot`` is now ``value`` (already computed), with what
    was evaluated before that child taken from the temporaries that kept it."""
    cls = parent.__class__
    pos = parent.pos

    def before(n: Node) -> Node:
        t = unit.spilled.get(id(n))
        if t is None:
            return n  # recomputable (see compiler._is_recomputable)
        return LocalRef(temps.setdefault(t, Var("saved")), n.pos)

    if cls is Call:
        if slot[0] == "fn":
            return Call(value, parent.args, pos)
        i = slot[1]
        args = [before(a) for a in parent.args[:i]] + [value] + parent.args[i + 1:]
        return Call(before(parent.fn), args, pos)
    if cls is If:
        return If(value, parent.then, parent.else_, pos) if slot[0] == "test" else value
    if cls is Seq:
        i = slot[1]
        return value if i == len(parent.body) - 1 else Seq([value, *parent.body[i + 1:]], pos)
    if cls is Let:
        if slot[0] == "body":
            return value
        i = slot[1]
        return Let(parent.vars[i:], [value, *parent.inits[i + 1:]], parent.body, parent.rec, pos)
    if cls is SetLocal:
        return SetLocal(parent.var, value, pos)
    return SetGlobal(parent.name, parent.env, value, parent.define, pos)
