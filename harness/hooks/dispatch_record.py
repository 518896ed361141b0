"""What one dispatch collects: the answers, the errors and the sources that failed, in
dispatch order (and, traced, one trace entry per source).

The record is made by the first source that has something to report (an answer, an
error, a failure): most dispatches of a guard report nothing, and making a record for them
was most of the cost the runners added to a dispatch (bench/hooks.py, issue 28). So a
dispatch holds ``None`` until then, and the runners (harness.hooks.runners) hand back the
record they were given or made. ``TracedRecord``, the one a traced dispatch uses, is made
up front (``Dispatcher.fire`` picks it, with the traced runners).

Errors stay in dispatch order (issue 24): the load failures and standing notices first
(the dispatcher's, before any record), then each source's errors where it ran; a combine
problem about an answer goes where that answer's source ran (``place_problems``), not
after every hook's errors.
"""

from __future__ import annotations

import time

from harness.bridge import NO_ANSWER


class DispatchRecord:
    """The answers (``(source, answer)``), errors (``{"source", "message"}``) and failed
    sources that the hooks of one dispatch of ``hook`` reported, in dispatch order."""

    __slots__ = ("_marks", "answers", "errors", "failed", "hook", "trace")

    def __init__(self, hook: str) -> None:
        self.hook = hook
        self.answers: list[tuple[str, object]] = []
        self.errors: list[dict] = []
        self.failed: list[str] = []
        self.trace: list[dict] | None = None
        # per answer, how many errors preceded it: where a problem with it goes
        self._marks: list[int] = []

    def answer(self, source: str, answer: object) -> None:
        self.answers.append((source, answer))
        self._marks.append(len(self.errors))

    def fail(self, source: str, message: str) -> None:
        """``source`` failed: an error, and a failure its policy may close on."""
        self.errors.append({"source": source, "message": message})
        self.failed.append(source)

    def warn(self, source: str, message: str) -> None:
        """An error that is no failure (a plugin's warning, a broken handler)."""
        self.errors.append({"source": source, "message": message})

    def results(self, results: list) -> None:
        """Plugins' and declared handlers' results, in their order."""
        for result in results:
            for warning in result.warnings:
                self.warn(result.source, warning)
            if result.failed:
                self.fail(result.source, result.error)
            elif result.answer is not NO_ANSWER:
                self.answer(result.source, result.answer)

    def skipped(self, source: str, why: str) -> None:
        """A source that did not run (traced records say so)."""

    def insert_answer(self, index: int, source: str, answer: object) -> None:
        """An answer standing for a failed hook, at ``index`` of the answers."""
        marks = self._marks
        self.answers.insert(index, (source, answer))
        marks.insert(index, marks[index] if index < len(marks) else len(self.errors))

    def place_problems(self, placed: list[tuple[int, dict]]) -> None:
        """Put combine's problems (``(answer position, problem)``, in order) among the
        errors, each where the source of its answer ran."""
        marks, errors = self._marks, self.errors
        for position, problem in reversed(placed):
            errors.insert(marks[position] if position < len(marks) else len(errors), problem)


class AnsweredRecord(DispatchRecord):
    """The record of a dispatch the audit log records with ``hooks = "answered"``: its
    trace has an entry per source that answered or failed (``{"source", "answer" |
    "error"}``) or was skipped, and ``ran`` counts the plugins' and handlers' results
    (the dispatcher adds the in-process hooks). The untraced runners fill it: no hook is
    timed, no run is split."""

    __slots__ = ("ran",)

    def __init__(self, hook: str) -> None:  # (DispatchRecord's, inline: made per dispatch)
        self.hook = hook
        self.answers = []
        self.errors = []
        self.failed = []
        self.trace = []
        self._marks = []
        self.ran = 0

    def answer(self, source: str, answer: object) -> None:
        self.answers.append((source, answer))
        self._marks.append(len(self.errors))
        self.trace.append({"source": source, "answer": answer})

    def fail(self, source: str, message: str) -> None:
        self.errors.append({"source": source, "message": message})
        self.failed.append(source)
        self.trace.append({"source": source, "error": message})

    def results(self, results: list) -> None:
        self.ran += len(results)
        super().results(results)

    def skipped(self, source: str, why: str) -> None:
        self.trace.append({"source": source, "skipped": why})


class TracedRecord(DispatchRecord):
    """A record that also keeps the trace: one entry per source that ran or was skipped
    (``{"source", "ms", "output"?, "answer"? | "error"?, "note"?}``)."""

    __slots__ = ()

    def __init__(self, hook: str) -> None:
        super().__init__(hook)
        self.trace = []

    def results(self, results: list) -> None:
        super().results(results)
        for result in results:
            entry = {"source": result.source, "ms": round(result.duration * 1000, 3)}
            note = getattr(result, "note", None)
            if note:
                entry["note"] = note
            if result.failed:
                entry["error"] = result.error
            elif result.answer is not NO_ANSWER:
                entry["answer"] = result.answer
            stderr = getattr(result, "stderr", None)  # a plugin's; handlers keep notes
            if stderr:
                entry["output"] = stderr
            self.trace.append(entry)

    def skipped(self, source: str, why: str) -> None:
        self.trace.append({"source": source, "skipped": why})

    def hook_ran(self, source: str, start: float, output: tuple[str, str],
                 answers: int, failures: int) -> None:
        """The entry of one in-process hook that started at ``start``: its answer or error
        is what it added past ``answers`` answers and ``failures`` failures."""
        entry = {"source": source, "ms": round((time.perf_counter() - start) * 1000, 3)}
        if output[0] or output[1]:
            entry["output"] = output[0] + output[1]
        if len(self.failed) > failures:
            entry["error"] = self.errors[-1]["message"]
        elif len(self.answers) > answers:
            entry["answer"] = self.answers[-1][1]
        self.trace.append(entry)
