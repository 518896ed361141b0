"""The reader's single C calls are charged and capped (issue 23, item 4): a 4M-character
string literal given to ``read`` in a sandboxed hook had run 6–8 s and peaked at 2.3 GB
(one backtracking regex call per literal, outside every check); a 10 MB literal in a tool
file took 19 s and 6 GB at load. Each case runs in a forked child with a small address
space and must end inside its budget, in that file alone."""

from __future__ import annotations

import re

import pytest
from security_helpers import (
    FAST_LIMITS,
    OTHER_FILE,
    SECONDS,
    SLACK,
    STEPS,
    fire_task,
    hook_on,
    load_task,
    run_forked_batch,
    run_homes,
    write_home,
)

#: a budget a 4M-character read fits in (the fast suite's would stop it)
READ_SECONDS = 2.0
READ_LIMITS = FAST_LIMITS.replace(f"steps = {STEPS}", "steps = 30000000", 1).replace(
    f"seconds = {SECONDS}", f"seconds = {READ_SECONDS}", 1)
READ_PROMPT = '(list (cons "n" (string-length (read (open-input-string (cdr (assoc "prompt" p)))))))'
BIG = 4_000_000


@pytest.fixture(scope="module")
def read_results(tmp_path_factory) -> dict:
    home = write_home(tmp_path_factory.mktemp("lit"),
                      {"reader.scm": hook_on("post_message", READ_PROMPT), **OTHER_FILE},
                      toml=READ_LIMITS)
    literals = {"4M characters": '"' + "a" * BIG + '"',
                "4M characters of escapes": '"' + "\\n" * (BIG // 2) + '"',
                "12M characters": '"' + "a" * 12_000_000 + '"',
                "4M-character |symbol|": "|" + "a" * BIG + "|"}
    tasks = {name: fire_task(home, "post_message", {"prompt": literal, "response": "",
                                                    "context_name": "c"})
             for name, literal in literals.items()}
    return run_forked_batch(tasks, 30, memory_mb=400)


@pytest.mark.parametrize("case, outcome", [
    ("4M characters", {"n": BIG}),
    ("4M characters of escapes", {"n": BIG // 2}),
    ("12M characters", r"literal of 12000000 characters is over the limit of 10000000"),
])
def test_read_of_a_huge_literal_ends_inside_its_budget(read_results, case, outcome):
    run = read_results[case]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    value = run.value
    if isinstance(outcome, dict):
        assert value["errors"] == [] and value["answers"][0] == outcome
    else:
        (message,) = value["errors"]
        assert re.search(outcome, message), message[:300]
    assert value["next_answers"] == [{"prompt": "next dispatch works"}]
    assert value["cpu"] < READ_SECONDS + SLACK, run.describe()


def test_a_huge_symbol_is_read_inside_its_budget(read_results):
    run = read_results["4M-character |symbol|"]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    assert run.value["cpu"] < READ_SECONDS + SLACK, run.describe()


LOAD_CASES = {
    "a 10 MB string literal": ('(define big "' + "b" * 10_000_000 + '")\n',
                               r"step budget of [\d,]+ steps exhausted"),
    "a 3 MB block comment": ("#| " + "c" * 3_000_000 + " |#\n(define x 1)\n", None),
}


@pytest.fixture(scope="module")
def load_results(tmp_path_factory) -> dict:
    homes = {name: ({"hostile.scm": text, **OTHER_FILE}, FAST_LIMITS)
             for name, (text, _) in LOAD_CASES.items()}
    return run_homes(tmp_path_factory, "litload", homes, load_task, memory_mb=400)


@pytest.mark.parametrize("case", list(LOAD_CASES))
def test_a_huge_literal_in_a_tool_file_loads_or_fails_inside_its_budget(load_results, case):
    run = load_results[case]
    assert run.status == "ok" and "child_exception" not in run.value, run.describe()
    pattern = LOAD_CASES[case][1]
    if pattern is None:
        assert run.value["load_errors"] == []
    else:
        (message,) = run.value["load_errors"]
        assert re.search(pattern, message.splitlines()[0]), message[:300]
    assert run.value["answers"] == [{"bystander": "other file"}]
    assert run.value["cpu"] < SECONDS + SLACK, run.describe()
