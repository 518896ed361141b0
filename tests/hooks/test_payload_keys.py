"""A hook that only looks its payload up with ``(assoc "KEY" p)`` gets an alist of just
those entries (harness/scheme/payload_use.py): what it can see is the same as with the whole
payload converted, and a file's hooks still share one copy."""

from __future__ import annotations

import pytest

from harness.runtime import Runtime
from harness.scheme.interpreter import Interpreter
from harness.scheme.payload_use import payload_keys
from tests.hooks.test_dispatcher import make_home

PAYLOAD = {"tool_name": "shell_exec", "arguments": {"command": "ls", "n": [1, 2]},
           "request_id": "r1"}


@pytest.mark.parametrize(("src", "keys"), [
    ("(lambda (p) '())", set()),
    ("(lambda (p) (cdr (assoc \"tool_name\" p)))", {"tool_name"}),
    ("(lambda (p) (list (assoc \"a\" p) (assoc \"b\" p) (assoc \"a\" p)))", {"a", "b"}),
    ("(lambda (p) p)", None),
    ("(lambda (p) (assoc \"a\" p equal?))", None),      # a comparison of its own
    ("(lambda (p) (assq 'a p))", None),
    ("(lambda (p) (assoc 'a p))", None),                # a key that is no string
    ("(lambda (p) (let ((k \"a\")) (assoc k p)))", None),  # a key in a variable
    ("(lambda (p) (let ((q p)) (assoc \"a\" q)))", None),
    ("(lambda (p) (lambda () (assoc \"a\" p)))", None),  # captured
    ("(lambda (p) (length p))", None),
    ("(lambda (p) (if (assoc \"a\" p) (g p) 1))", None),
    # through procedures of the file that look their argument up the same way
    ("(lambda (p) (if (tool-of p) 1 2))", {"tool_name"}),
    ("(lambda (p) (if (pick \"x\" p 1) (assoc \"b\" p) 2))", {"b", "c"}),
    ("(lambda (p) (if (via p) 1 2))", {"tool_name"}),             # passed on again
    ("(lambda (p) (if (walk p 3) 1 2))", {"a"}),                  # a recursion
    ("(lambda (p) (if (ignore p) 1 2))", set()),                  # never read there
    ("(lambda (p) (if (g p) 1 2))", None),                        # given back
    ("(lambda (p) (if (two p p) 1 2))", None),                    # one use of two is not
    ("(lambda (p) (if (rest p) 1 2))", None),                     # a rest parameter
    ("(lambda (p) (if (tool-of p 1) 1 2))", None),                # the wrong arity
    ("(lambda (p) (if (tool-of (cdr p)) 1 2))", None),            # not the parameter
    ("(lambda (p) (tool-of p))", None),                           # a tail call: trampolined
    ("(lambda (p) (if (loops p) 1 2))", None),                    # an inner procedure has it
])
def test_payload_keys_only_when_every_use_is_an_assoc_of_a_constant(src, keys):
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("""
      (define (g x) x)
      (define (tool-of p) (cdr (assoc "tool_name" p)))
      (define (pick k p n) (assoc "c" p))
      (define (via q) (if (tool-of q) #t #f))
      (define (walk p n) (if (= n 0) (assoc "a" p) (if (walk-on p n) #t #f)))
      (define (walk-on p n) (if (walk p 0) #t #f))
      (define (ignore p) 1)
      (define (two a b) (if (assoc "a" a) b #f))
      (define (rest . ps) (assoc "a" (car ps)))
      (define (loops p) (let loop ((i 3)) (if (= i 0) (assoc "a" p) (loop (- i 1)))))""")
    found = payload_keys(interp.eval_string(src))
    assert (None if found is None else set(found.texts)) == keys


def _seen(tmp_path, files: dict[str, str], payload: dict = PAYLOAD) -> list:
    """What each hook printed (its output, through the trace)."""
    rt = Runtime(make_home(tmp_path, files))
    rt.dispatcher.trace_enabled = True
    result = rt.fire("post_message", payload)
    assert result["errors"] == [], result["errors"]
    return [entry.get("output") for entry in result["trace"]]


def test_a_hook_reading_one_key_sees_its_whole_value(tmp_path):
    assert _seen(tmp_path, {"a.scm": """
        (register-hook 'post_message
          (lambda (p) (write (cdr (assoc "arguments" p))) (write (assoc "missing" p)) '()))
    """}) == ['(("command" . "ls") ("n" 1 2))#f']


def test_hooks_of_one_file_share_one_copy_holding_every_key_they_read(tmp_path):
    assert _seen(tmp_path, {"a.scm": """
        (register-hook 'post_message
          (lambda (p) (set-cdr! (assoc "tool_name" p) "changed") '()))
        (register-hook 'post_message
          (lambda (p) (write (cdr (assoc "tool_name" p))) (write (assoc "request_id" p)) '()))
    """}) == [None, '"changed"("request_id" . "r1")']


def test_a_hook_that_sees_the_whole_payload_makes_its_file_convert_it_all(tmp_path):
    assert _seen(tmp_path, {"a.scm": """
        (register-hook 'post_message (lambda (p) (write (assoc "request_id" p)) '()))
        (register-hook 'post_message (lambda (p) (write (length p)) '()))
    """}) == ['("request_id" . "r1")', "3"]


def test_another_file_gets_its_own_copy(tmp_path):
    assert _seen(tmp_path, {
        "a.scm": """(register-hook 'post_message
                      (lambda (p) (set-cdr! (assoc "tool_name" p) "mine") '()))""",
        "b.scm": """(register-hook 'post_message
                      (lambda (p) (write (cdr (assoc "tool_name" p))) '()))""",
    }) == [None, '"shell_exec"']


def test_a_redefined_assoc_sees_the_whole_payload(tmp_path):
    # the first hook replaces assoc with one that counts the entries: the second hook's
    # (assoc "tool_name" p) is then that procedure, and must get everything
    assert _seen(tmp_path, {"a.scm": """
        (register-hook 'post_message
          (lambda (p) (set! assoc (lambda (k alist) (length alist))) '()))
        (register-hook 'post_message (lambda (p) (write (assoc "tool_name" p)) '()))
    """}) == [None, "3"]


def test_a_changed_key_string_sees_the_whole_payload(tmp_path):
    # Scheme strings are mutable: should the literal a hook looks up ever read otherwise,
    # the hook gets the whole payload (here the string is changed from outside)
    rt = Runtime(make_home(tmp_path, {"a.scm": """
        (register-hook 'post_message (lambda (p) (write (assoc "tool_name" p)) '()))"""}))
    rt.dispatcher.trace_enabled = True
    (hook,) = rt.registry.runs_for("post_message")[0].hooks
    keys = hook.payload_keys
    assert keys.texts == {"tool_name"} and keys.hold(hook.env.table)
    keys.strings[0].s = "request_id"
    assert not keys.hold(hook.env.table)
    trace = rt.fire("post_message", PAYLOAD)["trace"]
    assert trace[0]["output"] == '("request_id" . "r1")'


def test_a_hook_sees_through_a_procedure_of_its_file_what_it_would_see_whole(tmp_path):
    assert _seen(tmp_path, {"a.scm": """
        (define (tool-of p) (cdr (assoc "tool_name" p)))
        (define (args-of p) (cdr (assoc "arguments" p)))
        (register-hook 'post_message
          (lambda (p) (write (list (tool-of p) (args-of p))) '()))
    """}) == ['("shell_exec" (("command" . "ls") ("n" 1 2)))']


def test_a_redefined_procedure_of_the_file_sees_the_whole_payload(tmp_path):
    # the first hook replaces the procedure the second passes its payload to with one that
    # counts the entries: it must get them all
    assert _seen(tmp_path, {"a.scm": """
        (define (tool-of p) (cdr (assoc "tool_name" p)))
        (register-hook 'post_message
          (lambda (p) (set! tool-of (lambda (q) (length q))) '()))
        (register-hook 'post_message (lambda (p) (write (if (tool-of p) 1 2)) (write (tool-of p)) '()))
    """}) == [None, "13"]


def test_a_procedure_that_only_passes_the_payload_on_still_gets_it(tmp_path):
    # no key is read anywhere, yet the procedure is called with the payload: it must get
    # one (not '()), in case it is redefined to read it
    assert _seen(tmp_path, {"a.scm": """
        (define (peek p) 0)
        (register-hook 'post_message (lambda (p) (set! peek (lambda (q) (length q))) '()))
        (register-hook 'post_message (lambda (p) (write (+ (peek p) 0)) '()))
    """}) == [None, "3"]
