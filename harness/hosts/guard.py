"""Firing harness's hook points for one host event: the part every adapter shares.

An adapter reads its host's event, then asks this module what harness says:

- `guard_tool_call`: ``pre_tool`` (``{"tool_name", "arguments", "host", "tool"}``), then,
  unless it blocked, each permission check the (possibly rewritten) call implies
  (vocabulary.py). A permission point no hook answered is *no decision*: the host decides
  as it would without harness (the fail-safe deny is for chibi-style hosts that have no
  permission handler of their own).
- `guard_prompt`: ``pre_message``; a changed prompt is reported, since no host rewrites one.
- `observe`: an observe-only point (``post_tool``, ``on_start``, ``on_end``, ...).

Each returns a `Verdict`, which the adapter renders in its host's format.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.bridge import dumps
from harness.hosts.vocabulary import Check, ToolMap

__all__ = ["Verdict", "guard_checks", "guard_prompt", "guard_tool_call", "observe",
           "post_tool_payload", "session_payload"]


@dataclass
class Verdict:
    """What harness decided about one host event.

    ``blocked`` with ``reason``: deny / block it. ``arguments``: the rewritten tool input
    (None: unchanged). ``errors``: hook failures and load errors to show (deduplicated).
    ``notes``: answers the host cannot honour (said in its message field).
    """

    blocked: bool = False
    reason: str | None = None
    arguments: dict | None = None
    errors: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add_errors(self, errors: list[dict]) -> None:
        seen = {(e["source"], e["message"]) for e in self.errors}
        for error in errors:
            if (error["source"], error["message"]) not in seen:
                seen.add((error["source"], error["message"]))
                self.errors.append(error)

    def block(self, reason: str) -> None:
        self.blocked, self.reason, self.arguments = True, reason, None


def guard_tool_call(runtime, host: str, tool_name: str, tool_input: object, tools: ToolMap,
                    verdict: Verdict | None = None) -> Verdict:
    """Fire ``pre_tool`` and the permission checks of one call of the host tool
    `tool_name` with `tool_input`; `verdict` (if given) is added to."""
    verdict = verdict or Verdict()
    given = tool_input if isinstance(tool_input, dict) else {}
    result = runtime.fire("pre_tool", {"tool_name": tool_name, "arguments": given,
                                       "host": host, "tool": tools.kind(tool_name)})
    verdict.add_errors(result["errors"])
    decision = result["outcome"]
    if decision["blocked"]:
        verdict.block(decision["message"])
        return verdict
    arguments = decision["arguments"]
    if arguments != given and isinstance(arguments, dict):
        verdict.arguments = arguments
        given = arguments
    return guard_checks(runtime, host, tools.checks(tool_name, given), verdict)


def guard_checks(runtime, host: str, checks: list[Check], verdict: Verdict) -> Verdict:
    """Fire each permission check in turn until one denies."""
    for check in checks:
        result = runtime.fire(check.point, {**check.payload, "host": host})
        verdict.add_errors(result["errors"])
        outcome = result["outcome"]
        if outcome["denied"] and outcome["decided_by"] != "fail-safe":
            verdict.block(outcome["reason"] or "denied by hook")
            break
    return verdict


def guard_prompt(runtime, host: str, prompt: object, host_title: str) -> Verdict:
    """Fire ``pre_message`` for a submitted prompt. A hook cannot block a prompt through
    ``pre_message`` (its answer is a new prompt), and no host takes a rewritten one."""
    text = prompt if isinstance(prompt, str) else ""
    result = runtime.fire("pre_message", {"prompt": text, "context_name": "default",
                                          "summary": "", "host": host})
    verdict = Verdict()
    verdict.add_errors(result["errors"])
    if result["outcome"]["prompt"] != text:
        verdict.notes.append(f"a pre_message hook changed the prompt, but {host_title} "
                             "cannot rewrite a prompt: ignored")
    return verdict


def observe(runtime, point: str, payload: dict, verdict: Verdict | None = None) -> Verdict:
    """Fire an observe-only point; its errors are reported."""
    verdict = verdict or Verdict()
    verdict.add_errors(runtime.fire(point, payload)["errors"])
    return verdict


def post_tool_payload(host: str, tool_name: str, tool_input: object, response: object) -> dict:
    """The ``post_tool`` payload of a finished host tool call."""
    return {"tool_name": tool_name, "arguments": tool_input if isinstance(tool_input, dict)
            else {}, "result": response if isinstance(response, str)
            else dumps(response).decode(), "cached": False, "host": host}


def session_payload(runtime, host: str) -> dict:
    """The ``on_start`` / ``on_end`` payload for a host session."""
    home = str(runtime.home)
    return {"harness_home": home, "chibi_home": home,
            "project_root": runtime.handlers.project_dir, "tool_count": len(runtime.tools()),
            "host": host}
