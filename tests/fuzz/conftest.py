"""The fuzz tests' shared pieces: a per-example alarm that turns a hang into a failure, and
the counts they print (issues 6 and 11 ask for them)."""

import signal
import sys

import pytest


class Hang(Exception):
    """An example ran past its alarm."""


def _on_alarm(signum, frame):
    raise Hang("the example ran past its alarm (a hang)")


@pytest.fixture(autouse=True)
def per_example_alarm():
    """SIGALRM raises Hang while a test of this folder runs; the tests arm the timer
    around each example (signal.setitimer) and disarm it after."""
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def pytest_terminal_summary(terminalreporter) -> None:
    for name in ("test_reader_fuzz", "test_answer_fuzz"):
        module = sys.modules.get(name)
        if module is not None and next(iter(module.COUNTS.values())):
            terminalreporter.write_line(module.summary_line())
