"""Streamed structured turns of the Anthropic provider (``token`` events, issue #13 item 6).

With an event handler and ``stream_tokens`` the client asks the Messages API for SSE streams
(real SDK, wire-level fake speaking the API's event format): the answer's text reaches the
handler as it is written, and the result is the one the same script gives without streaming.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from repro_assets.llm import LLMUnavailable, Role
from tests.fakes.llm_wire import AnthropicWireFake
from tests.llm.helpers import GOOD, ExtractorOutput, search_tool


def _ask(client: Any, **kw: Any) -> Any:
    return client.structured(role=Role.EXTRACTOR, system="Extract claims.",
                             user="Paper text ...", schema=ExtractorOutput, **kw)


def _streaming(client: Any) -> list[tuple[str, dict[str, Any]]]:
    events: list[tuple[str, dict[str, Any]]] = []
    client.set_event_handler(lambda kind, data: events.append((kind, data)), stream_tokens=True)
    return events


def _tokens(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [data["delta"] for kind, data in events if kind == "token"]


def test_streamed_answer_arrives_as_tokens_and_equals_the_non_streamed_one() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json(GOOD, usage=(400, 60))
        fake.reply_json(GOOD, usage=(400, 60))
        plain = _ask(fake.make_client())
        client = fake.make_client()
        events = _streaming(client)
        streamed = _ask(client)
    assert "stream" not in fake.requests[0].json
    assert fake.requests[1].json["stream"] is True
    assert streamed.value == plain.value == ExtractorOutput.model_validate(GOOD)
    assert streamed.raw_text == plain.raw_text
    # the output tool's input is the answer: its JSON pieces are the tokens, in wire order
    tokens = _tokens(events)
    assert len(tokens) > 1 and "".join(tokens) == json.dumps(GOOD)
    assert [kind for kind, _ in events][-1] == "stream_end"
    [usage] = streamed.usage
    assert (usage.input_tokens, usage.output_tokens) == (400, 60)
    assert usage.cost_usd == plain.usage[0].cost_usd > 0


def test_tool_use_turns_stream_and_tool_inputs_are_not_tokens() -> None:
    queries: list[str] = []
    with AnthropicWireFake() as fake:
        fake.reply_tool_call("search_paper", {"query": "accuracy on SST-2"})
        fake.reply_json(GOOD)
        client = fake.make_client()
        events = _streaming(client)
        result = _ask(client, tools=[search_tool(queries)])
    assert queries == ["accuracy on SST-2"]
    assert result.value == ExtractorOutput.model_validate(GOOD)
    assert [r.json["stream"] for r in fake.requests] == [True, True]
    kinds = [kind for kind, _ in events]
    first_end = kinds.index("stream_end")
    assert kinds[first_end + 1] == "tool_call" and kinds.count("stream_end") == 2
    assert events[first_end + 1][1] == {"name": "search_paper",
                                        "arguments": {"query": "accuracy on SST-2"}}
    # the first turn's text is shown; the search input is a tool_call, never a token
    first_turn = "".join(_tokens(events[:first_end]))
    assert first_turn == "Let me look that up."
    assert "".join(_tokens(events[first_end:])) == json.dumps(GOOD)
    # the assembled assistant turn went back to the API with the tool input parsed
    assistant, tool_result = fake.requests[1].json["messages"][-2:]
    use = next(b for b in assistant["content"] if b["type"] == "tool_use")
    assert use["input"] == {"query": "accuracy on SST-2"} and use["name"] == "search_paper"
    assert assistant["content"][0] == {"type": "text", "text": "Let me look that up."}
    assert tool_result["content"][0]["tool_use_id"] == use["id"]
    assert len(result.usage) == 2


def test_streamed_reask_and_rate_limit_before_the_stream() -> None:
    with AnthropicWireFake() as fake:
        fake.reply_status(429, headers={"retry-after": "0"})
        fake.reply_malformed({"claims": [{"dataset_name": "SST-2"}]})
        fake.reply_json(GOOD)
        client = fake.make_client()
        _streaming(client)
        result = _ask(client)
    assert result.reasked and result.value == ExtractorOutput.model_validate(GOOD)
    assert [r.json["stream"] for r in fake.requests] == [True, True, True]
    [block] = fake.requests[2].json["messages"][-1]["content"]
    assert block["type"] == "tool_result" and block["is_error"] is True


@pytest.mark.parametrize("fault", [{"cut_after_events": 9}, {"cut_after_events": -1},
                                   {"error_after_events": 6}])
def test_a_stream_that_ends_before_message_stop_is_incomplete(fault: dict[str, int]) -> None:
    with AnthropicWireFake() as fake:
        fake.reply_json(GOOD, **fault)
        client = fake.make_client()
        events = _streaming(client)
        with pytest.raises(LLMUnavailable) as info:
            _ask(client)
    assert info.value.code == "E_LLM_STREAM_INCOMPLETE"
    assert len(fake.requests) == 1  # a broken answer is not silently asked again
    assert _tokens(events)  # what arrived was shown, but it is no result
