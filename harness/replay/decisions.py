"""What a host's answer decided, in replay's five words: allow, block, deny, ask, rewrite.

``deny`` is a tool call or permission refused (Claude Code's ``permissionDecision: deny``,
exit 2 on ``PreToolUse``); ``block`` stops anything else (a prompt, a stop, a dispatch's
``block: true``); ``ask`` hands the choice to the user; ``rewrite`` lets the call run with
changed input; ``allow`` is everything else (no hook objected). The strongest wins:
deny > block > ask > rewrite > allow.
"""

from __future__ import annotations

from harness.bridge import loads

__all__ = ["DECISIONS", "answer_decision", "claude_decision", "outcome_decision",
           "source_decision", "strongest"]

DECISIONS = ("allow", "block", "deny", "ask", "rewrite")
_RANK = {"allow": 0, "rewrite": 1, "ask": 2, "block": 3, "deny": 4}
#: events whose refusal is a deny (a tool call or a permission), not a block
_PERMISSION_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})


def strongest(decisions) -> str:
    """The strongest of ``decisions`` (``allow`` for none)."""
    return max(decisions, key=_RANK.__getitem__, default="allow")


def claude_decision(event: str, reply) -> tuple[str, str | None, dict | None]:
    """``(decision, reason, rewritten input)`` of a Claude Code command hook's reply
    (``exit_code``, ``stdout``, ``stderr``) to ``event``."""
    try:
        answer = loads(reply.stdout) if reply.stdout.strip() else {}
    except ValueError:
        answer = {}
    if not isinstance(answer, dict):
        answer = {}
    return answer_decision(event, answer, reply.exit_code, reply.stderr)


def answer_decision(event: str, answer: dict, exit_code: int = 0,
                    stderr: str = "") -> tuple[str, str | None, dict | None]:
    """``(decision, reason, rewritten input)`` of a hook answer in Claude Code's JSON shape
    (which Codex and most hosts share), given with the command's exit code and stderr."""
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    permission = specific.get("permissionDecision") or answer.get("permissionDecision") \
        or answer.get("permission")
    behaviour = specific.get("decision")
    if isinstance(behaviour, dict):  # PermissionRequest: {"behavior": "deny" | "allow"}
        permission = behaviour.get("behavior") or permission
    reason = (specific.get("permissionDecisionReason") or answer.get("reason")
              or answer.get("stopReason") or stderr.strip() or None)
    refused = "deny" if event in _PERMISSION_EVENTS else "block"
    if exit_code == 2 or permission == "deny" or answer.get("decision") in ("block", "deny") \
            or answer.get("continue") is False:
        return refused, reason, None
    if permission == "ask" or answer.get("decision") == "ask":
        return "ask", reason, None
    rewritten = specific.get("updatedInput")
    if isinstance(behaviour, dict) and isinstance(behaviour.get("updatedInput"), dict):
        rewritten = behaviour["updatedInput"]
    if isinstance(rewritten, dict):
        return "rewrite", None, rewritten
    return "allow", None, None


def outcome_decision(hook: str, outcome: dict) -> tuple[str, str | None, dict | None]:
    """``(decision, reason, rewritten arguments)`` of one dispatch's outcome (SPEC §9)."""
    if outcome.get("denied"):
        return "deny", outcome.get("reason"), None
    if outcome.get("blocked"):
        reason = outcome.get("message") or outcome.get("reason")
        return ("deny" if hook in _PERMISSION_EVENTS else "block"), reason, None
    if outcome.get("permissionDecision") == "ask":
        return "ask", outcome.get("permissionDecisionReason"), None
    if isinstance(outcome.get("updatedInput"), dict):
        return "rewrite", None, outcome["updatedInput"]
    return "allow", None, None


def source_decision(hook: str, answer: object) -> str:
    """The decision one hook's answer stood for (before the answers were combined)."""
    if not isinstance(answer, dict):
        return "allow"
    if answer.get("denied") is True:
        return "deny"
    if answer.get("block") is True:
        return "block"
    decision, _, _ = answer_decision(hook, answer)
    if decision != "allow":
        return decision
    if any(key in answer for key in ("arguments", "output", "prompt", "request_body")):
        return "rewrite"
    return "allow"
