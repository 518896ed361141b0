"""The language model a host lends the runtime.

The builtin tools ``spawn_agent`` and ``summarize_content`` and the declared ``prompt`` and
``agent`` handlers ask a model. harness never picks one itself: the host passes a callable,

```python
def my_model(request: ModelRequest) -> str | ModelReply:
    ...  # request.messages are chat messages: [{"role": "system"|"user"|..., "content": ...}]

rt = Runtime(home, model=my_model)
```

or ``harness.toml`` names an OpenAI-compatible chat-completions endpoint (a host's model
wins over it):

```toml
[model]
url = "http://127.0.0.1:8080/v1"   # requests go to {url}/chat/completions
model = "gpt-4o-mini"              # the model name sent when a request names none
api_key_env = "OPENAI_API_KEY"     # optional: the environment variable with the key
timeout = 60.0                     # seconds per request
```

Messages and tools use the chat-completions shapes that most hosts already speak: a reply
may ask for tool calls (``ModelReply.tool_calls``), answered with ``{"role": "tool",
"tool_call_id": ..., "content": ...}`` messages. A model that fails raises ``ModelError``
with a message fit for a user.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson


class ModelError(Exception):
    """A model request failed, or no model is configured; the message says which."""


@dataclass(frozen=True)
class ModelRequest:
    """One chat request. ``tools`` are ``{"name", "description", "parameters"}`` schemas
    the model may call; None fields are left to the model's defaults."""

    messages: list[dict]
    model: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    tools: list[dict] | None = None


@dataclass(frozen=True)
class ToolCall:
    """A tool call the model asked for; ``arguments`` is the parsed JSON object."""

    id: str
    name: str
    arguments: dict


@dataclass(frozen=True)
class ModelReply:
    """What a model answered: its text and any tool calls it asked for."""

    text: str
    tool_calls: tuple[ToolCall, ...] = field(default=())


#: what a host gives ``Runtime(model=...)``
Model = Callable[[ModelRequest], "str | ModelReply"]

NO_MODEL = ("no model is configured: give the runtime one (Runtime(model=...)) or name an "
            "OpenAI-compatible endpoint under [model] in harness.toml")


def ask(model: Model | None, request: ModelRequest) -> ModelReply:
    """Send ``request`` to ``model``; a plain-text answer becomes a ModelReply. Raises
    ModelError when there is no model, it fails, or it answers something else."""
    if model is None:
        raise ModelError(NO_MODEL)
    try:
        reply = model(request)
    except ModelError:
        raise
    except Exception as exc:  # noqa: BLE001 - a host's model may raise anything
        raise ModelError(f"the model failed: {type(exc).__name__}: {exc}") from None
    if isinstance(reply, str):
        return ModelReply(reply)
    if isinstance(reply, ModelReply):
        return reply
    raise ModelError(f"the model answered {type(reply).__name__}, expected a string or a "
                     "ModelReply")


@dataclass(frozen=True)
class Endpoint:
    """An OpenAI-compatible chat-completions endpoint (``[model]`` in harness.toml)."""

    url: str
    model: str | None = None
    api_key_env: str | None = None
    timeout: float = 60.0

    def __call__(self, request: ModelRequest) -> ModelReply:
        import urllib.error  # only a runtime that asks a model pays for urllib's import
        import urllib.request
        body: dict = {"model": request.model or self.model, "messages": request.messages}
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.max_tokens is not None:
            body["max_tokens"] = request.max_tokens
        if request.tools:
            body["tools"] = [{"type": "function", "function": t} for t in request.tools]
        if body["model"] is None:
            del body["model"]
        headers = {"Content-Type": "application/json"}
        if self.api_key_env:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise ModelError(f"[model] api_key_env: ${self.api_key_env} is not set")
            headers["Authorization"] = f"Bearer {key}"
        url = self.url.rstrip("/") + "/chat/completions"
        http = urllib.request.Request(url, data=orjson.dumps(body), headers=headers,
                                      method="POST")
        try:
            with urllib.request.urlopen(http, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", "replace").strip()
            raise ModelError(f"model endpoint {url}: HTTP {exc.code}"
                             + (f": {detail}" if detail else "")) from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ModelError(f"model endpoint {url}: {reason}") from None
        return _reply_of(raw, url)


def _reply_of(raw: bytes, url: str) -> ModelReply:
    """The first choice of a chat-completions response."""
    try:
        message = orjson.loads(raw)["choices"][0]["message"]
        calls = []
        for call in message.get("tool_calls") or ():
            function = call["function"]
            arguments = function.get("arguments") or "{}"
            if isinstance(arguments, str):
                arguments = orjson.loads(arguments)
            if not isinstance(arguments, dict):
                raise TypeError("tool call arguments are not an object")
            calls.append(ToolCall(str(call.get("id", "")), function["name"], arguments))
        return ModelReply(message.get("content") or "", tuple(calls))
    except (orjson.JSONDecodeError, KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ModelError(f"model endpoint {url}: not a chat-completions answer "
                         f"({type(exc).__name__}: {exc})") from None
