"""Long-running fuzz target for the Scheme reader (issue 6); run by hand, not in CI.

    pip install atheris                       # coverage-guided (libFuzzer); optional
    python3 bench/fuzz_reader.py -runs=200000 -timeout=5 -max_len=512 [corpus_dir]
    python3 bench/fuzz_reader.py --hypothesis 100000   # no atheris: a long hypothesis run

Property (the same as tests/fuzz/test_reader_fuzz.py): for any text, ``read_all`` returns
Scheme data or raises ``ReadError`` with a position, and reading datum after datum with
``read_one`` reaches EOF; never another exception, never a hang (libFuzzer's -timeout
flags a slow input; the hypothesis run uses a per-input alarm). The one known reader bug
(a '.' after a prefix comes back as the private _Dot object) is counted, not reported,
unless --strict is given; anything else stops the run (libFuzzer saves the input). The number of inputs run is printed
every 50,000 inputs and at the end.
"""

from __future__ import annotations

import atexit
import signal
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import atheris
except ImportError:  # the hypothesis fallback needs nothing extra
    atheris = None

if atheris is not None:
    with atheris.instrument_imports():
        from harness.scheme.datatypes import (
            EOF,
            NIL,
            Bytevector,
            Char,
            String,
            Symbol,
            Vector,
        )
        from harness.scheme.errors import ReadError
        from harness.scheme.reader import read_all, read_one
else:
    from harness.scheme.datatypes import EOF, NIL, Bytevector, Char, String, Symbol, Vector
    from harness.scheme.errors import ReadError
    from harness.scheme.reader import read_all, read_one

STRICT = "--strict" in sys.argv
KNOWN_LEAKS: set[str] = set()  # private reader objects tolerated in results: none
SCALARS = (bool, int, Fraction, float, complex, Symbol, Char, String, Bytevector)
COUNTS = {"inputs": 0, "data": 0, "read errors": 0, "known bugs": 0}
PROGRESS_EVERY = 50_000
#: libFuzzer's -runs=N ends the process from C (no atexit): print the count on the last run
RUNS = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("-runs=")), None)


class ReaderPropertyBroken(AssertionError):
    """The reader returned something that is not data or raised a foreign exception."""


def _non_data(values: list) -> set[str]:
    """Type names of everything in ``values`` that is not Scheme data (cycles allowed)."""
    found: set[str] = set()
    seen: set[int] = set()
    stack = list(values)
    while stack:
        x = stack.pop()
        if id(x) in seen or x is NIL or x is EOF:
            continue
        seen.add(id(x))
        if x.__class__ is list and len(x) == 2:
            stack.extend(x)
        elif isinstance(x, Vector):
            stack.extend(x.items)
        elif not isinstance(x, SCALARS):
            found.add(type(x).__name__)
    return found


def check_text(text: str) -> None:
    """Assert the reader property on ``text``; count the outcome."""
    COUNTS["inputs"] += 1
    if COUNTS["inputs"] % PROGRESS_EVERY == 0:
        print(summary(), flush=True)
    if RUNS is not None and COUNTS["inputs"] == RUNS:
        print(summary(), flush=True)
    try:
        values = read_all(text)[0]
        pos, reads = 0, 0
        while True:
            datum, end = read_one(text, pos)
            if datum is EOF:
                break
            if end <= pos or reads > len(text):
                raise ReaderPropertyBroken(f"read_one did not move forward at {pos}")
            values.append(datum)
            pos, reads = end, reads + 1
    except ReadError as exc:
        if exc.where is None:
            raise ReaderPropertyBroken(f"ReadError without a position: {exc}") from None
        COUNTS["read errors"] += 1
        return
    leaks = _non_data(values)
    if leaks - KNOWN_LEAKS or (leaks and STRICT):
        raise ReaderPropertyBroken(f"not Scheme data ({', '.join(sorted(leaks))}): {values!r}")
    if leaks:
        COUNTS["known bugs"] += 1
        return
    COUNTS["data"] += 1


def summary() -> str:
    return ("reader fuzz: {inputs} inputs ({data} read as data, {read errors} read errors, "
            "{known bugs} known-bug hits)").format(**COUNTS)


def test_one_input(data: bytes) -> None:
    check_text(data.decode("utf-8", "replace"))


def run_atheris() -> None:
    from harness.scheme.limits import enter_deep_recursion
    enter_deep_recursion()  # as when a tool file loads
    argv = [a for a in sys.argv if a != "--strict"]
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


def run_hypothesis(max_examples: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "fuzz"))
    from test_reader_fuzz import ANY_TEXT, _mutated, _sexp

    def alarm(signum, frame):
        raise ReaderPropertyBroken("an input took more than 5 s (a hang)")

    signal.signal(signal.SIGALRM, alarm)

    @settings(max_examples=max_examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(ANY_TEXT, st.data())
    def fuzz(text: str, data) -> None:
        if data.draw(st.booleans()):
            text = _mutated(data.draw(_sexp()), data)
        signal.alarm(5)
        try:
            check_text(text)
        finally:
            signal.alarm(0)

    fuzz()


def main() -> None:
    atexit.register(lambda: print(summary(), flush=True))
    if "--hypothesis" in sys.argv or atheris is None:
        args = [a for a in sys.argv[1:] if a.isdigit()]
        run_hypothesis(int(args[0]) if args else 100_000)
    else:
        run_atheris()


if __name__ == "__main__":
    main()
