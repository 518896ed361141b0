"""The model a host lends the runtime: a callable, or an OpenAI-compatible endpoint."""

from __future__ import annotations

import json

import pytest

from harness.config import ConfigError, load_config
from harness.model import Endpoint, ModelError, ModelReply, ModelRequest, ToolCall, ask
from harness.runtime import Runtime

HELLO = ModelRequest([{"role": "system", "content": "be brief"},
                      {"role": "user", "content": "hello"}], temperature=0.2)


def completion(**message) -> bytes:
    return json.dumps({"choices": [{"message": message}]}).encode()


CALLS_VFS_LIST = completion(content="hi there", tool_calls=[
    {"id": "c1", "function": {"name": "vfs_list", "arguments": '{"path": "vfs:///"}'}}])


@pytest.fixture
def chat(local_server):
    """A chat-completions endpoint answering with text and one tool call."""
    local_server.respond = lambda path, headers, body: (200, CALLS_VFS_LIST)
    local_server.url += "/v1"
    return local_server


def test_no_model_is_a_clear_error():
    with pytest.raises(ModelError, match=r"no model is configured.*\[model\] in harness.toml"):
        ask(None, HELLO)


def test_a_host_model_may_answer_text_or_a_reply():
    assert ask(lambda r: "ok", HELLO) == ModelReply("ok")
    reply = ModelReply("", (ToolCall("1", "t", {}),))
    assert ask(lambda r: reply, HELLO) is reply


def test_a_failing_or_odd_host_model_is_reported_not_raised_as_is():
    def broken(request):
        raise RuntimeError("quota")
    with pytest.raises(ModelError, match="the model failed: RuntimeError: quota"):
        ask(broken, HELLO)
    with pytest.raises(ModelError, match="answered int"):
        ask(lambda r: 3, HELLO)


def test_endpoint_sends_chat_completions_and_reads_text_and_tool_calls(chat, monkeypatch):
    monkeypatch.setenv("TEST_KEY", "sekret")
    endpoint = Endpoint(chat.url, model="small", api_key_env="TEST_KEY", timeout=5)
    reply = endpoint(ModelRequest(HELLO.messages, max_tokens=10,
                                  tools=[{"name": "vfs_list", "description": "list",
                                          "parameters": {"type": "object"}}]))
    assert reply == ModelReply("hi there", (ToolCall("c1", "vfs_list", {"path": "vfs:///"}),))
    body, headers = chat.requests[0]["body"], chat.requests[0]["headers"]
    assert chat.requests[0]["path"] == "/v1/chat/completions"
    assert body["model"] == "small" and body["messages"] == HELLO.messages
    assert body["max_tokens"] == 10 and "temperature" not in body
    assert body["tools"][0] == {"type": "function", "function": {
        "name": "vfs_list", "description": "list", "parameters": {"type": "object"}}}
    assert headers["Authorization"] == "Bearer sekret"


def test_endpoint_failures_are_model_errors(local_server, monkeypatch):
    local_server.respond = lambda path, headers, body: (500, b"overloaded")
    with pytest.raises(ModelError, match="HTTP 500: overloaded"):
        Endpoint(local_server.url)(HELLO)
    local_server.respond = lambda path, headers, body: (200, b"<html>")
    with pytest.raises(ModelError, match="not a chat-completions answer"):
        Endpoint(local_server.url)(HELLO)
    local_server.respond = lambda path, headers, body: (200, completion(content=None,
                                                                        tool_calls=[{}]))
    with pytest.raises(ModelError, match="not a chat-completions answer"):
        Endpoint(local_server.url)(HELLO)
    closed = local_server.url
    local_server.close()
    with pytest.raises(ModelError, match="model endpoint http://127.0.0.1"):
        Endpoint(closed, timeout=2)(HELLO)
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with pytest.raises(ModelError, match=r"\$NOPE_KEY is not set"):
        Endpoint("http://127.0.0.1:9", api_key_env="NOPE_KEY")(HELLO)


def test_model_table_in_harness_toml(tmp_path):
    toml = tmp_path / "harness.toml"
    toml.write_text('[model]\nurl = "http://h:1/v1"\nmodel = "m"\ntimeout = 3\n')
    assert load_config(toml).model == Endpoint("http://h:1/v1", "m", None, 3.0)
    for text, message in [('[model]\nurl = "ftp://x"\n', "url must be an http"),
                          ('[model]\nurl = "http://x"\nmodel = 3\n', "model must be a string"),
                          ('model = "x"\n', "must be a table")]:
        toml.write_text(text)
        with pytest.raises(ConfigError, match=message):
            load_config(toml)
    toml.write_text('[model]\nurl = "http://x"\nmodle = "m"\n')  # a warning, as elsewhere
    assert load_config(toml).warnings == [
        f"{toml}: unknown key modle in [model] is ignored; did you mean model?"]


def test_runtime_asks_the_host_model_before_the_configured_endpoint(tmp_path, chat):
    (tmp_path / "harness.toml").write_text(f'[model]\nurl = "{chat.url}"\n')
    with Runtime(tmp_path) as rt:
        assert rt.ask_model(HELLO).text == "hi there"
    with Runtime(tmp_path, model=lambda request: "from the host") as rt:
        assert rt.ask_model(HELLO).text == "from the host"
    (tmp_path / "harness.toml").unlink()
    with Runtime(tmp_path) as rt, pytest.raises(ModelError, match="no model is configured"):
        rt.ask_model(HELLO)
