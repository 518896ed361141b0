"""The combine rule ``host``: the answers to a host's own event (``codex.PreToolUse``, ...).

An answer is that host's hook output (Codex's ``hookSpecificOutput``, Cursor's flat
``permission``, Cline's ``cancel``, ...). The first answer that says no — in any host's
words — wins whole: ``decision: deny|block``, ``permissionDecision: deny`` (top level or in
``hookSpecificOutput``), ``permission: deny``, ``behavior: deny`` (top level or in
``hookSpecificOutput.decision``), ``cancel: true``, ``continue: false`` or harness's own
``blocked: true`` (the shape for hosts that read only exit codes: Windsurf, Kiro). Else the
answers are merged key by key, later ones winning.

The outcome: ``{"blocked", "reason", "answer"}`` — ``answer`` the winning or merged host
output, which the adapter passes on.
"""

from __future__ import annotations

__all__ = ["block_answer", "blocking_reason", "combine_host"]

_REASON_KEYS = ("reason", "permissionDecisionReason", "message", "user_message",
                "errorMessage", "stopReason", "agent_message")


def _said(node: dict, default: str) -> str:
    for key in _REASON_KEYS:
        value = node.get(key)
        if isinstance(value, str) and value:
            return value
    return default


def blocking_reason(answer: dict) -> str | None:
    """Why `answer` says no (None: it does not)."""
    default = "Blocked by hook"
    if answer.get("decision") in ("deny", "block") or answer.get("blocked") is True \
            or answer.get("cancel") is True or answer.get("continue") is False \
            or "deny" in (answer.get("permissionDecision"), answer.get("permission"),
                          answer.get("behavior")):
        return _said(answer, default)
    specific = answer.get("hookSpecificOutput")
    if isinstance(specific, dict):
        if specific.get("permissionDecision") == "deny":
            return _said(specific, default)
        decision = specific.get("decision")
        if isinstance(decision, dict) and decision.get("behavior") == "deny":
            return _said(decision, default)
    return None


def combine_host(r) -> dict:
    merged: dict = {}
    for _, answer in r.answers:
        reason = blocking_reason(answer)
        if reason is not None:
            return {"blocked": True, "reason": reason, "answer": dict(answer)}
        merged.update(answer)
    if r.failed:
        reason = f"hook failed: {', '.join(r.failed)}"
        return {"blocked": True, "reason": reason, "answer": {"blocked": True,
                                                               "reason": reason}}
    return {"blocked": False, "reason": None, "answer": merged}


def block_answer(message: str) -> dict:
    """What a hook that must fail closed stands for on a host's own event."""
    return {"blocked": True, "reason": message}
