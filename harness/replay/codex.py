"""Codex CLI rollout files: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

Each line is ``{"timestamp", "type", "payload"}``; ``type`` is ``session_meta`` (the
session ``id``, ``cwd``), ``turn_context`` (the ``model``, ``cwd`` of a turn),
``response_item`` (the model's items: ``message``, ``function_call`` with JSON-string
``arguments``, ``custom_tool_call`` with ``input``, ``local_shell_call`` with an
``action.command`` argv, their ``*_output`` items by ``call_id``, ``reasoning``),
``event_msg`` (UI events: ``user_message`` is the prompt the user typed) or ``compacted``.
(Format from Codex's rollout writer as documented publicly; tested on samples built to
that description, see tests/replay/test_codex.py.)

Events, in Codex's hook shapes (Claude Code's names; ``session_id``, ``cwd``, ``model``,
``turn_id``, ``tool_name``, ``tool_use_id``, ``tool_input``):

| rollout item | event |
|---|---|
| ``session_meta`` | SessionStart (``source: startup``) |
| ``event_msg`` ``user_message`` | UserPromptSubmit ``{prompt}`` |
| a shell call (``shell``, ``shell_command``, ``exec_command``, ``local_shell_call``) | PreToolUse ``Bash`` ``{command}`` |
| ``apply_patch`` | PreToolUse ``apply_patch`` ``{command: patch}`` |
| any other call (MCP tools ``server__tool``) | PreToolUse with its name and arguments |
| the call's output | PostToolUse ``{tool_response}`` |
"""

from __future__ import annotations

import shlex

from harness.bridge import loads
from harness.replay.events import Problem, ReplayEvent, Transcript
from harness.replay.lines import json_lines

__all__ = ["HOST", "looks_like", "read"]

HOST = "codex"
_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context",
                    "compacted"})
_SHELL_TOOLS = frozenset({"shell", "shell_command", "exec_command", "local_shell",
                          "container.exec"})
_CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output",
                      "local_shell_call_output"})
_QUIET_ITEMS = frozenset({"message", "reasoning", "web_search_call", "ghost_snapshot",
                          "compaction", "other"})


def looks_like(entry: dict) -> bool:
    """Whether a line is a Codex rollout line."""
    return entry.get("type") in _TYPES and isinstance(entry.get("payload"), dict)


def read(path: str) -> Transcript:
    """The hook events of the Codex rollout at ``path`` (see the module doc)."""
    events: list[ReplayEvent] = []
    problems: list[Problem] = []
    state = {"session": _stem(path), "cwd": "", "model": "", "turn": ""}
    calls: dict[str, ReplayEvent] = {}
    unknown: set[str] = set()
    for item in json_lines(path):
        if isinstance(item, Problem):
            problems.append(item)
            continue
        number, line = item
        kind, payload = line.get("type"), line.get("payload")
        if kind not in _TYPES or not isinstance(payload, dict):
            if str(kind) not in unknown:
                unknown.add(str(kind))
                problems.append(Problem(path, number, f"unknown rollout line type {kind!r} "
                                                      "(reported once per file): skipped"))
            continue

        def add(event: str, fields: dict, tool_name: str | None = None,
                tool_input: object = None, number: int = number) -> ReplayEvent:
            body = {"session_id": state["session"], "transcript_path": path,
                    "cwd": state["cwd"], "hook_event_name": event, "model": state["model"],
                    "turn_id": state["turn"], **fields}
            made = ReplayEvent(HOST, event, body, state["session"], path, number, tool_name,
                               tool_input)
            events.append(made)
            return made

        try:
            if kind == "session_meta":
                state["session"] = str(payload.get("id") or state["session"])
                state["cwd"] = str(payload.get("cwd") or "")
                add("SessionStart", {"source": "startup"})
            elif kind == "turn_context":
                state["model"] = str(payload.get("model") or state["model"])
                state["cwd"] = str(payload.get("cwd") or state["cwd"])
                state["turn"] = str(payload.get("turn_id") or state["turn"])
            elif kind == "event_msg" and payload.get("type") == "user_message":
                add("UserPromptSubmit", {"prompt": str(payload.get("message") or "")})
            elif kind == "response_item":
                item_type = payload.get("type")
                if item_type in _CALLS:
                    name, tool_input = _tool_call(payload)
                    call_id = str(payload.get("call_id") or payload.get("id") or "")
                    calls[call_id] = add("PreToolUse", {"tool_name": name,
                                                        "tool_use_id": call_id,
                                                        "tool_input": tool_input},
                                         name, tool_input)
                elif item_type in _OUTPUTS:
                    call = calls.get(str(payload.get("call_id")))
                    if call is None:
                        problems.append(Problem(path, number, "an output for an unknown "
                                                              "call_id: skipped"))
                        continue
                    add("PostToolUse", {"tool_name": call.tool_name,
                                        "tool_use_id": call.payload["tool_use_id"],
                                        "tool_input": call.input,
                                        "tool_response": _output(payload.get("output"))},
                        call.tool_name, call.input)
                elif item_type not in _QUIET_ITEMS and str(item_type) not in unknown:
                    unknown.add(str(item_type))
                    problems.append(Problem(path, number, f"unknown response item "
                                                          f"{item_type!r} (reported once per "
                                                          "file): skipped"))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            problems.append(Problem(path, number, f"malformed {kind} line ({exc}): skipped"))
    return Transcript(path, HOST, events, problems)


def _tool_call(payload: dict) -> tuple[str, dict]:
    """(Codex hook tool name, tool_input) of a call item."""
    if payload.get("type") == "local_shell_call":
        action = payload.get("action") or {}
        return "Bash", {"command": _command(action.get("command"))}
    name = str(payload.get("name") or "")
    if payload.get("type") == "custom_tool_call":
        raw = payload.get("input")
        arguments = {"command": raw} if name == "apply_patch" else {"input": raw}
    else:
        text = payload.get("arguments") or "{}"
        arguments = loads(text) if isinstance(text, str) else text
        if not isinstance(arguments, dict):
            arguments = {"input": arguments}
    if name in _SHELL_TOOLS:
        return "Bash", {"command": _command(arguments.get("command", arguments.get("cmd")))}
    if name == "apply_patch" and "input" in arguments and "command" not in arguments:
        arguments = {"command": arguments["input"]}
    return name, arguments


def _command(command: object) -> str:
    """A shell command as one string: ``["bash", "-lc", "ls"]`` is ``ls``."""
    if isinstance(command, list) and all(isinstance(c, str) for c in command):
        if len(command) == 3 and command[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") \
                and command[1] in ("-lc", "-c"):
            return command[2]
        return shlex.join(command)
    return command if isinstance(command, str) else ""


def _output(output: object) -> object:
    """A call's output: Codex wraps shell output as JSON text ``{"output", "metadata"}``."""
    if isinstance(output, dict) and "content" in output:
        return output["content"]
    if isinstance(output, str) and output.startswith("{"):
        try:
            value = loads(output)
        except ValueError:
            return output
        return value.get("output", value) if isinstance(value, dict) else value
    return output


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.removesuffix(".jsonl")
