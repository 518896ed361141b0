"""context_injector.py: puts a timestamp in front of every prompt, and tells the model
which context it is in. The Python twin of examples/plugins/context_injector. Needs the
unsandboxed tier.
"""

from datetime import UTC, datetime

from harness.api import hook


def timestamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%Mz")


@hook("pre_message")
def stamp_prompt(payload: dict) -> dict:
    # pre_message may answer a new "prompt"; the last hook to answer one wins.
    return {"prompt": f"[{timestamp()}]\n{payload['prompt']}"}


@hook("pre_system_prompt")
def name_context(payload: dict) -> dict:
    # Every non-empty "inject" goes in front of the system prompt.
    return {"inject": f"Current context: {payload['context_name']}"}
