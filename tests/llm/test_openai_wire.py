"""The OpenAI provider through the real ``openai`` SDK against the respx wire fake."""

from __future__ import annotations

import json
import logging

import pytest

from repro_assets.llm import (
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    LLMRateLimited,
    LLMTimeout,
    LLMUnavailable,
    Role,
    jsonizer_fallback,
)
from repro_assets.llm.base import REASK_TEMPLATE
from tests.fakes.llm_wire import OpenAIWireFake
from tests.llm.helpers import GOOD, ExtractorOutput, search_tool


def _ask(client, **kw):
    return client.structured(role=Role.EXTRACTOR, system="Extract claims.",
                             user="Paper text ...", schema=ExtractorOutput, **kw)


def test_structured_success_sends_strict_schema(no_network: None) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json(GOOD, usage=(100, 20))
        client = fake.make_client()
        result = _ask(client)
    assert result.value.claims[0].metric_value == 88.1
    assert not result.reasked and not result.fallback_used
    sent = fake.requests[0].json
    assert fake.requests[0].headers["authorization"] == "Bearer sk-test"
    assert sent["model"] == "gpt-4o"
    assert sent["temperature"] == 0.1
    assert sent["messages"] == [{"role": "system", "content": "Extract claims."},
                                {"role": "user", "content": "Paper text ..."}]
    fmt = sent["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "ExtractorOutput"
    assert fmt["json_schema"]["strict"] is True
    claim = fmt["json_schema"]["schema"]["$defs"]["Claim"]
    assert claim["additionalProperties"] is False
    assert set(claim["required"]) == {"dataset_name", "metric_name", "metric_value"}
    assert "tools" not in sent
    [usage] = result.usage
    assert (usage.provider, usage.model, usage.role) == ("openai", "gpt-4o", "extractor")
    assert (usage.input_tokens, usage.output_tokens, usage.cache_hit) == (100, 20, False)
    assert usage.cost_usd == pytest.approx((100 * 2.5 + 20 * 10.0) / 1e6)
    summary = client.usage_summary()
    assert summary["calls"] == 1 and summary["input_tokens"] == 100
    assert summary["models"] == "gpt-4o"


def test_tool_call_then_output() -> None:
    queries: list[str] = []
    with OpenAIWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "SST-2 accuracy"})
        fake.reply_json(GOOD)
        result = _ask(fake.make_client(), tools=[search_tool(queries)])
    assert queries == ["SST-2 accuracy"]
    assert result.value == ExtractorOutput.model_validate(GOOD)
    assert [r.name for r in result.tool_calls] == ["search_paper"]
    assert result.tool_calls[0].arguments == {"query": "SST-2 accuracy"}
    first, second = (r.json for r in fake.requests)
    tool = first["tools"][0]
    assert tool["type"] == "function" and tool["function"]["strict"] is True
    assert tool["function"]["parameters"]["required"] == ["query"]
    assert first["parallel_tool_calls"] is False
    assistant, tool_msg = second["messages"][-2:]
    assert assistant["tool_calls"][0]["function"]["name"] == "search_paper"
    assert tool_msg["role"] == "tool"
    assert tool_msg["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert json.loads(tool_msg["content"])[0]["page"] == 5
    assert len(result.usage) == 2


def test_invalid_tool_arguments_and_unknown_tool_are_reported_to_the_model() -> None:
    queries: list[str] = []
    with OpenAIWireFake() as fake:
        fake.reply_tool_calls([("search_paper", {"q": "wrong"}), ("web_search", {"x": 1})])
        fake.reply_json(GOOD)
        result = _ask(fake.make_client(), tools=[search_tool(queries)])
    assert queries == []
    results = [m for m in fake.requests[1].json["messages"] if m["role"] == "tool"]
    assert "invalid arguments for search_paper" in json.loads(results[0]["content"])["error"]
    assert "unknown tool" in json.loads(results[1]["content"])["error"]
    assert result.value.claims


def test_malformed_then_success_on_reask() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_malformed('{"claims": [{"dataset_name": "SST-2"')
        fake.reply_json(GOOD)
        result = _ask(fake.make_client())
    assert result.reasked is True
    assert result.value.claims[0].dataset_name == "SST-2"
    reask = fake.requests[1].json["messages"]
    assert reask[-2] == {"role": "assistant", "content": '{"claims": [{"dataset_name": "SST-2"'}
    prefix = REASK_TEMPLATE.split("{schema}")[0]
    assert reask[-1]["role"] == "user" and reask[-1]["content"].startswith(prefix)
    assert json.loads(reask[-1]["content"][len(prefix):])["required"] == ["claims"]


def test_schema_invalid_json_counts_as_malformed() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_json({"claims": [{"dataset_name": "SST-2"}]})  # valid JSON, wrong shape
        fake.reply_json({"claims": "none"})
        client = fake.make_client()
        with pytest.raises(LLMInvalidOutput) as info:
            _ask(client)
    assert info.value.code == "E_LLM_INVALID_OUTPUT"
    assert info.value.raw_text == '{"claims": "none"}'
    assert len(fake.requests) == 2  # exactly one re-ask


def test_malformed_twice_then_jsonizer_fallback_on_cheaper_model() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_malformed("The claims are: SST-2 accuracy 88.1")
        fake.reply_malformed("SST-2: 88.1 (accuracy)")
        fake.reply_json(GOOD)
        client = fake.make_client()
        result = _ask(client, fallback=jsonizer_fallback(client, code="E_SCHEMA_FIX_FAILED"))
    assert result.fallback_used and result.reasked
    assert result.value.claims[0].metric_value == 88.1
    jsonizer = fake.requests[2].json
    assert jsonizer["model"] == "gpt-4o-mini"
    assert jsonizer["messages"][1]["content"] == "SST-2: 88.1 (accuracy)"
    assert client.usage_summary()["models"] == "gpt-4o, gpt-4o-mini"


def test_fallback_failure_raises_with_callers_code() -> None:
    with OpenAIWireFake() as fake:
        for _ in range(4):
            fake.reply_malformed("not json")
        client = fake.make_client()
        with pytest.raises(LLMInvalidOutput) as info:
            _ask(client, fallback=jsonizer_fallback(client, code="E_SCHEMA_FIX_FAILED"))
    assert info.value.code == "E_SCHEMA_FIX_FAILED"


def test_429_with_retry_after_then_success_honours_the_header() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(429, headers={"Retry-After": "1"})
        fake.reply_json(GOOD)
        client = fake.make_client(retry_after_scale=1.0, retry_wait_max_s=30.0)
        waits: list[float] = []
        client.sleep = waits.append  # record instead of sleeping
        result = _ask(client)
    assert waits == [1.0]
    assert result.value.claims
    assert len(fake.requests) == 2


def test_429_until_give_up_raises_rate_limited() -> None:
    with OpenAIWireFake() as fake:
        for _ in range(3):
            fake.reply_status(429, headers={"Retry-After": "2"})
        client = fake.make_client(retry_attempts=3)
        waits: list[float] = []
        client.sleep = waits.append
        with pytest.raises(LLMRateLimited) as info:
            _ask(client)
    assert info.value.code == "E_LLM_RATE_LIMITED"
    assert waits == [pytest.approx(0.002), pytest.approx(0.002)]  # 2 s x test scale 0.001
    assert len(fake.requests) == 3


def test_500s_until_give_up() -> None:
    with OpenAIWireFake() as fake:
        for _ in range(3):
            fake.reply_status(500)
        client = fake.make_client(retry_attempts=3)
        with pytest.raises(LLMUnavailable) as info:
            _ask(client)
    assert info.value.code == "E_LLM_PROVIDER_ERROR"
    assert len(fake.requests) == 3
    assert client.usage_summary()["calls"] == 0


def test_sdk_retries_run_inside_our_attempts() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(503, headers={"retry-after-ms": "1"})
        fake.reply_json(GOOD)
        client = fake.make_client(sdk_max_retries=1, retry_attempts=1)
        result = _ask(client)
    assert result.value.claims and len(fake.requests) == 2


def test_timeout_until_give_up_then_success_after_one() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_timeout()
        fake.reply_timeout()
        client = fake.make_client(retry_attempts=2)
        with pytest.raises(LLMTimeout) as info:
            _ask(client)
    assert info.value.code == "E_LLM_TIMEOUT"
    with OpenAIWireFake() as fake:
        fake.reply_timeout()
        fake.reply_json(GOOD)
        assert _ask(fake.make_client(retry_attempts=2)).value.claims


def test_bad_request_is_not_retried() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_status(400, message="Invalid schema for response_format")
        with pytest.raises(Exception) as info:
            _ask(fake.make_client())
    assert getattr(info.value, "code", None) == "E_LLM_BAD_REQUEST"
    assert len(fake.requests) == 1


def test_tool_cap_exceeded_counts_across_calls_of_one_run() -> None:
    with OpenAIWireFake(strict=False) as fake:
        fake.reply_tool_call("search_paper", {"query": "a"})
        fake.reply_tool_call("search_paper", {"query": "b"})
        fake.reply_json(GOOD)
        fake.reply_tool_call("search_paper", {"query": "c"})
        client = fake.make_client(tool_cap_file_search=2)
        tool = search_tool()
        assert _ask(client, tools=[tool]).value.claims
        with pytest.raises(LLMPolicyCapExceeded) as info:
            _ask(client, tools=[tool])
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"
    assert "file_search cap (2)" in str(info.value)
    assert client.tool_budget.counts == {"file_search": 3}


def test_seed_default_caps(monkeypatch: pytest.MonkeyPatch) -> None:
    with OpenAIWireFake() as fake:
        client = fake.make_client()
    assert client.tool_budget.caps == {"file_search": 10, "web_search": 5}
    monkeypatch.setenv("TOOL_CAP_WEB_SEARCH_PER_RUN", "1")
    with OpenAIWireFake() as fake:
        client = fake.make_client()
    assert client.tool_budget.caps["web_search"] == 1


def test_endless_tool_loop_is_capped() -> None:
    with OpenAIWireFake() as fake:
        for i in range(3):
            fake.reply_tool_call("search_paper", {"query": str(i)})
        client = fake.make_client(max_tool_turns=3)
        with pytest.raises(LLMPolicyCapExceeded) as info:
            _ask(client, tools=[search_tool(cap_key=None)])
    assert info.value.code == "E_TOOL_TURNS_EXCEEDED"


def test_stream_text_yields_deltas_and_records_usage() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_stream_text(["The ", "paper ", "reproduces."], usage=(30, 3))
        client = fake.make_client()
        deltas = list(client.stream_text(role=Role.EXPLAINER, system="s", user="u"))
    assert deltas == ["The ", "paper ", "reproduces."]
    sent = fake.requests[0].json
    assert sent["stream"] is True and sent["stream_options"] == {"include_usage": True}
    [usage] = client.usage
    assert (usage.input_tokens, usage.output_tokens) == (30, 3)


def test_text_call() -> None:
    with OpenAIWireFake() as fake:
        fake.reply_text("A short explanation.")
        client = fake.make_client()
        result = client.text(role="explainer", system="s", user="u")
    assert result.raw_text == "A short explanation." and result.value is None


def test_reasoning_model_gets_no_temperature(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_PLANNER_MODEL", "o3-mini")
    with OpenAIWireFake() as fake:
        fake.reply_json(GOOD)
        client = fake.make_client()
        client.structured(role=Role.PLANNER, system="s", user="u", schema=ExtractorOutput)
    sent = fake.requests[0].json
    assert sent["model"] == "o3-mini" and "temperature" not in sent
    assert sent["max_completion_tokens"] == 4096


def test_openai_compatible_server_through_base_url() -> None:
    url = "http://llm.local:8000/v1/chat/completions"
    with OpenAIWireFake(url=url) as fake:
        fake.reply_json(GOOD)
        client = fake.make_client(provider="openai_compatible", openai_api_key=None,
                                  base_url="http://llm.local:8000/v1",
                                  models={"extractor": "qwen2.5-7b-instruct"})
        result = _ask(client)
    assert client.provider == "openai_compatible"
    assert result.value.claims
    sent = fake.requests[0].json
    assert sent["model"] == "qwen2.5-7b-instruct" and sent["max_tokens"] == 4096
    assert "parallel_tool_calls" not in sent
    assert client.usage_summary()["price_known"] is False


def test_api_key_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with OpenAIWireFake() as fake:
        fake.reply_status(429, headers={"Retry-After": "1"})
        fake.reply_status(401, message="Incorrect API key provided")
        client = fake.make_client(openai_api_key="sk-secret-123")
        with pytest.raises(LLMUnavailable) as info:
            _ask(client)
    assert info.value.code == "E_LLM_AUTH"
    assert "sk-secret-123" not in caplog.text
    assert "sk-secret-123" not in repr(client.config)
    assert "sk-secret-123" not in str(info.value)


def test_recorded_sse_stream_is_consumed_with_usage() -> None:
    from tests.fakes.llm_wire import FIXTURES

    body = (FIXTURES / "chat_completions_stream_tool_calls_parallel.sse").read_bytes()
    with OpenAIWireFake() as fake:
        fake.reply_raw(200, body, {"content-type": "text/event-stream"})
        client = fake.make_client()
        assert list(client.stream_text(role="explainer", system="s", user="u")) == []
    [usage] = client.usage
    assert (usage.input_tokens, usage.output_tokens) == (149, 60)


def test_clients_satisfy_the_protocol() -> None:
    from repro_assets.llm import LLMClient
    from tests.fakes.llm_wire import AnthropicWireFake

    with OpenAIWireFake() as fake:
        assert isinstance(fake.make_client(), LLMClient)
    with AnthropicWireFake() as fake:
        assert isinstance(fake.make_client(), LLMClient)
