"""The Anthropic provider through the real ``anthropic`` SDK against the respx wire fake."""

from __future__ import annotations

import pytest

from repro_assets.llm import (
    LLMInvalidOutput,
    LLMPolicyCapExceeded,
    LLMRateLimited,
    LLMTimeout,
    Role,
)
from repro_assets.llm.base import OUTPUT_TOOL_NAME, REASK_TEMPLATE
from tests.fakes.llm_wire import FIXTURES, AnthropicWireFake
from tests.llm.helpers import GOOD, ExtractorOutput, search_tool


def _ask(client, **kw):
    return client.structured(role=Role.EXTRACTOR, system="Extract claims.",
                             user="Paper text ...", schema=ExtractorOutput, **kw)


def test_structured_success_forces_the_output_tool(no_network: None) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json(GOOD, usage=(400, 60))
        client = fake.make_client()
        result = _ask(client)
    assert result.value == ExtractorOutput.model_validate(GOOD)
    request = fake.requests[0]
    auth = request.headers.get("x-api-key") or request.headers.get("authorization", "")
    assert auth.endswith("sk-ant-test")
    sent = request.json
    assert sent["model"] == "claude-sonnet-4-20250514"
    assert sent["system"] == "Extract claims."
    assert sent["temperature"] == 0.1
    assert sent["tool_choice"] == {"type": "tool", "name": OUTPUT_TOOL_NAME}
    [tool] = sent["tools"]
    assert tool["name"] == OUTPUT_TOOL_NAME
    assert tool["input_schema"]["required"] == ["claims"]
    [usage] = result.usage
    assert (usage.provider, usage.input_tokens, usage.output_tokens) == ("anthropic", 400, 60)
    assert usage.cost_usd == pytest.approx((400 * 3 + 60 * 15) / 1e6)


def test_tool_use_then_output() -> None:
    queries: list[str] = []
    with AnthropicWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "accuracy"})
        fake.reply_json(GOOD)
        result = _ask(fake.make_client(), tools=[search_tool(queries)])
    assert queries == ["accuracy"]
    assert result.tool_calls[0].result[0]["page"] == 5
    first, second = (r.json for r in fake.requests)
    assert first["tool_choice"] == {"type": "any"}
    assert [t["name"] for t in first["tools"]] == ["search_paper", OUTPUT_TOOL_NAME]
    assistant, tool_result = second["messages"][-2:]
    use = next(b for b in assistant["content"] if b["type"] == "tool_use")
    assert tool_result["role"] == "user"
    assert tool_result["content"][0]["tool_use_id"] == use["id"]


def test_invalid_output_then_success_on_reask() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_malformed({"claims": [{"dataset_name": "SST-2"}]})
        fake.reply_json(GOOD)
        result = _ask(fake.make_client())
    assert result.reasked and result.value.claims
    last = fake.requests[1].json["messages"][-1]
    [block] = last["content"]
    assert block["type"] == "tool_result" and block["is_error"] is True
    assert block["content"].startswith(REASK_TEMPLATE.split("{schema}")[0])


def test_text_answer_is_parsed_and_malformed_twice_raises() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_text('```json\n{"claims": []}\n```')
        assert _ask(fake.make_client()).value.claims == []
    with AnthropicWireFake() as fake:
        fake.reply_malformed("I could not find claims")
        fake.reply_malformed("still no JSON")
        with pytest.raises(LLMInvalidOutput):
            _ask(fake.make_client())
    assert fake.requests[1].json["messages"][-1]["content"].startswith("Your response was")


def test_429_retry_after_then_success_and_give_up() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_status(429, headers={"retry-after": "3"})
        fake.reply_json(GOOD)
        client = fake.make_client(retry_after_scale=1.0, retry_wait_max_s=30.0)
        waits: list[float] = []
        client.sleep = waits.append
        assert _ask(client).value.claims
    assert waits == [3.0]
    with AnthropicWireFake() as fake:
        fake.reply_status(429).reply_status(429)
        with pytest.raises(LLMRateLimited):
            _ask(fake.make_client(retry_attempts=2))


def test_overloaded_then_timeout() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_status(529)
        fake.reply_json(GOOD)
        assert _ask(fake.make_client()).value.claims
    with AnthropicWireFake() as fake:
        fake.reply_timeout().reply_timeout()
        with pytest.raises(LLMTimeout):
            _ask(fake.make_client(retry_attempts=2))


def test_tool_cap() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_tool_calls([("search_paper", {"query": "a"}), ("search_paper", {"query": "b"})])
        with pytest.raises(LLMPolicyCapExceeded) as info:
            _ask(fake.make_client(tool_cap_file_search=1), tools=[search_tool()])
    assert info.value.code == "E_POLICY_CAP_EXCEEDED"


def test_stream_text_on_recorded_sse() -> None:
    recorded = FIXTURES / "messages_stream_text_and_tool_use.sse"
    with AnthropicWireFake() as fake:
        fake.reply_raw(200, recorded.read_bytes(), {"content-type": "text/event-stream"})
        fake.reply_stream_text(["Bon", "jour"], usage=(9, 2))
        client = fake.make_client()
        recorded_deltas = list(client.stream_text(role="explainer", system="s", user="u"))
        deltas = list(client.stream_text(role="explainer", system="s", user="u"))
    assert recorded_deltas == ["I", "'ll check the current weather in Paris for you."]
    assert deltas == ["Bon", "jour"]
    assert fake.requests[0].json["stream"] is True
    first, second = client.usage
    assert (first.input_tokens, first.output_tokens) == (377, 65)
    assert (second.input_tokens, second.output_tokens) == (9, 2)


def test_text_call_and_model_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REPRO_MODEL_EXPLAINER", "claude-opus-4-7")
    with AnthropicWireFake() as fake:
        fake.reply_text("Simple words.")
        client = fake.make_client()
        assert client.text(role="explainer", system="s", user="u").raw_text == "Simple words."
    sent = fake.requests[0].json
    assert sent["model"] == "claude-opus-4-7"
    assert "temperature" not in sent  # newer models reject sampling parameters
