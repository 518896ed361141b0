"""tool_filter.py: restricts the tools offered to the model, by context.

The Python twin of examples/plugins/tool_filter. Needs the unsandboxed tier.
"""

from harness.api import hook

FILE_TOOLS = ["file_head", "file_tail", "file_lines", "file_grep"]


@hook("pre_api_tools")
def filter_tools(payload: dict) -> dict:
    # Answers combine across hooks: "include" lists intersect, "exclude" lists add up.
    if payload.get("context_name") == "safe":
        return {"include": ["update_goals", "update_reflection"]}  # an allowlist
    return {"exclude": FILE_TOOLS}
