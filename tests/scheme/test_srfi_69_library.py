"""(srfi 69) as scheme_lib/srfi/69.sld over the native (srfi 69 core): what a program sees."""

import pytest

from harness.scheme.errors import SchemeError
from harness.scheme.interpreter import make_environment, run_source
from harness.scheme.libraries import PRELUDE_LIBRARIES
from harness.scheme.limits import Budget, pending_steps
from harness.scheme.printer import write_string


def test_a_prelude_binds_the_scheme_half_when_a_program_first_needs_it():
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    assert env.is_bound("hash-table-set!") and not env.is_bound("hash-table-merge!")
    assert write_string(run_source(env, "(let ((h (make-hash-table))) (hash-table-merge! h "
                                        "(alist->hash-table '((a . 1)))) "
                                        "(hash-table->alist h))")) == "((a . 1))"
    assert env.pending[-2:] == (("srfi", "1"), ("srfi", "132"))  # not loaded for it


def test_an_import_of_srfi_125_wins_over_the_prelude_s_srfi_69():
    # both define hash-table-update!/default's neighbours; the import's binding is used
    # even when the prelude's Scheme half is loaded after it
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    run_source(env, "(import (srfi 125) (srfi 128))")
    assert write_string(run_source(
        env, "(let ((h (hash-table (make-default-comparator) 'a 1 'b 2))) "
             "(hash-table-intersection! h (hash-table (make-default-comparator) 'b 0)) "
             "(hash-table-update!/default h 'b (lambda (v) (+ v 1)) 0) "
             "(hash-table->alist h))")) == "((b . 3))"


def test_its_native_core_is_not_importable_from_the_sandbox():
    env = make_environment("sandboxed", imports=())
    with pytest.raises(SchemeError, match="not available in the sandboxed tier"):
        run_source(env, "(import (srfi 69 core))")


def test_merge_counts_its_snapshot_and_its_loop_a_step_an_entry_each():
    """hash-table-merge! is Scheme: its snapshot of the entries counts one step an entry
    (HashTable.items), and its loop one an iteration, as any Scheme loop's."""
    env = make_environment("sandboxed", imports=PRELUDE_LIBRARIES)
    run_source(env, "(define big (make-hash-table)) (define small (make-hash-table)) "
                    "(do ((i 0 (+ i 1))) ((= i 5000)) (hash-table-set! big i i))"
                    "(hash-table-merge! small (make-hash-table))")  # compiled before counting
    pending = pending_steps()
    with Budget(steps=10**9, seconds=None) as budget:
        run_source(env, "(hash-table-merge! small big)")
    used = 10**9 - budget.steps - (pending_steps() - pending)
    assert 10_000 <= used < 11_000
