"""``harness run`` and ``harness eval`` in the sandboxed tier honour the sandboxed step,
time and memory budget (issues 11 and 15); ``--steps``/``--timeout`` change it; the
unsandboxed tier has only the limits given."""

from __future__ import annotations

import time

from cli_helpers import run_harness

ENDLESS = "(let loop () (loop))"
COUNT_TO = "(let loop ((i 0)) (if (< i {n}) (loop (+ i 1)) i))"


def test_an_endless_eval_stops_at_the_sandboxed_step_budget():
    start = time.monotonic()
    done = run_harness("eval", ENDLESS, timeout=60)
    assert done.returncode == 1
    assert "<eval>:1:1: step budget of 10,000,000 steps exhausted" in done.stderr
    assert "the sandboxed tier's limits apply" in done.stderr
    assert time.monotonic() - start < 30


def test_an_endless_program_stops_at_the_step_budget_given(tmp_path):
    program = tmp_path / "endless.scm"
    program.write_text(f"(display \"started\")\n{ENDLESS}\n")
    done = run_harness("run", str(program), "--steps", "50000")
    assert done.returncode == 1
    assert done.stdout == "started"
    assert f"{program}:2:1: step budget of 50,000 steps exhausted" in done.stderr


def test_the_time_limit_given_stops_a_busy_program():
    spin = ("(let ((end (+ (current-jiffy) (* 10 (jiffies-per-second)))))"
            " (let loop () (if (< (current-jiffy) end) (loop) 'finished)))")
    start = time.monotonic()
    done = run_harness("eval", spin, "--steps", "1000000000000", "--timeout", "0.5")
    assert done.returncode == 1
    assert "time limit of 0.5 s exceeded" in done.stderr
    assert time.monotonic() - start < 8


def test_raised_limits_let_a_long_computation_finish():
    done = run_harness("eval", COUNT_TO.format(n=200_000), "--steps", "1000000")
    assert (done.returncode, done.stdout.strip()) == (0, "200000")
    done = run_harness("eval", COUNT_TO.format(n=200_000), "--steps", "100000")
    assert done.returncode == 1


def test_the_unsandboxed_tier_has_only_the_limits_given():
    done = run_harness("eval", "--unsandboxed", COUNT_TO.format(n=11_000_000), timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "11000000")  # past 10,000,000
    done = run_harness("eval", "--unsandboxed", "--steps", "100000",
                       COUNT_TO.format(n=200_000))
    assert done.returncode == 1 and "step budget of 100,000 steps" in done.stderr
    assert "sandboxed tier's limits" not in done.stderr


def test_eval_in_process_runs_with_a_larger_young_generation_and_restores_it(capsys):
    # harness run/eval make the collector's young generation larger while the program runs
    # (a program building many pairs is not traversed over and over); an embedder calling
    # the command line in its own process gets its thresholds back
    import gc

    from harness.cli import main
    from harness.cli.scheme_commands import GC_YOUNG
    before = gc.get_threshold()
    seen = []
    gc.callbacks.append(lambda phase, info: seen.append(gc.get_threshold()[0]))
    program = ("(length (let loop ((i 0) (acc '()))"
               " (if (= i 200000) acc (loop (+ i 1) (cons (list i) acc)))))")
    try:
        assert main(["eval", program]) == 0
    finally:
        gc.callbacks.pop()
    assert capsys.readouterr().out.strip() == "200000"
    assert GC_YOUNG in seen  # collections during the program ran with the larger threshold
    assert gc.get_threshold() == before
