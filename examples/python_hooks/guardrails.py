"""guardrails.py: hands control back to the user after a dangerous tool call, and charges
5 fuel for it. The Python twin of examples/plugins/guardrails. Needs the unsandboxed tier.
"""

from harness.api import hook

DANGEROUS_TOOLS = {"shell_exec", "write_file", "delete_file"}


@hook("post_tool_batch")
def after_dangerous_calls(payload: dict) -> dict | None:
    # "fallback": the last answer wins; "fuel_delta" values add up (fuel never goes
    # below 0).
    if any(call.get("name") in DANGEROUS_TOOLS for call in payload.get("tool_calls", [])):
        return {"fallback": "call_user", "fuel_delta": -5}
    return None
