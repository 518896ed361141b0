"""A scripted OpenAI Responses API server on 127.0.0.1, for driving a real Codex or Copilot
CLI offline.

Each ``POST .../responses`` gets the next scripted turn as a Server-Sent Events stream
(``response.created``, one ``response.output_item.done`` per item, ``response.completed``);
every request body is kept in ``requests`` (scripted_server.py). A turn is a list of output
items, made with `shell_call` (a function call of the shell tool the request offered) or
`message`.
"""

from __future__ import annotations

import json

from scripted_server import ScriptedServer

__all__ = ["ResponsesServer", "message", "shell_call"]

_USAGE = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
          "input_tokens_details": {"cached_tokens": 0},
          "output_tokens_details": {"reasoning_tokens": 0}}


def message(text: str) -> dict:
    """An assistant message item."""
    return {"type": "message", "role": "assistant", "id": "msg_1",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def shell_call(command: str, call_id: str) -> dict:
    """A call of the shell tool with `command`: the arguments are filled in per request
    for the shell tool that request offers (Codex's ``exec_command``, Copilot's ``bash``, else
    ``shell``)."""
    return {"type": "shell_call", "command": command, "call_id": call_id}


def _item_for(item: dict, tools: list) -> dict:
    if item.get("type") != "shell_call":
        return item
    names = {t.get("name") or t.get("type") for t in tools}
    if "exec_command" in names:  # Codex
        name, arguments = "exec_command", {"cmd": item["command"]}
    elif "bash" in names:  # Copilot CLI
        name, arguments = "bash", {"command": item["command"], "description": "run it"}
    elif "shell_command" in names:
        name, arguments = "shell_command", {"command": item["command"]}
    else:
        name, arguments = "shell", {"command": ["bash", "-lc", item["command"]]}
    return {"type": "function_call", "id": f"fc_{item['call_id']}", "name": name,
            "arguments": json.dumps(arguments), "call_id": item["call_id"]}


class ResponsesServer(ScriptedServer):
    """Serves `turns` in order, each request taking one."""

    base_path = "/v1"

    def answer(self, path: str, request: dict) -> tuple[bytes, str]:
        items = [_item_for(i, request.get("tools") or []) for i in self.next_turn(request)]
        response = {"id": "resp_1", "object": "response", "model": request.get("model")}
        events = [{"type": "response.created",
                   "response": {**response, "status": "in_progress", "output": []}}]
        for n, item in enumerate(items):
            events.append({"type": "response.output_item.added", "output_index": n,
                           "item": item})
            events.append({"type": "response.output_item.done", "output_index": n,
                           "item": item})
        events.append({"type": "response.completed", "response": {
            **response, "status": "completed", "output": items, "usage": _USAGE}})
        return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n"
                       for e in events).encode(), "text/event-stream"

    @staticmethod
    def tool_outputs(requests: list[dict]) -> list[str]:
        """What each function call returned to the model, in order."""
        return [item.get("output") if isinstance(item.get("output"), str)
                else json.dumps(item.get("output"))
                for request in requests for item in request.get("input", [])
                if isinstance(item, dict) and item.get("type") == "function_call_output"]
