"""A scripted Gemini API (generateContent) server on 127.0.0.1, for driving a real Gemini
CLI offline through ``GOOGLE_GEMINI_BASE_URL``.

Every ``POST /v1beta/models/MODEL:streamGenerateContent`` (or ``:generateContent``) gets the
next scripted turn; ``:countTokens`` gets a count. A turn is a list of parts, made with
`shell_call` (a ``run_shell_command`` function call) or `text`. Every request body that
took a turn is kept (scripted_server.py).
"""

from __future__ import annotations

import json

from scripted_server import JSON, ScriptedServer

__all__ = ["GeminiServer", "shell_call", "text"]

#: the dullest answer to a side question (model routing, next speaker)
_SIDE_ANSWER = json.dumps({"complexity_reasoning": "simple", "complexity_score": 1,
                           "reasoning": "done", "next_speaker": "user"})


def shell_call(command: str) -> dict:
    return {"functionCall": {"name": "run_shell_command",
                             "args": {"command": command, "description": "run it"}}}


def text(words: str) -> dict:
    return {"text": words}


class GeminiServer(ScriptedServer):
    """Serves `turns` in order to the main conversation; side requests (JSON-schema'd
    ones: routing, next-speaker checks) get a fixed answer and take no turn."""

    listing = b'{"models": []}'

    def answer(self, path: str, request: dict) -> tuple[bytes, str]:
        if ":countTokens" in path:
            return b'{"totalTokens": 10}', JSON
        config = request.get("generationConfig") or {}
        if config.get("responseMimeType") == "application/json":
            parts = [text(_SIDE_ANSWER)]
        else:
            parts = self.next_turn(request)
        chunk = {"candidates": [{"content": {"role": "model", "parts": parts},
                                 "finishReason": "STOP", "index": 0}],
                 "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                   "totalTokenCount": 15},
                 "modelVersion": "gemini-2.5-pro"}
        if "streamGenerateContent" in path:
            return f"data: {json.dumps(chunk)}\r\n\r\n".encode(), "text/event-stream"
        return json.dumps(chunk).encode(), JSON

    @staticmethod
    def tool_outputs(requests: list[dict]) -> list[str]:
        """Each function response the CLI sent (as JSON text), once, in order: every
        request repeats the conversation so far."""
        seen: list[str] = []
        for request in requests:
            for content in request.get("contents", []):
                for part in content.get("parts", []):
                    if "functionResponse" in part:
                        said = json.dumps(part["functionResponse"].get("response"))
                        if said not in seen:
                            seen.append(said)
        return seen
