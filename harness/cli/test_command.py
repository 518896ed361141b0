"""``harness test [PATH...] [--home DIR]``: fire hooks on fixture payloads and check the
outcomes, for CI.

A fixture file is ``NAME.hooktest.json``: one case, or several under ``"cases"``::

    {
      "hook": "pre_tool",
      "match": "partial",
      "cases": [
        {"name": "blocks rm -rf",
         "payload": {"tool_name": "shell_exec", "arguments": {"command": "rm -rf /"}},
         "expect": {"blocked": true}},
        {"name": "lets ls through", "errors": 0,
         "payload": {"tool_name": "shell_exec", "arguments": {"command": "ls"}},
         "expect": {"blocked": false, "message": null, "arguments": {"command": "ls"}},
         "match": "exact"}
      ]
    }

A case has ``expect`` (the expected outcome, SPEC §9), and optionally ``name``, ``hook``,
``payload`` (default: the hook point's sample payload), ``match`` ("exact", the default, or
"partial"), ``errors`` (how many hooks may fail; default 0, so a crashing hook never passes
by failing open) and ``description``. ``hook``, ``match``, ``errors`` and ``description``
may also be given once for the whole file. "partial" means every
key of an expected object must be present with a matching value, recursively; arrays match
element by element and must have the same length.

A tool case calls a tool through its full hook stack instead: ``{"tool": NAME, "arguments":
{...}, "expect": {"output": ...}}``. ``expect`` may name ``output`` (compared as JSON when
the output parses as JSON, else as text, a final newline aside; ``match`` applies to it),
``blocked`` (default false) and ``error`` (default null: the call must not fail; true: it
must fail; a string: its message must contain it); ``errors`` counts the hook failures of
the call's dispatches, as for a hook case.

Exit status: 0 when every case passes, 1 when one fails, 2 for a usage or fixture error
(which is reported with its position).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import orjson

from harness.cli.exit_status import FAILED
from harness.json_errors import json_error

FIXTURE_SUFFIX = ".hooktest.json"
MATCH_MODES = ("exact", "partial")
_SHARED_KEYS = {"hook", "match", "errors"}
_FILE_KEYS = _SHARED_KEYS | {"cases", "description"}
_CASE_KEYS = _SHARED_KEYS | {"name", "description", "payload", "expect", "tool", "arguments"}
_TOOL_EXPECT_KEYS = {"output", "blocked", "error"}
USAGE_ERROR = 2


class FixtureError(Exception):
    """A fixture file that cannot be used; the message names the file (and position)."""


@dataclass(frozen=True)
class Case:
    """One hook firing (or, with ``tool``, one tool call: ``payload`` holds its arguments)
    and what its outcome must look like."""

    file: str
    name: str
    hook: str | None
    payload: dict
    expect: object
    match: str
    errors: int
    tool: str | None = None


def register(sub) -> None:
    test = sub.add_parser("test", help="run *.hooktest.json fixtures against the home",
                          description="Fire hooks (or call tools) on the cases of "
                                      "*.hooktest.json fixtures and compare the outcomes. "
                                      "Exit status 0 when every case passes, 1 when one "
                                      "fails, 2 when a fixture cannot be used.")
    test.add_argument("paths", nargs="*", metavar="PATH",
                      help="fixture files or directories (default: HOME/tests, else "
                           "./hooktests)")
    test.add_argument("--home", default=None, metavar="DIR",
                      help="harness home (default: $HARNESS_HOME, else ~/.harness)")
    test.set_defaults(run=run_tests)


# -- finding and reading fixtures ---------------------------------------------------------------
def fixture_files(paths: list[str], home: Path) -> list[Path]:
    """The fixture files named by ``paths`` (directories are searched recursively)."""
    if not paths:
        defaults = [home / "tests", Path("hooktests")]
        found = next((d for d in defaults if d.is_dir()), None)
        if found is None:
            raise FixtureError(f"no fixtures: give a PATH, or put *{FIXTURE_SUFFIX} files in "
                               f"{defaults[0]} or ./{defaults[1]}")
        paths = [str(found)]
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            inside = sorted(path.rglob(f"*{FIXTURE_SUFFIX}"))
            if not inside:
                raise FixtureError(f"{path}: no *{FIXTURE_SUFFIX} files in this directory")
            files.extend(inside)
        elif path.is_file():
            files.append(path)
        else:
            raise FixtureError(f"{path}: no such file or directory")
    return files


def read_fixture(path: Path) -> list[Case]:
    """The cases of one fixture file; FixtureError says what is wrong and where."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # an editor's BOM is fine
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise FixtureError(json_error(path, text, exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(f"{path}: cannot read: {exc}") from None
    if not isinstance(data, dict):
        raise FixtureError(f"{path}: a fixture must be a JSON object")
    if "cases" not in data:
        return [_case(path, data, {}, None)]
    _check_keys(path, "the file", data, _FILE_KEYS)
    cases = data["cases"]
    if not isinstance(cases, list) or not cases:
        raise FixtureError(f"{path}: \"cases\" must be a non-empty array of objects")
    shared = {key: data[key] for key in _SHARED_KEYS if key in data}
    return [_case(path, entry, shared, i) for i, entry in enumerate(cases, 1)]


def _case(path: Path, entry: object, shared: dict, index: int | None) -> Case:
    """Case number ``index`` of a file of cases (None: the file is the case)."""
    from harness.hooks.catalogue import HOOK_POINTS, UnknownHookError, hook_point
    where = str(path) if index is None else f"{path}: case {index}"
    if not isinstance(entry, dict):
        raise FixtureError(f"{where} must be a JSON object")
    default_name = path.name.removesuffix(FIXTURE_SUFFIX) if index is None else f"case {index}"
    name = entry.get("name", default_name)
    if "name" in entry and index is not None:
        where += f" ({name})"
    _check_keys(path, where, entry, _CASE_KEYS)
    if "tool" in entry:
        return _tool_case(path, where, str(name), entry, shared)
    if "arguments" in entry:
        raise FixtureError(f"{where}: \"arguments\" belongs to a tool case (with \"tool\"); "
                           "a hook case has a \"payload\"")
    spec = {**shared, **entry}
    if "hook" not in spec:
        raise FixtureError(f"{where}: missing \"hook\" (or \"tool\", for a tool call)")
    try:
        hook = hook_point(spec["hook"]).name
    except UnknownHookError as exc:
        raise FixtureError(f"{where}: {exc}") from None
    if "expect" not in spec:
        raise FixtureError(f"{where}: missing \"expect\" (the expected outcome)")
    payload = spec.get("payload", HOOK_POINTS[hook].sample_payload())
    if not isinstance(payload, dict):
        raise FixtureError(f"{where}: \"payload\" must be a JSON object")
    return Case(str(path), str(name), hook, payload, spec["expect"], _match(where, spec),
                _error_count(where, spec))


def _tool_case(path: Path, where: str, name: str, entry: dict, shared: dict) -> Case:
    for key, instead in (("hook", "a tool case calls a tool, it fires no hook point"),
                         ("payload", "a tool case has \"arguments\"")):
        if key in entry:
            raise FixtureError(f"{where}: \"{key}\" does not go with \"tool\": {instead}")
    tool = entry["tool"]
    if not isinstance(tool, str) or not tool:
        raise FixtureError(f"{where}: \"tool\" must be a tool name")
    arguments = entry.get("arguments", {})
    if not isinstance(arguments, dict):
        raise FixtureError(f"{where}: \"arguments\" must be a JSON object")
    expect = entry.get("expect")
    if not isinstance(expect, dict):
        raise FixtureError(f"{where}: missing \"expect\" (an object of "
                           f"{', '.join(sorted(_TOOL_EXPECT_KEYS))})")
    _check_keys(path, f"{where}: \"expect\"", expect, _TOOL_EXPECT_KEYS)
    if "blocked" in expect and not isinstance(expect["blocked"], bool):
        raise FixtureError(f"{where}: \"blocked\" must be true or false")
    error = expect.get("error")
    if not (error is None or error is True or isinstance(error, str)):
        raise FixtureError(f"{where}: \"error\" must be null, true or a part of the message")
    spec = {**shared, **entry}
    return Case(str(path), name, None, arguments, expect, _match(where, spec),
                _error_count(where, spec), tool)


def _error_count(where: str, spec: dict) -> int:
    errors = spec.get("errors", 0)
    if type(errors) is not int or errors < 0:
        raise FixtureError(f"{where}: \"errors\" must be a count (0 or more)")
    return errors


def _match(where: str, spec: dict) -> str:
    match = spec.get("match", "exact")
    if match not in MATCH_MODES:
        raise FixtureError(f"{where}: \"match\" must be \"exact\" or \"partial\", got {match!r}")
    return match


def _check_keys(path: Path, where: str, entry: dict, allowed: set[str]) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        from harness.spelling import closest_name
        close = closest_name(unknown[0], allowed)
        hint = f"did you mean {json.dumps(close)}? " if close else ""
        raise FixtureError(f"{where}: unknown key {json.dumps(unknown[0])} "
                           f"({hint}allowed: {', '.join(sorted(allowed))})")


# -- comparing ----------------------------------------------------------------------------------
def matches(expected: object, actual: object, partial: bool) -> bool:
    """JSON equality (true is not 1); with ``partial``, objects may have extra keys."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        if not partial and expected.keys() != actual.keys():
            return False
        return all(k in actual and matches(v, actual[k], partial) for k, v in expected.items())
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(expected) == len(actual)
                and all(matches(e, a, partial) for e, a in zip(expected, actual)))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return expected == actual


def relevant_part(expected: object, actual: object) -> object:
    """``actual`` cut down to the keys ``expected`` names (what a partial match compares)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return {k: relevant_part(expected[k], actual[k]) for k in expected if k in actual}
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [relevant_part(e, a) for e, a in zip(expected, actual)]
    return actual


def outcome_diff(expected: object, actual: object) -> str:
    """A unified diff of the two values as sorted, indented JSON."""
    def lines(value: object) -> list[str]:
        return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False).splitlines()
    import difflib  # only a failing case is diffed
    return "\n".join(difflib.unified_diff(lines(expected), lines(actual), "expected", "actual",
                                          lineterm=""))


def check_case(runtime, case: Case) -> list[str]:
    """Fire the case's hook (or call its tool); return the reasons it fails (empty when it
    passes)."""
    if case.tool is not None:
        return check_tool_case(runtime, case)
    try:
        result = runtime.fire(case.hook, case.payload)
    except Exception as exc:  # noqa: BLE001 - one broken case must not stop the run
        return [f"firing {case.hook} failed: {type(exc).__name__}: {exc}"]
    problems = []
    outcome = result["outcome"]
    partial = case.match == "partial"
    if not matches(case.expect, outcome, partial):
        shown = relevant_part(case.expect, outcome) if partial else outcome
        problems.append(f"outcome differs ({case.match} match):\n"
                        + outcome_diff(case.expect, shown))
    problems.extend(_error_count_problem(case, result["errors"]))
    return problems


def _error_count_problem(case: Case, errors: list[dict]) -> list[str]:
    if len(errors) == case.errors:
        return []
    listed = "".join(f"\n  {e['source']}: {e['message']}" for e in errors)
    return [f"errors: expected {case.errors}, got {len(errors)}{listed}"]


def check_tool_case(runtime, case: Case) -> list[str]:
    """Call the case's tool through the hook stack; the reasons it fails."""
    try:
        result = runtime.call_tool(case.tool, case.payload)
    except Exception as exc:  # noqa: BLE001 - one broken case must not stop the run
        return [f"calling {case.tool} failed: {type(exc).__name__}: {exc}"]
    problems = []
    expect = case.expect
    if result.blocked != expect.get("blocked", False):
        problems.append(f"blocked: expected {json.dumps(expect.get('blocked', False))}, got "
                        f"{json.dumps(result.blocked)} ({result.output})")
    wanted = expect.get("error")
    if wanted is None and result.error is not None:
        problems.append(f"the call failed: {result.error}")
    elif wanted is not None and result.error is None:
        problems.append("expected the call to fail, it did not")
    elif isinstance(wanted, str) and wanted not in result.error:
        problems.append(f"error: expected a message containing {json.dumps(wanted)}, got "
                        f"{json.dumps(result.error)}")
    if "output" in expect and not _output_matches(expect["output"], result.output, case.match):
        shown = _output_value(result.output)
        if case.match == "partial":
            shown = relevant_part(expect["output"], shown)
        problems.append(f"output differs ({case.match} match):\n"
                        + outcome_diff(expect["output"], shown))
    problems.extend(_error_count_problem(case, result.errors))
    return problems


def _output_matches(expected: object, output: str, match: str) -> bool:
    """The output text equals an expected string (a final newline aside), or its JSON
    value matches ``expected``."""
    if isinstance(expected, str) and expected in (output, output.removesuffix("\n")):
        return True
    return matches(expected, _output_value(output), match == "partial")


def _output_value(output: str) -> object:
    """A tool's output as JSON when it parses as JSON, else the text itself."""
    try:
        return json.loads(output)
    except ValueError:
        return output


# -- the command --------------------------------------------------------------------------------
def run_tests(args) -> int:
    """Run every case; print PASS/FAIL lines, diffs and a summary; return the exit status."""
    from harness.config import ConfigError
    from harness.runtime import Runtime, resolve_home
    home = resolve_home(args.home)
    try:  # the home first: a missing one is the news, not its missing fixtures
        runtime = Runtime(home)
    except ConfigError as exc:
        print(f"harness test: {exc}", file=sys.stderr)
        return FAILED
    try:
        return _run_cases(runtime, args.paths, home)
    finally:
        runtime.close()


def _run_cases(runtime, paths: list[str], home) -> int:
    from harness.cli.hook_commands import report_load_problems
    try:
        files = fixture_files(paths, home)
    except FixtureError as exc:
        print(f"harness test: {exc}", file=sys.stderr)
        return USAGE_ERROR
    cases: list[Case] = []
    bad_files = 0
    for path in files:
        try:
            cases.extend(read_fixture(path))
        except FixtureError as exc:
            bad_files += 1
            print(f"harness test: {exc}", file=sys.stderr)
    report_load_problems(runtime)
    failed = 0
    for case in cases:
        problems = check_case(runtime, case)
        failed += bool(problems)
        print(f"{'FAIL' if problems else 'PASS'}  {case.file}: {case.name}")
        for problem in problems:
            print("\n".join("      " + line for line in problem.splitlines()))
    summary = f"{len(cases) - failed} passed, {failed} failed"
    if bad_files:
        summary += f", {bad_files} fixture file{'s' if bad_files > 1 else ''} unusable"
    print(summary)
    return USAGE_ERROR if bad_files else 1 if failed else 0
