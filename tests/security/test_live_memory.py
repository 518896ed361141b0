"""A file's live memory is capped across calls (issue 23, item 5): ``memory_mb`` bounded
the growth during one call, so a file that kept 38 MB per dispatch in a global reached
4.6 GB after 120 dispatches. Past its tier's memory limit the file is unloaded and
reported; the host and the other files go on."""

from __future__ import annotations

import time

from security_helpers import (
    OTHER_FILE,
    answers_of,
    fire_timed,
    memory_limits,
    messages_of,
    run_forked,
    write_home,
)

from harness.runtime import Runtime

HOARDER = """
(define kept '())
(register-hook 'post_message (lambda (p)
  (set! kept (cons (make-vector 4000000 0) kept))   ; 32 MB kept at each dispatch
  (list (cons "kept" (length kept)))))
(define-tool hoard (description "d") (execute (lambda (a)
  (set! kept (cons (make-vector 4000000 0) kept))
  (length kept))))
"""


def _hoarding(home, how: str):
    def task() -> dict:
        rt = Runtime(home)
        start = time.thread_time()
        for _ in range(40):
            if how == "hook":
                fire_timed(rt)
            else:
                rt.call_tool("hoard")
        last = rt.fire("post_message", {})
        return {"answers": answers_of(last), "errors": messages_of(last),
                "load_errors": list(rt.load_errors.values()),
                "cpu": time.thread_time() - start,
                "next": answers_of(rt.fire("pre_message", {"prompt": "p"}))}
    return task


def test_a_file_that_keeps_memory_is_unloaded_past_its_limit(tmp_path):
    for how in ("hook", "tool"):
        home = write_home(tmp_path / how, {"hoarder.scm": HOARDER, **OTHER_FILE},
                          toml=memory_limits(150))
        run = run_forked(_hoarding(home, how), timeout=120, memory_mb=700)
        assert run.status == "ok" and "child_exception" not in run.value, run.describe()
        value = run.value
        (reason,) = value["load_errors"]
        assert "hoarder.scm: its code keeps" in reason and \
            "over the memory limit of 150 MB; the file is unloaded" in reason, reason
        assert value["answers"] == [{"bystander": "other file"}]  # the hoarder is gone
        assert any("failed to load, so none of its hooks and tools run" in m
                   for m in value["errors"])  # and reported at every dispatch
        assert value["next"] == [{"prompt": "next dispatch works"}]
