"""R7RS conformance: run a public test suite written for (chibi test) and count what passes.

The suites are not kept in this tree. Fetch one, e.g. chibi-scheme's R7RS suite: the file
``tests/r7rs-tests.scm`` of the GitHub repository ashinn/chibi-scheme (55,604 characters at
commit 00650e13a054d75c08529bca172d13c088d944a8), saved as /tmp/conformance/r7rs-tests.scm.
Then:

    python bench/conformance.py /tmp/conformance/r7rs-tests.scm [--failures FILE] [-v]

It also runs the files of ecraven/r7rs-coverage (``input/scheme-*.scm``: blocks of
``(assert ...)`` forms, each after a ``;; TEST name`` line). As that project's own driver
does, each block is one test, run as a separate program after the prelude ``(define
(assert x) (unless x (error "assertion failed")))``; it passes when nothing raises:

    python bench/conformance.py /tmp/conformance/r7rs-coverage/scheme-*.scm

And tein's language tests (the GitHub repository emesal/tein, ``tein/tests/scheme/*.scm``:
``(test-equal NAME EXPECTED ACTUAL)``, ``test-true``, ``test-false``, ``(test-error NAME
THUNK)``), each file in a fresh interpreter that has imported a shim of ``(tein test)``,
each assertion one test:

    python bench/conformance.py /tmp/conformance/tein/*.scm

The suite's ``(import ... (scheme r5rs) (chibi test))`` is served by harness's own
``(scheme r5rs)`` and the shim below: a ``(chibi test)`` with ``test``, ``test-values``,
``test-error``, ``test-assert``, ``test-begin`` and ``test-end``. Each ``test`` form is one test. As in chibi's own (chibi test),
results are compared with ``equal?``, and an inexact expected number also accepts a result
within a relative 1e-5 (complex numbers part by part). A test whose expected value or
expression raises, or runs over TIME_LIMIT seconds, fails. The file is run form by form
(read_all + eval_form on an unsandboxed Interpreter); a top-level form that raises outside
any test fails every test it contains that did not get to run, so no count is lost.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from harness.scheme.datatypes import Symbol
from harness.scheme.errors import ReadError, ResourceLimitExceeded, SchemeError
from harness.scheme.interpreter import Interpreter, eval_form, prescan
from harness.scheme.libraries import Library, register_library
from harness.scheme.printer import describe_condition, write_string
from harness.scheme.reader import read_all
from harness.scheme.translate import condition_from_native, register_source

TIME_LIMIT = 10  # seconds one test (or one top-level form) may run
EPSILON = 1e-5  # chibi's current-test-epsilon

#: what both shims run a test with: the thunks are called from Scheme (so a continuation
#: captured in a test can be re-entered, as in chibi's own Scheme test library), their
#: conditions caught by guard; only the comparison and the record are Python's.
RUNNER = """
    (define (%test-try thunk)
      (guard (e (#t (%test-raised e))) (thunk)))
    (define (%test-run expr expected-thunk thunk)
      (%test-start)
      (let ((expected (%test-try expected-thunk)))
        (%test-report expr expected (if (%test-raised? expected) expected (%test-try thunk)))))
    (define (%test-error-run expr thunk)
      (%test-start)
      (%test-report-error expr (%test-try thunk)))
"""

SHIM = """
(define-library (chibi test)
  (import (scheme base) (conformance report))
  (export test test-values test-error test-assert test-begin test-end)
  (begin
""" + RUNNER + """
    (define-syntax test
      (syntax-rules ()
        ((_ expected expr) (%test-run 'expr (lambda () expected) (lambda () expr)))
        ((_ name expected expr) (%test-run 'expr (lambda () expected) (lambda () expr)))))
    (define-syntax test-values
      (syntax-rules ()
        ((_ expected expr)
         (%test-run 'expr
                    (lambda () (call-with-values (lambda () expected) list))
                    (lambda () (call-with-values (lambda () expr) list))))))
    (define-syntax test-assert
      (syntax-rules ()
        ((_ expr) (%test-run 'expr (lambda () #t) (lambda () (if expr #t #f))))))
    (define-syntax test-error
      (syntax-rules ()
        ((_ expr) (%test-error-run 'expr (lambda () expr)))))
    (define (test-begin . name) (%test-begin name))
    (define (test-end . name) (%test-end name))))

"""

#: tein's (tein test), as (conformance tein-test) (the tein prefix is reserved): ``(test-equal NAME EXPECTED ACTUAL)``, ``(test-true NAME X)``,
#: ``(test-false NAME X)``, ``(test-error NAME THUNK)``. tein defines them as procedures
#: (a raise ends the file); here each is one test and the name is what a failure shows.
TEIN_SHIM = """
(define-library (conformance tein-test)
  (import (scheme base) (conformance report))
  (export test-equal test-true test-false test-error)
  (begin
""" + RUNNER + """
    (define-syntax test-equal
      (syntax-rules ()
        ((_ name expected actual) (%test-run name (lambda () expected) (lambda () actual)))))
    (define-syntax test-true
      (syntax-rules ()
        ((_ name x) (%test-run name (lambda () #t) (lambda () (if x #t #f))))))
    (define-syntax test-false
      (syntax-rules ()
        ((_ name x) (%test-run name (lambda () #f) (lambda () (if x #t #f))))))
    (define-syntax test-error
      (syntax-rules ()
        ((_ name thunk) (%test-error-run name (lambda () (thunk))))))))
(import (conformance tein-test))
"""

TEST_HEADS = {"test", "test-values", "test-error", "test-assert",
              "test-equal", "test-true", "test-false"}


class TestTimeout(BaseException):
    """A test ran over TIME_LIMIT (raised by SIGALRM, so it also stops Python-level loops)."""


#: what a test (or a top-level form) may raise: any of it counts as that test failing
FAILURE = (Exception, ResourceLimitExceeded, TestTimeout)


def _on_alarm(signum, frame):
    raise TestTimeout(f"no result after {TIME_LIMIT} s")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, (SchemeError, ResourceLimitExceeded)):
        return f"raised: {exc.message}"
    if isinstance(exc, TestTimeout):
        return f"timeout: {exc}"
    return f"raised {type(exc).__name__}: {condition_from_native(exc).message}"


def _is_real(x) -> bool:
    return type(x) in (int, float, Fraction)


def _approx(a, b) -> bool:
    if abs(a) > abs(b):
        a, b = b, a
    if a == 0:
        return abs(b) < EPSILON
    return abs((a - b) / b) < EPSILON


class Raised:
    """What a test's thunk raised (made by %test-raised in the shim's guard)."""

    __slots__ = ("payload",)

    def __init__(self, payload) -> None:
        self.payload = payload

    def describe(self) -> str:
        return "raised: " + describe_condition(self.payload)


class Report:
    """What the suite reported: one entry per test run, plus the current section."""

    def __init__(self, equal) -> None:
        self.equal = equal
        self.sections: list[str] = []
        self.results: list[dict] = []
        self.line = 0

    def test_equal(self, expect, res) -> bool:
        if self.equal(expect, res) is not False:
            return True
        if _is_real(expect):
            if type(expect) is not float or not _is_real(res):
                return False
            try:
                return _approx(expect, res)
            except (ArithmeticError, ValueError):
                return False
        if type(expect) is complex and type(res) in (int, float, Fraction, complex):
            res = complex(res)
            return (self.test_equal(expect.real, res.real)
                    and self.test_equal(expect.imag, res.imag))
        return False

    def _record(self, expr, passed: bool, expected: str, got: str) -> None:
        self.results.append({"section": " / ".join(self.sections[1:] or self.sections) or "(top)",
                             "line": self.line, "expr": write_string(expr),
                             "passed": passed, "expected": expected, "got": got})

    @staticmethod
    def start() -> None:
        signal.alarm(TIME_LIMIT)

    def report(self, expr, expected, got) -> None:
        signal.alarm(0)
        if expected.__class__ is Raised:
            self._record(expr, False, "?", "expected value " + expected.describe())
        elif got.__class__ is Raised:
            self._record(expr, False, write_string(expected), got.describe())
        else:
            try:
                passed = self.test_equal(expected, got)
            except FAILURE as exc:
                self._record(expr, False, write_string(expected), "compare " + _describe(exc))
                return
            self._record(expr, passed, write_string(expected), write_string(got))

    def report_error(self, expr, got) -> None:
        signal.alarm(0)
        if got.__class__ is Raised:  # an error is what test-error expects
            self._record(expr, True, "an error", got.describe())
        else:
            self._record(expr, False, "an error", write_string(got))

    def begin(self, name) -> None:
        self.sections.append(name[0].s if name.__class__ is list else "?")

    def end(self, name) -> None:
        if self.sections:
            self.sections.pop()


def static_test_count(form) -> int:
    """How many test forms a datum holds (not counting macro definitions and quoted data)."""
    if form.__class__ is not list:
        return 0
    head = form[0]
    if isinstance(head, Symbol):
        if head.name in ("define-syntax", "let-syntax", "letrec-syntax", "quote"):
            return 0
        if head.name in TEST_HEADS:
            return 1
    count = 0
    while form.__class__ is list:
        count += static_test_count(form[0])
        form = form[1]
    return count


def install_shim(interp: Interpreter, report: Report, shim: str) -> None:
    register_library(Library(("conformance", "report"), {
        "%test-start": report.start, "%test-report": report.report,
        "%test-report-error": report.report_error, "%test-raised": Raised,
        "%test-raised?": lambda x: x.__class__ is Raised,
        "%test-begin": report.begin, "%test-end": report.end,
    }))
    interp.eval_string(shim, "<conformance-shim>")


def run_suite(path: Path, shim: str = SHIM) -> tuple[Report, list[dict]]:
    """Run the suite at ``path`` (written for the test library ``shim`` defines); return
    the report and the top-level forms that crashed."""
    interp = Interpreter(tier="unsandboxed")
    report = Report(interp.env.lookup("equal?"))
    if shim is TEIN_SHIM:
        report.sections = ["", path.stem]
    install_shim(interp, report, shim)
    signal.signal(signal.SIGALRM, _on_alarm)
    text = path.read_text(encoding="utf-8")
    register_source(str(path), text)
    crashes = []
    try:
        forms, smap = read_all(text, str(path))
    except ReadError as exc:  # a suite in another dialect (tein's #j reader macros): all fail
        lost = len(re.findall(r"\((?:test|test-equal|test-true|test-false|test-error)\s", text))
        crashes.append({"line": 0, "error": f"the file does not read: {exc}", "lost": lost})
        for _ in range(lost):
            report._record(Symbol.intern("<file-unreadable>"), False, "?", "not run")
        return report, crashes
    prescan(interp.env, forms)
    for form in forms:
        pos = smap.pos_of(form)
        report.line = pos.line if pos else 0
        before = len(report.results)
        signal.alarm(TIME_LIMIT)
        try:
            eval_form(interp.env, form, smap)
        except FAILURE as exc:
            signal.alarm(0)
            lost = static_test_count(form) - (len(report.results) - before)
            crashes.append({"line": report.line, "error": _describe(exc), "lost": lost})
            for _ in range(max(lost, 0)):
                report._record(Symbol.intern("<form-crashed>"), False, "?",
                               "not run: top-level form " + _describe(exc))
        finally:
            signal.alarm(0)
    return report, crashes


#: a tein test file: its tests are named by a string first argument
TEIN_TEST = re.compile(r'\((test-equal|test-true|test-false|test-error)\s+"')

COVERAGE_PRELUDE = '(define (assert x) (unless x (error "assertion failed")))\n'


def coverage_blocks(text: str) -> list[tuple[str, str]]:
    """Split an r7rs-coverage file before each line holding ';; TEST' (as csplit does)."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines(keepends=True):
        if ";; TEST" in line and blocks[-1]:
            blocks.append([])
        blocks[-1].append(line)
    out = []
    for lines in blocks:
        body = "".join(lines)
        if body.strip():
            head = lines[0].split(";; TEST", 1)
            out.append((head[1].strip() if len(head) == 2 else "(untitled)", body))
    return out


def run_coverage_file(path: Path, report: Report) -> None:
    """Each block of an r7rs-coverage file as its own program; it passes if nothing raises."""
    signal.signal(signal.SIGALRM, _on_alarm)
    report.sections = ["", path.stem]
    text = path.read_text(encoding="utf-8")
    for name, body in coverage_blocks(text):
        report.line = text[:text.index(body)].count("\n") + 1
        source = COVERAGE_PRELUDE + body
        signal.alarm(TIME_LIMIT)
        try:
            Interpreter(tier="unsandboxed").eval_string(source, f"{path.name}:{name}")
            outcome, passed = "ran without error", True
        except FAILURE as exc:
            outcome, passed = _describe(exc), False
        finally:
            signal.alarm(0)
        report._record(Symbol.intern(name), passed, "no error", outcome)


def format_failures(report: Report) -> str:
    lines = []
    for r in report.results:
        if not r["passed"]:
            lines.append(f"[{r['section']}] line {r['line']}: {r['expr']}\n"
                         f"    expected: {r['expected']}\n    got:      {r['got']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", type=Path, nargs="+",
                        help="a (chibi test) suite such as r7rs-tests.scm, or r7rs-coverage files")
    parser.add_argument("--failures", type=Path, help="write every failure to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failure")
    args = parser.parse_args(argv)
    report, crashes = Report(None), []
    per_file = []
    for path in args.suites:
        start = len(report.results)
        text = path.read_text(encoding="utf-8")
        if text.lstrip().startswith(";; TEST"):
            run_coverage_file(path, report)
        elif TEIN_TEST.search(text):
            suite_report, suite_crashes = run_suite(path, TEIN_SHIM)
            report.results += suite_report.results
            crashes += suite_crashes
        else:
            suite_report, suite_crashes = run_suite(path)
            report.results += suite_report.results
            crashes += suite_crashes
        results = report.results[start:]
        per_file.append((path.name, sum(r["passed"] for r in results), len(results)))
    by_section: dict[str, list[int]] = {}
    for r in report.results:
        counts = by_section.setdefault(r["section"], [0, 0])
        counts[0 if r["passed"] else 1] += 1
    for section, (ok, bad) in by_section.items():
        print(f"{section:45} {ok:4} passed {bad:4} failed")
    if len(per_file) > 1:
        for name, ok, count in per_file:
            print(f"{name:45} {ok:4} of {count:4} passed")
    for c in crashes:
        print(f"top-level form at line {c['line']} crashed ({c['lost']} tests lost): {c['error']}")
    failures = format_failures(report)
    if args.verbose and failures:
        print(failures)
    if args.failures:
        args.failures.write_text(failures + "\n", encoding="utf-8")
    total = len(report.results)
    passed = sum(r["passed"] for r in report.results)
    print(f"total {total}  passed {passed}  failed {total - passed}  "
          f"{100 * passed / max(total, 1):.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
