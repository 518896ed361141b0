"""Text the REPL shows: dispatch results, tool results, tables, reload events."""

from __future__ import annotations

import json
from pathlib import Path

WIDE = 96  # a JSON value longer than this is shown indented over several lines


def short_path(path: str | Path, home: Path) -> str:
    """A path relative to the home when it is inside it."""
    try:
        return str(Path(path).relative_to(home))
    except ValueError:
        return str(path)


def json_text(value: object) -> str:
    """``value`` as JSON on one line, or an object with one key a line when that line would
    be too long."""
    line = json.dumps(value, ensure_ascii=False)
    if len(line) <= WIDE or not isinstance(value, dict):
        return line
    members = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
               for k, v in value.items()]
    return "{" + ",\n ".join(members) + "}"


def labelled(label: str, text: str) -> str:
    """``label`` in a fixed-width column before ``text``; further lines are indented."""
    lines = text.splitlines() or [""]
    pad = " " * 9
    return "\n".join([f"{label:<8} {lines[0]}", *(pad + line for line in lines[1:])])


def dispatch_result(result: dict, seconds: float) -> str:
    """A fired hook's outcome, every answer and error with its source, the trace if any,
    and the time taken."""
    out = [labelled("outcome", json_text(result["outcome"]))]
    for entry in result.get("trace", ()):
        out.append(labelled("trace", _trace_line(entry)))
    for answer in result["answers"]:
        out.append(labelled("answer", f"{answer['source']} "
                                      f"{json_text(answer['answer'])}"))
    for err in result["errors"]:
        out.append(labelled("error", f"{err['source']}: {err['message']}"))
    out.append(f"{_count(len(result['answers']), 'answer')}, "
               f"{_count(len(result['errors']), 'error')} in {seconds * 1000:.1f} ms")
    return "\n".join(out)


def _trace_line(entry: dict) -> str:
    source = entry["source"]
    if "skipped" in entry:
        return f"{source} skipped ({entry['skipped']})"
    if "error" in entry:
        what = "failed"
    elif "answer" in entry:
        what = "answered"
    else:
        what = "no answer"
    line = f"{source} {entry.get('ms', 0):g} ms, {what}"
    if entry.get("output"):
        line += "\noutput: " + entry["output"].rstrip("\n")
    return line


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def tool_result(result) -> str:
    """A tool call (harness.runtime.ToolResult): captured output, then the result."""
    out = []
    captured = (result.stdout + result.stderr).rstrip("\n")
    if captured:
        out.append(labelled("output", captured))
    if result.blocked:
        out.append(labelled("blocked", result.output))
    elif result.error is not None:
        out.append(labelled("error", result.error))
    else:
        out.append(labelled("result", result.output.rstrip("\n")))
    for entry in result.errors:  # hook failures of the call's dispatches
        out.append(labelled("error", f"{entry['source']}: {entry['message']}"))
    return "\n".join(out)


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    """Left-aligned columns; the last column is not padded."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[-1]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def registration(tools: list[str], hooks: list[str]) -> str:
    """``tools: a, b; hooks: pre_tool`` (a dash for none)."""
    return f"tools: {', '.join(tools) or '-'}; hooks: {', '.join(hooks) or '-'}"


def reload_event(event: dict, home: Path) -> str:
    """One line (plus an error excerpt) for a hot-reload event of harness.reload."""
    kind = event.get("event", "?")
    where = short_path(event.get("path") or "", home)
    error = event.get("error")
    if kind in ("reloaded", "unloaded"):
        text = f"{kind} {where} ({registration(event.get('tools', []), event.get('hooks', []))})"
    elif kind == "failed" and (event.get("tools") or event.get("hooks")):
        text = f"failed {where} (the last good version stays live: " \
               f"{registration(event['tools'], event['hooks'])})"
    elif kind == "plugins":
        text = f"plugins reloaded ({registration(event.get('tools', []), event.get('hooks', []))})"
    elif kind == "config":
        text = f"config reloaded from {where}"
    else:
        text = f"{kind} {where}"
    if error:
        text += "\n" + error
    return "\n".join(f"[reload] {line}" if i == 0 else f"         {line}"
                     for i, line in enumerate(text.splitlines()))
