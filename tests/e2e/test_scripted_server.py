"""The scripted OpenAI-compatible server speaks the wire format the real SDK expects."""

from __future__ import annotations

import json

import openai
import pytest

from tests.fakes.openai_server import OpenAIServer, Reply


def _sdk(server: OpenAIServer, **kw: object) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="sk-local", max_retries=0,
                         timeout=kw.pop("timeout", 5.0), **kw)  # type: ignore[arg-type]


MESSAGES = [{"role": "user", "content": "hi"}]


def test_json_tool_calls_models_and_request_log() -> None:
    with OpenAIServer(models=["local-a", "local-b"]) as server:
        sdk = _sdk(server)
        assert [m.id for m in sdk.models.list()] == ["local-a", "local-b"]
        server.reply_tool_call("search_paper", {"query": "SST-2"}).reply_json(
            {"ok": True}, usage=(11, 3))
        first = sdk.chat.completions.create(model="local-a", messages=MESSAGES)
        call = first.choices[0].message.tool_calls[0]
        assert (call.function.name, json.loads(call.function.arguments)) == (
            "search_paper", {"query": "SST-2"})
        assert first.choices[0].finish_reason == "tool_calls"
        second = sdk.chat.completions.create(model="local-a", messages=MESSAGES)
        assert json.loads(second.choices[0].message.content) == {"ok": True}
        assert (second.usage.prompt_tokens, second.usage.completion_tokens) == (11, 3)
    assert [r.method for r in server.requests] == ["GET", "POST", "POST"]
    assert server.chat_requests[0].model == "local-a"
    assert server.chat_requests[0].user == "hi"


def test_stream_complete_and_cut() -> None:
    with OpenAIServer() as server:
        sdk = _sdk(server)
        server.reply_text("one two three", deltas=["one ", "two ", "three"], usage=(4, 3))
        chunks = list(sdk.chat.completions.create(
            model="m", messages=MESSAGES, stream=True, stream_options={"include_usage": True}))
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        assert text == "one two three"
        assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
        assert chunks[-1].usage.completion_tokens == 3
        # a clean but short stream: no finish_reason, no usage
        server.reply_stream_cut("one two three", events=2)
        cut = list(sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True))
        assert all(c.choices[0].finish_reason is None for c in cut if c.choices)
        assert all(c.usage is None for c in cut)
        server.reply_stream_cut("one two three", events=2, mode="abort")
        with pytest.raises(openai.APIConnectionError):
            list(sdk.chat.completions.create(model="m", messages=MESSAGES, stream=True))


def test_faults() -> None:
    with OpenAIServer(models=["only-this"], known_models_only=True) as server:
        sdk = _sdk(server)
        server.reply_status(429, headers={"Retry-After": "7"})
        with pytest.raises(openai.RateLimitError) as limited:
            sdk.chat.completions.create(model="only-this", messages=MESSAGES)
        assert limited.value.response.headers["retry-after"] == "7"
        server.reply_status(500)
        with pytest.raises(openai.InternalServerError):
            sdk.chat.completions.create(model="only-this", messages=MESSAGES)
        server.reply_truncated_json({"claims": [1, 2, 3]})
        with pytest.raises(json.JSONDecodeError):  # what the SDK itself raises
            sdk.chat.completions.create(model="only-this", messages=MESSAGES)
        server.reply_slow(1.0)
        with pytest.raises(openai.APITimeoutError):
            _sdk(server, timeout=0.2).chat.completions.create(model="only-this",
                                                              messages=MESSAGES)
        server.reply_drop()
        with pytest.raises(openai.APIConnectionError):
            sdk.chat.completions.create(model="only-this", messages=MESSAGES)
        with pytest.raises(openai.NotFoundError):
            sdk.chat.completions.create(model="gpt-4o", messages=MESSAGES)


def test_responder_auth_and_strictness() -> None:

    server = OpenAIServer(api_key="sk-right",
                          responder=lambda r: Reply(status=200, body={"echo": r.user}))
    with server:
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=server.base_url, api_key="sk-wrong",
                          max_retries=0).models.list()
        raw = openai.OpenAI(base_url=server.base_url, api_key="sk-right", max_retries=0
                            ).chat.completions.with_raw_response.create(model="m",
                                                                        messages=MESSAGES)
        assert json.loads(raw.text) == {"echo": "hi"}
    strict = OpenAIServer()
    with pytest.raises(AssertionError, match="never requested"):
        with strict:
            strict.reply_json({})
    unexpected = OpenAIServer()
    with pytest.raises(AssertionError, match="no reply queued"):
        with unexpected:
            with pytest.raises(openai.InternalServerError):
                _sdk(unexpected).chat.completions.create(model="m", messages=MESSAGES)
