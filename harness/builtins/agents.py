"""Tools that ask the host's model (harness.model): spawn_agent and summarize_content.
``pre_spawn_agent`` may answer in the model's place (``response``) or block the call;
``post_spawn_agent`` observes the reply. Without a model they fail with the model's
"no model is configured" message.
"""

from __future__ import annotations

from harness.builtins import python_tool
from harness.calls.run_tool import ToolError
from harness.sandbox.thread_context import current_runtime

SUMMARIZE_PROMPT = ("You summarise content for another agent. Follow the instructions "
                    "exactly; be faithful to the content and concise.")


def spawn(system_prompt: str, text: str, arguments: dict) -> str:
    """One model call with [system, user] messages, through the spawn hooks."""
    from harness.calls.pipeline import fire_in_call
    from harness.model import ModelError, ModelRequest
    runtime = current_runtime()
    model = arguments.get("model") if isinstance(arguments.get("model"), str) else None
    temperature = arguments.get("temperature")
    temperature = float(temperature) if isinstance(temperature, (int, float)) and \
        not isinstance(temperature, bool) else None
    max_tokens = arguments.get("max_tokens")
    max_tokens = max_tokens if isinstance(max_tokens, int) and not isinstance(max_tokens, bool) \
        and max_tokens > 0 else None
    payload = {"system_prompt": system_prompt, "input": text, "model": model,
               "temperature": temperature, "max_tokens": max_tokens}
    decision = fire_in_call(runtime, "pre_spawn_agent", payload)
    if decision["response"] is not None:
        response = decision["response"]
    elif decision["blocked"]:
        raise ToolError(decision["message"] or "Sub-agent call blocked by hook")
    else:
        request = ModelRequest([{"role": "system", "content": system_prompt},
                                {"role": "user", "content": text}], model=model,
                               temperature=temperature, max_tokens=max_tokens)
        try:
            response = runtime.ask_model(request).text
        except ModelError as exc:
            raise ToolError(str(exc)) from None
    fire_in_call(runtime, "post_spawn_agent", {"system_prompt": system_prompt, "input": text,
                                               "model": model, "response": response})
    return response


_MODEL_OPTIONS = {"model": {"type": "string", "description": "model name"},
                  "temperature": {"type": "number"},
                  "max_tokens": {"type": "integer"}}


@python_tool("spawn_agent", "Ask a sub-agent: one model call with a system prompt and an "
             "input; returns its reply.", {
                 "properties": {"system_prompt": {"type": "string"},
                                "input": {"type": "string"}, **_MODEL_OPTIONS,
                                "preset": {"type": "string", "description": "ignored"}},
                 "required": ["system_prompt", "input"]}, "flow")
def spawn_agent(arguments: dict) -> str:
    for name in ("system_prompt", "input"):
        if not isinstance(arguments.get(name), str):
            raise ToolError(f"Missing '{name}' parameter")
    return spawn(arguments["system_prompt"], arguments["input"], arguments)


@python_tool("summarize_content", "Summarise a file (path or vfs:/// URI) or an http(s) URL "
             "by the instructions, through a sub-agent.", {
                 "properties": {"source": {"type": "string",
                                           "description": "a path, vfs:/// URI or URL"},
                                "instructions": {"type": "string"}, **_MODEL_OPTIONS},
                 "required": ["source", "instructions"]}, "flow")
def summarize_content(arguments: dict) -> str:
    from harness.builtins.network import fetch
    from harness.builtins.search import _read_text
    source, instructions = arguments.get("source"), arguments.get("instructions")
    if not isinstance(source, str):
        raise ToolError("Missing 'source' parameter")
    if not isinstance(instructions, str):
        raise ToolError("Missing 'instructions' parameter")
    if source.startswith(("http://", "https://")):
        content = fetch(source, 1 << 20, 30)
    else:
        content = _read_text(source)
    if not content.strip():
        return f"Source '{source}' is empty."
    text = f"## Instructions\n{instructions}\n\n## Content from: {source}\n{content}"
    return spawn(SUMMARIZE_PROMPT, text, arguments)


TOOLS = (spawn_agent, summarize_content)
