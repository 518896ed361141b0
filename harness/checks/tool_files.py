"""``tools/``: every tool file loads (with what it registered; a file that does not load is
an error, which says so when its last good version runs instead), no stray file sits there
unloaded, and no tool name is defined twice (across files, or by a file and a plugin)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck
from harness.home_layout import not_a_tool_file
from harness.reload.files import files_under, is_tool_path


def check_tool_files(subject: HomeUnderCheck) -> Iterator[Finding]:
    runtime = subject.runtime
    for path in runtime.tool_files():
        where = subject.relative(path)
        error = runtime.load_errors.get(str(path))
        reg = runtime.registry.get(str(path))
        if error is not None:
            failure = runtime.registry.failures.get(str(path))
            # a last good version running instead is said first (never open, SPEC §14)
            yield Finding(ERROR, where, failure.report(True) if failure and reg else error)
            continue
        tools = ", ".join(t.name for t in reg.tools) or "-"
        hooks = ", ".join(h.point for h in reg.hooks) or "-"
        yield Finding(OK, where, f"loads ({reg.tier}): tools {tools}; hooks {hooks}")
    yield from _stray_files(subject)
    yield from _tools_defined_twice(subject)


def _stray_files(subject: HomeUnderCheck) -> Iterator[Finding]:
    tools_dir = subject.runtime.tools_dir
    if not tools_dir.is_dir():
        return
    for path in files_under(str(tools_dir)):
        relative = path[len(str(tools_dir)) + 1:]
        if not is_tool_path(relative):
            yield Finding(WARNING, subject.relative(path), not_a_tool_file(Path(path)))


def _tools_defined_twice(subject: HomeUnderCheck) -> Iterator[Finding]:
    runtime = subject.runtime
    defined: dict[str, list[str]] = {}
    for reg in runtime.registry.files:  # in path order: the first one is used
        for tool in reg.tools:
            defined.setdefault(tool.name, []).append(subject.relative(reg.path))
    for name, files in defined.items():
        if len(files) > 1:
            others = ", ".join(files[1:])
            yield Finding(WARNING, files[0], f"tool {name} is also defined in {others}: the "
                                             f"one in {files[0]} is used (the first by path)")
        plugin = runtime.plugins.find_tool(name)
        if plugin is not None:
            yield Finding(WARNING, files[0], f"tool {name} shadows the tool {name} of "
                                             f"{plugin.source} (Scheme tools come first)")
