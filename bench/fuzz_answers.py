"""Long-running fuzz of the answer -> JSON path (issue 11); run by hand, not in CI.

    python3 bench/fuzz_answers.py [N]                 # N generated values (default 20,000)
    python3 bench/fuzz_answers.py --dispatch [N]      # through Runtime.fire as well

Property (the same as tests/fuzz/test_answer_fuzz.py): whatever value a hook returns —
deep, shared, circular, huge, with characters JSON cannot hold — ``scheme_to_json`` then
``dumps`` gives JSON that reads back as the same data, or a ``BridgeError`` that names the
place in the answer, or (for a value too big to convert in the budget) the step limit;
the condition text of the value is bounded and never fails; never another exception,
never a hang (a per-value alarm of 10 s). ``--dispatch`` also fires each value as the
answer of a real Scheme hook through ``Runtime.fire`` and checks the dispatch result is
JSON the host can ``json.dumps``. Counts are printed every 2,000 values and at the end.
"""

from __future__ import annotations

import atexit
import json
import signal
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fuzz"))

from hypothesis import HealthCheck, Phase, given, settings
from test_answer_fuzz import COUNTS, RECIPES, build, check_answer, summary_line

from harness.bridge import dumps

PROGRESS_EVERY = 2000


class _Dispatch:
    """A runtime whose one hook answers whatever ``value`` holds (a Python box)."""

    def __init__(self) -> None:
        from harness.host_libraries.harness_procedures import HOOKS
        from harness.runtime import Runtime
        from harness.scheme.primitives import define
        self.box: list = [None]
        define(HOOKS, "%fuzz-value", lambda: self.box[0])  # the hook fetches the value
        home = Path(tempfile.mkdtemp(prefix="fuzz-answers-"))
        (home / "tools").mkdir()
        (home / "tools" / "answer.scm").write_text(
            "(register-hook 'post_message (lambda (p) (%fuzz-value)))\n")
        (home / "harness.toml").write_text("[limits.sandboxed]\nsteps = 1000000\n")
        self.runtime = Runtime(home)
        assert self.runtime.load_errors == {}, self.runtime.load_errors

    def check(self, value: object) -> None:
        self.box[0] = value
        result = self.runtime.fire("post_message", {})
        json.dumps(result)  # what a host does with it (no recursion error, no crash)
        dumps(result)
        assert len(result["answers"]) + len(result["errors"]) <= 1, result


def main() -> None:
    sys.set_int_max_str_digits(0)  # the host's json.dumps of answers with huge integers
    args = [a for a in sys.argv[1:] if a.isdigit()]
    count = int(args[0]) if args else 20_000
    dispatch = _Dispatch() if "--dispatch" in sys.argv else None
    atexit.register(lambda: print(summary_line(), flush=True))

    def alarm(signum, frame):
        raise AssertionError("a value took more than 10 s (a hang)")

    signal.signal(signal.SIGALRM, alarm)

    @settings(max_examples=count, deadline=None, database=None,
              phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    @given(RECIPES)
    def fuzz(recipe) -> None:
        value = build(recipe)
        check_answer(value)
        if dispatch is not None:
            signal.alarm(10)
            try:
                dispatch.check(value)
            finally:
                signal.alarm(0)
        if COUNTS["values"] % PROGRESS_EVERY == 0:
            print(summary_line(), flush=True)

    fuzz()


if __name__ == "__main__":
    main()  # on the main thread (its 8 MiB stack, as a host's), where alarms are delivered
