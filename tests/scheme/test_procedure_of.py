"""``sites.procedure_of``: the core AST a compiled procedure came from, which the analyses
of hooks read (hook_bounds.py, payload_use.py) instead of CPython's bytecode. It finds a
Lambda only where the answer is certain."""

from __future__ import annotations

from harness.scheme.ast_nodes import Call, Lambda
from harness.scheme.interpreter import Interpreter
from harness.scheme.primitives.lists import car
from harness.scheme.sites import procedure_of


def test_a_compiled_procedure_leads_to_its_lambda_and_its_inline_calls():
    interp = Interpreter(tier="sandboxed")
    proc = interp.eval_string("(lambda (payload extra) (car payload))")
    unit, lam = procedure_of(proc)
    assert lam.__class__ is Lambda
    assert [v.name for v in lam.params] == ["payload", "extra"]
    call = lam.body
    assert call.__class__ is Call
    assert unit.inlined[id(call)] is car  # written as payload[0]


def test_global_and_local_procedures_are_found_alike():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define (outer x) (let ((inner (lambda (y) y))) inner))")
    outer = interp.env.lookup("outer")
    assert [v.name for v in procedure_of(outer)[1].params] == ["x"]
    inner = outer(1)
    assert [v.name for v in procedure_of(inner)[1].params] == ["y"]


def test_a_name_two_procedures_of_one_form_share_finds_neither():
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(begin (define (f a) a) (define g f) (define (f b) b))")
    # both are Python functions named s_f in the same form: no way to tell them apart
    assert procedure_of(interp.env.lookup("g")) is None
    assert procedure_of(interp.env.lookup("f")) is None


def test_anything_else_has_no_lambda():
    interp = Interpreter(tier="sandboxed")
    assert procedure_of(interp.env.lookup("car")) is None
    assert procedure_of(lambda p: p) is None
    assert procedure_of(print) is None
    assert procedure_of(42) is None
