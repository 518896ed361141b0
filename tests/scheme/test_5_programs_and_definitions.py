"""R7RS 5: definitions, define-values, define-record-type, libraries and import."""

import pytest

from harness.host_libraries import offer_to_scheme

CASES = [
    ("(define add3 (lambda (x) (+ x 3))) (add3 3)", "6"),
    ("(define first car) (first '(1 2))", "1"),
    (("(let ((x 5)) (define foo (lambda (y) (bar x y))) (define bar (lambda (a b) (+ (* a b) a)))"
     " (foo (+ x 3)))"), "45"),
    ("(define ((curried a) b) (list a b)) ((curried 1) 2)", "(1 2)"),
    ("(define x) (set! x 1) x", "1"),
    ("(define-values (x y) (exact-integer-sqrt 17)) (list x y)", "(4 1)"),
    ("(let () (define-values (x y) (values 1 2)) (+ x y))", "3"),
    ("(define-values (a . rest) (values 1 2 3)) (list a rest)", "(1 (2 3))"),
    ("(define-values all (values 1 2)) all", "(1 2)"),
    ("(let () (define-values () (values)) 'ok)", "ok"),
    ("(define (f) (define-values (q r) (floor/ 17 5)) (list q r)) (f)", "(3 2)"),
    (("(define-record-type <pare> (kons x y) pare? (x kar set-kar!) (y kdr)) "
     "(list (pare? (kons 1 2)) (pare? (cons 1 2)) (kar (kons 1 2)) (kdr (kons 1 2)) "
     "(let ((k (kons 1 2))) (set-kar! k 3) (kar k)))"), "(#t #f 1 2 3)"),
    (("(define-record-type node (make-node val) node? (val node-val) (next node-next "
     "set-node-next!)) (node-next (make-node 1))"), "#f"),
    ("(define (f) (define-record-type pt (mk x) pt? (x px)) (px (mk 9))) (f)", "9"),
    (("(define-library (my lib) (export double (rename triple thrice)) (import (scheme base)) "
     "(begin (define (double x) (* 2 x)) (define (triple x) (* 3 x)))) "
     "(import (my lib)) (list (double 2) (thrice 2))"), "(4 6)"),
    (("(define-library (my macros) (export unless2) (import (scheme base)) (begin "
     "(define-syntax unless2 (syntax-rules () ((_ c e) (if c #f e)))))) "
     "(import (prefix (my macros) m:)) (m:unless2 #f 'ran)"), "ran"),
    (("(define-library (priv) (export get) (import (scheme base)) (begin (define secret 42) "
     "(define (get) secret))) (import (priv)) (get)"), "42"),
    ("(import (only (scheme base) car)) (car '(1))", "1"),
    ("(import (rename (scheme base) (car kar))) (kar '(5))", "5"),
    ("(import (except (scheme base) cdr)) (car '(5))", "5"),
    ("(import (srfi 1)) (filter odd? '(1 2 3))", "(1 3)"),
    ("(cond-expand (r7rs 'yes) (else 'no))", "yes"),
    ("(cond-expand ((and r7rs (not no-such-feature)) 'both) (else 'no))", "both"),
    ("(cond-expand ((library (scheme base)) 'have) (else 'no))", "have"),
    ("(cond-expand ((library (no such lib)) 'have) (else 'no))", "no"),
    ("(cond-expand (no-such-feature (define z 1)) (else (define z 2))) z", "2"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_program(scheme, src, expected):
    assert scheme(src) == expected


@pytest.mark.parametrize("src,message", [
    ("(import (no such library))", "unknown library (no such library)"),
    ("(import (only (scheme base) no-such-name))", "no-such-name not exported"),
    ("(define-library (bad) (export missing) (begin 1)) 1", "exported name missing"),
    ("(define-record-type p (mk z) p?)", "constructor field"),
    ("(let () (import (scheme base)) 1)", "only allowed at top level"),
])
def test_program_errors(scheme, src, message):
    assert message in scheme.error(src)


def test_sandbox_refuses_unsandboxed_libraries(sandboxed):
    for lib in ("(scheme file)", "(scheme process-context)", "(scheme eval)", "(scheme r5rs)"):
        assert "needs the unsandboxed tier" in sandboxed.error(f"(import {lib})")


def test_sandbox_names_an_unknown_library_as_unknown(sandboxed):
    assert "import: unknown library (no such lib)" in sandboxed.error("(import (no such lib))")
    # a library that exists but is not the sandbox's is refused as such (the (harness ...)
    # libraries exist once the layer above the interpreter offers them, as a runtime does)
    offer_to_scheme()
    assert "not available in the sandboxed tier" in sandboxed.error("(import (harness tools-base))")


@pytest.mark.parametrize("src,expected", [
    ("(import (scheme list)) (fold cons* '() '(a b c) '(1 2 3))", "(c 3 b 2 a 1)"),
    ("(import (scheme sort)) (list-sort < (list 3 1 2))", "(1 2 3)"),
    (("(import (scheme box)) (define b (box 1)) (set-box! b (+ (unbox b) 1)) (list (unbox b) "
     "(box? b) (box? 1))"), "(2 #t #f)"),
    (("(import (scheme hash-table)) (define h (make-hash-table)) (hash-table-set! h 'a 1) "
     "(hash-table-set! h 'b 2) (list (hash-table-count (lambda (k v) (> v 1)) h) "
     "(hash-table-empty? h) (hash-table-intern! h 'c (lambda () 3)) (hash-table-ref h 'c))"),
     "(1 #f 3 3)"),
    (("(import (scheme hash-table)) (define h (make-hash-table)) (hash-table-set! h 1 2) "
     "(call-with-values (lambda () (hash-table-entries h)) list)"), "((1) (2))"),
    (("(import (scheme hash-table)) (define h (make-hash-table)) (hash-table-set! h 1 2) "
     "(hash-table-set! h 3 4) (hash-table-prune! (lambda (k v) (= k 1)) h) "
     "(list (hash-table-map->list + h) (hash-table-find (lambda (k v) (and (= k 3) v)) h "
     "(lambda () 'none)) (hash-table-size (hash-table-empty-copy h)))"), "((7) 4 0)"),
])
def test_r7rs_large_names_of_the_libraries_harness_has(sandboxed, src, expected):
    assert sandboxed(src) == expected


def test_r5rs_environments(scheme):
    assert scheme("(import (scheme r5rs)) (eval '(* 6 7) (scheme-report-environment 5))") == "42"
    assert scheme("(import (scheme r5rs)) (eval '(if #f 1 2) (null-environment 5))") == "2"
    assert "unbound variable: car" in scheme.error(
        "(import (scheme r5rs)) (eval '(car '(1)) (null-environment 5))")
    assert "the version 5 or 7, got 6" in scheme.error(
        "(import (scheme r5rs)) (null-environment 6)")


def test_r7rs_report_environments(scheme):
    # R7RS 6.12 allows versions besides 5: 7 gives R7RS-small's bindings (as chibi-scheme)
    assert scheme("(import (scheme r5rs)) (eval '(let-values (((a b) (values 1 2))) "
                  "(string-map char-upcase (string #\\a))) (scheme-report-environment 7))") \
        == '"A"'
    assert scheme("(import (scheme r5rs)) (eval '(when #t (guard (e (#t 'ok)) 1)) "
                  "(null-environment 7))") == "1"
    assert "unbound variable: string-map" in scheme.error(
        "(import (scheme r5rs)) (eval '(string-map char-upcase \"a\") (null-environment 7))")


def test_user_libraries_are_local_to_their_environment():
    from harness.scheme.interpreter import Interpreter
    a, b = Interpreter(), Interpreter()
    a.eval_string("(define-library (mine) (export x) (import (scheme base)) (begin (define x 1)))")
    assert a.eval_string("(import (mine)) x") == 1
    with pytest.raises(Exception, match="unknown library"):
        b.eval_string("(import (mine))")


def test_built_in_library_names_cannot_be_redefined(scheme):
    msg = scheme.error("(define-library (scheme base) (export car) (begin (define car 1)))")
    assert "reserved for harness's own libraries" in msg
