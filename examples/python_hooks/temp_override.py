"""temp_override.py: sets the sampling temperature by context.

The Python twin of examples/plugins/temp_override. Needs the unsandboxed tier.
"""

from harness.api import hook

TEMPERATURES = {"coding": 0.1, "creative": 1.2}


@hook("pre_api_request")
def temperature_by_context(payload: dict) -> dict | None:
    # A "request_body" answer is merged into the request key by key: the keys to change
    # are enough.
    temperature = TEMPERATURES.get(payload.get("context_name"))
    if temperature is None:
        return None
    return {"request_body": {"temperature": temperature}}
