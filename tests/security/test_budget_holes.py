"""Hostile files that used to run far past their budget (issue 11): limit errors cancelled
by dynamic-wind, nested call-tool with a fresh budget, allocations inside primitives that
the memory limit never saw, primitives that loop or work quadratically without counting,
bignum operations, the reader and the expander, and shared structure expanded
exponentially.

Every case must end inside its budget (seconds + SLACK) with a clear error in that hook
alone, the other hooks answering and the next dispatch working. They run in forked
children with an address-space cap: a regression fails one test, it does not hang the
suite or eat the machine.
"""

from __future__ import annotations

import gc
import re

import pytest
from security_helpers import (
    BYSTANDER,
    FAST_LIMITS,
    NEXT_OK,
    OTHER_FILE,
    SECONDS,
    SLACK,
    STEPS,
    TIME_ONLY_LIMITS,
    answers_of,
    fire_task,
    fire_timed,
    hook_on,
    load_task,
    memory_limits,
    messages_of,
    run_homes,
    the_error_of,
    write_home,
)

from harness.runtime import Runtime
from harness.scheme.datatypes import Symbol

BYSTANDERS = [{"bystander": "same file"}, {"bystander": "other file"}]
LIMIT = r"step budget of [\d,]+ steps exhausted|time limit of [\d.]+ s exceeded"
TIME = r"time limit of [\d.]+ s exceeded"

CIRCULAR = "(let ((l (list #\\a #\\b))) (set-cdr! (cdr l) l) l)"
CIRCULAR_STRINGS = '(let ((l (list "a" "b"))) (set-cdr! (cdr l) l) l)'
HUGE_INDEX = "100000000000"
SHARED_PREFIX_KEYS = (
    "(let ((h (make-hash-table))) (do ((i 0 (+ i 1))) ((= i 100000) h)"
    "  (hash-table-set! h (append (make-list 40 0) (list i)) i)))")
BIG = "(define a (expt 7 100000)) (define b (+ 1 (expt 3 200000)))\n"


#: only the step budget: for work that must be counted (the clock would stop it anyway)
STEPS_ONLY_LIMITS = FAST_LIMITS.replace(f"seconds = {SECONDS}", "seconds = false")
WALKED_TABLE = ("(define h (make-hash-table)) (do ((i 0 (+ i 1))) ((= i 20000))"
                " (hash-table-set! h i i))\n")


def _spin(seconds: str) -> str:
    return (f"(let ((end (+ (current-jiffy) (* {seconds} (jiffies-per-second)))))"
            "  (let loop () (if (< (current-jiffy) end) (loop) 'done)))")


#: name -> (limits, file prelude, hook body, error pattern); the limits are FAST_LIMITS
#: (300,000 steps and 0.5 s), TIME_ONLY_LIMITS (0.5 s, no step budget: only the clock can
#: stop it), STEPS_ONLY_LIMITS (300,000 steps, no clock) or a memory limit
CASES = {
    # -- limit errors cannot be cancelled --
    "dynamic-wind after thunk escaping a step limit": (FAST_LIMITS, "", (
        "(let loop () (call/cc (lambda (k) (dynamic-wind (lambda () #f)"
        " (lambda () (let l () (l))) (lambda () (k 1))))) (loop))"), LIMIT),
    "dynamic-wind after thunk escaping a time limit": (TIME_ONLY_LIMITS, "", (
        "(let loop () (call/cc (lambda (k) (dynamic-wind (lambda () #f)"
        " (lambda () (let l () (l))) (lambda () (k 1))))) (loop))"), TIME),
    "guard around a call-tool that ran out": (FAST_LIMITS, (
        "(define-tool burn (description \"\") (parameters '())"
        "  (execute (lambda (args) (let loop () (loop)))))\n"),
        "(let loop () (guard (e (#t #f)) (call-tool \"burn\" '())) (loop))", LIMIT),
    # -- nested call-tool is charged to its caller --
    # steps only: under load the 0.5 s clock could end it first, and this case is about
    # the steps a nested call-tool charges its caller
    "call-tool twice past the caller's steps": (STEPS_ONLY_LIMITS, (
        "(define-tool burn (description \"\") (parameters '())"
        f"  (execute (lambda (args) (let loop ((i 0)) (if (< i {STEPS * 2 // 3}) "
        "(loop (+ i 1)) \"done\")))))\n"),
        "(begin (call-tool \"burn\" '()) (call-tool \"burn\" '()) 'finished)",
        r"step budget of 300,000 steps exhausted"),
    "call-tool three times past the caller's clock": (TIME_ONLY_LIMITS, (
        "(define-tool slow (description \"\") (parameters '())"
        f"  (execute (lambda (args) {_spin('3/10')} \"done\")))\n"),
        ("(begin (call-tool \"slow\" '()) (call-tool \"slow\" '())"
         " (call-tool \"slow\" '()) 'finished)"), TIME),
    # -- allocations inside primitives count against memory_mb --
    "vector-copy kept alive": (memory_limits(64), "", (
        "(let ((v (make-vector 1000000 0)))"
        "  (let loop ((keep '())) (loop (cons (vector-copy v) keep))))"),
        r"memory limit of 64 MB exceeded"),
    "vector->list kept alive": (memory_limits(64), "", (
        "(let ((v (make-vector 200000 0)))"
        "  (let loop ((keep '())) (loop (cons (vector->list v) keep))))"),
        r"memory limit of 64 MB exceeded"),
    "string-split kept alive": (memory_limits(64), "", (
        "(let ((s (apply string-append (make-list 100000 \"a \"))))"
        "  (let loop ((keep '())) (loop (cons (string-split s #\\space) keep))))"),
        r"memory limit of 64 MB exceeded"),
    "conses with no step budget": (memory_limits(64, "unsandboxed"), "", (
        "(let loop ((keep '())) (loop (cons (make-string 100 #\\a) keep)))"),
        r"memory limit of 64 MB exceeded"),
    # -- primitives that looped or worked quadratically without counting --
    "list->string of a circular list": (FAST_LIMITS, "", f"(list->string {CIRCULAR})",
                                        r"list->string: expected a list of characters"),
    "string-join of a circular list": (FAST_LIMITS, "", f"(string-join {CIRCULAR_STRINGS})",
                                       r"string-join: expected a list of strings"),
    "list-tail far into a circular list": (
        TIME_ONLY_LIMITS, "", f"(list-tail {CIRCULAR} {HUGE_INDEX})", TIME),
    "list-ref far into a circular list": (
        FAST_LIMITS, "", f"(list-ref {CIRCULAR} {HUGE_INDEX})", LIMIT),
    "drop far into a circular list": (
        TIME_ONLY_LIMITS, "", f"(drop {CIRCULAR} {HUGE_INDEX})", TIME),
    "take far from a circular list": (
        FAST_LIMITS, "", f"(take {CIRCULAR} {HUGE_INDEX})",
        r"take: size 100000000000 exceeds the limit"),
    "apply to a circular list": (FAST_LIMITS, "", f"(apply + {CIRCULAR})",
                                 r"apply: expected a proper list as last argument"),
    "quasiquote splicing a circular list": (
        FAST_LIMITS, "", f"(let ((c {CIRCULAR})) `(1 ,@c 2))",
        r"unquote-splicing: expected a proper list"),
    "lset-union of long lists": (
        FAST_LIMITS, "", "(lset-union equal? (iota 100000) (iota 100000 100000))", LIMIT),
    "delete-duplicates with a builtin predicate": (
        FAST_LIMITS, "", "(delete-duplicates (iota 100000) =)", LIMIT),
    "hash table whose keys all hash alike": (
        FAST_LIMITS, "", ("(let ((h (make-hash-table char-ci=? (lambda (c) 0))))"
                          "  (do ((i 0 (+ i 1))) ((= i 100000) h)"
                          "    (hash-table-set! h (integer->char (+ i 256)) i)))"), LIMIT),
    "equal? keys sharing their hashed prefix": (FAST_LIMITS, "", SHARED_PREFIX_KEYS, LIMIT),
    "length of a long list, over and over": (
        TIME_ONLY_LIMITS, "",
        "(let ((l (make-list 1000000 1))) (let loop () (length l) (loop)))", TIME),
    "sort of a long list with a builtin predicate": (
        FAST_LIMITS, "", "(list-sort < (reverse (iota 200000)))", LIMIT),
    "gcd of big numbers, over and over": (
        TIME_ONLY_LIMITS, BIG, "(let loop () (gcd a b) (loop))", TIME),
    "quotient of big numbers, over and over": (
        TIME_ONLY_LIMITS, BIG, "(let loop () (quotient b a) (loop))", TIME),
    "/ of big numbers, over and over": (
        TIME_ONLY_LIMITS, BIG, "(let loop () (/ b a) (loop))", TIME),
    "exact-integer-sqrt of a big number, over and over": (
        TIME_ONLY_LIMITS, BIG, "(let loop () (exact-integer-sqrt b) (loop))", TIME),
    "rationalize of big numbers": (
        TIME_ONLY_LIMITS, BIG, "(let loop () (rationalize (/ a b) (/ 1 b)) (loop))", TIME),
    "reading one list of 300,000 elements": (
        TIME_ONLY_LIMITS, "",
        ("(read (open-input-string (string-append \"(\" (apply string-append "
         "(make-list 300000 \"1 \")) \")\")))"), TIME),
    # -- shared structure --
    "an answer of 40 levels of (list x x)": (
        FAST_LIMITS, "",
        "(let loop ((i 0) (x (list 1))) (if (= i 40) x (loop (+ i 1) (list x x))))",
        LIMIT + r"|holds more than [\d,]+ values"),
    "json-stringify of 40 levels of (list x x)": (
        FAST_LIMITS, "",
        ("(json-stringify (let loop ((i 0) (x (list 1))) (if (= i 40) x "
         "(loop (+ i 1) (list x x)))))"), LIMIT + r"|holds more than [\d,]+ values"),
    "hash-table-walk with a primitive, over and over": (
        STEPS_ONLY_LIMITS, WALKED_TABLE, "(let loop () (hash-table-walk h cons) (loop))",
        LIMIT),
    "hash-table-fold with a primitive, over and over": (
        STEPS_ONLY_LIMITS, WALKED_TABLE, "(let loop () (hash-table-fold h list 0) (loop))",
        LIMIT),
    "a loop inside a scheme_lib library procedure": (
        STEPS_ONLY_LIMITS, "(import (chibi diff))\n",
        "(let ((a (iota 1000))) (let loop () (lcs-with-positions a a) (loop)))", LIMIT),
    "write of 40 levels of (vector x x) to a string": (
        TIME_ONLY_LIMITS, "",
        ("(string-length (with-output-to-string (lambda () (write (let loop ((i 0) (x 1))"
         " (if (= i 40) x (loop (+ i 1) (vector x x))))))))"),
        TIME + r"|exceeds \d+ characters"),
}


#: the cases whose error is placed in a library the hook called (the others: runaway.scm)
ERROR_PLACE = {"a loop inside a scheme_lib library procedure": "chibi/diff",
               "lset-union of long lists": "srfi/1",
               "delete-duplicates with a builtin predicate": "srfi/1",
               "string-split kept alive": "srfi/130"}

#: the cases that run in the unsandboxed tier (the others are sandboxed)
UNSANDBOXED = {"conses with no step budget"}


@pytest.fixture(scope="module")
def hole_results(tmp_path_factory) -> dict:
    homes = {}
    for name, (toml, prelude, body, _) in CASES.items():
        where = "admin/runaway.scm" if name in UNSANDBOXED else "runaway.scm"
        text = prelude + hook_on("post_message", body) + BYSTANDER
        homes[name] = ({where: text, **OTHER_FILE}, toml)
    return run_homes(tmp_path_factory, "hole", homes, fire_task)


@pytest.mark.parametrize("case", list(CASES))
def test_a_runaway_ends_alone_inside_its_budget(hole_results, case):
    run = hole_results[case]
    pattern = CASES[case][3]
    message = the_error_of(run, ERROR_PLACE.get(case, "runaway"), pattern)
    assert not re.search(r"MemoryError|Error\b", message.splitlines()[0]), message[:600]
    value = run.value
    assert value["answers"] == BYSTANDERS
    assert value["next_answers"] == [NEXT_OK]
    seconds = 10.0 if "memory limit" in pattern else SECONDS
    assert value["cpu"] < seconds + SLACK, run.describe()


# -- load time: the expander and the reader on hostile source ---------------------------------

LOAD_CASES = {
    "a macro that expands to itself": (
        "(define-syntax m (syntax-rules () ((_) (m)))) (m)\n", LIMIT),
    "a macro that doubles its input": (
        "(define-syntax m (syntax-rules () ((_ x ...) (m x ... x ...)))) (m 1)\n", LIMIT),
    "a procedure call whose arguments are circular": (
        "(+ . #0=(1 . #0#))\n", r"expected a finite list, got a circular list"),
    "a define whose name is circular": (
        "(define #0=(#0# . a) 1)\n", r"define: procedure name nested too deep"),
}


@pytest.fixture(scope="module")
def load_results(tmp_path_factory) -> dict:
    homes = {name: ({"hostile.scm": text, **OTHER_FILE}, FAST_LIMITS)
             for name, (text, _) in LOAD_CASES.items()}
    return run_homes(tmp_path_factory, "load", homes, load_task)


@pytest.mark.parametrize("case", list(LOAD_CASES))
def test_a_hostile_file_is_a_load_error_inside_its_budget(load_results, case):
    run = load_results[case]
    assert run.status == "ok", run.describe()
    (message,) = run.value["load_errors"]
    assert re.search(r"hostile\.scm:\d+:\d+: (" + LOAD_CASES[case][1] + ")",
                     message.splitlines()[0]), message[:600]
    assert run.value["answers"] == [{"bystander": "other file"}]
    assert run.value["cpu"] < SECONDS + SLACK, run.describe()


# -- in-process cases (fast when fixed) --------------------------------------------------------

def test_integer_keys_made_to_collide_stay_fast(tmp_path):
    """Python hashes ints modulo 2**61 - 1: keys i * (2**61 - 1) would all collide in a
    dict (quadratic, in C where no limit looks); they are hashed as bytes."""
    body = ("(let ((h (make-hash-table eqv?)) (p (- (expt 2 61) 1)))"
            "  (do ((i 0 (+ i 1))) ((= i 30000) (hash-table-size h))"
            "    (hash-table-set! h (* i p) i)))")
    # the time limit is wide (a loaded machine runs this in over half a second of wall
    # time); what tells a quadratic table from a sound one is the CPU time it takes
    toml = FAST_LIMITS.replace(f"seconds = {SECONDS}", "seconds = 30.0", 1)
    rt = Runtime(write_home(tmp_path, {"keys.scm": hook_on("post_message", body)},
                            toml=toml))
    result, cpu = fire_timed(rt)
    assert messages_of(result) == [] and answers_of(result) == [30000]
    assert cpu < SECONDS + SLACK


def test_interned_symbols_do_not_outlive_their_use(tmp_path):
    toml = FAST_LIMITS.replace(f"steps = {STEPS}", "steps = 20000000", 1).replace(
        f"seconds = {SECONDS}", "seconds = 30.0", 1)
    body = ("(let loop ((i 0)) (if (< i 50000) (begin (string->symbol "
            "(string-append \"sym-\" (number->string i))) (loop (+ i 1))) 'done))")
    rt = Runtime(write_home(tmp_path, {"symbols.scm": hook_on("post_message", body)},
                            toml=toml))
    gc.collect()
    before = len(Symbol._table)
    for _ in range(2):
        result = rt.fire("post_message", {})
        assert answers_of(result) == ["done"], messages_of(result)
    gc.collect()
    assert len(Symbol._table) - before < 1000  # not 100,000


def test_a_hook_cannot_change_the_context_name_another_file_reads(tmp_path):
    files = {"a_writer.scm": hook_on("pre_message", "(string-fill! %context-name% #\\x)"),
             "b_reader.scm": hook_on("pre_message", '(list (cons "prompt" %context-name%))')}
    rt = Runtime(write_home(tmp_path, files))
    for _ in range(2):
        result = rt.fire("pre_message", {"prompt": "p", "context_name": "coding"})
        assert result["outcome"] == {"prompt": "coding"}
        (message,) = messages_of(result)
        assert "string-fill!: this string is shared and cannot be changed" in message
